// Which agents need the user, as the page knows it (docs/attention.md §5): every live agent's attention state
// (`attention.list`, then `agent.state` events), each run's notification settings, and the user's opt-in to
// notifications. Decides with the shared NoticePolicy when a change is worth a notification.
import { create } from 'zustand';
import type { BatonClient } from '../../shared/client.js';
import {
  DEFAULT_ATTENTION_SETTINGS,
  type AgentAttentionEntry,
  type AttentionSettings,
  type EventPayload,
  type Params,
} from '../../shared/contract.js';
import { NoticePolicy } from '../../shared/attention-policy.js';
import { askNotifyPermission, notifyPermission, showNotice, type NotifyPermission } from '../attention/notifier.js';
import { useBaton } from './store.js';

const OPT_IN_KEY = 'baton.notifications.v1';

export interface AttentionStore {
  /** Live agents by id. */
  entries: Record<string, AgentAttentionEntry>;
  /** The list has been read from the core at least once (before that, run summaries' counts stand). */
  loaded: boolean;
  /** Notification settings by run id, once loaded. */
  settings: Record<string, AttentionSettings>;
  /** The user turned notifications on here (and the browser allowed them). */
  optedIn: boolean;
  permission: NotifyPermission;
  enableNotifications(): Promise<void>;
  disableNotifications(): void;
  loadSettings(runId: string): Promise<AttentionSettings>;
  configure(change: Params<'attention.configure'>): Promise<void>;
}

let client: BatonClient | null = null;
const policy = new NoticePolicy();

function readOptIn(): boolean {
  try {
    return localStorage.getItem(OPT_IN_KEY) === 'on';
  } catch {
    return false;
  }
}

function writeOptIn(on: boolean): void {
  try {
    localStorage.setItem(OPT_IN_KEY, on ? 'on' : 'off');
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}

export const useAttention = create<AttentionStore>()((set, get) => ({
  entries: {},
  loaded: false,
  settings: {},
  optedIn: readOptIn() && notifyPermission() === 'granted',
  permission: notifyPermission(),

  async enableNotifications() {
    const permission = await askNotifyPermission();
    set({ permission, optedIn: permission === 'granted' });
    writeOptIn(permission === 'granted');
    if (permission === 'denied')
      useBaton
        .getState()
        .toast(
          'warning',
          'The browser refused notifications for this page: allow them in its site settings, then try again.',
        );
  },

  disableNotifications() {
    set({ optedIn: false });
    writeOptIn(false);
  },

  async loadSettings(runId) {
    const known = get().settings[runId];
    if (known) return known;
    const loaded = client ? await client.call('attention.settings', { run: runId }) : DEFAULT_ATTENTION_SETTINGS;
    set((s) => ({ settings: { ...s.settings, [runId]: loaded } }));
    return loaded;
  },

  async configure(change) {
    if (!client) return;
    const next = await client.call('attention.configure', change);
    const run = useBaton.getState().runDetails[change.run]?.id ?? change.run;
    set((s) => ({ settings: { ...s.settings, [run]: next } }));
  },
}));

/** Whether the agent's pane is on screen now: its run selected and, in tabs, its tab shown. */
function paneInView(runId: string, agentId: string): boolean {
  const s = useBaton.getState();
  if (s.selectedRunId !== runId || document.visibilityState !== 'visible') return false;
  if ((s.layouts[runId] ?? 'grid') === 'grid') return true;
  const active = s.activeAgent[runId] ?? s.runDetails[runId]?.agents[0]?.id;
  return active === agentId;
}

async function loadAll(c: BatonClient): Promise<void> {
  const list = await c.call('attention.list', {});
  for (const e of list) policy.known(e.agentId, e.attention);
  useAttention.setState({ entries: Object.fromEntries(list.map((e) => [e.agentId, e])), loaded: true });
}

async function stateChanged(c: BatonClient, e: EventPayload<'agent.state'>): Promise<void> {
  const { entries } = useAttention.getState();
  if (e.attention.state === 'exited') {
    const { [e.agentId]: _gone, ...rest } = entries;
    useAttention.setState({ entries: rest });
    policy.forget(e.agentId);
    return;
  }
  let entry = entries[e.agentId];
  if (!entry) {
    // A new agent: its run's name and its label come with the list.
    entry = (await c.call('attention.list', {})).find((x) => x.agentId === e.agentId);
    if (!entry) return;
  }
  const updated = { ...entry, attention: e.attention };
  useAttention.setState((s) => ({ entries: { ...s.entries, [e.agentId]: updated } }));
  // In the desktop app, main notifies while the window has no focus (electron/app/attention.ts); the page does the rest.
  const focused = document.hasFocus() && document.visibilityState === 'visible';
  if (window.baton !== undefined && !focused) return;
  if (!useAttention.getState().optedIn) {
    policy.known(e.agentId, e.attention);
    return;
  }
  const settings = await useAttention
    .getState()
    .loadSettings(e.runId)
    .catch(() => DEFAULT_ATTENTION_SETTINGS);
  const notice = policy.observe(updated, e.attention, settings, {
    focused,
    paneInView: paneInView(e.runId, e.agentId),
  });
  if (notice) showNotice(notice);
}

/** The page's client, now and after every reconnect (main.tsx hands it over with `provideClientTo`). */
export function connectAttention(c: BatonClient | null): void {
  client = c;
  if (!c) return;
  c.on('agent.state', (e) => void stateChanged(c, e).catch(() => undefined));
  c.on('run.attention', ({ runId, settings }) =>
    useAttention.setState((s) => ({ settings: { ...s.settings, [runId]: settings } })),
  );
  void loadAll(c).catch(() => undefined);
}
