// Waiting for work with a bound, where the work goes on past the bound (a list's budget, a stop's grace). Each of
// these once left its timer pending after the work settled: a stopped agent kept the event loop alive for the rest
// of its 3 s, and a CLI's core could not exit sooner.

/**
 * Settles when `work` does or after `ms`, whichever is first (a rejection of `work` within the bound is passed on);
 * `work` goes on either way. The timer is cleared at once: it never holds the process open.
 */
export async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  if (ms === Infinity) return void (await work);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))));
  try {
    await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
