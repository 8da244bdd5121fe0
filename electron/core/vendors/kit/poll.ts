// How followers poll a vendor store (docs/architecture.md §9 `follow`). pollUntilConfirmed: for vendors whose id Baton
// chose at spawn, report it at once, then poll until the store holds it. repeat: the loop of followers that discover
// the id.
import { reportFailure } from '../../log.js';
import type { LiveTerminal, SessionObservation } from '../adapter.js';

/** How often a follower of a Baton-chosen id looks for its transcript (docs/vendors.md §1, §3–§5: every 500 ms). */
export const FOLLOW_INTERVAL_MS = 500;

/** Reports the id, then its confirmation once `confirmed()` turns true, and stops. Returns a stop function. */
export function pollUntilConfirmed(
  sessionId: string,
  confirmed: () => Promise<boolean>,
  onSession: (seen: SessionObservation) => void,
  intervalMs = FOLLOW_INTERVAL_MS,
): () => void {
  let stopped = false;
  let polling = false;
  let reported: boolean | null = null;
  let timer: NodeJS.Timeout | null = null;
  const stop = () => {
    stopped = true;
    if (timer) clearInterval(timer);
  };
  const poll = async () => {
    if (polling || stopped) return;
    polling = true;
    try {
      const now = await confirmed();
      if (stopped) return;
      if (reported !== now) {
        reported = now;
        onSession({ sessionId, confirmed: now });
      }
      if (now) stop();
    } catch {
      // A transient read error: try again on the next tick.
    } finally {
      polling = false;
    }
  };
  // poll catches what it awaits; this catch is for anything else, which must not become an unhandled rejection.
  const run = () => {
    poll().catch((err: unknown) => reportFailure('following a session', err));
  };
  timer = setInterval(run, intervalMs);
  timer.unref?.();
  run();
  return stop;
}

/**
 * follow() of a vendor whose id Baton chose: the id of the plan's hints (when it has the vendor's shape), confirmed
 * once `exists(id)` is true.
 */
export function followHintedId(
  terminal: LiveTerminal,
  pattern: RegExp,
  exists: (sessionId: string) => Promise<boolean>,
  onSession: (seen: SessionObservation) => void,
): () => void {
  const sessionId = terminal.hints.sessionId;
  if (!sessionId || !pattern.test(sessionId)) return () => {};
  return pollUntilConfirmed(sessionId, () => exists(sessionId), onSession);
}

/**
 * For followers that discover ids: calls `poll` at once, then again `delay()` ms after each call settles (a throw is
 * a transient read error: it is simply tried again), until `done()` is true or the returned function is called.
 */
export function repeat(poll: () => Promise<void>, delay: () => number, done: () => boolean): () => void {
  let cancelled = false;
  let timer: NodeJS.Timeout | null = null;
  const tick = async () => {
    timer = null;
    try {
      await poll();
    } catch {
      /* a transient error: try again next tick */
    }
    if (cancelled || done()) return;
    timer = setTimeout(run, delay());
    timer.unref?.();
  };
  // A throw from done() or delay() ends the loop; reported, not left as an unhandled rejection.
  const run = () => {
    tick().catch((err: unknown) => reportFailure('discovering a session', err));
  };
  run();
  return () => {
    cancelled = true;
    if (timer) clearTimeout(timer);
  };
}
