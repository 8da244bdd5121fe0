// An agent's attention state in its pane header (docs/attention.md §5): what it is doing or waiting for, in words
// (the colour only repeats them), what it asks, whether the state was read from its screen, and a mute for its
// notifications.
import type { AgentAttention, AgentView } from '../../shared/contract.js';
import { needingIn } from '../attention/order.js';
import { useAttention } from '../state/attention-store.js';
import './attention.css';

const WORDS: Record<AgentAttention['state'], string> = {
  working: 'Working',
  waiting: 'Waiting for you',
  asking: 'Asks permission',
  idle: 'Idle',
  exited: 'Exited',
};

const SOURCES: Record<AgentAttention['source'], string> = {
  hooks: "from the vendor's hooks",
  notify: "from the vendor's notify program and its screen",
  events: "from the vendor's event stream",
  screen: "read from the vendor's screen",
  none: 'this agent reports no state',
};

/** The agent's state as the page knows it now: the latest `agent.state`, else the run view's. */
export function useAgentAttention(agent: Pick<AgentView, 'id' | 'attention'>): AgentAttention {
  return useAttention((s) => s.entries[agent.id]?.attention) ?? agent.attention;
}

export function AgentStateBadge({ agent }: { agent: Pick<AgentView, 'id' | 'label' | 'attention'> }) {
  const a = useAgentAttention(agent);
  const title = [
    a.asks,
    `${WORDS[a.state]} since ${new Date(a.since).toLocaleTimeString()}`,
    a.inferred ? 'inferred from the screen (the vendor sent no signal for it)' : SOURCES[a.source],
  ]
    .filter((x) => x)
    .join(' — ');
  return (
    <span className={`bt-attn bt-attn-${a.state}`} title={title} role="status" aria-live="polite">
      <span className="bt-attn-dot" aria-hidden="true" />
      {WORDS[a.state]}
      {a.inferred && a.state !== 'exited' ? <span className="bt-attn-inferred">?</span> : null}
      {a.asks && (a.state === 'asking' || a.state === 'waiting') ? (
        <span className="bt-attn-asks">: {a.asks}</span>
      ) : null}
    </span>
  );
}

/** Mutes or unmutes one agent's notifications (kept in the run's settings). */
export function AgentMuteButton({ runId, agent }: { runId: string; agent: Pick<AgentView, 'id' | 'label'> }) {
  const settings = useAttention((s) => s.settings[runId]);
  const muted = settings?.mutedAgents.includes(agent.id) ?? false;
  const toggle = async () => {
    const store = useAttention.getState();
    await store.loadSettings(runId);
    await store.configure({ run: runId, agent: { agentId: agent.id, muted: !muted } });
  };
  return (
    <button
      type="button"
      className="bt-small-button bt-attn-mute"
      aria-pressed={muted}
      aria-label={`${muted ? 'Unmute' : 'Mute'} notifications for ${agent.label}`}
      title={muted ? 'Notifications for this agent are muted' : 'Mute notifications for this agent'}
      onClick={() => void toggle().catch(() => undefined)}
    >
      {muted ? 'Muted' : 'Mute'}
    </button>
  );
}

/** "2 need you" on a run in the history list: live from the page's states, the run summary's count until loaded. */
export function NeedYouCount({ runId, fallback }: { runId: string; fallback: number }) {
  const count = useAttention((s) => (s.loaded ? needingIn(Object.values(s.entries), runId) : fallback));
  if (count === 0) return null;
  return (
    <>
      <span className="bt-need-you" title="agents waiting for input or asking permission">
        {count} need{count === 1 ? 's' : ''} you
      </span>{' '}
    </>
  );
}

/** On an agent's tab: a mark when it needs the user (its header is out of sight while another tab shows). */
export function TabNeed({ agent }: { agent: Pick<AgentView, 'id' | 'attention'> }) {
  const a = useAgentAttention(agent);
  if (a.state !== 'waiting' && a.state !== 'asking') return null;
  return (
    <span className={`bt-attn-tab bt-attn-${a.state}`}>
      {' '}
      <span className="bt-attn-dot" aria-hidden="true" />
      <span className="bt-visually-hidden">{a.state === 'asking' ? ' (asks permission)' : ' (waiting for you)'}</span>
    </span>
  );
}
