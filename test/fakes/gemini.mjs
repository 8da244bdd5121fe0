#!/usr/bin/env node
// A small, faithful stand-in for the Gemini CLI TUI (vendors.md §3), run inside a real PTY by the tests.
// Same flags, store layout (projects.json + .project_root markers, tmp/<slug>/chats/session-<UTC minute>-<id8>.jsonl
// written at the first message), error texts and exit codes as gemini 0.61.0; a deterministic
// "remember the number N" model instead of the API. Node builtins only.
//
// Like the real TUI, an Enter that follows typed keys too closely is taken as part of a paste: it becomes a
// newline in the box and nothing is submitted (FAKE_GEMINI_PASTE_WINDOW_MS, default 300; 0 turns it off).
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

const VERSION = '0.61.0';
const DELAY_MS = Number(process.env.FAKE_GEMINI_DELAY_MS ?? 50) || 0;
const PASTE_WINDOW_MS = Number(process.env.FAKE_GEMINI_PASTE_WINDOW_MS ?? 300) || 0;
const READY = 'Type your message or @path/to/file';

const home = process.env.GEMINI_CLI_HOME || process.env.HOME || '/';
const geminiDir = path.join(home, '.gemini');
const projectsJson = path.join(geminiDir, 'projects.json');
const cwd = fs.realpathSync(process.cwd());

function fail(message, code = 42) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

// ---------------------------------------------------------------- arguments
const VALUE_FLAGS = new Set([
  '-m', '--model', '-p', '--prompt', '-i', '--prompt-interactive', '-w', '--worktree', '--approval-mode', '--policy',
  '--admin-policy', '--allowed-mcp-server-names', '--allowed-tools', '-e', '--extensions', '-r', '--resume',
  '--session-file', '--session-id', '--delete-session', '--include-directories', '-o', '--output-format',
]);
const opts = { version: false, sessionId: null, resume: null, list: false, prompt: null, interactive: null, query: [] };
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
      if (v === undefined) fail(`Not enough arguments following: ${a.replace(/^-+/, '')}`, 1);
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
        opts.resume = value();
        break;
      case '--list-sessions':
        opts.list = true;
        break;
      case '-p':
      case '--prompt':
        opts.prompt = value();
        break;
      case '-i':
      case '--prompt-interactive':
        opts.interactive = value();
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

// ---------------------------------------------------------------- project registration
function readJson(p) {
  try {
    return JSON.parse(fs.readFileSync(p, 'utf8'));
  } catch {
    return null;
  }
}

function writeAtomic(p, text) {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  const tmp = `${p}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, p);
}

function baseSlug(dir) {
  const s = path
    .basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return s || 'project';
}

function markerOwner(slug) {
  try {
    return fs.readFileSync(path.join(geminiDir, 'tmp', slug, '.project_root'), 'utf8').trim();
  } catch {
    return null;
  }
}

/** The project's slug: from projects.json, else a new one (basename; collisions get -1, -2, …), registered. */
function registerProject() {
  const json = readJson(projectsJson) ?? {};
  const projects = json.projects && typeof json.projects === 'object' ? json.projects : {};
  let slug = projects[cwd];
  if (typeof slug !== 'string') {
    const taken = new Set(Object.values(projects));
    const base = baseSlug(cwd);
    slug = base;
    for (let n = 1; taken.has(slug) || (markerOwner(slug) !== null && markerOwner(slug) !== cwd); n++) slug = `${base}-${n}`;
    const latest = readJson(projectsJson) ?? {};
    writeAtomic(projectsJson, `${JSON.stringify({ ...latest, projects: { ...(latest.projects ?? {}), [cwd]: slug } }, null, 2)}\n`);
  }
  for (const kind of ['tmp', 'history']) {
    const marker = path.join(geminiDir, kind, slug, '.project_root');
    if (!fs.existsSync(marker)) writeAtomic(marker, cwd);
  }
  return slug;
}

const slug = registerProject();
const chatsDir = path.join(geminiDir, 'tmp', slug, 'chats');
const projectHash = crypto.createHash('sha256').update(cwd).digest('hex');

// ---------------------------------------------------------------- store helpers
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

function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.filter((p) => p && typeof p.text === 'string').map((p) => p.text).join('\n');
  return '';
}

/** A chat file: its header and its messages after $set/$rewindTo. */
function loadChat(file) {
  const lines = readLines(file);
  const meta = lines[0];
  if (!meta || typeof meta.sessionId !== 'string') return null;
  let messages = [];
  let summary = null;
  for (const l of lines.slice(1)) {
    if (l.$set) {
      if (Array.isArray(l.$set.messages)) messages = l.$set.messages.filter((m) => m.type === 'user' || m.type === 'gemini');
      if (typeof l.$set.summary === 'string') summary = l.$set.summary;
    } else if (typeof l.$rewindTo === 'string') {
      const at = messages.findIndex((m) => m.id === l.$rewindTo);
      if (at >= 0) messages = messages.slice(0, at);
    } else if (l.type === 'user' || l.type === 'gemini') messages.push(l);
  }
  return { file, meta, messages, summary, mtime: fs.statSync(file).mtimeMs };
}

/** This project's sessions, one per id (the file with messages wins), oldest first. */
function projectSessions() {
  let names = [];
  try {
    names = fs.readdirSync(chatsDir);
  } catch {
    return [];
  }
  const byId = new Map();
  for (const n of names) {
    if (!/^session-.+\.jsonl$/.test(n)) continue;
    const chat = loadChat(path.join(chatsDir, n));
    if (!chat || (chat.meta.kind && chat.meta.kind !== 'main')) continue;
    const prev = byId.get(chat.meta.sessionId);
    if (!prev || (prev.messages.length === 0 && chat.messages.length > 0)) byId.set(chat.meta.sessionId, chat);
  }
  return [...byId.values()].sort((a, b) => String(a.meta.startTime).localeCompare(String(b.meta.startTime)));
}

function anyFileFor(id) {
  let names = [];
  try {
    names = fs.readdirSync(chatsDir);
  } catch {
    return false;
  }
  return names.some((n) => /^session-.+\.jsonl$/.test(n) && loadChat(path.join(chatsDir, n))?.meta.sessionId === id);
}

// ---------------------------------------------------------------- decide the session
if (opts.list) {
  const sessions = projectSessions().filter((s) => s.messages.length > 0);
  if (sessions.length === 0) {
    process.stdout.write('No previous sessions found for this project.\n');
    process.exit(0);
  }
  process.stdout.write(`Available sessions for this project (${sessions.length}):\n`);
  sessions.forEach((s, i) => {
    const first = s.messages.find((m) => m.type === 'user');
    process.stdout.write(`  ${i + 1}. ${s.summary ?? textOf(first?.content)} [${s.meta.sessionId}]\n`);
  });
  process.exit(0);
}

const state = { sessionId: null, file: null, turns: [], summarised: false };

if (opts.resume !== null) {
  const sessions = projectSessions();
  if (sessions.length === 0) fail('Error resuming session: No previous sessions found for this project.');
  let chosen = null;
  const r = opts.resume;
  if (r === 'latest' || r === '') chosen = [...sessions].sort((a, b) => b.mtime - a.mtime)[0];
  else if (/^\d+$/.test(r)) chosen = sessions[Number(r) - 1] ?? null;
  else chosen = sessions.find((s) => s.meta.sessionId === r) ?? null;
  if (!chosen) {
    fail(
      `Error resuming session: Invalid session identifier "${r}".\n` +
        `  Searched for sessions in ${chatsDir}.\n` +
        '  Use --list-sessions to see available sessions, then use --resume {number}, --resume {uuid}, or --resume latest.',
    );
  }
  state.sessionId = chosen.meta.sessionId;
  state.file = chosen.file;
  for (const m of chosen.messages) {
    const text = textOf(m.content);
    if (m.type === 'user' && text.trimStart().startsWith('<session_context>')) continue;
    state.turns.push({ role: m.type === 'user' ? 'user' : 'model', text });
  }
  state.summarised = chosen.summary !== null;
} else if (opts.sessionId !== null) {
  if (anyFileFor(opts.sessionId)) {
    fail(`Error starting session: Session ID "${opts.sessionId}" already exists. Use --resume to resume it, or provide a different ID.`);
  }
  state.sessionId = opts.sessionId; // not validated, like the real CLI
} else {
  state.sessionId = crypto.randomUUID();
}

// ---------------------------------------------------------------- transcript writing
function append(file, obj) {
  fs.appendFileSync(file, `${JSON.stringify(obj)}\n`);
}

function ensureFile() {
  if (state.file) return state.file;
  fs.mkdirSync(chatsDir, { recursive: true });
  const now = new Date();
  const name = `session-${now.toISOString().slice(0, 16).replace(/:/g, '-')}-${state.sessionId.slice(0, 8)}.jsonl`;
  const file = path.join(chatsDir, name);
  append(file, { sessionId: state.sessionId, projectHash, startTime: now.toISOString(), lastUpdated: now.toISOString(), kind: 'main' });
  state.file = file;
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

async function converse(text) {
  const file = ensureFile();
  append(file, { id: crypto.randomUUID(), timestamp: new Date().toISOString(), type: 'user', content: [{ text }] });
  append(file, { $set: { lastUpdated: new Date().toISOString() } });
  state.turns.push({ role: 'user', text });
  if (DELAY_MS > 0) await new Promise((r) => setTimeout(r, DELAY_MS));
  const answer = answerFor(state.turns.filter((t) => t.role === 'user').map((t) => t.text));
  const at = new Date().toISOString();
  append(file, {
    id: crypto.randomUUID(),
    timestamp: at,
    type: 'gemini',
    content: answer,
    thoughts: [],
    tokens: { input: 10, output: 5, cached: 0, thoughts: 0, tool: 0, total: 15 },
    model: 'gemini-fake',
  });
  const set = { lastUpdated: at };
  if (!state.summarised) {
    set.summary = text.slice(0, 60);
    state.summarised = true;
  }
  append(file, { $set: set });
  state.turns.push({ role: 'model', text: answer });
  return answer;
}

// ---------------------------------------------------------------- non-interactive
if (opts.prompt !== null) {
  const text = [opts.prompt, ...opts.query].join(' ').trim();
  const answer = await converse(text);
  process.stdout.write(`${answer}\n`);
  process.exit(0);
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
  printLine(`Gemini CLI (fake) v${VERSION}`);
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
      printLine('Agent powering down. Goodbye!');
      printLine(`To resume this session: gemini --resume ${state.sessionId}`);
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
  if (ctrlPending === which) exitClean(0);
  ctrlPending = which;
  buf = '';
  clearPrompt();
  printLine(`Press ${label} again to exit.`);
  drawPrompt();
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
for (const sig of ['SIGTERM', 'SIGHUP']) process.on(sig, () => exitClean(sig === 'SIGTERM' ? 143 : 129));
process.on('SIGINT', () => ctrlExit('c', 'Ctrl+C'));

if (process.stdin.isTTY) process.stdin.setRawMode(true);
process.stdin.setEncoding('utf8');
process.stdin.on('data', onInput);
process.stdin.on('end', () => exitClean(0));
process.stdin.resume();

printHeader();
printTurns();
drawPrompt();
const first = opts.interactive ?? (opts.query.length > 0 ? opts.query.join(' ') : null);
if (first !== null) {
  queue.push(first);
  void runQueue();
}
