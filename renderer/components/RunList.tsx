// The run history's list: only the rows in view (and a few around them) are in the DOM, between two spacers of the
// right height, so typing in the search box renders a screenful of rows, not ten thousand (docs/performance.md
// "Typing in the history"). Every row has one fixed height (`ROW_HEIGHT`, set on the list for the stylesheet): where
// a row is needs no measuring, and a search that changes the rows in view never lays out more than those rows.
// The list is the same element however few runs match: a search narrowing 10,000 runs to ten used to switch to a
// plain list and back, which re-measured the rows (a forced layout) and rendered twice on those keys.
// Keyboard: ArrowUp/ArrowDown, PageUp/PageDown, Home/End move between the runs' buttons (scrolling the list so that a
// row not rendered yet is), ArrowUp from the first run goes back to the search box; Enter or Space opens the run.
import {
  memo,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
} from 'react';
import type { RunSummary } from '../../shared/contract.js';

/** A row's height in px (components.css `.bt-run-row` takes it from the list's `--bt-run-row-height`). */
export const ROW_HEIGHT = 93;
/** The list's flex gap (components.css `.bt-run-list`), between every child, spacers included. */
const GAP = 4;
const STRIDE = ROW_HEIGHT + GAP;
const OVERSCAN = 4;

export interface RunListHandle {
  /** Moves the focus to the run at `index` of the list (its button), scrolling it into view. */
  focusRow(index: number): void;
}

interface Props {
  runs: readonly RunSummary[];
  row(run: RunSummary): ReactNode;
  /** ArrowUp on the first run. */
  onLeaveTop?(): void;
  ref?: Ref<RunListHandle>;
}

interface Range {
  first: number;
  count: number;
}

/** The rows rendered for `range` over `length` runs: [first, end). */
function rendered(range: Range, length: number): { first: number; end: number } {
  const first = Math.min(range.first, Math.max(0, length - range.count));
  return { first, end: Math.min(length, first + range.count) };
}

/** Memoized: a key that leaves the filtered runs as they were (the same array) does not render the list again. */
export const RunList = memo(function RunList({ runs, row, onLeaveTop, ref }: Props) {
  const listRef = useRef<HTMLUListElement>(null);
  const [range, setRange] = useState<Range>({ first: 0, count: 24 });
  const measure = useRef<() => void>(() => undefined);
  /** A row to focus once it is rendered (it was out of the rendered window when asked). */
  const pendingFocus = useRef<number | null>(null);
  const { first, end } = rendered(range, runs.length);

  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const scroller = scrollParent(list);
    const update = () => {
      const top = list.getBoundingClientRect().top - (scroller?.getBoundingClientRect().top ?? 0);
      const height = scroller?.clientHeight ?? document.documentElement.clientHeight;
      const next = {
        first: Math.max(0, Math.floor(-top / STRIDE) - OVERSCAN),
        count: Math.ceil(height / STRIDE) + 2 * OVERSCAN,
      };
      setRange((r) => (r.first === next.first && r.count === next.count ? r : next));
    };
    measure.current = update;
    update();
    // Not again per keystroke (runs narrowed by a search): a shorter list clamps the scroller, which fires a scroll
    // event, and the render clamps the range.
    const target: EventTarget = scroller ?? document;
    target.addEventListener('scroll', update, { passive: true });
    const resize = new ResizeObserver(update);
    if (scroller) resize.observe(scroller);
    return () => {
      target.removeEventListener('scroll', update);
      resize.disconnect();
    };
  }, []);

  const buttonAt = (index: number): HTMLElement | null => {
    if (index < first || index >= end) return null;
    // Child 0 is the spacer above.
    return listRef.current?.children[1 + index - first]?.querySelector<HTMLElement>('.bt-run-select') ?? null;
  };

  const focusRow = (index: number) => {
    const list = listRef.current;
    if (!list || runs.length === 0) return;
    const i = Math.max(0, Math.min(runs.length - 1, index));
    const scroller = scrollParent(list);
    if (scroller) {
      // The row's box in the scroller's content: scrolled just into view (the list's own layout is not read).
      const rowTop = list.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
      const top = rowTop + i * STRIDE;
      if (top < scroller.scrollTop) scroller.scrollTop = top;
      else if (top + ROW_HEIGHT > scroller.scrollTop + scroller.clientHeight)
        scroller.scrollTop = top + ROW_HEIGHT - scroller.clientHeight;
    }
    const button = buttonAt(i);
    if (button) return button.focus();
    pendingFocus.current = i;
    measure.current();
  };

  useImperativeHandle(ref, () => ({ focusRow }));

  // A row asked for focus before it was rendered: focused once it is.
  useLayoutEffect(() => {
    const i = pendingFocus.current;
    if (i === null) return;
    const button = buttonAt(i);
    if (!button) return;
    pendingFocus.current = null;
    button.focus();
  });

  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const target = e.target as HTMLElement;
    if (!target.classList.contains('bt-run-select')) return;
    const li = target.closest('li');
    const at = li ? Array.prototype.indexOf.call(listRef.current?.children ?? [], li) : -1;
    if (at < 1) return;
    const index = first + at - 1;
    const page = Math.max(1, range.count - 2 * OVERSCAN - 1);
    const to: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      PageDown: index + page,
      PageUp: index - page,
      Home: 0,
      End: runs.length - 1,
    };
    const next = to[e.key];
    if (next === undefined || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    if (next < 0 && onLeaveTop) return onLeaveTop();
    focusRow(next);
  };

  // The first child is a spacer of the rows above; the last, of those below (both hidden from assistive tech; out of
  // the layout when empty, so that the list's gap does not shift row i from i × STRIDE).
  return (
    <ul
      className="bt-run-list bt-run-list-virtual"
      aria-label="Runs"
      aria-rowcount={runs.length}
      ref={listRef}
      style={{ '--bt-run-row-height': `${ROW_HEIGHT}px` } as CSSProperties}
      onKeyDown={onKeyDown}
    >
      <li aria-hidden="true" className="bt-run-spacer" hidden={first === 0} style={{ height: first * STRIDE - GAP }} />
      {runs.slice(first, end).map(row)}
      <li
        aria-hidden="true"
        className="bt-run-spacer"
        hidden={end === runs.length}
        style={{ height: (runs.length - end) * STRIDE - GAP }}
      />
    </ul>
  );
});

function scrollParent(el: HTMLElement): HTMLElement | null {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const overflow = getComputedStyle(p).overflowY;
    if (overflow === 'auto' || overflow === 'scroll') return p;
  }
  return null;
}
