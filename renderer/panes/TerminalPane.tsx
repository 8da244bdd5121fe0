// A pane: header (label, vendor, cwd, short session id, worktree branch and changes, status) above the agent's one xterm.
import { useEffect, useRef, useState } from 'react';
import type { AgentView } from '../../shared/contract.js';
import { AgentCostBadge } from '../components/Cost.js';
import { CopyHandleMenu } from '../components/CopyHandleMenu.js';
import { WorktreeBadge } from '../components/WorktreeBadge.js';
import { AgentMuteButton, AgentStateBadge } from '../components/AttentionBadge.js';
import { useBaton } from '../state/store.js';
import { idleTicker } from './pane-idle.js';
import { followTerminal, getPane, mountPane, parkPane, quietFor, wholeHistory } from './terminal-registry.js';

interface Props {
  runId: string;
  agent: AgentView;
  visible: boolean;
  index: number;
  searchOpen: boolean;
  onCloseSearch(): void;
}

/** A running agent quiet this long is shown as idle (waiting for you, most likely). */
const IDLE_AFTER_MS = 5000;

function statusText(agent: AgentView, idle = false): string {
  switch (agent.status) {
    case 'running':
      return idle ? 'idle' : 'running';
    case 'exited':
      return agent.exitCode === null ? 'exited' : `exited (code ${agent.exitCode})`;
    case 'stopped':
      return 'stopped';
    case 'failed':
      return 'failed to start';
    case 'starting':
      return 'starting';
  }
}

export function TerminalPane({ runId, agent, visible, index, searchOpen, onCloseSearch }: Props) {
  const hostRef = useRef<HTMLDivElement>(null);
  const running = agent.status === 'running' && agent.terminalId !== null;
  const restartAgent = useBaton((s) => s.restartAgent);
  const resumeAgent = useBaton((s) => s.resumeAgent);
  const toast = useBaton((s) => s.toast);
  const [busy, setBusy] = useState(false);
  const [idle, setIdle] = useState(false);

  useEffect(() => {
    if (!running) return;
    return idleTicker.subscribe(() => setIdle(quietFor(agent.id) > IDLE_AFTER_MS));
  }, [running, agent.id]);

  // A pane not open yet opens in a task of its own, panes in view first (pane-opener.ts): a run's ten new xterms
  // opened together held the page for hundreds of milliseconds.
  useEffect(() => {
    followTerminal(agent.id, agent.terminalId, running);
  }, [agent.id, agent.terminalId, running]);

  useEffect(() => {
    const host = hostRef.current;
    if (!visible || !host) return;
    // Fitted to the host now and whenever the host's size changes (pane-fit.ts observes it).
    mountPane(agent.id, host);
    return () => parkPane(agent.id);
  }, [visible, agent.id]);

  const act = async (what: () => Promise<void>) => {
    setBusy(true);
    try {
      await what();
    } catch (err) {
      toast('error', (err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const shortId = agent.sessionId ? `${agent.sessionId.slice(0, 8)}…` : '—';
  return (
    <section
      className={`bt-pane bt-status-${agent.status}`}
      role="region"
      aria-label={agent.label}
      data-agent-id={agent.id}
      hidden={!visible}
    >
      <header className="bt-pane-header">
        <span className="bt-pane-index" aria-hidden="true">
          {index + 1}
        </span>
        <strong className="bt-pane-label">{agent.label}</strong>
        <span className="bt-chip">{agent.vendor}</span>
        {agent.host ? (
          <span className="bt-chip bt-pane-host" title={`runs on ${agent.host}`}>
            {agent.host}
          </span>
        ) : null}
        <span className="bt-pane-cwd" title={agent.cwd}>
          <bdi>{agent.cwd}</bdi>
        </span>
        <span className="bt-pane-session" title="vendor session id (shortened: it is a secret)">
          {shortId}
        </span>
        <WorktreeBadge agent={agent} />
        <AgentCostBadge runId={runId} agentId={agent.id} />
        <span className={`bt-pane-status bt-pane-status-${running && idle ? 'idle' : agent.status}`} aria-live="polite">
          {statusText(agent, running && idle)}
        </span>
        <AgentStateBadge agent={agent} />
        <AgentMuteButton runId={runId} agent={agent} />
        <CopyHandleMenu runId={runId} agentLabel={agent.label} />
      </header>
      {agent.warning && (
        <p className="bt-pane-warning" role="note">
          ⚠ {agent.warning}
        </p>
      )}
      {searchOpen && <PaneSearch agentId={agent.id} onClose={onCloseSearch} />}
      <div className="bt-pane-body" ref={hostRef} />
      {!running && agent.status !== 'starting' && (
        <div className="bt-pane-ended" role="status">
          <span>This terminal has ended ({statusText(agent)}); it does not take input.</span>
          <button
            type="button"
            disabled={busy}
            onClick={() => void act(() => resumeAgent(runId, agent.label))}
            aria-label={`Resume ${agent.label}`}
          >
            Resume
          </button>
          <button
            type="button"
            disabled={busy}
            onClick={() => void act(() => restartAgent(agent.id))}
            aria-label={`Restart ${agent.label}`}
          >
            Restart
          </button>
        </div>
      )}
    </section>
  );
}

function PaneSearch({ agentId, onClose }: { agentId: string; onClose(): void }) {
  const [query, setQuery] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => inputRef.current?.focus(), []);
  // A search covers the whole history: a pane holding only its latest screens loads the rest (pane-history.ts).
  useEffect(() => void wholeHistory(agentId), [agentId]);
  const find = (forward: boolean) => {
    void wholeHistory(agentId).then(() => {
      const { search } = getPane(agentId);
      if (forward) search.findNext(query);
      else search.findPrevious(query);
    });
  };
  return (
    <div className="bt-pane-search" role="search">
      <input
        ref={inputRef}
        aria-label="Search in scrollback"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') find(!e.shiftKey);
          if (e.key === 'Escape') onClose();
        }}
      />
      <button type="button" onClick={() => find(false)}>
        Previous
      </button>
      <button type="button" onClick={() => find(true)}>
        Next
      </button>
      <button type="button" onClick={onClose} aria-label="Close search">
        ×
      </button>
    </div>
  );
}
