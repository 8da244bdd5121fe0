// What to do with an agent's worktree (docs/worktrees.md): merge its branch into the base branch (the outcome shown:
// merged, or the conflicting files; the core aborts a conflicted merge and never forces), or remove it after a
// confirmation (a running agent is stopped first, since the core removes no worktree an agent runs in; uncommitted
// changes are discarded only when the user says so; a branch with unmerged commits is kept unless the user asked to
// delete it).
import { useId, useState } from 'react';
import { BatonError, type AgentView, type WorktreeInfo } from '../../shared/contract.js';
import { shellQuote } from '../state/shell-quote.js';
import { useBaton } from '../state/store.js';
import type { MergeResult, RemoveResult } from '../state/worktree-calls.js';
import { errorMessage } from './format.js';
import './components.css';

type Removal =
  | { step: 'idle' }
  | { step: 'confirm'; deleteBranch: boolean }
  | { step: 'dirty'; message: string; deleteBranch: boolean }
  | { step: 'done'; result: RemoveResult }
  | { step: 'error'; message: string };

interface Props {
  agent: AgentView;
  /** The worktree as it was when the dialog opened (kept after a removal, to say what happened). */
  worktree: WorktreeInfo;
  /** It is gone (removed from here): nothing more to do with it. */
  removed: boolean;
  /** The branch a merge goes into, when known. */
  into: string | null;
  onBusy(busy: boolean): void;
}

export function WorktreeActions({ agent, worktree, removed, into, onBusy }: Props) {
  const mergeAgent = useBaton((s) => s.mergeAgent);
  const removeWorktree = useBaton((s) => s.removeWorktree);
  const stopAgent = useBaton((s) => s.stopAgent);
  const copyPlain = useBaton((s) => s.copyPlain);
  const toast = useBaton((s) => s.toast);
  const connected = useBaton((s) => s.status === 'connected');
  const id = useId();
  const [busy, setBusyState] = useState<'merge' | 'remove' | null>(null);
  const [merge, setMerge] = useState<{ result: MergeResult } | { error: string } | null>(null);
  const [removal, setRemoval] = useState<Removal>({ step: 'idle' });
  const running = agent.status === 'running' || agent.status === 'starting';
  const setBusy = (what: 'merge' | 'remove' | null) => {
    setBusyState(what);
    onBusy(what !== null);
  };

  const doMerge = async () => {
    setBusy('merge');
    setMerge(null);
    try {
      setMerge({ result: await mergeAgent(agent.id) });
    } catch (err) {
      setMerge({ error: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  };

  const doRemove = async (force: boolean, deleteBranch: boolean) => {
    setBusy('remove');
    try {
      if (running) await stopAgent(agent.id);
      setRemoval({ step: 'done', result: await removeWorktree(agent.id, { force, deleteBranch }) });
    } catch (err) {
      // Uncommitted changes: the core refuses unless forced; offer that, never do it unasked. The contract has no
      // reason code for it, so the core's message tells this refusal from the others (docs/worktrees.md, `dirty`).
      if (err instanceof BatonError && err.code === 'conflict' && !force && /uncommitted/i.test(err.message))
        setRemoval({ step: 'dirty', message: err.message, deleteBranch });
      else setRemoval({ step: 'error', message: errorMessage(err) });
    } finally {
      setBusy(null);
    }
  };

  const mergeLabel = `Merge into ${into ?? 'the base branch'}`;
  return (
    <section className="bt-worktree-actions" aria-label="Worktree actions">
      {removed ? null : (
        <div className="bt-row bt-gap">
          <button
            type="button"
            className="bt-button"
            disabled={busy !== null || !connected}
            onClick={() => void doMerge()}
          >
            {busy === 'merge' ? 'Merging…' : mergeLabel}
          </button>
          {!worktree.created ? (
            <span className="bt-field-hint">An existing worktree, used as it was: Baton never removes it.</span>
          ) : removal.step === 'idle' || removal.step === 'error' ? (
            <button
              type="button"
              className="bt-button bt-danger-text"
              disabled={busy !== null || !connected}
              onClick={() => setRemoval({ step: 'confirm', deleteBranch: false })}
            >
              Remove worktree
            </button>
          ) : null}
        </div>
      )}
      {merge && 'result' in merge ? <MergeOutcome result={merge.result} /> : null}
      {merge && 'error' in merge ? (
        <p className="bt-error-box" role="alert">
          Not merged: {merge.error}
        </p>
      ) : null}
      {removal.step === 'confirm' ? (
        <div className="bt-confirm" role="group" aria-labelledby={`${id}-confirm`}>
          <p id={`${id}-confirm`}>
            Remove the worktree <code className="bt-mono">{worktree.worktreePath}</code>?{' '}
            {running ? `The agent ${agent.label} still runs in it: it is stopped first. ` : ''}Its directory is deleted.
            The branch <code className="bt-mono">{worktree.branch}</code> is deleted too if it is merged, and kept if
            not.
          </p>
          <label className="bt-check">
            <input
              type="checkbox"
              checked={removal.deleteBranch}
              disabled={busy !== null}
              onChange={(e) => setRemoval({ step: 'confirm', deleteBranch: e.target.checked })}
            />
            <span>Also delete the branch if it has commits not merged</span>
          </label>
          <RemoveOrKeep
            label="Remove"
            busy={busy}
            onRemove={() => void doRemove(false, removal.deleteBranch)}
            onKeep={() => setRemoval({ step: 'idle' })}
          />
        </div>
      ) : null}
      {removal.step === 'dirty' ? (
        <div className="bt-warn-box" role="alert">
          <p>{removal.message}</p>
          <RemoveOrKeep
            label="Remove anyway (discard changes)"
            busy={busy}
            onRemove={() => void doRemove(true, removal.deleteBranch)}
            onKeep={() => setRemoval({ step: 'idle' })}
          />
        </div>
      ) : null}
      {removal.step === 'error' ? (
        <p className="bt-error-box" role="alert">
          Not removed: {removal.message}
        </p>
      ) : null}
      {removal.step === 'done' ? (
        <div className={removal.result.removed ? 'bt-ok-box' : 'bt-warn-box'} role="status">
          <p>{removal.result.removed ? sentence(removal.result.message) : `Not removed: ${removal.result.message}`}</p>
          {removal.result.branchKept ? (
            <p>
              The branch <code className="bt-mono">{worktree.branch}</code> is kept.
              {/unmerged/i.test(removal.result.message) ? (
                <>
                  {' '}
                  Its commits are in no other branch; to delete it anyway:{' '}
                  <code className="bt-mono">{branchDeleteCommand(worktree)}</code>{' '}
                  <button
                    type="button"
                    className="bt-small-button"
                    onClick={() =>
                      void copyPlain(branchDeleteCommand(worktree), 'Command').catch((err: unknown) =>
                        toast('error', errorMessage(err)),
                      )
                    }
                  >
                    Copy command
                  </button>
                </>
              ) : null}
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

function branchDeleteCommand(worktree: WorktreeInfo): string {
  return `git -C ${shellQuote(worktree.repoRoot)} branch -D ${shellQuote(worktree.branch)}`;
}

/** The core's message ("merged x into main (1a2b3c4d)") as a sentence. */
const sentence = (message: string): string => {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
};

function MergeOutcome({ result }: { result: MergeResult }) {
  if (result.merged) {
    return (
      <p className="bt-ok-box" role="status">
        {sentence(result.message)}
      </p>
    );
  }
  return (
    <div className="bt-warn-box" role="alert">
      <p>
        Not merged into <code className="bt-mono">{result.into}</code>: nothing was changed. {result.message}
      </p>
      {result.conflicts.length > 0 ? (
        <>
          <p>Conflicting files:</p>
          <ul className="bt-mono">
            {result.conflicts.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

/** The two answers to "remove this worktree?": the removal (danger) and keeping it. */
function RemoveOrKeep({
  label,
  busy,
  onRemove,
  onKeep,
}: {
  label: string;
  busy: string | null;
  onRemove: () => void;
  onKeep: () => void;
}) {
  return (
    <div className="bt-row bt-gap">
      <button type="button" className="bt-button bt-danger" disabled={busy !== null} onClick={onRemove}>
        {busy === 'remove' ? 'Removing…' : label}
      </button>
      <button type="button" className="bt-button" disabled={busy !== null} onClick={onKeep}>
        Keep it
      </button>
    </div>
  );
}
