// The list of runs read in pages (`run.list`'s `after`): the page asks for the runs after the last one it got, in the
// list's order, so that 10,000 runs come as ten answers of a thousand, each read in a short task of the page's, not
// one answer that held the page for hundreds of milliseconds (docs/performance.md, "Switching runs"). A key, not an
// offset: a run deleted or moved to the top between two pages shifts no other run out of the list.
import { newestFirst, type RunOrderKey } from '../store/manifest.js';

/** The runs of `sorted` (newest first) that come after `after` in that order; all of them without it. */
export function runsAfter<R extends RunOrderKey>(sorted: readonly R[], after?: RunOrderKey): readonly R[] {
  if (!after) return sorted;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (newestFirst(sorted[mid]!, after) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return sorted.slice(lo);
}
