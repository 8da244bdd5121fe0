// opencode's follower (docs/vendors.md §6, §11). The CLI takes no session id at spawn and creates its session at the first
// prompt, so Baton gives the TUI a port of its own and asks the TUI's own server (server.ts). Its session list is read
// from the database every opencode process of the machine shares, so it also shows sessions that another opencode in
// the same directory creates. The event stream is what makes a session this process's own: the session that this
// process created or last took a prompt in is the agent's session (that also follows /new).
// Without events (not connected yet), a session in the list is accepted only when it is unambiguous: of the
// agent's directory, top-level, created after the spawn, claimed by no other agent, not created while the event
// stream was connected without mentioning it, and still the only one after a short hold (time for the agent whose
// process made it to claim it). When the port never answers at all, the last resort is a diff of the database by
// directory with the same rules. Never "newest wins". Confirmed = the server lists or returns the session (it reads
// them from the database), or the database itself holds the row (read with its WAL applied: store.ts).
import type { LiveTerminal, SessionObservation, VendorEnv } from '../adapter.js';
import type { FollowDeps } from '../kit/claims.js';
import { repeat } from '../kit/poll.js';
import { pathForms } from '../kit/store-fs.js';
import { getJson as getServerJson, openEvents, parseEvent, parseServerSession, type ServerSession } from './server.js';
import { OPENCODE_SESSION_ID, type OpencodeStore } from './store.js';

/** How follow() polls (a vendor context's options may shorten the waits). */
export const OPENCODE_TIMINGS = Object.freeze({
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
});
export type OpencodeTimings = typeof OPENCODE_TIMINGS;

/** What an opencode follower works with: the context's store, claims and timings. */
export type OpencodeFollowDeps = FollowDeps<OpencodeStore, OpencodeTimings>;

/** A port number as the hints or the user's arguments give it, or null. */
export const validPort = (s: string | undefined): number | null => {
  if (!s || !/^\d{1,5}$/.test(s)) return null;
  const n = Number(s);
  return n >= 1 && n <= 65535 ? n : null;
};

export function followOpencode(
  { store, claims, timings }: OpencodeFollowDeps,
  terminal: LiveTerminal,
  env: VendorEnv,
  onSession: (seen: SessionObservation) => void,
): () => void {
  const { me, hinted } = claims.enter('opencode follower', terminal.hints, OPENCODE_SESSION_ID);
  const port = validPort(terminal.hints.port);
  const getJson = (p: number, path: string) => getServerJson(p, path, env, timings.requestTimeoutMs);
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
    claims.claim(id, me);
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
        const got = parseServerSession(await getJson(port, `/session/${encodeURIComponent(id)}`).catch(() => null));
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
      if (!(await isMain(s)) || s.created === null || s.created < terminal.spawnedAt - timings.clockSlackMs) continue;
      if (!claims.isFree(s.id, me)) continue;
      // Created while this process's event stream was open, yet never announced on it: another process's.
      if (connectedSince !== null && s.created > connectedSince + timings.eventSlackMs && !own.includes(s.id)) continue;
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
    for (const row of (await store.sessions(env)).values()) {
      if (row.parentId !== null || !dirs.includes(row.directory)) continue;
      if (row.created < terminal.spawnedAt - timings.clockSlackMs || !claims.isFree(row.id, me)) continue;
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
        const body = await getJson(port, '/session').catch(() => null);
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
      else if (Date.now() - held.since >= timings.listHoldMs && !stopped && claims.isFree(only, me)) take(only);
    } else if (
      current === null &&
      !portAnswered &&
      Date.now() - terminal.spawnedAt >= timings.dbFallbackAfterMs &&
      Date.now() - lastDbRead >= timings.dbEveryMs
    ) {
      lastDbRead = Date.now();
      const only = await fromDb();
      if (only && !stopped && claims.isFree(only, me)) take(only);
    }

    if (current && !confirmed) {
      // The server reads sessions from the store: a session it lists or returns has its row. Else read the store.
      if (listed?.some((s) => s.id === current)) confirmed = true;
      else if (
        port !== null &&
        parseServerSession(await getJson(port, `/session/${encodeURIComponent(current)}`).catch(() => null))?.id ===
          current
      ) {
        portAnswered = true;
        confirmed = true;
      } else if (Date.now() - lastDbRead >= timings.dbEveryMs) {
        lastDbRead = Date.now();
        if (await store.sessionIn(current, terminal.cwd, env)) confirmed = true;
      }
    }
    if (stopped || current === null) return;
    if (reported && reported.sessionId === current && reported.confirmed === confirmed) return;
    reported = { sessionId: current, confirmed };
    onSession({ ...reported });
  };

  const stopPolling = repeat(
    poll,
    () => (current && confirmed ? timings.intervalMs : timings.searchIntervalMs),
    () => stopped,
  );
  return () => {
    stopped = true;
    stopPolling();
    closeEvents?.();
  };
}
