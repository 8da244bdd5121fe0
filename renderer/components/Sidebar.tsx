// The run history (the App wraps it in its <nav>): search, status and vendor filters, and one row per run with its health and live agents.
import { Fragment, memo, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { RunSummary } from '../../shared/contract.js';
import type { VendorName } from '../../shared/words.js';
import { useBaton } from '../state/store.js';
import { CommandButton } from './CommandButton.js';
import { costText } from '../../shared/cost-text.js';
import { NeedYouCount } from './AttentionBadge.js';
import { relativeTime } from './format.js';
import { RunList, type RunListHandle } from './RunList.js';
import { createHistoryFilter } from '../state/history-filter.js';
import './components.css';

export const HEALTH_TITLES: Record<RunSummary['health'], string> = {
  live: 'agents are running',
  resumable: 'every vendor still has its conversation: a resume brings every agent back',
  stale: 'a vendor no longer has a conversation: that agent would start fresh',
  missing: 'a working directory is gone',
  checking: 'still checking whether a resume would find every directory and conversation',
};

/** Re-renders every `ms` so relative times stay true. */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

export function Sidebar() {
  const runs = useBaton((s) => s.runs);
  const runsLoaded = useBaton((s) => s.runsLoaded);
  const selectedRunId = useBaton((s) => s.selectedRunId);
  const query = useBaton((s) => s.query);
  const statusFilter = useBaton((s) => s.statusFilter);
  const vendorFilter = useBaton((s) => s.vendorFilter);
  const setQuery = useBaton((s) => s.setQuery);
  const setStatusFilter = useBaton((s) => s.setStatusFilter);
  const setVendorFilter = useBaton((s) => s.setVendorFilter);
  const now = useNow(30_000);
  const ids = useId();
  const list = useRef<RunListHandle>(null);
  const searchBox = useRef<HTMLInputElement>(null);

  const vendors = useMemo(() => vendorsOf(runs), [runs]);
  const [filterRuns] = useState(createHistoryFilter);
  const shown = useMemo(
    () => filterRuns(runs, { query, status: statusFilter, vendor: vendorFilter }),
    [filterRuns, runs, query, statusFilter, vendorFilter],
  );
  // Rows are memoized: a keystroke re-renders only the rows that come into view, not every row shown.
  const row = useCallback(
    (run: RunSummary) => <RunRow key={run.id} run={run} selected={run.id === selectedRunId} now={now} />,
    [selectedRunId, now],
  );
  const leaveList = useCallback(() => searchBox.current?.focus(), []);
  const filtered = query.trim() !== '' || statusFilter !== 'all' || vendorFilter !== 'all';

  return (
    <div className="bt-sidebar">
      <h2 className="bt-sidebar-title">Runs</h2>
      <input
        type="search"
        className="bt-input"
        aria-label="Search runs"
        placeholder="Search runs"
        value={query}
        ref={searchBox}
        onChange={(e) => setQuery(e.target.value)}
        onFocus={() => filterRuns.warm(runs)}
        onKeyDown={(e) => {
          // Down from the search box: into the runs it found.
          if (e.key !== 'ArrowDown' || !list.current) return;
          e.preventDefault();
          list.current.focusRow(0);
        }}
      />
      <div className="bt-filters">
        <label htmlFor={`${ids}-status`}>Status</label>
        <select
          id={`${ids}-status`}
          value={statusFilter}
          onChange={(e) => setStatusFilter(e.target.value as 'all' | 'live' | 'stopped')}
        >
          <option value="all">all</option>
          <option value="live">live</option>
          <option value="stopped">stopped</option>
        </select>
        <label htmlFor={`${ids}-vendor`}>Vendor</label>
        <select
          id={`${ids}-vendor`}
          value={vendorFilter}
          onChange={(e) => setVendorFilter(e.target.value as VendorName | 'all')}
        >
          <option value="all">all</option>
          {vendors.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
          {vendorFilter !== 'all' && !vendors.includes(vendorFilter) ? (
            <option value={vendorFilter}>{vendorFilter}</option>
          ) : null}
        </select>
      </div>
      {!runsLoaded && runs.length === 0 ? (
        <p className="bt-empty">Loading runs…</p>
      ) : runs.length === 0 ? (
        <p className="bt-empty">No runs yet. Start one with New run, or resume one from a handle.</p>
      ) : shown.length === 0 && !runsLoaded ? (
        <p className="bt-empty">Listing older runs…</p>
      ) : shown.length === 0 ? (
        <div className="bt-empty">
          <p>No runs match these filters.</p>
          {filtered ? (
            <button
              type="button"
              className="bt-button"
              onClick={() => {
                setQuery('');
                setStatusFilter('all');
                setVendorFilter('all');
              }}
            >
              Clear filters
            </button>
          ) : null}
        </div>
      ) : (
        <>
          <RunList runs={shown} row={row} ref={list} onLeaveTop={leaveList} />
          {/* The newest runs are shown first; the rest of a large history follows (run-list-sync.ts). */}
          {runsLoaded ? null : (
            <p className="bt-muted bt-list-more" role="status">
              Listing older runs…
            </p>
          )}
        </>
      )}
      <div className="bt-sidebar-foot">
        <CommandButton command="sessions.open" className="bt-button" />
        <CommandButton command="worktrees.cleanup" className="bt-button" />
        <CommandButton command="hosts.open" className="bt-button" />
      </div>
    </div>
  );
}

/** `Date.prototype.toLocaleString()`'s format, made once: a formatter per row was part of each new row's cost. */
const dateTime = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

const RunRow = memo(function RunRow({ run, selected, now }: { run: RunSummary; selected: boolean; now: number }) {
  const selectRun = useBaton((s) => s.selectRun);
  const openDialog = useBaton((s) => s.openDialog);
  const metaId = useId();
  return (
    <li className={`bt-run-row${selected ? ' bt-selected' : ''}`}>
      <button
        type="button"
        className="bt-run-select"
        aria-label={run.name}
        aria-describedby={metaId}
        aria-current={selected ? 'true' : undefined}
        onClick={() => selectRun(run.id)}
      >
        <span className="bt-run-name">{run.name}</span>
        <span id={metaId} className="bt-run-meta">
          <span className={`bt-badge bt-health-${run.health}`} title={HEALTH_TITLES[run.health]}>
            {run.health}
          </span>{' '}
          <span className="bt-live-count">
            {run.liveAgents}/{run.agentCount} live
          </span>{' '}
          <NeedYouCount runId={run.id} fallback={run.needYou} />
          {run.vendors.map((v) => (
            <Fragment key={v}>
              <span className="bt-chip">{v}</span>{' '}
            </Fragment>
          ))}
          {run.cost ? (
            <>
              <span className="bt-run-cost">{costText(run.cost)}</span>{' '}
            </>
          ) : null}
          <time className="bt-muted" dateTime={run.updatedAt} title={dateTime.format(Date.parse(run.updatedAt))}>
            {relativeTime(run.updatedAt, now)}
          </time>
        </span>
      </button>
      <div className="bt-run-actions">
        <button
          type="button"
          className="bt-small-button"
          aria-label={`Rename ${run.name}`}
          onClick={() => openDialog({ kind: 'rename', runId: run.id })}
        >
          Rename
        </button>
        <button
          type="button"
          className="bt-small-button"
          aria-label={`Fork ${run.name}`}
          onClick={() => openDialog({ kind: 'fork', runId: run.id })}
        >
          Fork
        </button>
        <button
          type="button"
          className="bt-small-button"
          aria-label={`Export ${run.name}`}
          onClick={() => openDialog({ kind: 'export', runId: run.id })}
        >
          Export
        </button>
        <button
          type="button"
          className="bt-small-button bt-danger-text"
          aria-label={`Delete ${run.name}`}
          onClick={() => openDialog({ kind: 'delete', runId: run.id })}
        >
          Delete
        </button>
      </div>
    </li>
  );
});

/**
 * The vendors of the listed runs, sorted. Computed again for each new list (a merge of a `run.list` answer makes one):
 * a loop into a set, not a `flatMap` of 10,000 runs' vendors into an array thrown away at once (allocations while
 * switching: docs/performance.md, flow13).
 */
function vendorsOf(runs: readonly RunSummary[]): string[] {
  const vendors = new Set<string>();
  // Indexed: a `for…of` here made two iterators a run (more than the flatMap it replaced, in the heap profile).
  for (let i = 0; i < runs.length; i++) {
    const names = runs[i]!.vendors;
    for (let j = 0; j < names.length; j++) vendors.add(names[j]!);
  }
  return [...vendors].sort();
}
