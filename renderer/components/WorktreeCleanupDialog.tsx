// Leftover worktrees: those Baton made for agents that no run owns any more (a run deleted without its worktrees,
// a crash between creating one and recording it: docs/worktrees.md, the ledger). The core lists only worktrees Baton
// created, so nothing of the user's own can be chosen here. The user picks which to remove; each one's result is shown.
// A connected host's leftovers are listed too, labelled with the host, and removed by its core (docs/hosts.md).
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useBaton } from '../state/store.js';
import type { CleanupResult, OrphanWorktree } from '../state/worktree-calls.js';
import { Dialog } from './Dialog.js';
import { errorMessage } from './format.js';
import './components.css';
import './worktrees.css';

type Listing = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ok'; orphans: OrphanWorktree[] };
type Result = CleanupResult & { host?: string };

/** A row's key: the same path may be on this machine and on a host. */
const keyOf = (o: { worktreePath: string; host?: string }) => `${o.host ?? ''}\u0000${o.worktreePath}`;
/** The path as the user reads it: a host's with the host before it. */
const where = (o: { worktreePath: string; host?: string }) => (o.host ? `${o.host}:${o.worktreePath}` : o.worktreePath);

export function WorktreeCleanupDialog() {
  const open = useBaton((s) => s.dialog?.kind === 'worktrees');
  return open ? <CleanupForm /> : null;
}

function CleanupForm() {
  const listOrphans = useBaton((s) => s.listOrphanWorktrees);
  const cleanup = useBaton((s) => s.cleanupWorktrees);
  const connected = useBaton((s) => s.status === 'connected');
  const openDialog = useBaton((s) => s.openDialog);
  const id = useId();
  const [listing, setListing] = useState<Listing>({ state: 'loading' });
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<Result[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  const load = useCallback(async () => {
    try {
      const orphans = await listOrphans();
      setListing({ state: 'ok', orphans });
      // Only paths still listed stay chosen.
      setChosen((old) => new Set(orphans.map(keyOf).filter((k) => old.has(k))));
    } catch (err) {
      setListing({ state: 'error', message: errorMessage(err) });
    }
  }, [listOrphans]);

  useEffect(() => {
    if (connected) void load();
  }, [connected, load]);

  // After a clean-up the rows it removed (and the focused checkbox) are gone: keep the keyboard in the dialog.
  useEffect(() => {
    if (results && !busy) closeRef.current?.focus();
  }, [results, busy]);

  const orphans = listing.state === 'ok' ? listing.orphans : [];
  const toggle = (path: string, on: boolean) =>
    setChosen((old) => {
      const next = new Set(old);
      if (on) next.add(path);
      else next.delete(path);
      return next;
    });

  const clean = async () => {
    setBusy(true);
    setError(null);
    try {
      // One request per machine: this one's, then each host's through its core.
      const byHost = new Map<string | undefined, string[]>();
      for (const o of orphans.filter((x) => chosen.has(keyOf(x))))
        byHost.set(o.host, [...(byHost.get(o.host) ?? []), o.worktreePath]);
      const done: Result[] = [];
      for (const [host, paths] of byHost)
        done.push(...(await cleanup(paths, host)).map((r) => (host ? { ...r, host } : r)));
      setResults(done);
      setChosen(new Set());
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
    // Read again once the clean-up is over, not while it holds the dialog: Escape or Close right after the results
    // show closes it (with a host in the list, the reading goes over ssh and took seconds under load, while Escape
    // did nothing).
    await load();
  };

  // The Host column only when a host has leftovers, so this machine's alone read as before.
  const onHosts = orphans.some((o) => o.host !== undefined);
  const dirtyChosen = orphans.filter((o) => o.dirty && chosen.has(keyOf(o))).length;
  const footer = (
    <>
      <span className="bt-sessions-count" aria-live="polite">
        {chosen.size} of {orphans.length} chosen
      </span>
      <button ref={closeRef} type="button" className="bt-button" disabled={busy} onClick={() => openDialog(null)}>
        Close
      </button>
      <button
        type="button"
        className="bt-button bt-danger"
        disabled={busy || chosen.size === 0 || !connected}
        onClick={() => void clean()}
      >
        {busy ? 'Cleaning up…' : 'Clean up'}
      </button>
    </>
  );

  return (
    <Dialog title="Leftover worktrees" onClose={() => openDialog(null)} footer={footer} busy={busy} wide>
      <p className="bt-muted">
        Worktrees Baton made for agents of runs that are gone. Only worktrees Baton created are listed: never one of
        your own.
      </p>
      {listing.state === 'loading' ? <p role="status">Looking for leftover worktrees…</p> : null}
      {listing.state === 'error' ? (
        <p className="bt-error-box" role="alert">
          Could not list them: {listing.message}
        </p>
      ) : null}
      {listing.state === 'ok' && orphans.length === 0 ? (
        <p role="status">No leftover worktrees: every worktree Baton made belongs to a run.</p>
      ) : null}
      {orphans.length > 0 ? (
        <div className="bt-table-wrap">
          <table className="bt-table">
            <caption className="bt-visually-hidden">Leftover worktrees</caption>
            <thead>
              <tr>
                <th scope="col">
                  <input
                    type="checkbox"
                    aria-label="Choose all"
                    checked={chosen.size === orphans.length}
                    disabled={busy}
                    onChange={(e) => setChosen(e.target.checked ? new Set(orphans.map(keyOf)) : new Set())}
                  />
                </th>
                {onHosts ? <th scope="col">Host</th> : null}
                <th scope="col">Worktree</th>
                <th scope="col">Branch</th>
                <th scope="col">Repository</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {orphans.map((o) => (
                <tr key={keyOf(o)}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Choose ${where(o)}`}
                      checked={chosen.has(keyOf(o))}
                      disabled={busy}
                      onChange={(e) => toggle(keyOf(o), e.target.checked)}
                    />
                  </td>
                  {onHosts ? <td className="bt-mono">{o.host ?? 'this machine'}</td> : null}
                  <th scope="row" className="bt-mono bt-path">
                    {o.worktreePath}
                  </th>
                  <td className="bt-mono">{o.branch}</td>
                  <td className="bt-mono bt-path">{o.repoRoot}</td>
                  <td className={o.dirty ? 'bt-warn-text' : 'bt-muted'}>{o.dirty ? 'uncommitted changes' : 'clean'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {dirtyChosen > 0 ? (
        <p id={`${id}-dirty`} className="bt-warn-box" role="note">
          {dirtyChosen === 1 ? 'A chosen worktree has' : `${dirtyChosen} chosen worktrees have`} uncommitted changes:
          cleaning up discards them.
        </p>
      ) : null}
      {error ? (
        <p className="bt-error-box" role="alert">
          {error}
        </p>
      ) : null}
      {results ? (
        <ul className="bt-cleanup-results" role="status" aria-label="Clean-up results">
          {results.map((r) => (
            <li key={keyOf(r)} className={r.removed ? 'bt-ok-text' : 'bt-danger-text'}>
              <span className="bt-mono">{where(r)}</span>: {r.removed ? 'removed' : 'not removed'}
              {r.message ? ` — ${r.message}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </Dialog>
  );
}
