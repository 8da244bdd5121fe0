// An agent's patch, monospace, its lines coloured by kind. A patch can be up to 1 MiB (docs/worktrees.md, `changes`):
// past a few thousand lines only the rows in view (and a margin) are in the page, so a large diff scrolls smoothly.
// A small one is drawn whole, so the browser's find and a screen reader see all of it.
import { useEffect, useMemo, useRef, useState } from 'react';
import { patchLines, visibleRange, widestLine, type PatchLine } from './patch-lines.js';

/** Above this many lines the view draws only what is in sight. */
const DRAW_ALL_UP_TO = 2000;
/** One row's height in px; the stylesheet's .bt-patch-line says the same. */
const LINE_PX = 18;

function Row({ line }: { line: PatchLine }) {
  return <div className={`bt-patch-line bt-patch-${line.kind}`}>{line.text === '' ? ' ' : line.text}</div>;
}

export function PatchView({ patch, label }: { patch: string; label: string }) {
  const lines = useMemo(() => patchLines(patch), [patch]);
  const ref = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(480);
  const virtual = lines.length > DRAW_ALL_UP_TO;

  useEffect(() => {
    const el = ref.current;
    if (!el || !virtual) return;
    const observer = new ResizeObserver(() => setViewHeight(el.clientHeight));
    observer.observe(el);
    return () => observer.disconnect();
  }, [virtual]);

  if (lines.length === 0) return <p className="bt-muted">No changes against the base commit.</p>;
  const range = virtual ? visibleRange(lines.length, scrollTop, viewHeight, LINE_PX) : { first: 0, last: lines.length };
  return (
    // Focusable, so the arrow and page keys scroll it.
    <div
      ref={ref}
      className="bt-patch bt-mono"
      role="region"
      aria-label={label}
      tabIndex={0}
      onScroll={virtual ? (e) => setScrollTop(e.currentTarget.scrollTop) : undefined}
    >
      {virtual ? (
        <div style={{ height: lines.length * LINE_PX, minWidth: `${widestLine(lines) + 2}ch`, position: 'relative' }}>
          <div style={{ position: 'absolute', top: range.first * LINE_PX, left: 0, right: 0 }}>
            {lines.slice(range.first, range.last).map((line, i) => (
              <Row key={range.first + i} line={line} />
            ))}
          </div>
        </div>
      ) : (
        lines.map((line, i) => <Row key={i} line={line} />)
      )}
    </div>
  );
}
