#!/usr/bin/env node
// A small, faithful stand-in for the GitHub Copilot CLI TUI (vendors.md §4), run inside a real PTY by the tests.
// Same flags, store layout (${COPILOT_HOME:-~/.copilot}/session-state/<id>/workspace.yaml written at start,
// events.jsonl, logs/process-<ms>-<pid>.log), error texts and exit codes as copilot 1.0.102; a deterministic
// "remember the number N" model instead of the API. `--session-id` of an existing id resumes it. Node builtins only.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

const VERSION = '1.0.102';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DELAY_MS = Number(process.env.FAKE_COPILOT_DELAY_MS ?? 50) || 0;
const READY = 'Enter @ to mention files or / for commands';

const home = process.env.COPILOT_HOME || path.join(process.env.HOME || '/', '.copilot');
const stateDir = path.join(home, 'session-state');
let cwd = fs.realpathSync(process.cwd());

function fail(message, code = 1) {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

// ---------------------------------------------------------------- arguments
const VALUE_FLAGS = new Set([
  '--model', '--reasoning-effort', '--context', '--auto-tier', '--agent', '--log-dir', '--extension-sdk-path',
  '--log-level', '--stream', '--output-format', '--add-dir', '--attachment', '--disable-mcp-server',
  '--add-github-mcp-toolset', '--add-github-mcp-tool', '--plugin-dir', '--additional-mcp-config', '--mcp-github-auth',
  '--max-autopilot-continues', '--mode', '--environment-host', '--environment-compute-id', '--dynamic-retrieval',
  '--enable-mcp-server', '--max-ai-credits', '--usage-output-file',
]);
const opts = {
  version: false,
  sessionId: null,
  resume: null,
  picker: false,
  cont: false,
  name: null,
  prompt: null,
  interactive: null,
  allowAllTools: false,
  logDir: null,
};
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
      if (v === undefined) fail(`error: a value is required for '${a}' but none was supplied`, 2);
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
        // The value is optional: use the `=` form (a following word is taken too, as clap does).
        if (inline !== undefined) opts.resume = inline;
        else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('-')) opts.resume = argv[++i];
        else opts.picker = true;
        break;
      case '--continue':
        opts.cont = true;
        break;
      case '-n':
      case '--name':
        opts.name = value();
        break;
      case '-p':
      case '--prompt':
        opts.prompt = value();
        break;
      case '-i':
      case '--interactive':
        opts.interactive = value();
        break;
      case '-C':
        process.chdir(value());
        cwd = fs.realpathSync(process.cwd());
        break;
      case '--allow-all-tools':
      case '--allow-all':
      case '--yolo':
        opts.allowAllTools = true;
        break;
      case '--log-dir':
        opts.logDir = value();
        break;
      default:
        if (VALUE_FLAGS.has(a)) value();
        break; // other flags are ignored
    }
  }
}

if (opts.version) {
  process.stdout.write(`GitHub Copilot CLI ${VERSION}.\nRun 'copilot update' to check for updates.\n`);
  process.exit(0);
}

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

function readWorkspace(id) {
  let text;
  try {
    text = fs.readFileSync(path.join(stateDir, id, 'workspace.yaml'), 'utf8');
  } catch {
    return null;
  }
  const out = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z_]\w*):\s*(.*)$/.exec(line);
    if (!m) continue;
    let v = m[2].trim();
    if (v.startsWith('"')) {
      try {
        v = JSON.parse(v);
      } catch {
        /* as written */
      }
    }
    out[m[1]] = v;
  }
  return out;
}

const yamlValue = (v) => (v === null || v === undefined ? '' : /^[\w./@+-][\w ./@+:-]*$/.test(String(v)) && !/:\s/.test(String(v)) ? String(v) : JSON.stringify(String(v)));

function writeWorkspace(ws) {
  const keys = ['id', 'cwd', 'git_root', 'branch', 'client_name', 'name', 'user_named', 'summary_count', 'fork_count', 'created_at', 'updated_at'];
  const text = keys.filter((k) => ws[k] !== undefined && ws[k] !== null).map((k) => `${k}: ${yamlValue(ws[k])}`).join('\n');
  const file = path.join(stateDir, ws.id, 'workspace.yaml');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${text}\n`);
  fs.renameSync(tmp, file);
}

function allSessions() {
  let names = [];
  try {
    names = fs.readdirSync(stateDir);
  } catch {
    return [];
  }
  return names
    .filter((n) => UUID.test(n))
    .map((id) => ({ id, ws: readWorkspace(id) }))
    .filter((s) => s.ws !== null)
    .sort((a, b) => String(b.ws.updated_at).localeCompare(String(a.ws.updated_at)));
}

function matchResume(value) {
  const sessions = allSessions();
  const v = value.toLowerCase();
  const exact = sessions.find((s) => s.id === v);
  if (exact) return exact.id;
  if (/^[0-9a-f-]{7,}$/.test(v)) {
    const prefixed = sessions.filter((s) => s.id.startsWith(v));
    if (prefixed.length === 1) return prefixed[0].id;
  }
  const named = sessions.filter((s) => typeof s.ws.name === 'string' && s.ws.name.toLowerCase() === v);
  return named.length > 0 ? named[0].id : null;
}

// ---------------------------------------------------------------- decide the session
const state = { sessionId: null, turns: [], lastEventId: null, workspace: null, resumed: false };

function loadSession(id) {
  state.sessionId = id;
  state.workspace = readWorkspace(id);
  for (const e of readLines(path.join(stateDir, id, 'events.jsonl'))) {
    if (typeof e.id === 'string') state.lastEventId = e.id;
    if (e.type === 'user.message' && typeof e.data?.content === 'string') state.turns.push({ role: 'user', text: e.data.content });
    if (e.type === 'assistant.message' && typeof e.data?.content === 'string') state.turns.push({ role: 'assistant', text: e.data.content });
  }
  state.resumed = true;
}

if (opts.sessionId !== null) {
  if (!UUID.test(opts.sessionId)) fail('The value is not a valid UUID, so a new session cannot be created.');
  const id = opts.sessionId.toLowerCase();
  if (readWorkspace(id) !== null) loadSession(id); // "Resume an existing session or task by ID, or set the UUID for a new session"
  else state.sessionId = id;
} else if (opts.resume !== null) {
  const id = matchResume(opts.resume);
  if (!id) {
    fail(
      `Error: No session, task, or name matched '${opts.resume}'.\n\n` +
        "Run 'copilot --resume' to pick a session from a list, or 'copilot sessions list' to see saved sessions.",
    );
  }
  loadSession(id);
} else if (opts.cont) {
  const latest = allSessions().find((s) => s.ws.cwd === cwd) ?? allSessions()[0];
  if (latest) loadSession(latest.id);
  else state.sessionId = crypto.randomUUID();
} else if (!opts.picker) {
  state.sessionId = crypto.randomUUID();
}

if (opts.prompt !== null && !opts.allowAllTools && !/^(true|1|yes|on|y)$/i.test((process.env.COPILOT_ALLOW_ALL ?? '').trim())) {
  fail('Error: non-interactive mode requires --allow-all-tools (or COPILOT_ALLOW_ALL).');
}

// ---------------------------------------------------------------- store writing
function startWorkspace() {
  const now = new Date().toISOString();
  if (state.workspace) {
    state.workspace.updated_at = now;
  } else {
    state.workspace = {
      id: state.sessionId,
      cwd,
      git_root: null,
      branch: null,
      client_name: 'github/cli',
      name: opts.name,
      user_named: opts.name !== null,
      summary_count: 0,
      fork_count: 0,
      created_at: now,
      updated_at: now,
    };
  }
  writeWorkspace(state.workspace);
  const logDir = opts.logDir ?? path.join(home, 'logs');
  try {
    fs.mkdirSync(logDir, { recursive: true });
    fs.appendFileSync(path.join(logDir, `process-${Date.now()}-${process.pid}.log`), `${new Date().toISOString()} [INFO] Workspace initialized: ${state.sessionId}\n`);
  } catch {
    /* logging is best effort */
  }
}

function event(type, data) {
  const file = path.join(stateDir, state.sessionId, 'events.jsonl');
  const rec = { type, data, id: crypto.randomUUID(), timestamp: new Date().toISOString(), parentId: state.lastEventId };
  fs.appendFileSync(file, `${JSON.stringify(rec)}\n`);
  state.lastEventId = rec.id;
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

let turnNo = 0;
async function converse(text) {
  if (state.lastEventId === null) {
    event('session.start', {
      sessionId: state.sessionId,
      version: 1,
      producer: 'copilot-agent',
      copilotVersion: VERSION,
      startTime: state.workspace.created_at,
      selectedModel: process.env.COPILOT_MODEL || 'fake-model',
      contextTier: null,
      context: { cwd, gitRoot: null, branch: null },
      alreadyInUse: false,
      remoteSteerable: false,
    });
  }
  const turnId = String(turnNo++);
  const interactionId = crypto.randomUUID();
  const messageId = crypto.randomUUID();
  event('user.message', { content: text, messageId, interactionId, turnId });
  state.turns.push({ role: 'user', text });
  event('assistant.turn_start', { turnId, interactionId });
  if (DELAY_MS > 0) await new Promise((r) => setTimeout(r, DELAY_MS));
  const answer = answerFor(state.turns.filter((t) => t.role === 'user').map((t) => t.text));
  event('assistant.message', {
    messageId: crypto.randomUUID(),
    originatingMessageId: messageId,
    model: 'fake-model',
    content: answer,
    toolRequests: [],
    interactionId,
    turnId,
  });
  event('assistant.turn_end', { turnId });
  state.turns.push({ role: 'assistant', text: answer });
  state.workspace.updated_at = new Date().toISOString();
  writeWorkspace(state.workspace);
  return answer;
}

// ---------------------------------------------------------------- non-interactive
if (opts.prompt !== null) {
  startWorkspace();
  const answer = await converse(opts.prompt);
  process.stdout.write(`${answer}\n\nResume     copilot --resume=${state.sessionId}\n`);
  process.exit(0);
}

// ---------------------------------------------------------------- screen
const out = (s) => process.stdout.write(s);
const oneLine = (s) => s.replace(/\r\n|\r|\n/g, ' ');
let buf = '';
let promptShown = false;

function drawPrompt() {
  const shown = oneLine(buf);
  out(`\r\x1b[2K❯ ${shown}\r\n\x1b[2K ${READY}\x1b[1A\r\x1b[${2 + [...shown].length}C`);
  promptShown = true;
}

function redrawInput() {
  out(`\r\x1b[2K❯ ${oneLine(buf)}`);
}

function clearPrompt() {
  if (!promptShown) return;
  out('\r\x1b[2K\x1b[1B\x1b[2K\x1b[1A\r');
  promptShown = false;
}

const printLine = (s) => out(`${s}\r\n`);

function printHeader() {
  printLine(`GitHub Copilot CLI (fake) ${VERSION}`);
  printLine(cwd);
  printLine('');
}

function printTurns() {
  for (const t of state.turns) {
    if (t.role === 'user') printLine(`❯ ${oneLine(t.text)}`);
    else {
      printLine(`● ${oneLine(t.text)}`);
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
    printLine(`❯ ${text}`);
    if (name === 'exit' || name === 'quit') {
      printLine(`Resume this session with copilot --resume=${state.sessionId}`);
      exitClean(0);
      return;
    }
    printLine(`Unknown command: /${name}`);
    drawPrompt();
    return;
  }
  printLine(`❯ ${oneLine(text)}`);
  const answer = await converse(text);
  printLine(`● ${answer}`);
  printLine('');
  drawPrompt();
}

// ---------------------------------------------------------------- input
let ctrlPending = null;
let esc = null;
let csiParams = '';
let pasting = false;
let pasteBuf = '';

function ctrlExit(which, label) {
  if (ctrlPending === which) exitClean(0);
  ctrlPending = which;
  buf = '';
  clearPrompt();
  printLine(`Press ${label} again to exit`);
  if (!opts.picker || state.sessionId) drawPrompt();
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
    if (state.sessionId === null) continue; // the picker: nothing to pick in a fake
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
      buf += '\n';
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
for (const sig of ['SIGTERM', 'SIGHUP']) process.on(sig, () => exitClean(sig === 'SIGTERM' ? 143 : 129));
process.on('SIGINT', () => ctrlExit('c', 'Ctrl+C'));

if (process.stdin.isTTY) process.stdin.setRawMode(true);
process.stdin.setEncoding('utf8');
process.stdin.on('data', onInput);
process.stdin.on('end', () => exitClean(0));
process.stdin.resume();

printHeader();
if (state.sessionId === null) {
  printLine('Resume a session');
  printLine(allSessions().length === 0 ? '  No sessions found' : `  ${allSessions().length} sessions`);
  printLine('Esc to cancel');
} else {
  startWorkspace();
  printTurns();
  drawPrompt();
  if (opts.interactive !== null) {
    queue.push(opts.interactive);
    void runQueue();
  }
}
