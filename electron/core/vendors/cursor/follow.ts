// Cursor's follower (docs/vendors.md §7, §11, [reported]). With an id (create-chat or resume): reports it at once, then
// confirms it when its store.db appears. Without one (a fresh fallback: planResume never runs create-chat): waits for
// exactly one new chat folder of this workspace that no other agent claimed.
import type { LiveTerminal, SessionObservation, VendorEnv } from '../adapter.js';
import type { FollowDeps } from '../kit/claims.js';
import { repeat } from '../kit/poll.js';
import { CURSOR_CHAT_ID, findChatStore, workspaceChats, type CursorStore } from './store.js';

/** Timings (a vendor context's options may shorten them). */
export const CURSOR_TIMINGS = Object.freeze({
  /** How long `create-chat` may take. */
  createChatTimeoutMs: 15_000,
  intervalMs: 500,
  /** A chat folder born this much before the spawn still counts as new (timestamp granularity). */
  clockSlackMs: 1000,
});
export type CursorTimings = typeof CURSOR_TIMINGS;

export function followCursor(
  { claims, timings }: FollowDeps<CursorStore, CursorTimings>,
  terminal: LiveTerminal,
  env: VendorEnv,
  onSession: (seen: SessionObservation) => void,
): () => void {
  const { me, hinted } = claims.enter('cursor follower', terminal.hints, CURSOR_CHAT_ID);
  let current: string | null = hinted;
  let confirmed = false;
  let reported: SessionObservation | null = null;
  let stopped = false;

  const discover = async (): Promise<string | null> => {
    const fits: string[] = [];
    for (const [id, born] of await workspaceChats(terminal.cwd, env)) {
      if (born < terminal.spawnedAt - timings.clockSlackMs || !claims.isFree(id, me)) continue;
      fits.push(id);
    }
    return fits.length === 1 ? fits[0]! : null;
  };

  const poll = async () => {
    if (current === null) {
      const only = await discover();
      // Checked again with no await in between: another follower may have claimed it meanwhile.
      if (stopped || only === null || !claims.isFree(only, me)) return;
      claims.claim(only, me);
      current = only;
    }
    if (!confirmed && (await findChatStore(current, terminal.cwd, env)) !== null) confirmed = true;
    if (stopped) return;
    if (!reported || reported.sessionId !== current || reported.confirmed !== confirmed) {
      reported = { sessionId: current, confirmed };
      onSession({ ...reported });
    }
  };

  const stopPolling = repeat(
    poll,
    () => timings.intervalMs,
    () => stopped || confirmed,
  );
  return () => {
    stopped = true;
    stopPolling();
  };
}
