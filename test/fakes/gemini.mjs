#!/usr/bin/env node
// A small, faithful stand-in for the Gemini CLI TUI (docs/vendors.md §3), run inside a real PTY by the tests.
// Same flags, store layout (projects.json + .project_root markers, tmp/<slug>/chats/session-<UTC minute>-<id8>.jsonl
// written at the first message), error texts and exit codes as gemini 0.61.0; a deterministic
// "remember the number N" model instead of the API. Node builtins only.
//
// Like the real TUI, an Enter that follows typed keys too closely is taken as part of a paste: it becomes a
// newline in the box and nothing is submitted (FAKE_GEMINI_PASTE_WINDOW_MS, default 300; 0 turns it off).
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { geminiShellTool, toolRequest } from './lib/signals.mjs';
import { envMs, fail, parseArgs } from './lib/args.mjs';
import {
  appendJsonLine as append,
  listDir,
  readJson,
  readJsonLines,
  realCwd,
  writeAtomic,
  writeJsonAtomic,
} from './lib/fsutil.mjs';
import { answerTurns, think } from './lib/memory.mjs';
import { chatPrompt, createTui, pressTwiceToExit, printLine, printLines, printTurns } from './lib/tui.mjs';
import { restoreAfterPrompt, restoreSetting } from './lib/restore.mjs';

const VERSION = '0.61.0';
const DELAY_MS = envMs('FAKE_GEMINI_DELAY_MS', 50);
const PASTE_WINDOW_MS = envMs('FAKE_GEMINI_PASTE_WINDOW_MS', 300);
const READY = 'Type your message or @path/to/file';
/** The exit code of every session error. */
const SESSION_ERROR = 42;

const home = process.env.GEMINI_CLI_HOME || process.env.HOME || '/';
const geminiDir = path.join(home, '.gemini');
const projectsJson = path.join(geminiDir, 'projects.json');
const cwd = realCwd();

// ---------------------------------------------------------------- arguments
const VALUE_FLAGS = new Set([
  '-m',
  '--model',
  '-p',
  '--prompt',
  '-i',
  '--prompt-interactive',
  '-w',
  '--worktree',
  '--approval-mode',
  '--policy',
  '--admin-policy',
  '--allowed-mcp-server-names',
  '--allowed-tools',
  '-e',
  '--extensions',
  '-r',
  '--resume',
  '--session-file',
  '--session-id',
  '--delete-session',
  '--include-directories',
  '-o',
  '--output-format',
]);
const opts = { version: false, sessionId: null, resume: null, list: false, prompt: null, interactive: null, query: [] };
parseArgs(
  process.argv.slice(2),
  {
    '-v --version': () => (opts.version = true),
    '--session-id': (arg) => (opts.sessionId = arg.value()),
    '-r --resume': (arg) => (opts.resume = arg.value()),
    '--list-sessions': () => (opts.list = true),
    '-p --prompt': (arg) => (opts.prompt = arg.value()),
    '-i --prompt-interactive': (arg) => (opts.interactive = arg.value()),
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

// ---------------------------------------------------------------- project registration
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
    for (let n = 1; taken.has(slug) || (markerOwner(slug) !== null && markerOwner(slug) !== cwd); n++)
      slug = `${base}-${n}`;
    const latest = readJson(projectsJson) ?? {};
    writeJsonAtomic(
      projectsJson,
      { ...latest, projects: { ...(latest.projects ?? {}), [cwd]: slug } },
      { space: 2, eol: '\n' },
    );
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
function textOf(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .filter((p) => p && typeof p.text === 'string')
      .map((p) => p.text)
      .join('\n');
  return '';
}

/** A chat file: its header and its messages after $set/$rewindTo. */
function loadChat(file) {
  const lines = readJsonLines(file, { missingOk: true });
  const meta = lines[0];
  if (!meta || typeof meta.sessionId !== 'string') return null;
  let messages = [];
  let summary = null;
  for (const l of lines.slice(1)) {
    if (l.$set) {
      if (Array.isArray(l.$set.messages))
        messages = l.$set.messages.filter((m) => m.type === 'user' || m.type === 'gemini');
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
  const byId = new Map();
  for (const n of listDir(chatsDir)) {
    if (!/^session-.+\.jsonl$/.test(n)) continue;
    const chat = loadChat(path.join(chatsDir, n));
    if (!chat || (chat.meta.kind && chat.meta.kind !== 'main')) continue;
    const prev = byId.get(chat.meta.sessionId);
    if (!prev || (prev.messages.length === 0 && chat.messages.length > 0)) byId.set(chat.meta.sessionId, chat);
  }
  return [...byId.values()].sort((a, b) => String(a.meta.startTime).localeCompare(String(b.meta.startTime)));
}

function anyFileFor(id) {
  return listDir(chatsDir).some(
    (n) => /^session-.+\.jsonl$/.test(n) && loadChat(path.join(chatsDir, n))?.meta.sessionId === id,
  );
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
  if (sessions.length === 0)
    fail('Error resuming session: No previous sessions found for this project.', SESSION_ERROR);
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
      SESSION_ERROR,
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
    fail(
      `Error starting session: Session ID "${opts.sessionId}" already exists. Use --resume to resume it, or provide a different ID.`,
      SESSION_ERROR,
    );
  }
  state.sessionId = opts.sessionId; // not validated, like the real CLI
} else {
  state.sessionId = crypto.randomUUID();
}

// ---------------------------------------------------------------- transcript writing
function ensureFile() {
  if (state.file) return state.file;
  fs.mkdirSync(chatsDir, { recursive: true });
  const now = new Date();
  const name = `session-${now.toISOString().slice(0, 16).replace(/:/g, '-')}-${state.sessionId.slice(0, 8)}.jsonl`;
  const file = path.join(chatsDir, name);
  append(file, {
    sessionId: state.sessionId,
    projectHash,
    startTime: now.toISOString(),
    lastUpdated: now.toISOString(),
    kind: 'main',
  });
  state.file = file;
  return file;
}

async function converse(text, tui = null) {
  const file = ensureFile();
  append(file, { id: crypto.randomUUID(), timestamp: new Date().toISOString(), type: 'user', content: [{ text }] });
  append(file, { $set: { lastUpdated: new Date().toISOString() } });
  state.turns.push({ role: 'user', text });
  await think(DELAY_MS);
  const command = toolRequest(text);
  const answer = command !== null && tui !== null ? await geminiShellTool(command, tui) : answerTurns(state.turns);
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

// ---------------------------------------------------------------- screen and input
const MARKS = { user: '>', reply: '✦' };

// Restoring as the real CLI does (restore.mjs): its READY text is then the empty box's placeholder, as in the real one.
const restore = restoreSetting(opts.resume !== null);
const tui = createTui({
  mark: '>',
  footer: restore ? '  ? for shortcuts' : `  ${READY}`,
  placeholder: restore ? READY : '',
  onPrompt: chatPrompt({
    marks: MARKS,
    converse,
    quit: () => {
      printLine('Agent powering down. Goodbye!');
      printLine(`To resume this session: gemini --resume ${state.sessionId}`);
      tui.exit(0);
    },
  }),
  keys: pressTwiceToExit({ labels: ['Ctrl+C', 'Ctrl+D'], message: (key) => `Press ${key} again to exit.` }),
  pasteEnter: { windowMs: PASTE_WINDOW_MS, mode: 'newline' },
});

// ---------------------------------------------------------------- main
tui.listen({ sigint: true });

const header = () => {
  printLines(`Gemini CLI (fake) v${VERSION}`, cwd, '');
  printTurns(state.turns, MARKS);
};
header();
tui.draw();
if (restore) restoreAfterPrompt(tui, restore, header);
const first = opts.interactive ?? (opts.query.length > 0 ? opts.query.join(' ') : null);
if (first !== null) tui.submit(first);
