// One call of an async refresh at a time: a call made while one runs waits for a single follow-up started after it
// (so its caller still sees fresh data), however many calls came meanwhile. With a hundred agents the core's events
// come in bursts, and each refresh of the run list is the whole history (docs/performance.md).
export function coalesced(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const start = (): Promise<void> => {
    const p = fn().finally(() => {
      if (running === p) running = null;
    });
    running = p;
    return p;
  };
  return () => {
    if (!running) return start();
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = null;
        return start();
      });
    return next;
  };
}
