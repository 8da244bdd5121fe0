// What the run view prepares for the next switch (docs/performance.md, "Switching runs"): the other live runs' panes
// load in the background (pane-warmup.ts), and their details (`run.get`) are fetched ahead too. Without them a first
// visit unmounted the run in view, showed "Select a run" and waited one round trip to the core, queued behind the
// page's own tasks, before any pane of the new run could even start to open.
import { useEffect, useMemo } from 'react';
import type { RunSummary } from '../../shared/contract.js';
import { warmRuns } from '../panes/pane-warmup.js';
import { useBaton } from '../state/store.js';
import { loadDetailsAhead, otherLiveRuns } from './RunViewPrefetch.js';

/** Loads the other live runs' panes and details in the background while `runId` is in view and connected. */
export function useRunsAhead(runId: string, connected: boolean): void {
  // The store calls the selector at every change of any of its fields: the 10,000 runs are walked only for a new list.
  const keyOf = useMemo(() => {
    let seen: readonly RunSummary[] | null = null;
    let key = '';
    return (runs: readonly RunSummary[]) => {
      if (runs !== seen) [seen, key] = [runs, otherLiveRuns(runs, runId)];
      return key;
    };
  }, [runId]);
  const ahead = useBaton((s) => keyOf(s.runs));
  useEffect(() => {
    if (!connected || ahead === '') return;
    const ids = ahead.split(' ');
    warmRuns(ids, (id) => useBaton.getState().layouts[id] ?? 'grid');
    let gone = false;
    const { loadRun } = useBaton.getState();
    void loadDetailsAhead(
      ids,
      { has: (id) => id in useBaton.getState().runDetails, load: (id) => loadRun(id) },
      () => gone,
    );
    return () => {
      gone = true;
    };
  }, [connected, ahead]);
}
