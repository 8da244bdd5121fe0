// opencode's follower (docs/vendors.md §6, §11) against an in-process stand-in for the TUI's server: its own event
// stream, the session list, the hold before a guess, and the database when the port never answers.
import { mkdir, rm } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionObservation, VendorAdapter } from '../../electron/core/vendors/adapter.js';
import { freePort } from '../../electron/core/vendors/opencode/index.js';
import { copySample, editStoreIn, emptyStore, opencodeVendors } from './opencode-fixture.js';

let tmp: string;
let env: Record<string, string>;
let dataDir: string;
let opencodeAdapter: VendorAdapter;
const useSample = () => copySample(dataDir);
const editStore = (sql: string, params?: (string | number | null)[]) => editStoreIn(dataDir, sql, params);

beforeEach(async () => {
  ({ tmp, env, dataDir } = await emptyStore());
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

// ---------- follow(), against an in-process stand-in for the TUI's server ----------

interface StandIn {
  port: number;
  sessions: Record<string, unknown>[];
  /** Sends an event to every open /event stream. */
  emit(type: string, properties: unknown): void;
  /** Whether /event answers (a server without it: 404). */
  events: boolean;
  close(): Promise<void>;
}

async function standIn(): Promise<StandIn> {
  const streams = new Set<ServerResponse>();
  const s: Partial<StandIn> & { sessions: Record<string, unknown>[]; events: boolean } = { sessions: [], events: true };
  const server: Server = createServer((req, res) => {
    if (req.url === '/event' && s.events) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ type: 'server.connected', properties: {} })}\n\n`);
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return;
    }
    if (req.url === '/session')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(s.sessions));
    const one = /^\/session\/(.+)$/.exec(req.url ?? '');
    const found = one && s.sessions.find((x) => x.id === decodeURIComponent(one[1]!));
    if (found) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(found));
    res.writeHead(404).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return Object.assign(s, {
    port: typeof address === 'object' && address ? address.port : 0,
    emit: (type: string, properties: unknown) => {
      for (const res of streams) res.write(`data: ${JSON.stringify({ type, properties })}\n\n`);
    },
    close: () =>
      new Promise<void>((r) => {
        for (const res of streams) res.destroy();
        server.close(() => r());
      }),
  }) as StandIn;
}

const sid = (n: number) => `ses_${(0xdeb4a1b2c3ff - n).toString(16)}Follow${String(n).padStart(8, '0')}`;
const session = (n: number, directory: string, created: number, parentID?: string) => ({
  id: sid(n),
  directory,
  title: `s${n}`,
  time: { created, updated: created },
  ...(parentID ? { parentID } : {}),
});

describe('opencode follow()', () => {
  const servers: StandIn[] = [];
  const stops: (() => void)[] = [];
  beforeEach(() => {
    ({ opencodeAdapter } = opencodeVendors({
      timings: {
        opencode: {
          searchIntervalMs: 30,
          intervalMs: 30,
          dbEveryMs: 30,
          dbFallbackAfterMs: 300,
          eventSlackMs: 50,
          listHoldMs: 100,
        },
      },
    }));
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) stop();
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  async function start(
    cwd: string,
    hints: Record<string, string>,
    spawnedAt = Date.now(),
  ): Promise<SessionObservation[]> {
    const seen: SessionObservation[] = [];
    stops.push(opencodeAdapter.follow({ pid: process.pid, cwd, hints, spawnedAt }, env, (s) => seen.push(s)));
    return seen;
  }
  const until = async (cond: () => boolean, ms = 5000) => {
    const end = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const settle = () => new Promise((r) => setTimeout(r, 300));

  it('takes the session this process announces on its own event stream, and follows /new', async () => {
    const cwd = join(tmp, 'w');
    await mkdir(cwd);
    const srv = await standIn();
    servers.push(srv);
    const seen = await start(cwd, { port: String(srv.port) });
    await settle();
    // Another process's session in the same directory shows up in the list first: not announced here, not taken.
    srv.sessions.push(session(1, cwd, Date.now()));
    await settle();
    expect(seen).toEqual([]);
    srv.sessions.push(session(2, cwd, Date.now()));
    srv.emit('session.created', { info: session(2, cwd, Date.now()) });
    await until(() => seen.some((x) => x.confirmed));
    expect(seen.at(-1)).toEqual({ sessionId: sid(2), confirmed: true });
    expect(seen.map((x) => x.sessionId)).not.toContain(sid(1));
    // /new: a second session of this process; a sub-agent's session (parentID) is never the agent's.
    srv.sessions.push(session(3, cwd, Date.now(), sid(2)));
    srv.emit('session.created', { info: session(3, cwd, Date.now(), sid(2)) });
    await settle();
    expect(seen.at(-1)?.sessionId).toBe(sid(2));
    srv.sessions.push(session(4, cwd, Date.now()));
    srv.emit('session.created', { info: session(4, cwd, Date.now()) });
    await until(() => seen.at(-1)?.sessionId === sid(4));
    // A prompt in an older session of this process (picked in the TUI) makes it current again.
    srv.emit('message.updated', { info: { id: 'msg_x', sessionID: sid(2), role: 'user' } });
    await until(() => seen.at(-1)?.sessionId === sid(2));
  });

  it('without events: accepts exactly one new, unclaimed session of this directory from the list', async () => {
    const cwd = join(tmp, 'w');
    await mkdir(cwd);
    const srv = await standIn();
    srv.events = false;
    servers.push(srv);
    const spawnedAt = Date.now();
    srv.sessions.push(session(11, cwd, spawnedAt - 60_000)); // older than the spawn
    srv.sessions.push(session(12, join(tmp, 'elsewhere'), spawnedAt + 10)); // another directory
    const seen = await start(cwd, { port: String(srv.port) }, spawnedAt);
    await settle();
    expect(seen).toEqual([]);
    srv.sessions.push(session(13, cwd, spawnedAt + 20), session(14, cwd, spawnedAt + 30));
    await settle();
    expect(seen).toEqual([]); // two fit: never guess
    srv.sessions.splice(
      srv.sessions.findIndex((s) => s.id === sid(14)),
      1,
    );
    await until(() => seen.length > 0);
    expect(seen).toEqual([{ sessionId: sid(13), confirmed: true }]);
  });

  it('without events: never takes a session another agent claimed', async () => {
    const cwd = join(tmp, 'w');
    await mkdir(cwd);
    const srv = await standIn();
    srv.events = false;
    servers.push(srv);
    const spawnedAt = Date.now();
    const first = await start(cwd, { port: String(srv.port) }, spawnedAt);
    srv.sessions.push(session(5, cwd, spawnedAt + 10));
    await until(() => first.length > 0);
    expect(first.at(-1)?.sessionId).toBe(sid(5));
    const second = await start(cwd, { port: String(srv.port) }, spawnedAt);
    await settle();
    expect(second).toEqual([]);
  });

  it('a resumed agent reports its id at once and confirms it from the list', async () => {
    const cwd = join(tmp, 'w');
    await mkdir(cwd);
    const srv = await standIn();
    servers.push(srv);
    srv.sessions.push(session(6, cwd, Date.now() - 60_000));
    const seen = await start(cwd, { port: String(srv.port), sessionId: sid(6) });
    await until(() => seen.some((s) => s.confirmed));
    expect(seen.at(-1)).toEqual({ sessionId: sid(6), confirmed: true });
  });

  it('when the port never answers, diffs the database by directory (one new row, unclaimed)', async () => {
    await useSample();
    const cwd = join(tmp, 'w');
    await mkdir(cwd);
    const port = await freePort(); // nothing listens there
    const spawnedAt = Date.now();
    const seen = await start(cwd, { port: String(port) }, spawnedAt);
    await editStore(
      "INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'global', 's', ?, 't', '1.18.33', ?, ?)",
      [sid(7), cwd, spawnedAt + 5, spawnedAt + 5],
    );
    await until(() => seen.some((x) => x.confirmed));
    expect(seen.at(-1)).toEqual({ sessionId: sid(7), confirmed: true });
  });

  it('reports nothing for a directory with no new session, and stops when asked', async () => {
    const cwd = join(tmp, 'w');
    await mkdir(cwd);
    const srv = await standIn();
    servers.push(srv);
    const seen: SessionObservation[] = [];
    const stop = opencodeAdapter.follow(
      { pid: process.pid, cwd, hints: { port: String(srv.port) }, spawnedAt: Date.now() },
      env,
      (s) => seen.push(s),
    );
    await settle();
    stop();
    srv.sessions.push(session(8, cwd, Date.now()));
    srv.emit('session.created', { info: session(8, cwd, Date.now()) });
    await settle();
    expect(seen).toEqual([]);
  });
});
