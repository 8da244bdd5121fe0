#!/usr/bin/env node
// A stand-in for the Cursor CLI `cursor-agent` (docs/vendors.md §7), run inside a real PTY by the tests. The real CLI
// could not be installed where this was written, so EVERYTHING here follows [reported] behaviour only:
//   - `create-chat` prints a new chat UUID and creates ~/.cursor/chats/<md5(workspace)>/<id>/ with meta.json;
//   - `--resume <id>` (or `--resume=<id>`) opens that chat, with its memory; an id with no chat folder prints
//     `Error: chat not found: <id>` and exits 1 (one of the reported behaviours; others report a fresh chat);
//   - without `--resume` a new chat is made at the first message;
//   - the chat is a real SQLite store.db (sql.js from the project's node_modules): meta row '0' = hex JSON
//     {agentId, latestRootBlobId, name, mode, createdAt, lastUsedModel}, blobs keyed by sha256(data) = JSON messages
//     and a protobuf root (field 1 = the message ids in order); meta.json {createdAtMs, updatedAtMs, hasConversation}.
//   - `--workspace <path>` picks the workspace (default: the realpath of the cwd). A deterministic "remember the
//     number N" model. FAKE_CURSOR_CREATE_CHAT=fail|hang|garbage makes create-chat misbehave, for tests.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { envMs, fail, parseArgs } from './lib/args.mjs';
import { readJson, writeAtomic, writeJsonAtomic } from './lib/fsutil.mjs';
import { answerFor, think } from './lib/memory.mjs';
import { createTui, oneLine, printLine, printLines, printReply, printTurns } from './lib/tui.mjs';

const VERSION = '2026.11.20-fake';
const READY = 'Plan, search, build anything';
const DELAY_MS = envMs('FAKE_CURSOR_DELAY_MS', 50);
const SQL_JS = new URL('../../node_modules/sql.js/dist/sql-wasm.js', import.meta.url);
const SQL_WASM = fileURLToPath(new URL('../../node_modules/sql.js/dist/sql-wasm.wasm', import.meta.url));

// ---------------------------------------------------------------- arguments
const VALUE_FLAGS = new Set(['-m', '--model', '--output-format', '--api-key', '-H', '--header']);
const opts = { version: false, command: null, resume: null, workspace: null, print: false, words: [] };
parseArgs(
  process.argv.slice(2),
  {
    '-v --version': () => (opts.version = true),
    '--resume': (arg) => (opts.resume = arg.value()),
    '--workspace': (arg) => (opts.workspace = arg.value()),
    '-p --print': () => (opts.print = true),
  },
  {
    other: (a, arg) => {
      if (VALUE_FLAGS.has(a)) arg.value();
      else if (!a.startsWith('-')) {
        if (opts.command === null && opts.words.length === 0 && (a === 'create-chat' || a === 'resume'))
          opts.command = a;
        else opts.words.push(a);
      } // other flags (--trust, --force, …) are ignored
    },
    missing: (a) => fail(`error: option '${a}' argument missing`),
  },
);

if (opts.version) {
  process.stdout.write(`${VERSION}\n`);
  process.exit(0);
}

const workspace = fs.realpathSync(opts.workspace ?? process.cwd());
const home = process.env.HOME || '/';
const workspaceDir = path.join(home, '.cursor', 'chats', crypto.createHash('md5').update(workspace).digest('hex'));
const chatDir = (id) => path.join(workspaceDir, id);

function makeChatFolder(id) {
  const now = Date.now();
  fs.mkdirSync(chatDir(id), { recursive: true });
  writeJsonAtomic(path.join(chatDir(id), 'meta.json'), { createdAtMs: now, updatedAtMs: now, hasConversation: false });
}

// ---------------------------------------------------------------- create-chat
if (opts.command === 'create-chat') {
  const mode = process.env.FAKE_CURSOR_CREATE_CHAT;
  if (mode === 'fail') fail('Error: not logged in. Run `cursor-agent login` first.');
  if (mode === 'hang') await new Promise(() => setInterval(() => {}, 1000));
  if (mode === 'garbage') {
    process.stdout.write('Creating chat… done\n');
    process.exit(0);
  }
  const id = crypto.randomUUID();
  makeChatFolder(id);
  process.stdout.write(`${id}\n`);
  process.exit(0);
}

// ---------------------------------------------------------------- the chat store (SQLite through sql.js)
const { default: initSqlJs } = await import(SQL_JS.href);
const SQL = await initSqlJs({ locateFile: () => SQL_WASM });

const sha256 = (data) => crypto.createHash('sha256').update(data).digest('hex');

function rootBlob(ids) {
  const parts = [];
  for (const id of ids) parts.push(Buffer.from([0x0a, 0x20]), Buffer.from(id, 'hex'));
  return Buffer.concat(parts);
}

function parseRoot(buf) {
  const ids = [];
  for (let i = 0; i + 34 <= buf.length && buf[i] === 0x0a && buf[i + 1] === 0x20; i += 34)
    ids.push(buf.subarray(i + 2, i + 34).toString('hex'));
  return ids;
}

/** The chat's meta and messages, or null when it has no store.db yet. */
function loadChat(id) {
  let bytes;
  try {
    bytes = fs.readFileSync(path.join(chatDir(id), 'store.db'));
  } catch {
    return null;
  }
  const db = new SQL.Database(bytes);
  try {
    const metaHex = db.exec("SELECT value FROM meta WHERE key = '0'")[0]?.values[0]?.[0];
    const meta = JSON.parse(Buffer.from(String(metaHex), 'hex').toString('utf8'));
    const blob = (bid) => {
      const stmt = db.prepare('SELECT data FROM blobs WHERE id = ?');
      stmt.bind([bid]);
      const data = stmt.step() ? stmt.get()[0] : null;
      stmt.free();
      return data ? Buffer.from(data) : null;
    };
    const root = blob(meta.latestRootBlobId);
    const messages = (root ? parseRoot(root) : []).map((mid) => JSON.parse(blob(mid).toString('utf8')));
    return { meta, messages };
  } finally {
    db.close();
  }
}

function saveChat(id, meta, messages) {
  const db = new SQL.Database();
  db.run('CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB)');
  db.run('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)');
  const ids = [];
  for (const m of messages) {
    const data = Buffer.from(JSON.stringify(m));
    const bid = sha256(data);
    ids.push(bid);
    db.run('INSERT OR REPLACE INTO blobs VALUES (?, ?)', [bid, data]);
  }
  const root = rootBlob(ids);
  const rootId = sha256(root);
  db.run('INSERT OR REPLACE INTO blobs VALUES (?, ?)', [rootId, root]);
  const full = { ...meta, agentId: id, latestRootBlobId: rootId };
  db.run("INSERT INTO meta VALUES ('0', ?)", [Buffer.from(JSON.stringify(full)).toString('hex')]);
  writeAtomic(path.join(chatDir(id), 'store.db'), db.export());
  db.close();
  const old = readJson(path.join(chatDir(id), 'meta.json')) ?? {};
  writeJsonAtomic(path.join(chatDir(id), 'meta.json'), {
    createdAtMs: old.createdAtMs ?? meta.createdAt,
    updatedAtMs: Date.now(),
    hasConversation: true,
  });
}

// ---------------------------------------------------------------- the chat to start with
const state = { id: null, meta: null, messages: [] };
if (opts.resume !== null) {
  const id = opts.resume;
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id) || !fs.existsSync(chatDir(id)))
    fail(`Error: chat not found: ${id}`);
  state.id = id;
  const chat = loadChat(id);
  if (chat) {
    state.meta = chat.meta;
    state.messages = chat.messages;
  }
}

const textOf = (m) =>
  Array.isArray(m.content)
    ? m.content
        .filter((p) => p.type === 'text')
        .map((p) => p.text)
        .join('\n')
    : String(m.content ?? '');

async function converse(text) {
  if (state.id === null) {
    state.id = crypto.randomUUID();
    makeChatFolder(state.id);
  }
  state.meta ??= { name: text.slice(0, 50), mode: 'default', createdAt: Date.now(), lastUsedModel: 'fake-model' };
  state.messages.push({ role: 'user', content: [{ type: 'text', text }] });
  saveChat(state.id, state.meta, state.messages);
  await think(DELAY_MS);
  const answer = answerFor(state.messages.filter((m) => m.role === 'user').map(textOf));
  state.messages.push({ role: 'assistant', content: [{ type: 'text', text: answer }] });
  saveChat(state.id, state.meta, state.messages);
  return answer;
}

if (opts.print) {
  process.stdout.write(`${await converse(opts.words.join(' '))}\n`);
  process.exit(0);
}

// ---------------------------------------------------------------- screen and input
const tui = createTui({
  mark: '→',
  footer: '  Auto · ctrl+c to stop',
  placeholder: READY,
  onPrompt: async (text) => {
    if (text === '/quit' || text === '/exit') tui.exit(0);
    printLine(`> ${oneLine(text)}`);
    printReply(' ', await converse(text));
    tui.draw();
  },
  keys: { '\x03': (tui) => tui.exit(0), '\x04': (tui) => tui.exit(0) },
  // No bracketed paste: a paste arrives as typed keys.
  bracketedPaste: false,
  ss3: false,
  ctrlJ: false,
  echoOnSubmit: false,
});

tui.listen();

printLines(`Cursor Agent (fake) ${VERSION}`, workspace, '');
printTurns(
  state.messages.map((m) => ({ role: m.role, text: textOf(m) })),
  { user: '>', reply: ' ' },
);
tui.draw();
if (opts.words.length > 0) tui.submit(opts.words.join(' '));
