#!/usr/bin/env node
// A small, faithful stand-in for the Claude Code TUI (vendors.md §1), run inside a real PTY by the tests.
// Same flags, store layout (projects/<enc cwd>/<id>.jsonl, sessions/<pid>.json, history.jsonl), error texts
// and exit codes as claude 2.1.332; a deterministic "remember the number N" model instead of the API.
// Node builtins only.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

const VERSION = '2.1.332';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DELAY_MS = Number(process.env.FAKE_CLAUDE_DELAY_MS ?? 50) || 0;

const configDir = process.env.CLAUDE_CONFIG_DIR || path.join(process.env.HOME || '/', '.claude');
const projectsDir = path.join(configDir, 'projects');
const sessionsDir = path.join(configDir, 'sessions');
const registryPath = path.join(sessionsDir, `${process.pid}.json`);
const cwd = fs.realpathSync(process.cwd());

function encodeCwd(p) {
  const enc = p.replace(/[^a-zA-Z0-9]/g, '-');
  if (enc.length <= 200) return enc;
  let h = 0;
  for (let i = 0; i < p.length; i++) h = ((h << 5) - h + p.charCodeAt(i)) | 0;
  return `${enc.slice(0, 200)}-${Math.abs(h).toString(36)}`;
}

function fail(message, code = 1) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

// ---------------------------------------------------------------- arguments
const opts = { version: false, sessionId: null, resume: null, picker: false, name: null, fork: false, cont: false };
{
  const argv = process.argv.slice(2);
  const takesValue = (a) => a !== undefined && !a.startsWith('-');
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i];
    let inline;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    if (eq > 0) {
      inline = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    const value = () => (inline !== undefined ? inline : argv[++i]);
    switch (a) {
      case '-v':
      case '--version':
        opts.version = true;
        break;
      case '--session-id': {
        const v = value();
        if (v === undefined) fail("error: option '--session-id <uuid>' argument missing");
        opts.sessionId = v;
        break;
      }
      case '-r':
      case '--resume':
        if (inline !== undefined) opts.resume = inline;
        else if (takesValue(argv[i + 1])) opts.resume = argv[++i];
        else opts.picker = true;
        break;
      case '-n':
      case '--name': {
        const v = value();
        if (v === undefined) fail(`error: option '-n, --name <name>' argument missing`);
        opts.name = v;
        break;
      }
      case '--fork-session':
        opts.fork = true;
        break;
      case '-c':
      case '--continue':
        opts.cont = true;
        break;
      default:
        break; // unknown flags and positionals (model flags, …) are ignored
    }
  }
}

if (opts.version) {
  process.stdout.write(`${VERSION} (Claude Code)\n`);
  process.exit(0);
}

// ---------------------------------------------------------------- store helpers
function findTranscript(id) {
  const direct = path.join(projectsDir, encodeCwd(cwd), `${id}.jsonl`);
  if (fs.existsSync(direct)) return direct;
  let dirs = [];
  try {
    dirs = fs.readdirSync(projectsDir);
  } catch {
    return null;
  }
  for (const d of dirs) {
    const p = path.join(projectsDir, d, `${id}.jsonl`);
    if (fs.existsSync(p)) return p;
  }
  return null;
}

function readLines(file) {
  const out = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      /* a torn last line */
    }
  }
  return out;
}

function allTranscripts() {
  const out = [];
  let dirs = [];
  try {
    dirs = fs.readdirSync(projectsDir);
  } catch {
    return out;
  }
  for (const d of dirs) {
    let files = [];
    try {
      files = fs.readdirSync(path.join(projectsDir, d));
    } catch {
      continue;
    }
    for (const f of files) {
      if (!f.endsWith('.jsonl')) continue;
      const p = path.join(projectsDir, d, f);
      try {
        out.push({ path: p, id: f.slice(0, -6), mtime: fs.statSync(p).mtimeMs });
      } catch {
        /* vanished */
      }
    }
  }
  return out.sort((a, b) => b.mtime - a.mtime);
}

function findByTitle(title) {
  for (const t of allTranscripts()) {
    const lines = readLines(t.path);
    if (lines.some((l) => l.type === 'custom-title' && l.customTitle === title)) return t;
  }
  return null;
}

function userText(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const texts = content.filter((b) => b && b.type === 'text' && typeof b.text === 'string').map((b) => b.text);
    return texts.length ? texts.join('\n') : null;
  }
  return null;
}

/** The live branch of a transcript: turns [{role, text}], its leaf uuid and its title. */
function loadConversation(file) {
  const lines = readLines(file);
  const byUuid = new Map();
  let leaf = null;
  let title = null;
  for (const l of lines) {
    if ((l.type === 'user' || l.type === 'assistant') && typeof l.uuid === 'string') {
      byUuid.set(l.uuid, l);
      leaf = l.uuid;
    }
    if (l.type === 'last-prompt' && typeof l.leafUuid === 'string') leaf = l.leafUuid;
    if (l.type === 'custom-title' && typeof l.customTitle === 'string') title = l.customTitle;
  }
  const chain = [];
  const seen = new Set();
  for (let u = leaf; u && byUuid.has(u) && !seen.has(u); u = byUuid.get(u).parentUuid) {
    seen.add(u);
    chain.unshift(byUuid.get(u));
  }
  const turns = [];
  for (const l of chain) {
    if (l.type === 'user' && !l.isMeta) {
      const text = userText(l.message?.content);
      if (text !== null) turns.push({ role: 'user', text });
    } else if (l.type === 'assistant') {
      const text = userText(l.message?.content);
      if (text !== null) turns.push({ role: 'assistant', text });
    }
  }
  return { turns, leaf: chain.length ? chain[chain.length - 1].uuid : null, title };
}

// ---------------------------------------------------------------- decide the session
if (opts.sessionId !== null && !UUID.test(opts.sessionId)) fail('Error: Invalid session ID. Must be a valid UUID.');
if (opts.sessionId !== null && (opts.resume !== null || opts.cont || opts.picker) && !opts.fork) {
  fail('Error: --session-id with --continue or --resume also needs --fork-session.');
}
if (opts.sessionId !== null && findTranscript(opts.sessionId.toLowerCase())) {
  fail(`Error: Session ID ${opts.sessionId} is already in use.`);
}

const state = {
  sessionId: opts.sessionId ? opts.sessionId.toLowerCase() : crypto.randomUUID(),
  transcript: null, // path once it exists
  turns: [],
  leaf: null,
  name: opts.name,
  picker: false,
  status: 'idle',
};
let resumedFrom = null;

async function chooseSession() {
  let source = null;
  if (opts.resume !== null) {
    if (UUID.test(opts.resume)) {
      const p = findTranscript(opts.resume.toLowerCase());
      if (!p) {
        await new Promise((r) => setTimeout(r, 300));
        fail(`No conversation found with session ID: ${opts.resume}`);
      }
      source = { path: p, id: opts.resume.toLowerCase() };
    } else {
      const t = findByTitle(opts.resume);
      if (t) source = t;
      else state.picker = true;
    }
  } else if (opts.cont) {
    const here = path.join(projectsDir, encodeCwd(cwd));
    source = allTranscripts().find((t) => path.dirname(t.path) === here) ?? null;
    if (!source) fail('No conversation found to continue');
  } else if (opts.picker) {
    state.picker = true;
  }
  if (source) {
    const conv = loadConversation(source.path);
    state.turns = conv.turns;
    state.leaf = conv.leaf;
    if (state.name === null) state.name = conv.title;
    if (opts.fork) {
      resumedFrom = source.id;
      state.leaf = null; // the fork starts its own file; its first prompt copies nothing, the turns are remembered
      if (opts.sessionId === null) state.sessionId = crypto.randomUUID();
    } else {
      state.sessionId = source.id;
      state.transcript = source.path;
    }
  }
}

// ---------------------------------------------------------------- live registry
const startedAt = Date.now();
const procStart = (() => {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? String(startedAt);
  } catch {
    return String(startedAt);
  }
})();

function writeRegistry() {
  const now = Date.now();
  const rec = {
    pid: process.pid,
    sessionId: state.sessionId,
    cwd,
    startedAt,
    procStart,
    version: VERSION,
    peerProtocol: 1,
    kind: 'interactive',
    entrypoint: 'cli',
    name: state.name,
    ...(state.name !== null ? { nameSource: 'user' } : {}),
    status: state.status,
    updatedAt: now,
    statusUpdatedAt: now,
  };
  fs.mkdirSync(sessionsDir, { recursive: true });
  const tmp = `${registryPath}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(rec));
  fs.renameSync(tmp, registryPath);
}

function removeRegistry() {
  try {
    fs.unlinkSync(registryPath);
  } catch {
    /* already gone */
  }
}

function exitClean(code) {
  removeRegistry();
  if (process.stdin.isTTY) {
    try {
      process.stdin.setRawMode(false);
    } catch {
      /* the terminal is gone */
    }
  }
  process.exit(code);
}

// ---------------------------------------------------------------- transcript writing
function append(file, obj) {
  fs.appendFileSync(file, `${JSON.stringify(obj)}\n`);
}

function envelope() {
  return {
    userType: 'external',
    entrypoint: 'cli',
    cwd,
    sessionId: state.sessionId,
    version: VERSION,
    gitBranch: '',
  };
}

function ensureTranscript() {
  if (state.transcript) {
    if (opts.name !== null && !state.namedInFile) {
      append(state.transcript, { type: 'custom-title', customTitle: opts.name, sessionId: state.sessionId });
      append(state.transcript, { type: 'agent-name', agentName: opts.name, sessionId: state.sessionId });
      state.namedInFile = true;
    }
    return state.transcript;
  }
  const dir = path.join(projectsDir, encodeCwd(cwd));
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${state.sessionId}.jsonl`);
  if (state.name !== null) {
    append(file, { type: 'custom-title', customTitle: state.name, sessionId: state.sessionId });
    append(file, { type: 'agent-name', agentName: state.name, sessionId: state.sessionId });
    state.namedInFile = true;
  }
  append(file, { type: 'permission-mode', permissionMode: 'default', sessionId: state.sessionId });
  state.transcript = file;
  return file;
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

// ---------------------------------------------------------------- screen
const out = (s) => process.stdout.write(s);
const oneLine = (s) => s.replace(/\r\n|\r|\n/g, ' ');
let buf = '';
let promptShown = false;

function drawPrompt() {
  // prompt line, footer below it, cursor back at the end of the prompt line
  const shown = oneLine(buf);
  out(`\r\x1b[2K❯ ${shown}\r\n\x1b[2K? for shortcuts\x1b[1A\r\x1b[${2 + [...shown].length}C`);
  promptShown = true;
}

function redrawInput() {
  const shown = oneLine(buf);
  out(`\r\x1b[2K❯ ${shown}`);
}

function clearPrompt() {
  if (!promptShown) return;
  out('\r\x1b[2K\x1b[1B\x1b[2K\x1b[1A\r');
  promptShown = false;
}

function printLine(s) {
  out(`${s}\r\n`);
}

function printHeader() {
  printLine('Claude Code (fake) v' + VERSION);
  printLine(cwd);
  printLine('');
}

function printTurns() {
  for (const t of state.turns) {
    if (t.role === 'user') printLine(`> ${oneLine(t.text)}`);
    else {
      printLine(`⏺ ${oneLine(t.text)}`);
      printLine('');
    }
  }
}

function showPicker() {
  printLine('Resume session');
  printLine(`  Search: ${opts.resume ?? ''}`);
  printLine('  No sessions match');
  printLine('');
  printLine('Esc to cancel');
}

// ---------------------------------------------------------------- prompts
const queue = [];
let working = false;

async function runQueue() {
  if (working) return;
  working = true;
  while (queue.length) {
    const text = queue.shift();
    await handlePrompt(text);
  }
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
    if (name === 'exit' || name === 'quit') {
      printLine(`> ${text}`);
      printLine('Resume this session with:');
      printLine(`claude --resume ${state.sessionId}`);
      exitClean(0);
      return;
    }
    if (name === 'clear' || name === 'reset' || name === 'new') {
      state.sessionId = crypto.randomUUID();
      state.transcript = null;
      state.turns = [];
      state.leaf = null;
      state.namedInFile = false;
      writeRegistry();
      out('\x1b[2J\x1b[3J\x1b[H');
      printHeader();
      printLine('(no content)');
      drawPrompt();
      return;
    }
    printLine(`> ${text}`);
    printLine(`Unknown slash command: ${name}`);
    drawPrompt();
    return;
  }

  printLine(`> ${oneLine(text)}`);
  state.status = 'busy';
  writeRegistry();
  const file = ensureTranscript();
  const userUuid = crypto.randomUUID();
  append(file, {
    parentUuid: state.leaf,
    isSidechain: false,
    promptId: crypto.randomUUID(),
    type: 'user',
    message: { role: 'user', content: text },
    uuid: userUuid,
    timestamp: new Date().toISOString(),
    permissionMode: 'default',
    promptSource: 'typed',
    ...envelope(),
  });
  fs.mkdirSync(configDir, { recursive: true });
  append(path.join(configDir, 'history.jsonl'), {
    display: text,
    pastedContents: {},
    timestamp: Date.now(),
    project: cwd,
    sessionId: state.sessionId,
  });
  state.turns.push({ role: 'user', text });
  state.leaf = userUuid;

  if (DELAY_MS > 0) await new Promise((r) => setTimeout(r, DELAY_MS));

  const answer = answerFor(state.turns.filter((t) => t.role === 'user').map((t) => t.text));
  const asstUuid = crypto.randomUUID();
  append(file, {
    parentUuid: userUuid,
    isSidechain: false,
    message: {
      id: `msg_01Fake${crypto.randomBytes(8).toString('hex')}`,
      type: 'message',
      role: 'assistant',
      model: 'claude-fake',
      content: [{ type: 'text', text: answer }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 5 },
    },
    requestId: `req_011Fake${crypto.randomBytes(8).toString('hex')}`,
    type: 'assistant',
    uuid: asstUuid,
    timestamp: new Date().toISOString(),
    ...envelope(),
  });
  append(file, { type: 'last-prompt', lastPrompt: text, leafUuid: asstUuid, sessionId: state.sessionId });
  state.turns.push({ role: 'assistant', text: answer });
  state.leaf = asstUuid;
  state.status = 'idle';
  writeRegistry();

  printLine(`⏺ ${answer}`);
  printLine('');
  drawPrompt();
}

// ---------------------------------------------------------------- input
let ctrlPending = null; // 'c' or 'd' after a first Ctrl-C / Ctrl-D
let esc = null; // null | 'esc' | 'csi' | 'ss3'
let csiParams = '';
let pasting = false;
let pasteBuf = '';

function ctrlExit(which, label) {
  if (ctrlPending === which) exitClean(0);
  ctrlPending = which;
  buf = '';
  if (state.picker) {
    printLine(`Press ${label} again to exit`);
    return;
  }
  clearPrompt();
  printLine(`Press ${label} again to exit`);
  drawPrompt();
}

function onCsi(params, final) {
  if (final === '~' && params === '200') {
    pasting = true;
    pasteBuf = '';
  }
  // every other sequence (arrows, focus, …) is ignored
}

function onInput(data) {
  let changed = false;
  for (const ch of data) {
    if (pasting) {
      pasteBuf += ch;
      if (pasteBuf.endsWith('\x1b[201~')) {
        pasting = false;
        const text = pasteBuf.slice(0, -6).replace(/\r\n|\r/g, '\n');
        pasteBuf = '';
        if (!state.picker) {
          buf += text;
          changed = true;
        }
      }
      continue;
    }
    if (esc === 'esc') {
      if (ch === '[') {
        esc = 'csi';
        csiParams = '';
      } else if (ch === 'O') esc = 'ss3';
      else esc = null; // Alt+key or a lone Esc: ignored
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
        onCsi(csiParams, ch);
      } else csiParams += ch;
      continue;
    }
    if (ch === '\x1b') {
      esc = 'esc';
      continue;
    }
    if (ch === '\x03') {
      ctrlExit('c', 'Ctrl-C');
      continue;
    }
    if (ch === '\x04') {
      ctrlExit('d', 'Ctrl-D');
      continue;
    }
    ctrlPending = null;
    if (state.picker) continue; // the picker has no matches to choose from
    if (ch === '\r') {
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
      buf += '\n'; // Ctrl-J: a newline in the prompt
      changed = true;
      continue;
    }
    if (ch.charCodeAt(0) < 0x20) continue;
    buf += ch;
    changed = true;
  }
  if (changed && !working) redrawInput();
}

// ---------------------------------------------------------------- main
await chooseSession();
writeRegistry();

for (const sig of ['SIGTERM', 'SIGHUP']) process.on(sig, () => exitClean(sig === 'SIGTERM' ? 143 : 129));
process.on('SIGINT', () => ctrlExit('c', 'Ctrl-C'));

if (process.stdin.isTTY) process.stdin.setRawMode(true);
process.stdin.setEncoding('utf8');
process.stdin.on('data', onInput);
process.stdin.on('end', () => exitClean(0));
process.stdin.resume();

printHeader();
if (resumedFrom) printLine(`(forked from ${resumedFrom})`);
if (state.picker) showPicker();
else {
  printTurns();
  drawPrompt();
}
