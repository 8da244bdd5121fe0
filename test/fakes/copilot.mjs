#!/usr/bin/env node
// A small, faithful stand-in for the GitHub Copilot CLI TUI (docs/vendors.md §4), run inside a real PTY by the tests.
// Same flags, store layout (${COPILOT_HOME:-~/.copilot}/session-state/<id>/workspace.yaml written at start,
// events.jsonl, logs/process-<ms>-<pid>.log), error texts and exit codes as copilot 1.0.102; a deterministic
// "remember the number N" model instead of the API. `--session-id` of an existing id resumes it. Node builtins only.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { UUID, envMs, fail, parseArgs, resumeOrPicker } from './lib/args.mjs';
import { appendJsonLine, readJsonLines, realCwd } from './lib/fsutil.mjs';
import { allSessions, home, matchResume, readWorkspace, stateDir, writeWorkspace } from './lib/copilot-store.mjs';
import { answerTurns, think } from './lib/memory.mjs';
import { chatPrompt, createTui, pressTwiceToExit, printLine, printLines, printTurns } from './lib/tui.mjs';

const VERSION = '1.0.102';
const DELAY_MS = envMs('FAKE_COPILOT_DELAY_MS', 50);
const READY = 'Enter @ to mention files or / for commands';

let cwd = realCwd();

// ---------------------------------------------------------------- arguments
const VALUE_FLAGS = new Set([
  '--model',
  '--reasoning-effort',
  '--context',
  '--auto-tier',
  '--agent',
  '--log-dir',
  '--extension-sdk-path',
  '--log-level',
  '--stream',
  '--output-format',
  '--add-dir',
  '--attachment',
  '--disable-mcp-server',
  '--add-github-mcp-toolset',
  '--add-github-mcp-tool',
  '--plugin-dir',
  '--additional-mcp-config',
  '--mcp-github-auth',
  '--max-autopilot-continues',
  '--mode',
  '--environment-host',
  '--environment-compute-id',
  '--dynamic-retrieval',
  '--enable-mcp-server',
  '--max-ai-credits',
  '--usage-output-file',
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
parseArgs(
  process.argv.slice(2),
  {
    '-v --version': () => (opts.version = true),
    '--session-id': (arg) => (opts.sessionId = arg.value()),
    // The value is optional: use the `=` form (a following word is taken too, as clap does).
    '-r --resume': resumeOrPicker(opts),
    '--continue': () => (opts.cont = true),
    '-n --name': (arg) => (opts.name = arg.value()),
    '-p --prompt': (arg) => (opts.prompt = arg.value()),
    '-i --interactive': (arg) => (opts.interactive = arg.value()),
    '-C': (arg) => {
      process.chdir(arg.value());
      cwd = realCwd();
    },
    '--allow-all-tools --allow-all --yolo': () => (opts.allowAllTools = true),
    '--log-dir': (arg) => (opts.logDir = arg.value()),
  },
  {
    other: (a, arg) => {
      if (VALUE_FLAGS.has(a)) arg.value(); // other flags are ignored
    },
    missing: (a) => fail(`error: a value is required for '${a}' but none was supplied`, 2),
  },
);

if (opts.version) {
  process.stdout.write(`GitHub Copilot CLI ${VERSION}.\nRun 'copilot update' to check for updates.\n`);
  process.exit(0);
}

// ---------------------------------------------------------------- decide the session
const state = { sessionId: null, turns: [], lastEventId: null, workspace: null, resumed: false };

function loadSession(id) {
  state.sessionId = id;
  state.workspace = readWorkspace(id);
  for (const e of readJsonLines(path.join(stateDir, id, 'events.jsonl'), { missingOk: true })) {
    if (typeof e.id === 'string') state.lastEventId = e.id;
    if (e.type === 'user.message' && typeof e.data?.content === 'string')
      state.turns.push({ role: 'user', text: e.data.content });
    if (e.type === 'assistant.message' && typeof e.data?.content === 'string')
      state.turns.push({ role: 'assistant', text: e.data.content });
  }
  state.resumed = true;
}

if (opts.sessionId !== null) {
  if (!UUID.test(opts.sessionId)) fail('The value is not a valid UUID, so a new session cannot be created.');
  const id = opts.sessionId.toLowerCase();
  if (readWorkspace(id) !== null)
    loadSession(id); // "Resume an existing session or task by ID, or set the UUID for a new session"
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

if (
  opts.prompt !== null &&
  !opts.allowAllTools &&
  !/^(true|1|yes|on|y)$/i.test((process.env.COPILOT_ALLOW_ALL ?? '').trim())
) {
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
    fs.appendFileSync(
      path.join(logDir, `process-${Date.now()}-${process.pid}.log`),
      `${new Date().toISOString()} [INFO] Workspace initialized: ${state.sessionId}\n`,
    );
  } catch {
    /* logging is best effort */
  }
}

function event(type, data) {
  const file = path.join(stateDir, state.sessionId, 'events.jsonl');
  const rec = { type, data, id: crypto.randomUUID(), timestamp: new Date().toISOString(), parentId: state.lastEventId };
  appendJsonLine(file, rec);
  state.lastEventId = rec.id;
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
  await think(DELAY_MS);
  const answer = answerTurns(state.turns);
  event('assistant.message', {
    messageId: crypto.randomUUID(),
    originatingMessageId: messageId,
    model: 'fake-model',
    content: answer,
    toolRequests: [],
    interactionId,
    turnId,
  });
  // 1.0.102 keeps a durable usage record per model call (inputTokens include cache reads and writes).
  const usageId = `chatcmpl-fake${crypto.randomBytes(6).toString('hex')}`;
  event('session.usage_record', {
    usage: {
      model: 'fake-model',
      inputTokens: 10,
      outputTokens: 5,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      cost: 0,
      accounting: { sourceSessionId: state.sessionId, sequence: Number(turnId) + 1, usageId },
    },
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

// ---------------------------------------------------------------- screen and input
const MARKS = { user: '❯', reply: '●' };

const tui = createTui({
  mark: '❯',
  footer: ` ${READY}`,
  onPrompt: chatPrompt({
    marks: MARKS,
    converse,
    quit: () => {
      printLine(`Resume this session with copilot --resume=${state.sessionId}`);
      tui.exit(0);
    },
  }),
  keys: pressTwiceToExit({
    labels: ['Ctrl+C', 'Ctrl+D'],
    message: (key) => `Press ${key} again to exit`,
    redraw: () => Boolean(!opts.picker || state.sessionId),
  }),
  typing: () => state.sessionId !== null, // the picker: nothing to pick in a fake
});

// ---------------------------------------------------------------- main
tui.listen({ sigint: true });

printLines(`GitHub Copilot CLI (fake) ${VERSION}`, cwd, '');
if (state.sessionId === null) {
  printLines(
    'Resume a session',
    allSessions().length === 0 ? '  No sessions found' : `  ${allSessions().length} sessions`,
    'Esc to cancel',
  );
} else {
  startWorkspace();
  printTurns(state.turns, MARKS);
  tui.draw();
  if (opts.interactive !== null) tui.submit(opts.interactive);
}
