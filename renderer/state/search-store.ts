// Search across every transcript, as the window shows it (zustand; docs/search.md §6): the index's progress (the
// `search.progress` event) and the actions of the search dialog. store.ts hands over the page's client at every
// connect (`connected`); only this store's actions use it here.
import { create } from 'zustand';
import type { BatonClient } from '../../shared/client.js';
import type { Params, Result, SearchStatus } from '../../shared/contract.js';
import { useBaton } from './store.js';

export interface SearchState {
  /** The index's last known progress; null until the core said. */
  status: SearchStatus | null;
}

export interface SearchActions {
  connected(client: BatonClient | null): void;
  /**
   * Asks the core how far its index is: this starts the index's worker if it has not started (the search dialog
   * opened). Not at connect: a page's first seconds are its cold start, and the worker's start (sql.js, a pass over
   * every transcript store) would take a core from it (docs/performance.md, "Cold start: the search index waits").
   */
  lookAtIndex(): void;
  query(params: Params<'search.query'>): Promise<Result<'search.query'>>;
  transcript(params: Params<'search.transcript'>): Promise<Result<'search.transcript'>>;
  /** Resumes a found conversation in a new run or an existing one; that run is then selected, with its outcomes. */
  resume(params: Params<'search.resume'>): Promise<Result<'search.resume'>>;
}

export const useSearch = create<SearchState & SearchActions>()((set) => {
  let current: BatonClient | null = null;
  const client = () => {
    if (!current) throw new Error('Not connected to the Baton core');
    return current;
  };
  return {
    status: null,

    connected(c) {
      current = c;
      if (!c) return;
      c.on('search.progress', (status) => set({ status }));
    },

    lookAtIndex() {
      current?.call('search.status', {}).then(
        (status) => set({ status }),
        () => undefined, // an older core without search: the dialog's query says so
      );
    },

    async query(params) {
      const found = await client().call('search.query', params);
      set({ status: found.status });
      return found;
    },

    transcript: (params) => client().call('search.transcript', params),

    async resume(params) {
      const result = await client().call('search.resume', params);
      useBaton.setState((s) => ({
        runDetails: { ...s.runDetails, [result.run.id]: result.run },
        selectedRunId: result.run.id,
        lastOutcomes: { ...s.lastOutcomes, [result.run.id]: result.outcomes },
      }));
      await useBaton.getState().refreshRunsOf([result.run.id]);
      return result;
    },
  };
});
