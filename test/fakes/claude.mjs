#!/usr/bin/env node
// A small, faithful stand-in for the Claude Code TUI (docs/vendors.md §1), run inside a real PTY by the tests.
// Same flags, store layout (projects/<enc cwd>/<id>.jsonl, sessions/<pid>.json, history.jsonl), error texts
// and exit codes as claude 2.1.332; a deterministic "remember the number N" model instead of the API.
// Node builtins only.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { UUID, envMs, fail, parseArgs, resumeOrPicker } from './lib/args.mjs';
import { appendJsonLine as append, realCwd, removeFile, writeJsonAtomic } from './lib/fsutil.mjs';
import { claudeStore, encodeCwd, procStartOf } from './lib/claude-store.mjs';
import { answerTurns, think } from './lib/memory.mjs';
import { runHooks, settingsHooks, toolAnswer, toolRequest } from './lib/signals.mjs';
import {
  createTui,
  oneLine,
  out,
  pressTwiceToExit,
  printLine,
  printLines,
  printReply,
  printTurns,
  slashCommand,
} from './lib/tui.mjs';

const VERSION = '2.1.332';
const DELAY_MS = envMs('FAKE_CLAUDE_DELAY_MS', 50);
// A CLI slow to start: this long with its terminal still cooked and nothing drawn, as a real one loading its code.
// Keys that arrive meanwhile meet the line discipline (echoed, the Enter turned into a line feed).
const RAW_DELAY_MS = envMs('FAKE_CLAUDE_RAW_DELAY_MS', 0);

const configDir = process.env.CLAUDE_CONFIG_DIR || path.join(process.env.HOME || '/', '.claude');
const projectsDir = path.join(configDir, 'projects');
const sessionsDir = path.join(configDir, 'sessions');
const registryPath = path.join(sessionsDir, `${process.pid}.json`);
const cwd = realCwd();

// ---------------------------------------------------------------- arguments
const MISSING = {
  '--session-id': "error: option '--session-id <uuid>' argument missing",
  '-n': "error: option '-n, --name <name>' argument missing",
  '--name': "error: option '-n, --name <name>' argument missing",
};
const opts = {
  version: false,
  sessionId: null,
  resume: null,
  picker: false,
  name: null,
  fork: false,
  cont: false,
  settings: null,
};
// Unknown flags and positionals (model flags, …) are ignored.
parseArgs(
  process.argv.slice(2),
  {
    '-v --version': () => (opts.version = true),
    '--session-id': (arg) => (opts.sessionId = arg.value()),
    '-r --resume': resumeOrPicker(opts),
    '-n --name': (arg) => (opts.name = arg.value()),
    '--fork-session': () => (opts.fork = true),
    '-c --continue': () => (opts.cont = true),
    '--settings': (arg) => (opts.settings = arg.value()),
  },
  { missing: (a) => fail(MISSING[a]) },
);

if (opts.version) {
  process.stdout.write(`${VERSION} (Claude Code)\n`);
  process.exit(0);
}

// ---------------------------------------------------------------- store helpers
const { findTranscript, allTranscripts, findByTitle, loadConversation } = claudeStore(projectsDir, cwd);

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
const procStart = procStartOf(startedAt);

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
  writeJsonAtomic(registryPath, rec);
}

const removeRegistry = () => removeFile(registryPath);

// ---------------------------------------------------------------- transcript writing
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

// ---------------------------------------------------------------- screen and input
const tui = createTui({
  mark: '❯',
  footer: '? for shortcuts',
  onPrompt: handlePrompt,
  keys: pressTwiceToExit({
    labels: ['Ctrl-C', 'Ctrl-D'],
    message: (key) => `Press ${key} again to exit`,
    redraw: () => !state.picker,
  }),
  typing: () => !state.picker, // the picker has no matches to choose from
  pasteReaches: () => !state.picker,
  beforeExit: removeRegistry,
});

const printHeader = () => printLines('Claude Code (fake) v' + VERSION, cwd, '');

const showPicker = () =>
  printLines('Resume session', `  Search: ${opts.resume ?? ''}`, '  No sessions match', '', 'Esc to cancel');

// ---------------------------------------------------------------- prompts
async function handlePrompt(text) {
  const name = slashCommand(text);
  if (name !== null) {
    if (name === 'exit' || name === 'quit') {
      printLine(`> ${text}`);
      printLine('Resume this session with:');
      printLine(`claude --resume ${state.sessionId}`);
      tui.exit(0);
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
      tui.draw();
      return;
    }
    printLine(`> ${text}`);
    printLine(`Unknown slash command: ${name}`);
    tui.draw();
    return;
  }

  printLine(`> ${oneLine(text)}`);
  const hookBase = { session_id: state.sessionId, transcript_path: state.transcript ?? '', cwd };
  await runHooks(hooks, 'UserPromptSubmit', { ...hookBase, prompt: text });
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

  await think(DELAY_MS);

  // A tool call that needs approval: PreToolUse, the dialog with its Notification, then PostToolUse once it ran.
  const command = toolRequest(text);
  let ran = false;
  if (command !== null) {
    const toolInput = { tool_name: 'Bash', tool_input: { command } };
    await runHooks(hooks, 'PreToolUse', { ...hookBase, ...toolInput }, 'Bash');
    const answered = tui.ask([
      '',
      'Bash command',
      `  ${command}`,
      '',
      'Do you want to proceed?',
      '❯ 1. Yes',
      '  2. No',
    ]);
    await runHooks(hooks, 'Notification', {
      ...hookBase,
      message: 'Claude needs your permission to use Bash',
      notification_type: 'permission_prompt',
    });
    ran = await answered;
    printLine(ran ? `⏺ Bash(${command})` : '  ⎿  Interrupted by user');
    if (ran) await runHooks(hooks, 'PostToolUse', { ...hookBase, ...toolInput, tool_response: {} }, 'Bash');
    await think(DELAY_MS);
  }

  const answer = command !== null ? toolAnswer(command, ran) : answerTurns(state.turns);
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

  printReply('⏺', answer);
  tui.draw();
  await runHooks(hooks, 'Stop', { ...hookBase, stop_hook_active: false });
}

// ---------------------------------------------------------------- main
const hooks = settingsHooks(opts.settings);
await chooseSession();
writeRegistry();

if (RAW_DELAY_MS > 0) await new Promise((r) => setTimeout(r, RAW_DELAY_MS));
tui.listen({ sigint: true });

printHeader();
if (resumedFrom) printLine(`(forked from ${resumedFrom})`);
if (state.picker) showPicker();
else {
  printTurns(state.turns, { user: '>', reply: '⏺' });
  tui.draw();
}
