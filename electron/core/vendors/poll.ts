// For vendors whose id Baton chose at spawn: report it at once, then poll until the vendor's store holds it.
import type { SessionObservation } from './adapter.js';

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
  timer = setInterval(() => void poll(), intervalMs);
  timer.unref?.();
  void poll();
  return stop;
}
