// The selected run's view, and the views of the runs it is likely to switch to kept mounted but hidden: a switch then
// shows one and hides another instead of unmounting ten panes and mounting ten (React's share of a switch's longest
// task, docs/performance.md "mount10"). A hidden view is `hidden` (not rendered, out of the accessibility tree and of
// the Tab order) and its panes are parked as before: their xterms wait in the parking lot, not in the hidden view.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { RunView as Run } from '../../shared/contract.js';
import { hasPane } from '../panes/terminal-registry.js';
import { useBaton } from '../state/store.js';
import { RunView } from './RunView.js';
import { KeptRuns } from './kept-runs.js';

/** Runs kept mounted at most (the selected one included): the scale goal's 10 runs and a few more. */
const KEEP = 12;

/** How long a run to mount ahead waits for an idle moment before it is mounted anyway. */
const IDLE_TIMEOUT_MS = 5000;
/** How often runs whose panes are still loading ahead are looked at again. */
const RECHECK_MS = 1000;

export function RunViews({ fallback }: { fallback: ReactNode }) {
  const selectedId = useBaton((s) => s.selectedRunId);
  const details = useBaton((s) => s.runDetails);
  const runs = useBaton((s) => s.runs);
  const kept = useRef(new KeptRuns(KEEP)).current;
  const [, mountedAhead] = useState(0);

  // Kept during the render that shows it: the switch's own render shows the run (no frame without it).
  const selected = selectedId ? details[selectedId] : undefined;
  kept.keepOnly((id) => id in details);
  if (selected) kept.shown(selected.id);

  // The other live runs, once their panes are loaded ahead (pane-warmup.ts), are mounted hidden too, one per idle
  // moment: their first visit is then a switch like any other. Only panes already open: a view mounted first would
  // open its panes itself, not sized ahead to their cell.
  useEffect(() => {
    if (!selectedId || kept.full()) return;
    const waiting = runs.filter((r) => r.liveAgents > 0 && !kept.has(r.id));
    if (waiting.length === 0) return;
    const next = waiting.find((r) => readyToMount(useBaton.getState().runDetails[r.id]));
    // None ready yet (their panes still loading ahead): looked at again a little later.
    if (!next) {
      const timer = setTimeout(() => mountedAhead((n) => n + 1), RECHECK_MS);
      return () => clearTimeout(timer);
    }
    const handle = requestIdleCallback(
      () => {
        if (kept.ahead(next.id)) mountedAhead((n) => n + 1);
      },
      { timeout: IDLE_TIMEOUT_MS },
    );
    return () => cancelIdleCallback(handle);
  });

  return (
    <>
      {kept.ids().length > 0 ? (
        <div className="bt-runs">
          {kept.ids().map((id) => {
            const run = details[id];
            return run ? <RunView key={id} run={run} shown={id === selectedId} /> : null;
          })}
          {selected ? null : fallback}
        </div>
      ) : (
        fallback
      )}
    </>
  );
}

/** A run whose details are here and whose running agents' panes are all open or on their way (loaded ahead). */
function readyToMount(run: Run | undefined): boolean {
  return run !== undefined && run.agents.every((a) => a.status !== 'running' || a.terminalId === null || hasPane(a.id));
}
