// One agent's worktree (docs/worktrees.md): what it changed against the commit it was made from (stat, new files,
// patch), refreshed whenever the core says the count changed (`agent.changes`) or on Refresh; where it is (Copy path);
// and what to do with it: merge it into its base branch, or remove it (WorktreeActions).
import { useCallback, useEffect, useState } from 'react';
import { useBaton } from '../state/store.js';
import { findAgent, shownWorktree, type AgentChanges } from '../state/worktree-calls.js';
import { Dialog } from './Dialog.js';
import { errorMessage } from './format.js';
import { PatchView } from './PatchView.js';
import { WorktreeActions } from './WorktreeActions.js';
import { changedFilesText } from './WorktreeBadge.js';
import './components.css';
import './worktrees.css';

type Loaded = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ok'; changes: AgentChanges };

export function ChangesDialog() {
  const agentId = useBaton((s) => (s.dialog?.kind === 'changes' ? s.dialog.agentId : null));
  return agentId ? <ChangesView key={agentId} agentId={agentId} /> : null;
}

function ChangesView({ agentId }: { agentId: string }) {
  const agent = useBaton((s) => findAgent(s, agentId)?.agent ?? null);
  const seq = useBaton((s) => s.changes[agentId]?.seq ?? 0);
  const connected = useBaton((s) => s.status === 'connected');
  const agentChanges = useBaton((s) => s.agentChanges);
  const inspectWorktree = useBaton((s) => s.inspectWorktree);
  const copyPlain = useBaton((s) => s.copyPlain);
  const openDialog = useBaton((s) => s.openDialog);
  const toast = useBaton((s) => s.toast);
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const [refreshing, setRefreshing] = useState(false);
  const [reloads, setReloads] = useState(0);
  const [into, setInto] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const live = useBaton((s) => (agent ? shownWorktree(s, agent) : null));
  // Kept once the worktree is removed from here, so the dialog can still say what happened to it and its branch.
  const [remembered, setRemembered] = useState(live);
  useEffect(() => {
    if (live) setRemembered(live);
  }, [live]);
  const worktree = live ?? remembered;
  const path = live?.worktreePath ?? null;
  const repoRoot = worktree?.repoRoot ?? null;
  const host = agent?.host;

  // The branch a merge goes into: the main checkout's current one (the core merges there, docs/worktrees.md).
  useEffect(() => {
    if (!repoRoot || !connected) return;
    let current = true;
    // A remote agent's repository is on its host: that host's core says its current branch.
    inspectWorktree(repoRoot, host)
      .then((repo) => current && setInto(repo?.currentBranch ?? null))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [repoRoot, host, connected, inspectWorktree]);

  // Again on every `agent.changes` event (seq) and on Refresh (reloads); the last answer stays shown meanwhile.
  useEffect(() => {
    if (!path || !connected) return;
    let current = true;
    setRefreshing(true);
    agentChanges(agentId)
      .then((changes) => current && setLoaded({ state: 'ok', changes }))
      .catch((err: unknown) => current && setLoaded({ state: 'error', message: errorMessage(err) }))
      .finally(() => current && setRefreshing(false));
    return () => {
      current = false;
    };
  }, [agentId, path, connected, seq, reloads, agentChanges]);

  const refresh = useCallback(() => setReloads((n) => n + 1), []);
  const close = () => openDialog(null);
  const footer = (
    <>
      <button type="button" className="bt-button" disabled={!path || refreshing || busy} onClick={refresh}>
        {refreshing ? 'Refreshing…' : 'Refresh'}
      </button>
      <button type="button" className="bt-button bt-primary" disabled={busy} onClick={close}>
        Close
      </button>
    </>
  );

  const title = `Changes of ${agent?.label ?? 'an agent'}`;
  if (!agent || !worktree) {
    return (
      <Dialog title={title} onClose={close} footer={footer}>
        <p>
          {agent
            ? 'This agent has no worktree of its own (it works in its directory, or its worktree was removed).'
            : 'This agent is no longer in a run.'}
        </p>
      </Dialog>
    );
  }
  const changes = live && loaded.state === 'ok' ? loaded.changes : null;
  return (
    <Dialog title={title} onClose={close} footer={footer} busy={busy} wide>
      <p className="bt-changes-summary">
        Branch <code className="bt-mono">{worktree.branch}</code> from{' '}
        <code className="bt-mono">{worktree.baseCommit.slice(0, 10)}</code>
        {changes ? (
          <>
            : <strong>{changedFilesText(changes.files)}</strong>,{' '}
            <span className="bt-ok-text">+{changes.insertions}</span>{' '}
            <span className="bt-danger-text">−{changes.deletions}</span>
          </>
        ) : null}
      </p>
      <div className="bt-row bt-gap bt-changes-path">
        <span className="bt-muted">{host ? `Worktree on ${host}` : 'Worktree'}</span>
        <code className="bt-mono bt-path">{worktree.worktreePath}</code>
        {live ? (
          <button
            type="button"
            className="bt-small-button"
            onClick={() =>
              void copyPlain(worktree.worktreePath, 'Path').catch((err: unknown) =>
                toast('error', `Could not copy the path: ${errorMessage(err)}`),
              )
            }
          >
            Copy path
          </button>
        ) : null}
      </div>
      <div aria-live="polite" className="bt-muted bt-changes-status">
        {!live
          ? 'This worktree was removed.'
          : loaded.state === 'loading'
            ? 'Reading the changes…'
            : refreshing
              ? 'Refreshing…'
              : ''}
      </div>
      {live && loaded.state === 'error' ? (
        <p className="bt-error-box" role="alert">
          Could not read the changes: {loaded.message}
        </p>
      ) : null}
      {changes ? (
        <>
          {changes.stat ? (
            <pre className="bt-stat bt-mono" aria-label="Changed files">
              {changes.stat}
            </pre>
          ) : null}
          {changes.untracked.length > 0 ? (
            <p className="bt-field-hint">
              New files git does not track yet (a merge carries only what is committed): {changes.untracked.join(', ')}
            </p>
          ) : null}
          {changes.truncated ? (
            <p className="bt-warn-box" role="note">
              The patch is truncated: only its beginning is shown. Run{' '}
              <code className="bt-mono">git diff {worktree.baseCommit.slice(0, 10)}</code> in the worktree for all of
              it.
            </p>
          ) : null}
          <PatchView patch={changes.patch} label="Patch" />
        </>
      ) : null}
      <WorktreeActions agent={agent} worktree={worktree} removed={live === null} into={into} onBusy={setBusy} />
    </Dialog>
  );
}
