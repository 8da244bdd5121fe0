// opencode (vendors.md §6, §10, §11). The CLI takes no session id at spawn and creates its session at the first
// prompt, so Baton gives the TUI a port of its own (`--port <free port>`) and asks the TUI's own server:
//   GET /session  — the sessions of the project, as {id, directory, parentID?, time:{created, updated}, …}
//   GET /event    — server-sent events of THIS process (session.created, message.updated, …)
// That list is read from the database every opencode process of the machine shares, so it also shows sessions that
// another opencode in the same directory creates. The event stream is what makes a session this process's own:
// the session that this process created or last took a prompt in is the agent's session (that also follows /new).
// Without events (not connected yet), a session in the list is accepted only when it is unambiguous: of the
// agent's directory, top-level, created after the spawn, claimed by no other agent, not created while the event
// stream was connected without mentioning it, and still the only one after a short hold (time for the agent whose
// process made it to claim it). When the port never answers at all, the last resort is a diff of the database by
// directory with the same rules. Never "newest wins". Confirmed = the server lists or returns the session (it reads
// them from the database), or the database itself holds the row (read with its WAL applied: opencode-store.ts).
//
// Resume: `opencode -s <id>` in the session's own directory (elsewhere the CLI hangs, vendors.md §6); the core
// spawns in the agent's stored cwd, and planResume only resumes a session whose directory is that cwd.
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AgentContext, LiveTerminal, PriorSession, SessionObservation, SpawnPlan, VendorAdapter, VendorEnv } from './adapter.js';
import { cliBinary, freshWarning, goneFrom, savedIdProblem, shortId, spawnPlan } from './common.js';
import { repeat } from './poll.js';
import { pathForms } from './store-fs.js';
import {
  OPENCODE_SESSION_ID,
  displayDataDir,
  findOpencodeSession,
  listOpencodeSessions,
  opencodeSessionIn,
  opencodeSessions,
} from './opencode-store.js';

const BIN_ENV = 'BATON_OPENCODE_BIN';
const DEFAULT_BIN = 'opencode';

/** The vendor facts, as data. */
export const OPENCODE_FACTS = {
  sessionIdPattern: OPENCODE_SESSION_ID,
  submitDelayMs: 300,
  /** TUI `-s <missing id>`: `Error: Session not found: <id>`, exit 1 (vendors.md §6). */
  resumeErrorTexts: [/Session not found/] as readonly RegExp[],
} as const;

/** How follow() polls; mutable so tests can shorten the waits. */
export const OPENCODE_FOLLOW = {
  /** Until an id is known. */
  searchIntervalMs: 300,
  /** Once an id is known (confirmation, /new, a switch to another session). */
  intervalMs: 1000,
  /** One HTTP request to the TUI's server. */
  requestTimeoutMs: 2000,
  /** The port has never answered for this long: diff the database instead. */
  dbFallbackAfterMs: 30_000,
  /** While unconfirmed, the database is read at most this often. */
  dbEveryMs: 2000,
  /** A session created this much before the spawn still counts as new (clock granularity). */
  clockSlackMs: 1000,
  /** A session created this long after the event stream opened must have been announced on it, if it is ours. */
  eventSlackMs: 500,
  /**
   * A guess from the list must stay the only candidate this long before it is taken: time for the process that
   * made it, when that is another agent's, to claim it from its own events.
   */
  listHoldMs: 1500,
};

/** Ids given to an agent, with the follower that owns each: a guess never takes another agent's id. */
const claimed = new Map<string, symbol>();

const { facts: binary, of: binOf } = cliBinary(BIN_ENV, DEFAULT_BIN);

/** A TCP port that is free on 127.0.0.1 now (listen on 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

const validPort = (s: string | undefined): number | null => {
  if (!s || !/^\d{1,5}$/.test(s)) return null;
  const n = Number(s);
  return n >= 1 && n <= 65535 ? n : null;
};

/** The port the user's own arguments give (`--port N` / `--port=N`), if any: then Baton does not add its own. */
function userPort(args: readonly string[]): number | null | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--port') return validPort(args[i + 1]);
    if (a.startsWith('--port=')) return validPort(a.slice('--port='.length));
  }
  return undefined;
}

async function withPort(ctx: AgentContext, head: string[], hints: Record<string, string>): Promise<{ argv: string[]; hints: Record<string, string> }> {
  const own = userPort(ctx.args);
  if (own !== undefined) return { argv: [...head, ...ctx.args], hints: own === null ? hints : { ...hints, port: String(own) } };
  const port = await freePort();
  return { argv: [...head, '--port', String(port), ...ctx.args], hints: { ...hints, port: String(port) } };
}

async function fresh(ctx: AgentContext, env: VendorEnv, why: string | null): Promise<SpawnPlan> {
  const { argv, hints } = await withPort(ctx, [binOf(env)], {});
  return spawnPlan(argv, null, null, 'fresh', why === null ? null : freshWarning('opencode', why, ctx.cwd), hints);
}

export const opencodeAdapter: VendorAdapter = {
  vendor: 'opencode',
  displayName: 'opencode',
  // follow() tells sessions apart by this process's own event stream, so same-directory spawns need not queue.
  tellsConcurrentSessionsApart: true,
  sessionIdPattern: OPENCODE_FACTS.sessionIdPattern,
  submitDelayMs: OPENCODE_FACTS.submitDelayMs,
  resumeErrorTexts: OPENCODE_FACTS.resumeErrorTexts,
  ...binary,

  spawnFresh(ctx, env) {
    return fresh(ctx, env, null);
  },

  async planResume(ctx: AgentContext, prior: PriorSession, env: VendorEnv): Promise<SpawnPlan> {
    const id = prior.sessionId;
    const problem = savedIdProblem(id, OPENCODE_SESSION_ID, 'an opencode session id');
    if (problem) return fresh(ctx, env, problem);
    const row = await findOpencodeSession(id, env);
    if (row && (await pathForms(ctx.cwd)).includes(row.directory)) {
      const { argv, hints } = await withPort(ctx, [binOf(env), '-s', id], { sessionId: id });
      return spawnPlan(argv, id, prior.chosenBy, 'resumed', null, hints);
    }
    // Resumed from another directory the CLI calls the model and then hangs (vendors.md §6): never do that.
    if (row) return fresh(ctx, env, `session ${shortId(id)} belongs to ${row.directory}, not ${ctx.cwd}`);
    return fresh(ctx, env, goneFrom(id, displayDataDir(env)));
  },

  exists(sessionId, cwd, env) {
    return opencodeSessionIn(sessionId, cwd, env);
  },

  follow(terminal: LiveTerminal, env: VendorEnv, onSession: (seen: SessionObservation) => void): () => void {
    return followOpencode(terminal, env, onSession);
  },

  listSessions(env) {
    return listOpencodeSessions(env);
  },

  resumeCommand(sessionId) {
    return [DEFAULT_BIN, '-s', sessionId];
  },
};

// ---------------------------------------------------------------- the TUI's own server

/** What Baton needs from a session object of the server (list items and event payloads). */
export interface ServerSession {
  id: string;
  directory: string | null;
  parentId: string | null;
  created: number | null;
}

export function parseServerSession(v: unknown): ServerSession | null {
  if (!v || typeof v !== 'object') return null;
  const s = v as { id?: unknown; directory?: unknown; parentID?: unknown; time?: { created?: unknown } };
  if (typeof s.id !== 'string' || !OPENCODE_SESSION_ID.test(s.id)) return null;
  return {
    id: s.id,
    directory: typeof s.directory === 'string' ? s.directory : null,
    parentId: typeof s.parentID === 'string' && s.parentID !== '' ? s.parentID : null,
    created: s.time && typeof s.time.created === 'number' ? s.time.created : null,
  };
}

/** What one server-sent event says about this process's sessions. */
export type OwnEvent = { kind: 'session'; session: ServerSession; created: boolean } | { kind: 'prompt'; sessionId: string } | null;

/** Reads one event of `GET /event` (the instance's bus; the `/global/event` wrapping `{payload}` is accepted too). */
export function parseEvent(data: string): OwnEvent {
  let ev: unknown;
  try {
    ev = JSON.parse(data);
  } catch {
    return null;
  }
  if (ev && typeof ev === 'object' && 'payload' in ev && !('type' in ev)) ev = (ev as { payload: unknown }).payload;
  if (!ev || typeof ev !== 'object') return null;
  const { type, properties } = ev as { type?: unknown; properties?: { info?: unknown } };
  if (typeof type !== 'string' || !properties || typeof properties !== 'object') return null;
  if (type === 'session.created' || type === 'session.updated') {
    const session = parseServerSession(properties.info);
    return session ? { kind: 'session', session, created: type === 'session.created' } : null;
  }
  if (type === 'message.updated') {
    const info = properties.info as { sessionID?: unknown; role?: unknown } | undefined;
    if (info && info.role === 'user' && typeof info.sessionID === 'string' && OPENCODE_SESSION_ID.test(info.sessionID)) {
      return { kind: 'prompt', sessionId: info.sessionID };
    }
  }
  return null;
}

function authHeaders(env: VendorEnv): Record<string, string> {
  const password = env.OPENCODE_SERVER_PASSWORD;
  if (!password) return {};
  const user = env.OPENCODE_SERVER_USERNAME || 'opencode';
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

function getJson(port: number, path: string, env: VendorEnv): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'GET', headers: { accept: 'application/json', ...authHeaders(env) }, timeout: OPENCODE_FOLLOW.requestTimeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > 32 * 1024 * 1024) req.destroy(new Error('response too large'));
          else chunks.push(c);
        });
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}`));
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
          } catch (err) {
            reject(err as Error);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

/** Opens `GET /event`; calls `onOpen` once the server accepted it and `onData` per event. Returns a closer. */
function openEvents(port: number, env: VendorEnv, on: { open(): void; data(data: string): void; close(): void }): () => void {
  let closed = false;
  let res: IncomingMessage | null = null;
  const finish = () => {
    if (closed) return;
    closed = true;
    on.close();
  };
  const req = request({ host: '127.0.0.1', port, path: '/event', method: 'GET', headers: { accept: 'text/event-stream', ...authHeaders(env) } }, (r) => {
    res = r;
    if (r.statusCode !== 200) {
      r.resume();
      req.destroy();
      return;
    }
    on.open();
    r.setEncoding('utf8');
    let buf = '';
    r.on('data', (chunk: string) => {
      buf += chunk.replace(/\r\n?/g, '\n');
      for (let end = buf.indexOf('\n\n'); end >= 0; end = buf.indexOf('\n\n')) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        const data = block
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).replace(/^ /, ''))
          .join('\n');
        if (data !== '') on.data(data);
      }
      if (buf.length > 8 * 1024 * 1024) req.destroy();
    });
    r.on('end', finish);
    r.on('close', finish);
    r.on('error', finish);
  });
  req.on('error', finish);
  req.on('close', () => {
    if (!res) finish();
  });
  req.end();
  return () => {
    req.destroy();
    finish();
  };
}

// ---------------------------------------------------------------- follow

function followOpencode(terminal: LiveTerminal, env: VendorEnv, onSession: (seen: SessionObservation) => void): () => void {
  const me = Symbol('opencode follower');
  const port = validPort(terminal.hints.port);
  const hinted = terminal.hints.sessionId && OPENCODE_SESSION_ID.test(terminal.hints.sessionId) ? terminal.hints.sessionId : null;
  if (hinted) claimed.set(hinted, me);
  const cwds = pathForms(terminal.cwd);

  let stopped = false;
  let closeEvents: (() => void) | null = null;
  /** Since when the event stream has been connected without a break (null: not connected). */
  let connectedSince: number | null = null;
  let portAnswered = false;
  let lastDbRead = 0;
  /** The list's only candidate, and since when it has been the only one. */
  let held: { id: string; since: number } | null = null;

  /** What the server said about sessions (list and events). */
  const known = new Map<string, ServerSession>();
  /** Sessions this process created or took a prompt in, in order; the last is its current one. */
  const own: string[] = [];

  let current: string | null = hinted;
  let confirmed = false;
  let reported: SessionObservation | null = null;

  const take = (id: string) => {
    if (id !== current) {
      current = id;
      confirmed = false;
    }
    claimed.set(id, me);
  };
  const touch = (id: string) => {
    const at = own.indexOf(id);
    if (at >= 0) own.splice(at, 1);
    own.push(id);
  };

  const connect = () => {
    if (port === null || closeEvents || stopped) return;
    closeEvents = openEvents(port, env, {
      open: () => {
        connectedSince = Date.now();
        portAnswered = true;
      },
      data: (data) => {
        const ev = parseEvent(data);
        if (!ev) return;
        if (ev.kind === 'session') {
          known.set(ev.session.id, { ...known.get(ev.session.id), ...ev.session });
          if (ev.created) touch(ev.session.id);
        } else touch(ev.sessionId);
      },
      close: () => {
        connectedSince = null;
        closeEvents = null;
      },
    });
  };

  const isMain = async (s: ServerSession | undefined): Promise<boolean> =>
    s !== undefined && s.parentId === null && s.directory !== null && (await cwds).includes(s.directory);

  /** This process's current session, from its own events: the last one it created or took a prompt in. */
  const ownCurrent = async (): Promise<string | null> => {
    for (let i = own.length - 1; i >= 0; i--) {
      const id = own[i]!;
      let s = known.get(id);
      if (!s && port !== null) {
        const got = parseServerSession(await getJson(port, `/session/${encodeURIComponent(id)}`, env).catch(() => null));
        if (got) known.set(id, (s = got));
      }
      if (s && (await isMain(s))) return id;
    }
    return null;
  };

  /** Exactly one session of the list that can only be this agent's, or null. */
  const fromList = async (listed: readonly ServerSession[]): Promise<string | null> => {
    const fits: string[] = [];
    for (const s of listed) {
      if (!(await isMain(s)) || s.created === null || s.created < terminal.spawnedAt - OPENCODE_FOLLOW.clockSlackMs) continue;
      const owner = claimed.get(s.id);
      if (owner !== undefined && owner !== me) continue;
      // Created while this process's event stream was open, yet never announced on it: another process's.
      if (connectedSince !== null && s.created > connectedSince + OPENCODE_FOLLOW.eventSlackMs && !own.includes(s.id)) continue;
      fits.push(s.id);
    }
    return fits.length === 1 ? fits[0]! : null;
  };

  /**
   * Last resort, the port never answered: exactly one main session of this cwd in the database that was created
   * after the spawn (so it was not there before: the diff) and that no other agent claimed.
   */
  const fromDb = async (): Promise<string | null> => {
    const dirs = await cwds;
    const fits: string[] = [];
    for (const row of (await opencodeSessions(env)).values()) {
      if (row.parentId !== null || !dirs.includes(row.directory)) continue;
      if (row.created < terminal.spawnedAt - OPENCODE_FOLLOW.clockSlackMs) continue;
      const owner = claimed.get(row.id);
      if (owner !== undefined && owner !== me) continue;
      fits.push(row.id);
    }
    return fits.length === 1 ? fits[0]! : null;
  };

  const poll = async () => {
    let listed: ServerSession[] | null = null;
    if (port !== null) {
      connect();
      // The whole list only while the id is unknown; after that the event stream says what changes.
      if (current === null) {
        const body = await getJson(port, '/session', env).catch(() => null);
        if (Array.isArray(body)) {
          portAnswered = true;
          listed = body.map(parseServerSession).filter((s): s is ServerSession => s !== null);
          for (const s of listed) known.set(s.id, s);
        }
      }
    }
    if (stopped) return;

    const mine = await ownCurrent();
    if (mine) take(mine);
    else if (current === null && listed) {
      const only = await fromList(listed);
      if (only === null || only !== held?.id) held = only === null ? null : { id: only, since: Date.now() };
      else if (Date.now() - held.since >= OPENCODE_FOLLOW.listHoldMs && !stopped && (claimed.get(only) ?? me) === me) take(only);
    } else if (
      current === null &&
      !portAnswered &&
      Date.now() - terminal.spawnedAt >= OPENCODE_FOLLOW.dbFallbackAfterMs &&
      Date.now() - lastDbRead >= OPENCODE_FOLLOW.dbEveryMs
    ) {
      lastDbRead = Date.now();
      const only = await fromDb();
      if (only && !stopped && (claimed.get(only) ?? me) === me) take(only);
    }

    if (current && !confirmed) {
      // The server reads sessions from the store: a session it lists or returns has its row. Else read the store.
      if (listed?.some((s) => s.id === current)) confirmed = true;
      else if (port !== null && parseServerSession(await getJson(port, `/session/${encodeURIComponent(current)}`, env).catch(() => null))?.id === current) {
        portAnswered = true;
        confirmed = true;
      } else if (Date.now() - lastDbRead >= OPENCODE_FOLLOW.dbEveryMs) {
        lastDbRead = Date.now();
        if (await opencodeSessionIn(current, terminal.cwd, env)) confirmed = true;
      }
    }
    if (stopped || current === null) return;
    if (reported && reported.sessionId === current && reported.confirmed === confirmed) return;
    reported = { sessionId: current, confirmed };
    onSession({ ...reported });
  };

  const stopPolling = repeat(poll, () => (current && confirmed ? OPENCODE_FOLLOW.intervalMs : OPENCODE_FOLLOW.searchIntervalMs), () => stopped);
  return () => {
    stopped = true;
    stopPolling();
    closeEvents?.();
  };
}
