#!/usr/bin/env node
// A small, faithful stand-in for the opencode 1.18.33 TUI (docs/vendors.md §6), run inside a real PTY by the tests.
//   - the store is a real SQLite database, `${XDG_DATA_HOME:-~/.local/share}/opencode/opencode.db`, made from the
//     schema of the sample in test/fixtures and written with sql.js from the project's node_modules; a session row
//     (+ message and part rows) appears at the FIRST PROMPT, with `directory` = the realpath of the cwd. A JSON copy
//     of what the fake said (`fake-sessions.json`, the fake's own bookkeeping) sits beside it.
//   - `--port N` serves the TUI's API on 127.0.0.1:N: `GET /session` lists every session of the store (as the real
//     server, whose list comes from the database all opencode processes share), `GET /session/:id`, `POST /session`,
//     and `GET /event` (server-sent events of THIS process only: session.created, message.updated, …).
//   - `-s <id>` resumes (unknown → `Error: Session not found: <id>`, exit 1); in another directory than the session's
//     the prompt is sent and no answer ever comes (the real CLI hangs there); `-c` continues the newest of the cwd.
//   - a deterministic "remember the number N" model; `/new` starts another session at the next prompt; `/exit`.
// Node builtins only, plus sql.js (pure WebAssembly) from the project.
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import crypto from 'node:crypto';
import { envMs, fail, parseArgs } from './lib/args.mjs';
import { readJson, realCwd, writeJsonAtomic } from './lib/fsutil.mjs';
import { answerTurns, think } from './lib/memory.mjs';
import { all, getSession, loadTurns, newId, opencodeStore, sessionInfo } from './lib/opencode-store.mjs';
import { createTui, oneLine, printLine, printLines, printReply, printTurns } from './lib/tui.mjs';

const VERSION = '1.18.33';
const DELAY_MS = envMs('FAKE_OPENCODE_DELAY_MS', 50);

// ---------------------------------------------------------------- arguments
const VALUE_FLAGS = new Set([
  '--log-level',
  '--hostname',
  '--mdns-domain',
  '--cors',
  '-m',
  '--model',
  '--agent',
  '--replay-limit',
]);
const opts = { version: false, port: 0, session: null, cont: false, prompt: null, project: null };
parseArgs(
  process.argv.slice(2),
  {
    '-v --version': () => (opts.version = true),
    '--port': (arg) => {
      opts.port = Number(arg.value());
      if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) fail('Invalid values:\n  Argument: port');
    },
    '-s --session': (arg) => (opts.session = arg.value()),
    '-c --continue': () => (opts.cont = true),
    '--prompt': (arg) => (opts.prompt = arg.value()),
  },
  {
    other: (a, arg) => {
      if (VALUE_FLAGS.has(a)) arg.value();
      else if (!a.startsWith('-') && opts.project === null) opts.project = a; // other flags are ignored
    },
    missing: (a) => fail(`Not enough arguments following: ${a.replace(/^-+/, '')}`),
  },
);

if (opts.version) {
  process.stdout.write(`${VERSION}\n`);
  process.exit(0);
}
if (opts.project !== null) {
  try {
    process.chdir(opts.project);
  } catch {
    fail(`Error: failed to change directory to ${opts.project}`);
  }
}

const cwd = realCwd();
const xdg = process.env.XDG_DATA_HOME && process.env.XDG_DATA_HOME.startsWith('/') ? process.env.XDG_DATA_HOME : null;
const dataDir = path.join(xdg ?? path.join(process.env.HOME || '/', '.local', 'share'), 'opencode');
const jsonPath = path.join(dataDir, 'fake-sessions.json');

const store = opencodeStore(dataDir);

// ---------------------------------------------------------------- this process's state and events
const state = { session: null, turns: [] };
const listeners = new Set();
function publish(type, properties) {
  const line = `data: ${JSON.stringify({ type, properties })}\n\n`;
  for (const res of listeners) res.write(line);
}

async function createSession() {
  const now = Date.now();
  const id = newId('ses', true);
  const row = await store((db) => {
    if (all(db, "SELECT id FROM project WHERE id = 'global'").length === 0) {
      db.run(
        "INSERT INTO project (id, worktree, vcs, time_created, time_updated, sandboxes) VALUES ('global', '/', NULL, ?, ?, '[]')",
        [now, now],
      );
    }
    const slug = `fake-${crypto.randomBytes(3).toString('hex')}`;
    db.run(
      `INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated)
       VALUES (?, 'global', ?, ?, ?, ?, ?, ?)`,
      [id, slug, cwd, `New session - ${new Date(now).toISOString()}`, VERSION, now, now],
    );
    return getSession(db, id);
  }, true);
  writeJsonMirror(id, { directory: cwd, created: now, turns: [] });
  publish('session.created', { info: sessionInfo(row) });
  return row;
}

function writeJsonMirror(id, patch) {
  const json = readJson(jsonPath) ?? {}; // none yet
  json.sessions ??= {};
  json.sessions[id] = { ...(json.sessions[id] ?? {}), ...patch };
  writeJsonAtomic(jsonPath, json, { space: 2 });
}

async function addMessage(sessionId, role, text, extra = {}) {
  const now = Date.now();
  const msgId = newId('msg', false);
  const partId = newId('prt', false);
  const data =
    role === 'user'
      ? { role, time: { created: now }, agent: 'build', model: { providerID: 'mock', modelID: 'mock-model' } }
      : {
          role,
          mode: 'build',
          agent: 'build',
          path: { cwd, root: cwd },
          cost: 0,
          // As 1.18 records each call: input without the cache, output, reasoning, cache read/write.
          tokens: { total: 15, input: 10, output: 5, reasoning: 0, cache: { write: 0, read: 0 } },
          modelID: 'mock-model',
          providerID: 'mock',
          time: { created: now, completed: now },
          finish: 'stop',
          ...extra,
        };
  const row = await store((db) => {
    db.run('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)', [
      msgId,
      sessionId,
      now,
      now,
      JSON.stringify(data),
    ]);
    db.run(
      'INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)',
      [partId, msgId, sessionId, now, now, JSON.stringify({ type: 'text', text })],
    );
    if (role === 'assistant') {
      const first =
        all(db, "SELECT title FROM session WHERE id = ? AND title LIKE 'New session - %'", [sessionId]).length > 0;
      if (first)
        db.run('UPDATE session SET title = ? WHERE id = ?', [
          state.turns.find((t) => t.role === 'user')?.text.slice(0, 50) ?? 'Untitled',
          sessionId,
        ]);
      db.run('UPDATE session SET time_updated = ? WHERE id = ?', [now, sessionId]);
    }
    return getSession(db, sessionId);
  }, true);
  publish('message.updated', { info: { id: msgId, sessionID: sessionId, ...data } });
  publish('message.part.updated', { part: { id: partId, messageID: msgId, sessionID: sessionId, type: 'text', text } });
  if (row) publish('session.updated', { info: sessionInfo(row) });
  writeJsonMirror(sessionId, { turns: state.turns });
}

// ---------------------------------------------------------------- the session to start with
if (opts.session !== null) {
  const row = await store((db) => getSession(db, opts.session));
  if (!row) fail(`Error: Session not found: ${opts.session}`);
  state.session = row;
  state.turns = await store((db) => loadTurns(db, row.id));
} else if (opts.cont) {
  const row = await store(
    (db) =>
      all(
        db,
        `SELECT ${SESSION_COLUMNS} FROM session WHERE directory = ? AND parent_id IS NULL ORDER BY time_updated DESC LIMIT 1`,
        [cwd],
      )[0] ?? null,
  );
  if (row) {
    state.session = row;
    state.turns = await store((db) => loadTurns(db, row.id));
  }
}

// ---------------------------------------------------------------- the server (--port)
function checkAuth(req, res) {
  const password = process.env.OPENCODE_SERVER_PASSWORD;
  if (!password) return true;
  const user = process.env.OPENCODE_SERVER_USERNAME || 'opencode';
  if (req.headers.authorization === `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`) return true;
  res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
  return false;
}

const json = (res, status, body) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

async function route(req, res) {
  if (!checkAuth(req, res)) return;
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method === 'GET' && url.pathname === '/event') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.write(`data: ${JSON.stringify({ type: 'server.connected', properties: {} })}\n\n`);
    listeners.add(res);
    req.on('close', () => listeners.delete(res));
    return;
  }
  if (req.method === 'GET' && url.pathname === '/session') {
    const list = await store((db) =>
      all(db, `SELECT ${SESSION_COLUMNS} FROM session ORDER BY time_updated DESC`).map(sessionInfo),
    );
    return json(res, 200, list);
  }
  if (req.method === 'POST' && url.pathname === '/session') {
    req.resume();
    return json(res, 200, sessionInfo(await createSession()));
  }
  const one = /^\/session\/([^/]+)$/.exec(url.pathname);
  if (req.method === 'GET' && one) {
    const id = decodeURIComponent(one[1]);
    const row = await store((db) => getSession(db, id));
    if (!row) return json(res, 404, { name: 'NotFoundError', data: { message: `Session not found: ${id}` } });
    return json(res, 200, sessionInfo(row));
  }
  json(res, 404, { name: 'NotFoundError', data: { message: `no route ${url.pathname}` } });
}

if (opts.port > 0) {
  const server = http.createServer((req, res) => {
    route(req, res).catch((err) => {
      if (!res.headersSent) json(res, 500, { name: 'UnknownError', data: { message: String(err?.message ?? err) } });
    });
  });
  await new Promise((resolve) => {
    server.once('error', (err) =>
      fail(`Error: Failed to start server on port ${opts.port}: ${err.code ?? err.message}`),
    );
    server.listen(opts.port, '127.0.0.1', resolve);
  });
}

// ---------------------------------------------------------------- the model
async function converse(text) {
  if (!state.session) {
    state.session = await createSession();
    state.turns = [];
  }
  const id = state.session.id;
  state.turns.push({ role: 'user', text });
  await addMessage(id, 'user', text);
  publish('session.status', { sessionID: id, status: { type: 'busy' } });
  if (state.session.directory !== cwd) return new Promise(() => {}); // the real CLI hangs here (docs/vendors.md §6)
  await think(DELAY_MS);
  const answer = answerTurns(state.turns);
  state.turns.push({ role: 'assistant', text: answer });
  await addMessage(id, 'assistant', answer);
  publish('session.idle', { sessionID: id });
  return answer;
}

// ---------------------------------------------------------------- screen and input
const tui = createTui({
  mark: '┃',
  footer: `  ${path.basename(cwd)}   tab agents  ctrl+p commands`,
  placeholder: 'Ask anything…',
  onPrompt: handlePrompt,
  keys: {
    '\x03': (tui) => {
      if (tui.armed || tui.buf === '') tui.exit(0);
      tui.armed = 'c';
      tui.buf = '';
      return true;
    },
  },
  // No bracketed paste: a paste arrives as typed keys.
  bracketedPaste: false,
  ss3: false,
  ctrlJ: false,
  echoOnSubmit: false,
});

async function handlePrompt(text) {
  if (text === '/exit' || text === '/quit') tui.exit(0);
  if (text === '/new') {
    state.session = null;
    state.turns = [];
    printLine('── new session ──');
    return tui.draw();
  }
  printLine(`> ${oneLine(text)}`);
  printReply(' ', await converse(text));
  tui.draw();
}

tui.listen();

printLines(`opencode (fake) ${VERSION}`, cwd, '');
printTurns(state.turns, { user: '>', reply: ' ' });
tui.draw();
if (opts.prompt !== null) tui.submit(opts.prompt);
