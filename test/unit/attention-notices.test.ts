// When a notification goes out (shared/attention-policy.ts), the order of "Next agent that needs me"
// (renderer/attention/order.ts), and the desktop app's notifications and badge (electron/app/attention.ts).
import { describe, expect, it } from 'vitest';
import { Attention } from '../../electron/app/attention.js';
import { nextNeeding, needingIn, needingInOrder, needsByRun } from '../../renderer/attention/order.js';
import { NoticePolicy, type AgentRef } from '../../shared/attention-policy.js';
import {
  DEFAULT_ATTENTION_SETTINGS,
  type AgentAttention,
  type AgentAttentionEntry,
  type AttentionSettings,
} from '../../shared/contract.js';

const ref: AgentRef = {
  runId: 'run_aaaaaaaaaaaaaaaa',
  runName: 'demo',
  agentId: 'agt_aaaaaaaaaaaaaaaa',
  label: 'planner',
};
const att = (state: AgentAttention['state'], episode: number, extra: Partial<AgentAttention> = {}): AgentAttention => ({
  state,
  since: '2026-01-01T00:00:00.000Z',
  asks: null,
  inferred: false,
  episode,
  source: 'hooks',
  ...extra,
});
const away = { focused: false, paneInView: false };
const settings = (s: Partial<AttentionSettings> = {}): AttentionSettings => ({ ...DEFAULT_ATTENTION_SETTINGS, ...s });

describe('NoticePolicy', () => {
  it('one notice per episode, naming the run, the label and what it asks', () => {
    const p = new NoticePolicy();
    const asking = att('asking', 1, { asks: 'Allow execution of ls?' });
    expect(p.observe(ref, asking, settings(), away)).toEqual({
      runId: ref.runId,
      agentId: ref.agentId,
      title: 'planner asks permission (demo)',
      body: 'Allow execution of ls?',
    });
    // The same episode reported again (a firmer signal, a repeat): nothing.
    expect(p.observe(ref, { ...asking, inferred: false }, settings(), away)).toBeNull();
    expect(p.observe(ref, att('working', 1), settings(), away)).toBeNull();
    expect(p.observe(ref, att('waiting', 2), settings(), away)?.title).toBe('planner is waiting for you (demo)');
  });

  it('never while the pane is in view of a focused window; that episode is decided and not told later', () => {
    const p = new NoticePolicy();
    expect(p.observe(ref, att('waiting', 1), settings(), { focused: true, paneInView: true })).toBeNull();
    expect(p.observe(ref, att('waiting', 1), settings(), away)).toBeNull();
    expect(p.observe(ref, att('waiting', 2), settings(), { focused: true, paneInView: false })).not.toBeNull();
    expect(p.observe(ref, att('asking', 3), settings(), { focused: false, paneInView: true })).not.toBeNull();
  });

  it('follows the run’s settings and mutes, and never re-tells what was known at connect', () => {
    const p = new NoticePolicy();
    expect(p.observe(ref, att('waiting', 1), settings({ notifyOn: ['asking'] }), away)).toBeNull();
    expect(p.observe(ref, att('asking', 2), settings({ muted: true }), away)).toBeNull();
    expect(p.observe(ref, att('asking', 3), settings({ mutedAgents: [ref.agentId] }), away)).toBeNull();
    const fresh = new NoticePolicy();
    fresh.known(ref.agentId, att('waiting', 7));
    expect(fresh.observe(ref, att('waiting', 7), settings(), away)).toBeNull();
    expect(fresh.observe(ref, att('asking', 8), settings(), away)).not.toBeNull();
  });
});

describe('Next agent that needs me', () => {
  const entry = (
    label: string,
    state: AgentAttention['state'],
    since: string,
    runName = 'demo',
  ): AgentAttentionEntry => ({
    runId: runName === 'demo' ? 'run_aaaaaaaaaaaaaaaa' : 'run_bbbbbbbbbbbbbbbb',
    runName,
    agentId: `agt_${label.padEnd(16, 'x')}`,
    label,
    vendor: 'claude',
    attention: att(state, 1, { since }),
  });
  const entries = [
    entry('c', 'waiting', '2026-01-01T00:00:03.000Z'),
    entry('a', 'asking', '2026-01-01T00:00:01.000Z', 'other'),
    entry('w', 'working', '2026-01-01T00:00:00.000Z'),
    entry('b', 'waiting', '2026-01-01T00:00:02.000Z'),
  ];

  it('cycles in the order they started waiting, across runs, skipping those that do not need the user', () => {
    expect(needingInOrder(entries).map((e) => e.label)).toEqual(['a', 'b', 'c']);
    expect(nextNeeding(entries, null)?.label).toBe('a');
    expect(nextNeeding(entries, entries[1]!.agentId)?.label).toBe('b');
    expect(nextNeeding(entries, entries[0]!.agentId)?.label).toBe('a');
    expect(nextNeeding(entries, entries[2]!.agentId)?.label).toBe('a');
    expect(nextNeeding([entries[2]!], null)).toBeNull();
    expect(needsByRun(entries)).toEqual({ run_aaaaaaaaaaaaaaaa: 2, run_bbbbbbbbbbbbbbbb: 1 });
  });

  it("counts a run's agents that need the user, as the history's rows show it", () => {
    expect(needingIn(entries, 'run_aaaaaaaaaaaaaaaa')).toBe(2);
    expect(needingIn(entries, 'run_bbbbbbbbbbbbbbbb')).toBe(1);
    expect(needingIn(entries, 'run_cccccccccccccccc')).toBe(0);
  });
});

describe('desktop: Electron notifications and the badge', () => {
  function desktop(focused: boolean) {
    const shown: string[] = [];
    const badges: number[] = [];
    const clicks: (() => void)[] = [];
    const a = new Attention({
      isFocused: () => focused,
      notify: (title, _body, onClick) => {
        shown.push(title);
        if (onClick) clicks.push(onClick);
      },
      setBadge: (n) => badges.push(n),
    });
    return { a, shown, badges, clicks };
  }

  it('without focus: one OS notification per turn, clicking it opens the agent; the badge counts who needs the user', () => {
    const d = desktop(false);
    let opened = 0;
    d.a.stateChanged(ref, att('waiting', 1), settings(), () => opened++);
    d.a.stateChanged(ref, att('waiting', 1, { inferred: false }), settings(), () => opened++);
    expect(d.shown).toEqual(['planner is waiting for you (demo)']);
    d.clicks[0]!();
    expect(opened).toBe(1);
    expect(d.badges.at(-1)).toBe(1);
    d.a.stateChanged(ref, att('working', 1), settings(), () => undefined);
    expect(d.badges.at(-1)).toBe(0);
  });

  it('with focus: the page tells the user, main only counts', () => {
    const d = desktop(true);
    d.a.stateChanged(ref, att('asking', 1), settings(), () => undefined);
    expect(d.shown).toEqual([]);
    expect(d.a.pending).toBe(1);
  });
});
