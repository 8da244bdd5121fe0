// What the run view prepares for the next switch (docs/performance.md, "Switching runs"): the other live runs' panes
// load in the background (pane-warmup.ts), and their details (`run.get`) are fetched ahead too. Without them a first
// visit unmounted the run in view, showed "Select a run" and waited one round trip to the core, queued behind the
// page's own tasks, before any pane of the new run could even start to open.
import { useEffect } from 'react';
import { warmRuns } from '../panes/pane-warmup.js';
import { useBaton } from '../state/store.js';
import { loadDetailsAhead, otherLiveRuns } from './RunViewPrefetch.js';

/** Loads the other live runs' panes and details in the background while `runId` is in view and connected. */
export function useRunsAhead(runId: string, connected: boolean): void {
  const ahead = useBaton((s) => otherLiveRuns(s.runs, runId));
  useEffect(() => {
    if (!connected || ahead === '') return;
    const ids = ahead.split(' ');
    warmRuns(ids);
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
