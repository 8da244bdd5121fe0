// A switch hides ten panes and shows ten: their visibility changes and the acks of the same task reach the core as one
// `flow` message when the core speaks protocol 9, and as the older single messages otherwise.
import { describe, expect, it } from 'vitest';
import { RpcClient, type Wire } from '../../shared/client.js';
import { clientMessageSchema } from '../../shared/contract.js';
import { FLOW_BATCH_MAX, FlowBatch, LATER_ACK_MS } from '../../shared/flow-batch.js';

const agent = (n: number) => `agt_${String(n).padStart(16, '0')}`;
const terminal = (n: number) => `trm_${String(n).padStart(16, '0')}`;
const settled = () => new Promise((r) => setTimeout(r, 0));

/** A batch over streams 0..n, and what it sent, each message checked against the core's schema. */
function batch() {
  const sent: { t: string; [k: string]: unknown }[] = [];
  const gone = new Set<number>();
  const b = new FlowBatch<number>(
    (n) => (gone.has(n) ? null : { agentId: agent(n), terminalId: terminal(n) }),
    (text) => sent.push(clientMessageSchema.parse(JSON.parse(text))),
  );
  return { b, sent, gone };
}

describe('FlowBatch', () => {
  it('sends a task’s changes to a protocol 9 core as one message, each stream’s last change only, views first', async () => {
    const { b, sent } = batch();
    b.peerSpeaks(9);
    for (let n = 0; n < 10; n++) b.view(n, false);
    for (let n = 10; n < 20; n++) b.view(n, true);
    b.ack(3, 100);
    b.ack(3, 50); // an older offset changes nothing
    b.ack(4, 10);
    b.view(0, true); // hidden and shown again in the same task: only "shown" goes
    expect(sent).toEqual([]); // nothing before the task's end
    await settled();
    expect(sent).toHaveLength(1);
    const [m] = sent as [{ t: string; views: { agentId: string; visible: boolean }[]; acks: { offset: number }[] }];
    expect(m.t).toBe('flow');
    expect(m.views).toHaveLength(20);
    expect(m.views.at(-1)).toEqual({ agentId: agent(0), terminalId: terminal(0), visible: true });
    expect(m.acks).toEqual([
      { agentId: agent(3), terminalId: terminal(3), offset: 100 },
      { agentId: agent(4), terminalId: terminal(4), offset: 10 },
    ]);
    b.ack(3, 120); // the next task starts afresh
    await settled();
    expect(sent).toHaveLength(2);
  });

  it('sends each change on its own to an older core (or before it is known), visibility first', async () => {
    const { b, sent } = batch();
    b.ack(1, 7);
    b.view(2, true);
    await settled();
    expect(sent.map((m) => m.t)).toEqual(['visibility', 'ack']);
    b.peerSpeaks(8);
    b.view(2, false);
    b.view(3, false);
    await settled();
    expect(sent.map((m) => m.t)).toEqual(['visibility', 'ack', 'visibility', 'visibility']);
  });

  it('lets hidden panes’ acks wait for one another, and sends them with the next message', async () => {
    const { b, sent } = batch();
    b.peerSpeaks(9);
    for (let n = 0; n < 30; n++) b.ackLater(n, 100 + n); // thirty hidden panes, a frame each
    await settled();
    expect(sent).toEqual([]); // not at the task's end
    await new Promise((r) => setTimeout(r, LATER_ACK_MS + 20));
    expect(sent).toHaveLength(1);
    expect((sent[0]!.acks as unknown[]).length).toBe(30);

    b.ackLater(1, 500);
    b.view(2, true); // a switch, before the wait is over: the ack goes with it
    await settled();
    expect(sent).toHaveLength(2);
    expect(sent[1]!.acks).toEqual([{ agentId: agent(1), terminalId: terminal(1), offset: 500 }]);
    await new Promise((r) => setTimeout(r, LATER_ACK_MS + 20));
    expect(sent).toHaveLength(2); // and nothing is left to send at the end of the wait
  });

  it('sends nothing for a stream gone before the task’s end, and splits a task larger than a message holds', async () => {
    const { b, sent, gone } = batch();
    b.peerSpeaks(9);
    b.view(1, true);
    gone.add(1);
    await settled();
    expect(sent).toEqual([]);
    for (let n = 0; n < FLOW_BATCH_MAX + 3; n++) b.ack(n + 10, 1);
    await settled();
    expect(sent.map((m) => (m.acks as unknown[]).length)).toEqual([FLOW_BATCH_MAX, 3]);
  });
});

describe('RpcClient flow', () => {
  /** A client over a wire whose core answers core.info with `protocol`, and every attach with an empty screen. */
  function client(protocol: number) {
    let listener: (data: string | Uint8Array) => void = () => undefined;
    const sent: { t: string; method?: string }[] = [];
    const wire: Wire = {
      send: (data) => {
        const m = JSON.parse(data as string) as { t: string; id: number; method?: string; params: { agentId: string } };
        sent.push(m);
        if (m.t !== 'req') return;
        const n = Number(m.params.agentId?.slice(4) ?? 0);
        const result =
          m.method === 'core.info'
            ? {
                version: '0.1.0',
                protocolVersion: protocol,
                pid: 1,
                startedAt: new Date().toISOString(),
                liveAgents: 0,
              }
            : { mode: 'bytes', terminalId: terminal(n), offset: 0 };
        queueMicrotask(() => listener(JSON.stringify({ t: 'res', id: m.id, ok: true, result })));
      },
      onMessage: (l) => (listener = l),
      onClose: () => undefined,
      close: () => undefined,
    };
    return { c: new RpcClient(wire), sent };
  }

  it.each([
    [9, ['flow']],
    [8, ['visibility', 'visibility', 'visibility', 'visibility']],
  ])('after core.info says protocol %i, a switch of two panes for two sends %j', async (protocol, expected) => {
    const { c, sent } = client(protocol);
    await c.call('core.info', {});
    const handlers = { onData: () => undefined, onReset: () => undefined };
    const streams = await Promise.all([1, 2, 3, 4].map((n) => c.attach(agent(n), { visible: n <= 2 }, handlers)));
    sent.length = 0;
    streams[0]!.setVisible(false);
    streams[1]!.setVisible(false);
    streams[2]!.setVisible(true);
    streams[3]!.setVisible(true);
    await settled();
    expect(sent.map((m) => m.t)).toEqual(expected);
  });
});
