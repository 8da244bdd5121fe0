// A remote agent's state (electron/core/remote/remote-attention.ts, AttentionService.prepareRemote/relayed): read
// from its screen here until its host's core says it, then only what that core says; a host whose core has no
// attention is not followed (the screen stays the source). The end-to-end relay over a real sshd is in
// test/integration/ssh-hosts.test.ts.
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { AttentionService } from '../../electron/core/attention/attention-service.js';
import { Mirror } from '../../electron/core/pty/mirror.js';
import { followRemoteAttention, type RemoteCoreEvents } from '../../electron/core/remote/remote-attention.js';
import type { RunRepository } from '../../electron/core/runs/run-repository.js';
import { createVendors } from '../../electron/core/vendors/registry.js';
import {
  BatonError,
  type AgentAttention,
  type AgentAttentionEntry,
  type EventName,
  type EventPayload,
} from '../../shared/contract.js';
import { waitFor } from '../helpers/server.js';

const A = 'agt_aaaaaaaaaaaaaaaa';
const REMOTE_A = 'agt_rrrrrrrrrrrrrrrr';
const RUN = 'run_aaaaaaaaaaaaaaaa';
const claude = createVendors().get('claude')!;
const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((f) => f()));

const view = (
  state: AgentAttention['state'],
  episode: number,
  extra: Partial<AgentAttention> = {},
): AgentAttention => ({
  state,
  since: `2026-01-01T00:00:0${episode}.000Z`,
  asks: null,
  inferred: false,
  episode,
  source: 'hooks',
  ...extra,
});

function service() {
  const events: AgentAttention[] = [];
  const announce = <E extends EventName>(name: E, payload: EventPayload<E>) => {
    if (name === 'agent.state') events.push((payload as EventPayload<'agent.state'>).attention);
  };
  return { s: new AttentionService({} as RunRepository, announce, {}, ['/bin/true']), events };
}

/** A terminal whose screen is a real mirror, as a remote agent's local copy is. */
function screen() {
  const mirror = new Mirror(80, 24, 100);
  cleanup.push(() => mirror.dispose());
  const terminal = {
    lastOutputAt: 0,
    exited: null,
    capture: (lines?: number) => mirror.capture(lines),
    show(text: string) {
      mirror.write(Buffer.from(text));
      terminal.lastOutputAt = Date.now();
    },
  };
  return terminal;
}

describe('a remote agent’s state here', () => {
  it('is read from its screen (inferred) until its host relays it; then only the host’s state counts', async () => {
    const { s, events } = service();
    s.prepareRemote(RUN, A, claude);
    const term = screen();
    s.started(A, term, {});
    expect(events.at(-1)).toMatchObject({ state: 'idle', source: 'screen', inferred: true });
    term.show('\r\n Bash command\r\n   ls\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n');
    await waitFor(() => events.at(-1)?.state === 'asking', 'asking read from the screen', 5000);
    expect(events.at(-1)).toMatchObject({ inferred: true, source: 'screen' });

    // The host's core says what its hooks said: taken as it is, once.
    s.relayed(A, view('waiting', 3, { asks: 'done' }));
    expect(events.at(-1)).toEqual(view('waiting', 3, { asks: 'done' }));
    const count = events.length;
    s.relayed(A, view('waiting', 3, { asks: 'done' }));
    expect(events).toHaveLength(count);
    // The screen no longer counts: a dialog shown now changes nothing.
    term.show('\r\n Do you want to proceed?\r\n ❯ 1. Yes\r\n');
    await new Promise((r) => setTimeout(r, 1000));
    expect(events).toHaveLength(count);
    // Its end is this side's terminal's to tell, never the host's report.
    s.relayed(A, view('exited', 3));
    expect(events).toHaveLength(count);
    s.exited(A);
    expect(events.at(-1)?.state).toBe('exited');
    s.relayed(A, view('working', 3));
    expect(events.at(-1)?.state).toBe('exited');
  });

  it('is never set by a relay for a local agent', () => {
    const { s, events } = service();
    s.prepare(RUN, A, claude);
    s.relayed(A, view('waiting', 1));
    expect(events).toEqual([]);
  });
});

/** A host's core as the relay sees it: its `attention.list` answer and its events. */
function hostCore(list: () => Promise<AgentAttentionEntry[]>) {
  const emitter = new EventEmitter();
  const core: RemoteCoreEvents = {
    call: (async () => list()) as unknown as RemoteCoreEvents['call'],
    on: (name, listener) => {
      emitter.on(name, listener);
      return () => emitter.off(name, listener);
    },
    onReconnect: (listener) => {
      emitter.on('reconnected', listener);
      return () => emitter.off('reconnected', listener);
    },
  };
  return { core, emitter };
}

const entry = (attention: AgentAttention): AgentAttentionEntry => ({
  runId: RUN,
  runName: RUN,
  agentId: REMOTE_A,
  label: 'far',
  vendor: 'claude',
  attention,
});

describe('following a host’s core', () => {
  it('gives the state now, then each change of that agent only, and reads it again after a reconnect', async () => {
    let now = view('idle', 0);
    const { core, emitter } = hostCore(async () => [entry(now)]);
    const seen: AgentAttention[] = [];
    const stop = await followRemoteAttention(core, REMOTE_A, (a) => seen.push(a));
    expect(stop).not.toBeNull();
    expect(seen).toEqual([view('idle', 0)]);
    emitter.emit('agent.state', { runId: RUN, agentId: 'agt_otherotherother', attention: view('asking', 9) });
    emitter.emit('agent.state', { runId: RUN, agentId: REMOTE_A, attention: view('working', 0) });
    expect(seen.at(-1)).toEqual(view('working', 0));
    now = view('waiting', 1);
    emitter.emit('reconnected');
    await waitFor(() => seen.at(-1)?.state === 'waiting', 'the state after a reconnect', 2000);
    expect(seen).toHaveLength(3);
    stop!();
    emitter.emit('agent.state', { runId: RUN, agentId: REMOTE_A, attention: view('asking', 2) });
    expect(seen).toHaveLength(3);
    expect(emitter.listenerCount('agent.state') + emitter.listenerCount('reconnected')).toBe(0);
  });

  it('keeps a change announced while the state was being asked for, over the older answer', async () => {
    let answer: (list: AgentAttentionEntry[]) => void = () => undefined;
    const { core, emitter } = hostCore(() => new Promise((r) => (answer = r)));
    const seen: AgentAttention[] = [];
    const following = followRemoteAttention(core, REMOTE_A, (a) => seen.push(a));
    emitter.emit('agent.state', { runId: RUN, agentId: REMOTE_A, attention: view('waiting', 1) });
    answer([entry(view('working', 0))]);
    await following;
    expect(seen).toEqual([view('waiting', 1)]);
  });

  it('is not followed when that core has no attention (an older core): the screen here stays the source', async () => {
    const { core, emitter } = hostCore(async () => {
      throw new BatonError({ code: 'invalid', message: "unknown method 'attention.list'" });
    });
    const seen: AgentAttention[] = [];
    expect(await followRemoteAttention(core, REMOTE_A, (a) => seen.push(a))).toBeNull();
    expect(emitter.listenerCount('agent.state') + emitter.listenerCount('reconnected')).toBe(0);
    expect(seen).toEqual([]);
  });
});
