// The run history's list. Up to a screenful of runs every row is in the DOM; beyond, only the rows in view (and a few
// around them) are, between two spacers of the right height, so typing in the search box re-renders a screenful of
// rows, not ten thousand (docs/performance.md). Rows keep one height there (a long vendor list is cut, not wrapped).
// The threshold is about what a tall window shows: a search that narrows 10,000 runs to a hundred must not build a
// hundred rows in one keystroke (it cost 50 ms of script and 70 ms of layout there).
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { RunSummary } from '../../shared/contract.js';

/** From this many runs on, the list renders only what is in view. */
export const VIRTUAL_AFTER = 40;
const OVERSCAN = 4;
/** A row and the gap under it before the first one is measured. */
const ESTIMATED_STRIDE = 62;

interface Props {
  runs: readonly RunSummary[];
  row(run: RunSummary): ReactNode;
}

export function RunList({ runs, row }: Props) {
  const virtual = runs.length > VIRTUAL_AFTER;
  const ref = useRef<HTMLUListElement>(null);
  const [stride, setStride] = useState(ESTIMATED_STRIDE);
  const [range, setRange] = useState({ first: 0, count: 40 });

  useLayoutEffect(() => {
    const list = ref.current;
    if (!virtual || !list) return;
    const scroller = scrollParent(list);
    const update = () => {
      const items = list.children;
      // Measured from two rendered rows: the row's height and the list's gap, as the stylesheet has them.
      const a = items[1] as HTMLElement | undefined;
      const b = items[2] as HTMLElement | undefined;
      const measured = a && b ? b.offsetTop - a.offsetTop : 0;
      const step = measured > 0 ? measured : stride;
      if (step !== stride) setStride(step);
      const top = list.getBoundingClientRect().top - (scroller?.getBoundingClientRect().top ?? 0);
      const height = scroller?.clientHeight ?? document.documentElement.clientHeight;
      const first = Math.max(0, Math.floor(-top / step) - OVERSCAN);
      const count = Math.ceil(height / step) + 2 * OVERSCAN;
      setRange((w) => (w.first === first && w.count === count ? w : { first, count }));
    };
    update();
    // Not again per keystroke (runs narrowed by a search): a shorter list clamps the scroller, which fires a scroll
    // event, and the render clamps the range; re-measuring here forced a layout of the whole page per key.
    const target: EventTarget = scroller ?? document;
    target.addEventListener('scroll', update, { passive: true });
    const resize = new ResizeObserver(update);
    if (scroller) resize.observe(scroller);
    return () => {
      target.removeEventListener('scroll', update);
      resize.disconnect();
    };
  }, [virtual, stride]);

  if (!virtual)
    return (
      <ul className="bt-run-list" aria-label="Runs">
        {runs.map(row)}
      </ul>
    );
  const first = Math.min(range.first, Math.max(0, runs.length - range.count));
  const end = Math.min(runs.length, first + range.count);
  // The first child is a spacer of the rows above; the last, of those below (both hidden from assistive tech).
  return (
    <ul className="bt-run-list bt-run-list-virtual" aria-label="Runs" aria-rowcount={runs.length} ref={ref}>
      <li aria-hidden="true" className="bt-run-spacer" style={{ height: Math.max(0, first * stride - gap(stride)) }} />
      {runs.slice(first, end).map(row)}
      <li
        aria-hidden="true"
        className="bt-run-spacer"
        style={{ height: Math.max(0, (runs.length - end) * stride - gap(stride)) }}
      />
    </ul>
  );
}

/** The list's flex gap (4px in components.css) is between every child, spacers included. */
const gap = (stride: number) => (stride > 4 ? 4 : 0);

function scrollParent(el: HTMLElement): HTMLElement | null {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const overflow = getComputedStyle(p).overflowY;
    if (overflow === 'auto' || overflow === 'scroll') return p;
  }
  return null;
}
