#!/usr/bin/env node
// The "native" half of the fake Codex CLI (docs/vendors.md §2), started by test/fakes/codex.mjs as the real
// bin/codex.js starts the Rust binary. Faithful where Baton depends on it:
// - the thread id (UUIDv7) is minted at start and cannot be chosen; `$CODEX_HOME/thread-writer-locks/<id>.lock`
//   is created at once and kept OPEN by this process (visible in /proc/<pid>/fd);
// - the rollout `sessions/YYYY/MM/DD/rollout-<local ts>-<id>.jsonl` (LOCAL time) appears only after the first turn:
//   session_meta first, then turn_context / response_item / event_msg lines as the real CLI writes them;
// - `resume <uuid>` appends to the same file under the same id; an unknown id or name prints the real error, exit 1;
// - a background "daemon" (detached, outlives the TUI, holds the lock instead of the TUI) is started unless
//   `--no-daemon` or `-c features.daemon_auto_start=false` / `--disable daemon_auto_start` is given;
// - raw-mode TUI with echo, footer `? for shortcuts`; text and Enter in one burst is a paste (not submitted);
//   text, a pause, then Enter is submitted; `/quit`, `/exit`, `/new`; a deterministic "remember the number N" model.
// Node builtins only.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { UUID, envMs, fail, parseArgs } from './lib/args.mjs';
import { appendJsonLine, listDir, readJsonLines, realCwd } from './lib/fsutil.mjs';
import { answerTurns, think } from './lib/memory.mjs';
import { notifyProgram, runNotify, toolAnswer, toolRequest } from './lib/signals.mjs';
import { createTui, oneLine, out, printLine, printLines, printReply, printTurns, slashCommand } from './lib/tui.mjs';

const VERSION = '0.169.0';
const DELAY_MS = envMs('FAKE_CODEX_DELAY_MS', 50);
/** Enter this soon after other input is part of a paste burst: it submits nothing. */
const PASTE_WINDOW_MS = 50;

const home = process.env.CODEX_HOME || path.join(process.env.HOME || '/', '.codex');
const sessionsDir = path.join(home, 'sessions');
const locksDir = path.join(home, 'thread-writer-locks');

// ---------------------------------------------------------------- the daemon
if (process.argv[2] === '--fake-daemon') runDaemon();
if (process.argv[2] === '--fake-daemon-launch') {
  // The launcher forks the daemon off and exits at once, so the daemon is re-parented (ppid 1), as the real one is.
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--fake-daemon', ...process.argv.slice(3)], {
    detached: true,
    stdio: 'ignore',
    env: process.env,
  });
  child.unref();
  process.exit(0);
}

function runDaemon() {
  // argv: --fake-daemon app-server --listen unix:// --managed-daemon --codex-home <home> [--hold <lock>]…
  const args = process.argv.slice(3);
  const held = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--hold' && args[i + 1]) {
      try {
        held.push(fs.openSync(args[++i], 'a'));
      } catch {
        /* ignore */
      }
    }
  }
  try {
    fs.mkdirSync(home, { recursive: true });
    fs.appendFileSync(path.join(home, 'fake-daemon.log'), `${process.pid} started\n`);
  } catch {
    /* ignore */
  }
  process.on('SIGHUP', () => {}); // a daemon: the terminal going away does not concern it
  const ttl = Number(process.env.FAKE_CODEX_DAEMON_TTL_MS ?? 600_000);
  setTimeout(() => process.exit(0), ttl);
  setInterval(() => {}, 60_000);
  void held;
}

if (!process.argv[2]?.startsWith('--fake-daemon')) await main();

async function main() {
  // ---------------------------------------------------------------- arguments
  const opts = {
    version: false,
    help: false,
    noDaemon: false,
    config: [],
    enable: [],
    disable: [],
    sub: null, // 'resume' | null
    sessionArg: null,
    prompt: null,
    last: false,
    cd: null,
  };
  {
    const withValue = new Set([
      '-c',
      '--config',
      '--enable',
      '--disable',
      '-m',
      '--model',
      '-p',
      '--profile',
      '-s',
      '--sandbox',
      '-a',
      '--ask-for-approval',
      '-C',
      '--cd',
      '-i',
      '--image',
      '--add-dir',
      '--remote',
      '--remote-auth-token-env',
      '--local-provider',
    ]);
    const positionals = [];
    parseArgs(
      process.argv.slice(2),
      {
        '-V --version': () => (opts.version = true),
        '-h --help': () => (opts.help = true),
        '--no-daemon': () => (opts.noDaemon = true),
        '--last': () => (opts.last = true),
      },
      {
        other: (a, arg) => {
          if (a === '--') positionals.push(...arg.rest());
          else if (withValue.has(a)) {
            const v = arg.value();
            if (a === '-c' || a === '--config') opts.config.push(v);
            else if (a === '--enable') opts.enable.push(v);
            else if (a === '--disable') opts.disable.push(v);
            else if (a === '-C' || a === '--cd') opts.cd = v;
          } else if (!a.startsWith('-')) positionals.push(a); // other flags (booleans) are accepted and ignored
        },
        missing: (a) => fail(`error: a value is required for '${a} <VALUE>' but none was supplied`, 2),
      },
    );
    if (positionals[0] === 'resume') {
      opts.sub = 'resume';
      opts.sessionArg = positionals[1] ?? null;
      opts.prompt = positionals[2] ?? null;
    } else {
      opts.prompt = positionals[0] ?? null;
    }
  }

  if (opts.version) {
    process.stdout.write(`codex-cli ${VERSION}\n`);
    process.exit(0);
  }
  if (opts.help) {
    process.stdout.write('Codex CLI\n\nUsage: codex [OPTIONS] [PROMPT]\n       codex [OPTIONS] <COMMAND> [ARGS]\n');
    process.exit(0);
  }
  if (opts.cd) process.chdir(opts.cd);
  const cwd = realCwd();

  const configValue = (key) => {
    let v;
    for (const kv of opts.config) {
      const eq = kv.indexOf('=');
      if (eq > 0 && kv.slice(0, eq).trim() === key) v = kv.slice(eq + 1).trim();
    }
    return v;
  };
  const daemonAutoStart = !(
    configValue('features.daemon_auto_start') === 'false' || opts.disable.includes('daemon_auto_start')
  );
  const useDaemon = !opts.noDaemon && daemonAutoStart;

  // ---------------------------------------------------------------- store helpers
  const pad = (n, w = 2) => String(n).padStart(w, '0');
  const localFolder = (d) => path.join(pad(d.getFullYear(), 4), pad(d.getMonth() + 1), pad(d.getDate()));
  const localStamp = (d) =>
    `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}-${pad(d.getMinutes())}-${pad(d.getSeconds())}`;

  function uuidv7() {
    const b = crypto.randomBytes(16);
    let ms = Date.now();
    for (let i = 5; i >= 0; i--) {
      b[i] = ms % 256;
      ms = Math.floor(ms / 256);
    }
    b[6] = (b[6] & 0x0f) | 0x70;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = b.toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  function allRollouts() {
    const out = [];
    const walk = (dir, depth) => {
      for (const n of listDir(dir)) {
        const p = path.join(dir, n);
        if (depth < 3) walk(p, depth + 1);
        else if (/^rollout-.*\.jsonl$/.test(n)) {
          try {
            out.push({ path: p, name: n, mtime: fs.statSync(p).mtimeMs });
          } catch {
            /* vanished */
          }
        }
      }
    };
    walk(sessionsDir, 0);
    return out.sort((a, b) => b.mtime - a.mtime);
  }

  const textOf = (content) =>
    Array.isArray(content)
      ? content
          .filter((c) => c && typeof c.text === 'string')
          .map((c) => c.text)
          .join('\n')
      : typeof content === 'string'
        ? content
        : '';

  /** session_meta, the conversation and the next ordinal of a rollout. */
  function loadRollout(file) {
    const lines = readJsonLines(file);
    const meta = lines[0]?.type === 'session_meta' ? lines[0].payload : null;
    const turns = [];
    let ordinal = 0;
    for (const l of lines) {
      if (typeof l.ordinal === 'number') ordinal = Math.max(ordinal, l.ordinal + 1);
      if (l.type !== 'response_item' || l.payload?.type !== 'message') continue;
      const text = textOf(l.payload.content);
      if (l.payload.role === 'user' && !text.startsWith('<environment_context>')) turns.push({ role: 'user', text });
      if (l.payload.role === 'assistant') turns.push({ role: 'assistant', text });
    }
    return { meta, turns, ordinal };
  }

  function findById(id) {
    return allRollouts().find((r) => r.name.endsWith(`-${id}.jsonl`)) ?? null;
  }

  // ---------------------------------------------------------------- the thread
  const thread = {
    id: null,
    createdAt: null,
    rollout: null, // path once written
    rolloutFd: null,
    lockFd: null,
    ordinal: 0,
    turns: [],
    envSent: false,
    resumed: false,
    /** This process's running token total (a resumed process starts its own at zero, like the real CLI). */
    usage: null,
  };

  function openLock(id) {
    fs.mkdirSync(locksDir, { recursive: true });
    const lockPath = path.join(locksDir, `${id}.lock`);
    if (useDaemon) {
      // The daemon owns the thread: it holds the lock, the TUI does not.
      startDaemon(lockPath);
      fs.closeSync(fs.openSync(lockPath, 'a'));
      return;
    }
    thread.lockFd = fs.openSync(lockPath, 'w');
    fs.writeSync(thread.lockFd, `${process.pid}\n`);
  }

  function closeThread() {
    for (const k of ['lockFd', 'rolloutFd']) {
      if (thread[k] !== null) {
        try {
          fs.closeSync(thread[k]);
        } catch {
          /* already closed */
        }
        thread[k] = null;
      }
    }
  }

  function newThread() {
    closeThread();
    thread.id = uuidv7();
    thread.createdAt = new Date();
    thread.rollout = null;
    thread.ordinal = 0;
    thread.turns = [];
    thread.envSent = false;
    thread.resumed = false;
    openLock(thread.id);
  }

  function startDaemon(lockPath) {
    const self = fileURLToPath(import.meta.url);
    const child = spawn(
      process.execPath,
      [
        self,
        '--fake-daemon-launch',
        'app-server',
        '--listen',
        'unix://',
        '--managed-daemon',
        '--codex-home',
        home,
        '--hold',
        lockPath,
      ],
      { detached: true, stdio: 'ignore', env: process.env },
    );
    child.unref();
  }

  function line(type, payload) {
    const obj = { timestamp: new Date().toISOString(), ordinal: thread.ordinal++, type, payload };
    fs.writeSync(thread.rolloutFd, `${JSON.stringify(obj)}\n`);
  }

  function ensureRollout() {
    if (thread.rolloutFd !== null) return;
    if (thread.rollout) {
      thread.rolloutFd = fs.openSync(thread.rollout, 'a');
      return;
    }
    const dir = path.join(sessionsDir, localFolder(thread.createdAt));
    fs.mkdirSync(dir, { recursive: true });
    thread.rollout = path.join(dir, `rollout-${localStamp(thread.createdAt)}-${thread.id}.jsonl`);
    thread.rolloutFd = fs.openSync(thread.rollout, 'a');
    line('session_meta', {
      session_id: thread.id,
      id: thread.id,
      timestamp: thread.createdAt.toISOString(),
      cwd,
      runtime_workspace_roots: [cwd],
      originator: 'codex_cli_rs',
      cli_version: VERSION,
      source: 'cli',
      thread_source: 'user',
      model_provider: configValue('model_provider')?.replace(/^"|"$/g, '') ?? 'openai',
      base_instructions: { text: '(fake codex)' },
      history_mode: 'paginated',
    });
  }

  // ---------------------------------------------------------------- choose the thread
  let picker = false;
  if (opts.sub === 'resume') {
    let found = null;
    if (opts.sessionArg !== null) {
      // UUIDs take precedence; there are no thread names here, so anything else is not found either.
      if (UUID.test(opts.sessionArg)) found = findById(opts.sessionArg.toLowerCase());
      if (!found) {
        await new Promise((r) => setTimeout(r, 150));
        fail(
          `ERROR: No saved session found with ID ${opts.sessionArg}. Run \`codex resume\` without an ID to choose from existing sessions.`,
        );
      }
    } else if (opts.last) {
      found = allRollouts().find((r) => loadRollout(r.path).meta?.cwd === cwd) ?? null;
    } else {
      picker = true;
    }
    if (found) {
      const conv = loadRollout(found.path);
      if (!conv.meta || typeof conv.meta.id !== 'string') fail(`ERROR: Failed to read session ${found.path}`);
      thread.id = conv.meta.id;
      thread.createdAt = new Date(conv.meta.timestamp ?? Date.now());
      thread.rollout = found.path;
      thread.ordinal = conv.ordinal;
      thread.turns = conv.turns;
      thread.envSent = true;
      thread.resumed = true;
      openLock(thread.id);
    }
  }
  if (thread.id === null && !picker) newThread();

  // ---------------------------------------------------------------- screen and input
  const tui = createTui({
    mark: '›',
    footer: '  ? for shortcuts                                   100% context left',
    onPrompt: handlePrompt,
    keys: {
      '\x03': onCtrlC,
      '\x04': (tui) => {
        if (tui.buf === '') tui.exit(0);
      },
    },
    typing: () => !picker,
    pasteReaches: () => !picker,
    // A burst ending in Enter is a paste: the Enter inserts nothing and nothing is submitted.
    pasteEnter: { windowMs: PASTE_WINDOW_MS, mode: 'burst' },
    beforeExit: closeThread,
  });

  function onCtrlC(tui) {
    if (picker) tui.exit(0);
    tui.pressAgainToExit('c', 'ctrl + c again to quit');
  }

  const printHeader = () =>
    printLines(`>_ OpenAI Codex (v${VERSION}) (fake)`, 'model:     fake-codex', `directory: ${cwd}`, '');

  function quit() {
    tui.clearPrompt();
    if (thread.rollout) printLine(`To continue this session, run codex resume ${thread.id}`);
    tui.exit(0);
  }

  // ---------------------------------------------------------------- the model
  async function handlePrompt(text) {
    const name = slashCommand(text);
    if (name !== null) {
      if (name === 'quit' || name === 'exit') return quit();
      if (name === 'new') {
        newThread();
        out('\x1b[2J\x1b[3J\x1b[H');
        printHeader();
        tui.draw();
        return;
      }
      printLine(`› ${text}`);
      printLine(`■ Unrecognized command '/${name}'. Type "/" for a list of supported commands.`);
      tui.draw();
      return;
    }

    printLine(`› ${oneLine(text)}`);
    ensureRollout();
    const turnId = uuidv7();
    const started = Math.floor(Date.now() / 1000);
    line('event_msg', {
      type: 'task_started',
      turn_id: turnId,
      root_turn_id: turnId,
      started_at: started,
      model_context_window: 258400,
      collaboration_mode_kind: 'default',
    });
    line('turn_context', {
      turn_id: turnId,
      root_turn_id: turnId,
      cwd,
      approval_policy: 'on-request',
      model: 'fake-codex',
      effort: 'medium',
      summary: 'auto',
    });
    if (!thread.envSent) {
      line('response_item', {
        type: 'message',
        id: `msg_${uuidv7()}`,
        role: 'user',
        content: [
          {
            type: 'input_text',
            text: `<environment_context>\n  <cwd>${cwd}</cwd>\n  <shell>bash</shell>\n</environment_context>`,
          },
        ],
      });
      thread.envSent = true;
    }
    line('response_item', {
      type: 'message',
      id: `msg_${uuidv7()}`,
      role: 'user',
      content: [{ type: 'input_text', text }],
    });
    line('event_msg', {
      type: 'item_completed',
      thread_id: thread.id,
      turn_id: turnId,
      item: { type: 'UserMessage', id: uuidv7(), content: [{ type: 'text', text, text_elements: [] }] },
    });
    fs.mkdirSync(home, { recursive: true });
    appendJsonLine(path.join(home, 'history.jsonl'), { session_id: thread.id, ts: started, text });
    thread.turns.push({ role: 'user', text });

    // The working line real Codex shows while a turn runs, gone once it answers.
    out('• Working (0s • esc to interrupt)');
    await think(DELAY_MS);
    out('\r\x1b[2K');

    // A command that needs approval: the dialog, then the command's line once approved.
    const command = toolRequest(text);
    let ran = false;
    if (command !== null) {
      ran = await tui.ask([
        '',
        'Would you like to run the following command?',
        '',
        `  $ ${command}`,
        '',
        '› 1. Yes, proceed (y)',
        '  2. No, and tell Codex what to do differently (esc)',
      ]);
      printLine(ran ? `• Ran ${command}` : '✗ You did not approve this command');
      await think(DELAY_MS);
    }

    const answer = command !== null ? toolAnswer(command, ran) : answerTurns(thread.turns);
    const msgId = `msg_${crypto.randomBytes(8).toString('hex')}`;
    line('event_msg', {
      type: 'item_completed',
      thread_id: thread.id,
      turn_id: turnId,
      item: { type: 'AgentMessage', id: msgId, content: [{ type: 'Text', text: answer }] },
    });
    line('response_item', {
      type: 'message',
      status: 'completed',
      id: msgId,
      role: 'assistant',
      content: [{ type: 'output_text', text: answer, annotations: [] }],
    });
    // As 0.169 records each call: its own usage and this process's running total (cached tokens inside input).
    const call = { input_tokens: 10, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 5 };
    thread.usage = {
      input_tokens: (thread.usage?.input_tokens ?? 0) + 10,
      cached_input_tokens: 0,
      cache_write_input_tokens: 0,
      output_tokens: (thread.usage?.output_tokens ?? 0) + 5,
    };
    const withTotal = (u) => ({ ...u, reasoning_output_tokens: 0, total_tokens: u.input_tokens + u.output_tokens });
    line('event_msg', {
      type: 'token_count',
      info: {
        total_token_usage: withTotal(thread.usage),
        last_token_usage: withTotal(call),
        last_usage_includes_reasoning: false,
        model_context_window: 258400,
      },
      rate_limits: { limit_id: 'codex', primary: null, secondary: null },
    });
    line('event_msg', {
      type: 'task_complete',
      turn_id: turnId,
      root_turn_id: turnId,
      last_agent_message: answer,
      started_at: started,
      completed_at: Math.floor(Date.now() / 1000),
      duration_ms: DELAY_MS,
    });
    thread.turns.push({ role: 'assistant', text: answer });

    printReply('•', answer);
    tui.draw();
    runNotify(notifyProgram(opts.config), {
      type: 'agent-turn-complete',
      'thread-id': thread.id,
      'turn-id': turnId,
      cwd: process.cwd(),
      'input-messages': [text],
      'last-assistant-message': answer,
    });
  }

  // ---------------------------------------------------------------- main
  tui.listen({ sigint: true });

  printHeader();
  if (picker) {
    printLines('Resume a previous session', '  No sessions yet', '', 'esc to start new   ctrl + c to quit');
  } else {
    if (thread.resumed) printTurns(thread.turns, { user: '›', reply: '•' });
    tui.draw();
    if (opts.prompt) tui.submit(opts.prompt);
  }
}
