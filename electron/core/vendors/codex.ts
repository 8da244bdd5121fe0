// Codex CLI (vendors.md §2, §10, §11): the id cannot be chosen, so Baton runs the TUI without its background daemon
// (`--no-daemon`, `-c features.daemon_auto_start=false`) and discovers the thread id from the writer lock that the
// native codex process (a child of the node wrapper in the PTY) holds open: /proc/<pid>/fd →
// `thread-writer-locks/<uuid>.lock`. Where /proc shows nothing, it falls back to snapshot-and-claim: only a new
// rollout, of this cwd, not claimed by another agent, and only when exactly one fits. Never "newest file wins".
import { join } from 'node:path';
import type { AgentContext, LiveTerminal, PriorSession, SessionObservation, SpawnPlan, VendorAdapter, VendorEnv } from './adapter.js';
import { cliBinary, freshWarning, shortId, spawnPlan } from './common.js';
import { repeat } from './poll.js';
import { pathForms } from './store-fs.js';
import {
  CODEX_SESSION_ID,
  bornAt,
  displayCodexHome,
  findRollout,
  heldFiles,
  homeForms,
  listRollouts,
  lockIds,
  locksDir,
  readRolloutHead,
  recentRollouts,
} from './codex-store.js';

const BIN_ENV = 'BATON_CODEX_BIN';
const DEFAULT_BIN = 'codex';
/** Keeps the TUI from handing its thread to a detached app-server daemon that would outlive it (§2 pitfall 1). */
export const CODEX_NO_DAEMON_ARGS = ['--no-daemon', '-c', 'features.daemon_auto_start=false'] as const;

/** How follow() polls; mutable so tests can shorten the fallback wait. */
export const CODEX_FOLLOW = {
  /** Until an id is known. */
  searchIntervalMs: 150,
  /** Once an id is known (confirmation, a change of thread such as /new). */
  intervalMs: 500,
  /** /proc has shown no writer lock for this long: try snapshot-and-claim. */
  fallbackAfterMs: 10_000,
  /**
   * While unconfirmed, the whole store is scanned at once and then at most this often; every poll reads the recent
   * local-date folders (of now and of the spawn) and the rollout the process holds open.
   */
  fullScanEveryMs: 60_000,
};

/** Ids already given to an agent (by /proc or by a claim), with the follower that owns each: never given twice. */
const claimed = new Map<string, symbol>();

const { facts: binary, of: binOf } = cliBinary(BIN_ENV, DEFAULT_BIN);

function fresh(ctx: AgentContext, env: VendorEnv, warning: string | null): SpawnPlan {
  return spawnPlan([binOf(env), ...CODEX_NO_DAEMON_ARGS, ...ctx.args], null, null, 'fresh', warning);
}

export const codexAdapter: VendorAdapter = {
  vendor: 'codex',
  displayName: 'Codex CLI',
  sessionIdPattern: CODEX_SESSION_ID,
  submitDelayMs: 800,
  resumeErrorTexts: [/No saved session found with ID/],
  ...binary,

  async spawnFresh(ctx, env) {
    return fresh(ctx, env, null);
  },

  async planResume(ctx: AgentContext, prior: PriorSession, env: VendorEnv): Promise<SpawnPlan> {
    if (!CODEX_SESSION_ID.test(prior.sessionId)) {
      // Never pass it on: `codex resume <non-UUID>` is a name lookup that can silently start a new session.
      const why = prior.sessionId === '' ? 'no Codex session was recorded for this agent' : 'the saved session id is not a Codex session id';
      return fresh(ctx, env, freshWarning('codex', why, ctx.cwd));
    }
    if ((await findRollout(prior.sessionId, env)) !== null) {
      const argv = [binOf(env), 'resume', prior.sessionId, ...CODEX_NO_DAEMON_ARGS, ...ctx.args];
      return spawnPlan(argv, prior.sessionId, prior.chosenBy, 'resumed', null, { sessionId: prior.sessionId });
    }
    const where = `${displayCodexHome(env)}/sessions`;
    const why = prior.confirmed
      ? `is not in ${where} any more`
      : `was never saved in ${where} (no prompt was answered in it)`;
    return fresh(ctx, env, freshWarning('codex', `session ${shortId(prior.sessionId)} ${why}`, ctx.cwd));
  },

  async exists(sessionId, _cwd, env) {
    return (await findRollout(sessionId, env)) !== null;
  },

  follow(terminal: LiveTerminal, env: VendorEnv, onSession: (seen: SessionObservation) => void): () => void {
    return followCodex(terminal, env, onSession);
  },

  async listSessions(env) {
    return listRollouts(env);
  },

  resumeCommand(sessionId) {
    return [DEFAULT_BIN, 'resume', sessionId];
  },
};

/** Ids that existed (a writer lock or a recent rollout born before the spawn): never candidates for this agent. */
async function baselineIds(env: VendorEnv, spawnedAt: number): Promise<Set<string>> {
  const out = new Set<string>();
  const before = async (id: string, path: string) => {
    const born = await bornAt(path);
    if (born === null || born < spawnedAt) out.add(id);
  };
  for (const id of await lockIds(env)) await before(id, join(locksDir(env), `${id}.lock`));
  for (const [id, path] of await recentRollouts(env, [new Date(), new Date(spawnedAt)])) await before(id, path);
  return out;
}

function followCodex(terminal: LiveTerminal, env: VendorEnv, onSession: (seen: SessionObservation) => void): () => void {
  const me = Symbol('codex follower');
  const hinted = terminal.hints.sessionId && CODEX_SESSION_ID.test(terminal.hints.sessionId) ? terminal.hints.sessionId : null;
  if (hinted) claimed.set(hinted, me);
  const baseline = baselineIds(env, terminal.spawnedAt).catch(() => new Set<string>());
  const cwds = pathForms(terminal.cwd);

  let stopped = false;
  let current: string | null = null;
  let confirmed = false;
  let procSawLock = false;
  let lastFullScan = 0;
  let reported: SessionObservation | null = null;

  const take = (id: string, isConfirmed: boolean) => {
    if (id !== current) {
      current = id;
      confirmed = false;
      // A resumed thread's rollout may be in any old folder: scan at once. A new one lands in the recent folders.
      lastFullScan = id === hinted ? 0 : Date.now();
    }
    claimed.set(id, me);
    if (isConfirmed) confirmed = true;
  };

  /** The lock among several that is this terminal's thread: the one already known, else the oldest. */
  const pick = async (locks: readonly string[]): Promise<string | null> => {
    if (locks.length === 1) return locks[0]!;
    if (current && locks.includes(current)) return current;
    if (hinted && locks.includes(hinted)) return hinted;
    let best: { id: string; born: number } | null = null;
    for (const id of locks) {
      const born = await bornAt(join(locksDir(env), `${id}.lock`));
      if (born !== null && (best === null || born < best.born)) best = { id, born };
    }
    return best?.id ?? null;
  };

  /** Snapshot-and-claim (vendors.md §11): exactly one new, unclaimed rollout of this cwd, started after the spawn. */
  const claim = async (): Promise<void> => {
    if (hinted) {
      take(hinted, (await findRollout(hinted, env)) !== null);
      return;
    }
    const old = await baseline;
    const dirs = await cwds;
    const fits: string[] = [];
    for (const [id, path] of await recentRollouts(env, [new Date(), new Date(terminal.spawnedAt)])) {
      if (old.has(id)) continue;
      const owner = claimed.get(id);
      if (owner !== undefined && owner !== me) continue;
      const head = await readRolloutHead(path);
      if (!head || head.sessionId !== id || head.cwd === null || !dirs.includes(head.cwd)) continue;
      if (head.startedAt !== null && Date.parse(head.startedAt) < terminal.spawnedAt - 2000) continue;
      fits.push(id);
    }
    // None or several: keep waiting; never guess. The claim is checked again with no await in between: another
    // follower may have taken the id while this one was reading.
    const only = fits.length === 1 ? fits[0]! : null;
    if (only === null || stopped) return;
    const owner = claimed.get(only);
    if (owner !== undefined && owner !== me) return;
    take(only, true);
  };

  const poll = async () => {
    const held = await heldFiles(terminal.pid, await homeForms(env));
    if (stopped) return;
    if (held.locks.length > 0) {
      procSawLock = true;
      const id = await pick(held.locks);
      if (id) take(id, held.rollouts.has(id));
    } else if (!procSawLock && current === null && Date.now() - terminal.spawnedAt >= CODEX_FOLLOW.fallbackAfterMs) {
      await claim();
    }
    if (current && !confirmed) {
      if (held.rollouts.has(current)) confirmed = true;
      else {
        const full = Date.now() - lastFullScan >= CODEX_FOLLOW.fullScanEveryMs;
        if (full) lastFullScan = Date.now();
        const found = await findRollout(current, env, { also: [new Date(terminal.spawnedAt)], recentOnly: !full });
        if (found !== null) confirmed = true;
      }
    }
    if (stopped || current === null) return;
    if (reported && reported.sessionId === current && reported.confirmed === confirmed) return;
    reported = { sessionId: current, confirmed };
    onSession({ ...reported });
  };

  const stopPolling = repeat(poll, () => (current ? CODEX_FOLLOW.intervalMs : CODEX_FOLLOW.searchIntervalMs), () => stopped);
  return () => {
    stopped = true;
    stopPolling();
  };
}
