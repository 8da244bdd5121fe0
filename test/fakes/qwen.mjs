#!/usr/bin/env node
// A small, faithful stand-in for the Qwen Code TUI (docs/vendors.md §5), run inside a real PTY by the tests.
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
import { UUID, envMs, fail, parseArgs, resumeOrPicker } from './lib/args.mjs';
import { appendJsonLine, listDir, readJsonLines, realCwd, removeFile, writeJsonAtomic } from './lib/fsutil.mjs';
import { answerTurns, think } from './lib/memory.mjs';
import { chatPrompt, createTui, pressTwiceToExit, printLine, printLines, printTurns } from './lib/tui.mjs';

const VERSION = '0.24.4';
const DELAY_MS = envMs('FAKE_QWEN_DELAY_MS', 50);
const PASTE_WINDOW_MS = envMs('FAKE_QWEN_PASTE_WINDOW_MS', 100);
const RUNTIME_DELAY_MS = envMs('FAKE_QWEN_RUNTIME_DELAY_MS', 200);
const READY = 'Type your message or @path/to/file';

const qwenHome = process.env.QWEN_HOME || path.join(process.env.HOME || '/', '.qwen');
const cwd = realCwd();
const chatsDir = path.join(qwenHome, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'), 'chats');

// ---------------------------------------------------------------- arguments
const VALUE_FLAGS = new Set([
  '--telemetry-target',
  '--telemetry-otlp-endpoint',
  '--telemetry-otlp-protocol',
  '--telemetry-outfile',
  '--proxy',
  '-m',
  '--model',
  '--fallback-model',
  '--system-prompt',
  '--append-system-prompt',
  '--output-style',
  '--sandbox-image',
  '--approval-mode',
  '--channel',
  '--allowed-mcp-server-names',
  '--mcp-config',
  '--allowed-tools',
  '-e',
  '--extensions',
  '--include-directories',
  '--add-dir',
  '--openai-logging-dir',
  '--openai-api-key',
  '--openai-base-url',
  '--input-format',
  '-o',
  '--output-format',
  '--json-fd',
  '--json-file',
  '--json-schema',
  '--input-file',
  '--max-session-turns',
  '--max-wall-time',
  '--max-tool-calls',
  '--max-subagent-depth',
  '--core-tools',
  '--exclude-tools',
  '--disabled-slash-commands',
  '--auth-type',
]);
const opts = {
  version: false,
  sessionId: null,
  resume: null,
  picker: false,
  cont: false,
  fork: false,
  prompt: null,
  interactive: null,
  query: [],
  record: true,
};
parseArgs(
  process.argv.slice(2),
  {
    '-v --version': () => (opts.version = true),
    '--session-id': (arg) => (opts.sessionId = arg.value()),
    '-r --resume': resumeOrPicker(opts),
    '-c --continue': () => (opts.cont = true),
    '--fork-session': () => (opts.fork = true),
    '-p --prompt': (arg) => (opts.prompt = arg.value()),
    '-i --prompt-interactive': (arg) => (opts.interactive = arg.value()),
    '--chat-recording': (arg) => {
      if (arg.inline !== undefined) opts.record = arg.inline !== 'false';
      else if (arg.peek() === 'false' || arg.peek() === 'true') opts.record = arg.take() === 'true';
    },
    '--no-chat-recording': () => (opts.record = false),
  },
  {
    other: (a, arg) => {
      if (VALUE_FLAGS.has(a)) arg.value();
      else if (!a.startsWith('-')) opts.query.push(a); // other flags are ignored
    },
    missing: (a) => fail(`Not enough arguments following: ${a.replace(/^-+/, '')}`),
  },
);

if (opts.version) {
  process.stdout.write(`${VERSION}\n`);
  process.exit(0);
}

// ---------------------------------------------------------------- store helpers
const transcriptOf = (id) => path.join(chatsDir, `${id}.jsonl`);
const runtimeOf = (id) => path.join(chatsDir, `${id}.runtime.json`);

const partsText = (m) =>
  Array.isArray(m?.parts)
    ? m.parts
        .filter((p) => typeof p?.text === 'string')
        .map((p) => p.text)
        .join('\n')
    : '';

function loadTurns(id) {
  const turns = [];
  let leaf = null;
  for (const l of readJsonLines(transcriptOf(id), { missingOk: true })) {
    if (typeof l.uuid === 'string') leaf = l.uuid;
    if (l.type === 'user' && (l.provenance === undefined || l.provenance === 'real_user'))
      turns.push({ role: 'user', text: partsText(l.message) });
    if (l.type === 'assistant') turns.push({ role: 'model', text: partsText(l.message) });
  }
  return { turns, leaf };
}

function latestHere() {
  const ids = listDir(chatsDir)
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
  fail(
    `Invalid --session-id: "${opts.sessionId}". Must be a valid UUID (e.g., "123e4567-e89b-12d3-a456-426614174000").`,
  );
}
if (opts.sessionId !== null && fs.existsSync(transcriptOf(opts.sessionId.toLowerCase()))) {
  fail(`Error: Session Id ${opts.sessionId} already exists (active or archived). Delete or unarchive it first.`);
}

const state = { sessionId: null, turns: [], leaf: null, picker: false };

if (opts.resume !== null) {
  if (!UUID.test(opts.resume)) fail(`No saved session found with title "${opts.resume}".`);
  const id = opts.resume.toLowerCase();
  if (!fs.existsSync(transcriptOf(id))) {
    fail(
      `No saved session found with ID ${opts.resume}. Run \`qwen --resume\` without an ID to choose from existing sessions.`,
    );
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
  appendJsonLine(transcriptOf(state.sessionId), obj);
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
  await think(DELAY_MS);
  const answer = answerTurns(state.turns);
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
  const rec = {
    schema_version: 1,
    pid: process.pid,
    session_id: state.sessionId,
    work_dir: cwd,
    hostname: os.hostname(),
    started_at: Date.now() / 1000,
    qwen_version: VERSION,
  };
  writeJsonAtomic(runtimeOf(state.sessionId), rec, { space: 2, eol: '\n' });
}

function removeRuntime() {
  if (state.sessionId === null) return;
  removeFile(runtimeOf(state.sessionId)); // or never written
}

// ---------------------------------------------------------------- screen and input
/** A clean quit: the only exit that removes the sidecar. */
function quit() {
  removeRuntime();
  tui.exit(0);
}

const MARKS = { user: '>', reply: '✦' };

const tui = createTui({
  mark: '>',
  footer: `  ${READY}`,
  onPrompt: chatPrompt({
    marks: MARKS,
    converse,
    quit: () => {
      printLine(`To continue this session, run qwen --resume ${state.sessionId}`);
      quit();
    },
  }),
  keys: pressTwiceToExit({
    labels: ['Ctrl+C', 'Ctrl+D'],
    message: (key) => `Press ${key} again to exit.`,
    redraw: () => !state.picker,
    exit: quit,
  }),
  typing: () => !state.picker,
  pasteEnter: { windowMs: PASTE_WINDOW_MS, mode: 'newline' },
});

// ---------------------------------------------------------------- main
// The sidecar survives SIGTERM and SIGKILL (stale unless its pid lives); only a clean quit removes it.
tui.listen({ sigint: true });

printLines(`Qwen Code (fake) v${VERSION}`, cwd, '');
if (state.picker) printLines('Resume Session', '  No sessions found for this project.', 'Esc to cancel');
else {
  setTimeout(writeRuntime, RUNTIME_DELAY_MS).unref();
  printTurns(state.turns, MARKS);
  tui.draw();
  if (opts.interactive !== null) tui.submit(opts.interactive);
}
