// Codex's follower (docs/vendors.md §2, §11): the id cannot be chosen, so it is discovered from the writer lock that the
// native codex process holds open (/proc/<pid>/fd → `thread-writer-locks/<uuid>.lock`). Where /proc shows nothing,
// it falls back to snapshot-and-claim: only a new rollout, of this cwd, claimed by no other agent, and only when
// exactly one fits. Never "newest file wins".
import { join } from 'node:path';
import type { LiveTerminal, SessionObservation, VendorEnv } from '../adapter.js';
import type { FollowDeps } from '../kit/claims.js';
import { repeat } from '../kit/poll.js';
import { bornAt, pathForms } from '../kit/store-fs.js';
import { heldFiles } from './proc.js';
import { readRolloutHead } from './rollout.js';
import { CODEX_SESSION_ID, homeForms, lockIds, locksDir, recentRollouts, type CodexStore } from './store.js';

/** How follow() polls (a vendor context's options may shorten them). */
export const CODEX_TIMINGS = Object.freeze({
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
});
export type CodexTimings = typeof CODEX_TIMINGS;

/** What a Codex follower works with: the context's store, claims and timings. */
export type CodexFollowDeps = FollowDeps<CodexStore, CodexTimings>;

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

export function followCodex(
  { store, claims, timings }: CodexFollowDeps,
  terminal: LiveTerminal,
  env: VendorEnv,
  onSession: (seen: SessionObservation) => void,
): () => void {
  const { me, hinted } = claims.enter('codex follower', terminal.hints, CODEX_SESSION_ID);
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
    claims.claim(id, me);
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

  /** Snapshot-and-claim (docs/vendors.md §11): exactly one new, unclaimed rollout of this cwd, started after the spawn. */
  const claim = async (): Promise<void> => {
    if (hinted) {
      take(hinted, (await store.findRollout(hinted, env)) !== null);
      return;
    }
    const old = await baseline;
    const dirs = await cwds;
    const fits: string[] = [];
    for (const [id, path] of await recentRollouts(env, [new Date(), new Date(terminal.spawnedAt)])) {
      if (old.has(id) || !claims.isFree(id, me)) continue;
      const head = await readRolloutHead(path);
      if (!head || head.sessionId !== id || head.cwd === null || !dirs.includes(head.cwd)) continue;
      if (head.startedAt !== null && Date.parse(head.startedAt) < terminal.spawnedAt - 2000) continue;
      fits.push(id);
    }
    // None or several: keep waiting; never guess. The claim is checked again with no await in between: another
    // follower may have taken the id while this one was reading.
    const only = fits.length === 1 ? fits[0]! : null;
    if (only === null || stopped || !claims.isFree(only, me)) return;
    take(only, true);
  };

  const poll = async () => {
    const held = store.rememberHeld(await heldFiles(terminal.pid, await homeForms(env)));
    if (stopped) return;
    if (held.locks.length > 0) {
      procSawLock = true;
      const id = await pick(held.locks);
      if (id) take(id, held.rollouts.has(id));
    } else if (!procSawLock && current === null && Date.now() - terminal.spawnedAt >= timings.fallbackAfterMs) {
      await claim();
    }
    if (current && !confirmed) {
      if (held.rollouts.has(current)) confirmed = true;
      else {
        const full = Date.now() - lastFullScan >= timings.fullScanEveryMs;
        if (full) lastFullScan = Date.now();
        const found = await store.findRollout(current, env, {
          also: [new Date(terminal.spawnedAt)],
          recentOnly: !full,
        });
        if (found !== null) confirmed = true;
      }
    }
    if (stopped || current === null) return;
    if (reported && reported.sessionId === current && reported.confirmed === confirmed) return;
    reported = { sessionId: current, confirmed };
    onSession({ ...reported });
  };

  const stopPolling = repeat(
    poll,
    () => (current ? timings.intervalMs : timings.searchIntervalMs),
    () => stopped,
  );
  return () => {
    stopped = true;
    stopPolling();
  };
}
