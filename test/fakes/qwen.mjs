#!/usr/bin/env node
// A small, faithful stand-in for the Qwen Code TUI (vendors.md §5), run inside a real PTY by the tests.
// Same flags, store layout (${QWEN_HOME:-~/.qwen}/projects/<enc cwd>/chats/<id>.jsonl written at the first prompt,
// <id>.runtime.json sidecar shortly after start), error texts and exit codes as qwen 0.24.4; a deterministic
// "remember the number N" model instead of the API. A positional prompt is one-shot (answer, exit), as in the
// real CLI. Node builtins only.
//
// Like its Gemini parent, an Enter that follows typed keys too closely is taken as part of a paste: it becomes
// a newline in the box (FAKE_QWEN_PASTE_WINDOW_MS, default 100; 0 turns it off).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';

const VERSION = '0.24.4';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DELAY_MS = Number(process.env.FAKE_QWEN_DELAY_MS ?? 50) || 0;
const PASTE_WINDOW_MS = Number(process.env.FAKE_QWEN_PASTE_WINDOW_MS ?? 100) || 0;
const RUNTIME_DELAY_MS = Number(process.env.FAKE_QWEN_RUNTIME_DELAY_MS ?? 200) || 0;
const READY = 'Type your message or @path/to/file';

const qwenHome = process.env.QWEN_HOME || path.join(process.env.HOME || '/', '.qwen');
const cwd = fs.realpathSync(process.cwd());
const chatsDir = path.join(qwenHome, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'), 'chats');

function fail(message, code = 1) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

// ---------------------------------------------------------------- arguments
const VALUE_FLAGS = new Set([
  '--telemetry-target', '--telemetry-otlp-endpoint', '--telemetry-otlp-protocol', '--telemetry-outfile', '--proxy',
  '-m', '--model', '--fallback-model', '--system-prompt', '--append-system-prompt', '--output-style', '--sandbox-image',
  '--approval-mode', '--channel', '--allowed-mcp-server-names', '--mcp-config', '--allowed-tools', '-e', '--extensions',
  '--include-directories', '--add-dir', '--openai-logging-dir', '--openai-api-key', '--openai-base-url', '--input-format',
  '-o', '--output-format', '--json-fd', '--json-file', '--json-schema', '--input-file', '--max-session-turns',
  '--max-wall-time', '--max-tool-calls', '--max-subagent-depth', '--core-tools', '--exclude-tools',
  '--disabled-slash-commands', '--auth-type',
]);
const opts = { version: false, sessionId: null, resume: null, picker: false, cont: false, fork: false, prompt: null, interactive: null, query: [], record: true };
{
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    let inline;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    if (eq > 0) {
      inline = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    const value = () => {
      if (inline !== undefined) return inline;
      const v = argv[i + 1];
      if (v === undefined) fail(`Not enough arguments following: ${a.replace(/^-+/, '')}`);
      i++;
      return v;
    };
    switch (a) {
      case '-v':
      case '--version':
        opts.version = true;
        break;
      case '--session-id':
        opts.sessionId = value();
        break;
      case '-r':
      case '--resume':
        if (inline !== undefined) opts.resume = inline;
        else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('-')) opts.resume = argv[++i];
        else opts.picker = true;
        break;
      case '-c':
      case '--continue':
        opts.cont = true;
        break;
      case '--fork-session':
        opts.fork = true;
        break;
      case '-p':
      case '--prompt':
        opts.prompt = value();
        break;
      case '-i':
      case '--prompt-interactive':
        opts.interactive = value();
        break;
      case '--chat-recording':
        if (inline !== undefined) opts.record = inline !== 'false';
        else if (argv[i + 1] === 'false' || argv[i + 1] === 'true') opts.record = argv[++i] === 'true';
        break;
      case '--no-chat-recording':
        opts.record = false;
        break;
      default:
        if (VALUE_FLAGS.has(a)) value();
        else if (!a.startsWith('-')) opts.query.push(a);
        break; // other flags are ignored
    }
  }
}

if (opts.version) {
  process.stdout.write(`${VERSION}\n`);
  process.exit(0);
}

// ---------------------------------------------------------------- store helpers
const transcriptOf = (id) => path.join(chatsDir, `${id}.jsonl`);
const runtimeOf = (id) => path.join(chatsDir, `${id}.runtime.json`);

function readLines(file) {
  const out = [];
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return out;
  }
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      /* a torn last line */
    }
  }
  return out;
}

const partsText = (m) => (Array.isArray(m?.parts) ? m.parts.filter((p) => typeof p?.text === 'string').map((p) => p.text).join('\n') : '');

function loadTurns(id) {
  const turns = [];
  let leaf = null;
  for (const l of readLines(transcriptOf(id))) {
    if (typeof l.uuid === 'string') leaf = l.uuid;
    if (l.type === 'user' && (l.provenance === undefined || l.provenance === 'real_user')) turns.push({ role: 'user', text: partsText(l.message) });
    if (l.type === 'assistant') turns.push({ role: 'model', text: partsText(l.message) });
  }
  return { turns, leaf };
}

function latestHere() {
  let names = [];
  try {
    names = fs.readdirSync(chatsDir);
  } catch {
    return null;
  }
  const ids = names
    .filter((n) => n.endsWith('.jsonl'))
    .map((n) => ({ id: n.slice(0, -6), mtime: fs.statSync(path.join(chatsDir, n)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  return ids[0]?.id ?? null;
}

// ---------------------------------------------------------------- decide the session
if (opts.sessionId !== null && (opts.resume !== null || opts.cont || opts.picker)) {
  fail('Cannot use --session-id with --continue or --resume. Use --fork-session to continue under a new session id.');
}
if (opts.sessionId !== null && !UUID.test(opts.sessionId)) {
  fail(`Invalid --session-id: "${opts.sessionId}". Must be a valid UUID (e.g., "123e4567-e89b-12d3-a456-426614174000").`);
}
if (opts.sessionId !== null && fs.existsSync(transcriptOf(opts.sessionId.toLowerCase()))) {
  fail(`Error: Session Id ${opts.sessionId} already exists (active or archived). Delete or unarchive it first.`);
}

const state = { sessionId: null, turns: [], leaf: null, picker: false };

if (opts.resume !== null) {
  if (!UUID.test(opts.resume)) fail(`No saved session found with title "${opts.resume}".`);
  const id = opts.resume.toLowerCase();
  if (!fs.existsSync(transcriptOf(id))) {
    fail(`No saved session found with ID ${opts.resume}. Run \`qwen --resume\` without an ID to choose from existing sessions.`);
  }
  const loaded = loadTurns(id);
  state.turns = loaded.turns;
  state.sessionId = opts.fork ? crypto.randomUUID() : id;
  state.leaf = opts.fork ? null : loaded.leaf;
} else if (opts.cont) {
  const id = latestHere();
  if (!id) fail('No previous sessions found for this project.');
  const loaded = loadTurns(id);
  state.turns = loaded.turns;
  state.sessionId = opts.fork ? crypto.randomUUID() : id;
  state.leaf = opts.fork ? null : loaded.leaf;
} else if (opts.picker) {
  state.picker = true;
} else {
  state.sessionId = opts.sessionId ? opts.sessionId.toLowerCase() : crypto.randomUUID();
}

// ---------------------------------------------------------------- transcript writing
function append(obj) {
  if (!opts.record) return;
  fs.mkdirSync(chatsDir, { recursive: true });
  fs.appendFileSync(transcriptOf(state.sessionId), `${JSON.stringify(obj)}\n`);
}

function answerFor(texts) {
  const re = /remember the number (\d+)/i;
  const last = texts[texts.length - 1] ?? '';
  const now = re.exec(last);
  if (now) return `OK, I will remember ${now[1]}.`;
  for (let i = texts.length - 2; i >= 0; i--) {
    const m = re.exec(texts[i]);
    if (m) return `The number is ${m[1]}.`;
  }
  return 'I do not know any number.';
}

async function converse(text) {
  const userUuid = crypto.randomUUID();
  append({
    uuid: userUuid,
    parentUuid: state.leaf,
    sessionId: state.sessionId,
    timestamp: new Date().toISOString(),
    type: 'user',
    provenance: 'real_user',
    cwd,
    version: VERSION,
    message: { role: 'user', parts: [{ text }] },
  });
  state.leaf = userUuid;
  state.turns.push({ role: 'user', text });
  if (DELAY_MS > 0) await new Promise((r) => setTimeout(r, DELAY_MS));
  const answer = answerFor(state.turns.filter((t) => t.role === 'user').map((t) => t.text));
  const asstUuid = crypto.randomUUID();
  append({
    uuid: asstUuid,
    parentUuid: userUuid,
    sessionId: state.sessionId,
    timestamp: new Date().toISOString(),
    type: 'assistant',
    provenance: 'assistant_output',
    cwd,
    version: VERSION,
    model: 'fake-model',
    message: { role: 'model', parts: [{ text: answer }] },
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
  });
  state.leaf = asstUuid;
  state.turns.push({ role: 'model', text: answer });
  return answer;
}

// ---------------------------------------------------------------- one-shot: a positional prompt or -p
if (opts.prompt !== null || (opts.query.length > 0 && opts.interactive === null)) {
  if (state.picker) state.sessionId = crypto.randomUUID();
  const text = [opts.prompt, ...opts.query].filter((t) => t !== null).join(' ');
  const answer = await converse(text);
  process.stdout.write(`${answer}\n`);
  process.exit(0);
}

// ---------------------------------------------------------------- live sidecar
function writeRuntime() {
  if (state.sessionId === null) return;
  fs.mkdirSync(chatsDir, { recursive: true });
  const rec = {
    schema_version: 1,
    pid: process.pid,
    session_id: state.sessionId,
    work_dir: cwd,
    hostname: os.hostname(),
    started_at: Date.now() / 1000,
    qwen_version: VERSION,
  };
  const file = runtimeOf(state.sessionId);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(rec, null, 2)}\n`);
  fs.renameSync(tmp, file);
}

function removeRuntime() {
  if (state.sessionId === null) return;
  try {
    fs.unlinkSync(runtimeOf(state.sessionId));
  } catch {
    /* never written */
  }
}

// ---------------------------------------------------------------- screen
const out = (s) => process.stdout.write(s);
const oneLine = (s) => s.replace(/\r\n|\r|\n/g, ' ');
let buf = '';
let promptShown = false;

function drawPrompt() {
  const shown = oneLine(buf);
  out(`\r\x1b[2K> ${shown}\r\n\x1b[2K  ${READY}\x1b[1A\r\x1b[${2 + [...shown].length}C`);
  promptShown = true;
}

function redrawInput() {
  out(`\r\x1b[2K> ${oneLine(buf)}`);
}

function clearPrompt() {
  if (!promptShown) return;
  out('\r\x1b[2K\x1b[1B\x1b[2K\x1b[1A\r');
  promptShown = false;
}

const printLine = (s) => out(`${s}\r\n`);

function printHeader() {
  printLine(`Qwen Code (fake) v${VERSION}`);
  printLine(cwd);
  printLine('');
}

function printTurns() {
  for (const t of state.turns) {
    if (t.role === 'user') printLine(`> ${oneLine(t.text)}`);
    else {
      printLine(`✦ ${oneLine(t.text)}`);
      printLine('');
    }
  }
}

function exitClean(code) {
  if (process.stdin.isTTY) {
    try {
      process.stdin.setRawMode(false);
    } catch {
      /* the terminal is gone */
    }
  }
  process.exit(code);
}

// ---------------------------------------------------------------- prompts
const queue = [];
let working = false;

async function runQueue() {
  if (working) return;
  working = true;
  while (queue.length) await handlePrompt(queue.shift());
  working = false;
}

async function handlePrompt(raw) {
  const text = raw.trim();
  if (text === '') {
    drawPrompt();
    return;
  }
  clearPrompt();
  const command = /^\/([A-Za-z][\w-]*)\s*$/.exec(text);
  if (command) {
    const name = command[1];
    printLine(`> ${text}`);
    if (name === 'quit' || name === 'exit') {
      printLine(`To continue this session, run qwen --resume ${state.sessionId}`);
      removeRuntime();
      exitClean(0);
      return;
    }
    printLine(`Unknown command: /${name}`);
    drawPrompt();
    return;
  }
  printLine(`> ${oneLine(text)}`);
  const answer = await converse(text);
  printLine(`✦ ${answer}`);
  printLine('');
  drawPrompt();
}

// ---------------------------------------------------------------- input
let ctrlPending = null;
let esc = null;
let csiParams = '';
let pasting = false;
let pasteBuf = '';
let lastKeyAt = 0;

function ctrlExit(which, label) {
  if (ctrlPending === which) {
    removeRuntime();
    exitClean(0);
  }
  ctrlPending = which;
  buf = '';
  clearPrompt();
  printLine(`Press ${label} again to exit.`);
  if (!state.picker) drawPrompt();
}

function onInput(data) {
  let changed = false;
  for (const ch of data) {
    if (pasting) {
      pasteBuf += ch;
      if (pasteBuf.endsWith('\x1b[201~')) {
        pasting = false;
        buf += pasteBuf.slice(0, -6).replace(/\r\n|\r/g, '\n');
        pasteBuf = '';
        changed = true;
      }
      continue;
    }
    if (esc === 'esc') {
      if (ch === '[') {
        esc = 'csi';
        csiParams = '';
      } else if (ch === 'O') esc = 'ss3';
      else esc = null;
      continue;
    }
    if (esc === 'ss3') {
      esc = null;
      continue;
    }
    if (esc === 'csi') {
      const c = ch.charCodeAt(0);
      if (c >= 0x40 && c <= 0x7e) {
        esc = null;
        if (ch === '~' && csiParams === '200') {
          pasting = true;
          pasteBuf = '';
        }
      } else csiParams += ch;
      continue;
    }
    if (ch === '\x1b') {
      esc = 'esc';
      continue;
    }
    if (ch === '\x03') {
      ctrlExit('c', 'Ctrl+C');
      continue;
    }
    if (ch === '\x04') {
      ctrlExit('d', 'Ctrl+D');
      continue;
    }
    ctrlPending = null;
    if (state.picker) continue;
    if (ch === '\r') {
      if (PASTE_WINDOW_MS > 0 && Date.now() - lastKeyAt < PASTE_WINDOW_MS) {
        buf += '\n'; // too close behind the keys: part of a paste
        changed = true;
        continue;
      }
      const line = buf;
      buf = '';
      if (changed) redrawInput();
      changed = false;
      queue.push(line);
      void runQueue();
      continue;
    }
    if (ch === '\x7f' || ch === '\b') {
      const chars = [...buf];
      chars.pop();
      buf = chars.join('');
      changed = true;
      continue;
    }
    if (ch === '\n') {
      buf += '\n';
      changed = true;
      continue;
    }
    if (ch.charCodeAt(0) < 0x20) continue;
    buf += ch;
    lastKeyAt = Date.now();
    changed = true;
  }
  if (changed && !working) redrawInput();
}

// ---------------------------------------------------------------- main
// The sidecar survives SIGTERM and SIGKILL (stale unless its pid lives); only a clean quit removes it.
for (const sig of ['SIGTERM', 'SIGHUP']) process.on(sig, () => exitClean(sig === 'SIGTERM' ? 143 : 129));
process.on('SIGINT', () => ctrlExit('c', 'Ctrl+C'));

if (process.stdin.isTTY) process.stdin.setRawMode(true);
process.stdin.setEncoding('utf8');
process.stdin.on('data', onInput);
process.stdin.on('end', () => exitClean(0));
process.stdin.resume();

printHeader();
if (state.picker) {
  printLine('Resume Session');
  printLine('  No sessions found for this project.');
  printLine('Esc to cancel');
} else {
  setTimeout(writeRuntime, RUNTIME_DELAY_MS).unref();
  printTurns();
  drawPrompt();
  if (opts.interactive !== null) {
    queue.push(opts.interactive);
    void runQueue();
  }
}
