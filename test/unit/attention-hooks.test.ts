// The hook socket and its authentication (electron/core/attention/hook-server.ts, attention-service.ts): only the
// user can open it, a report counts only with its own agent's secret, and nothing a client sends ends the core or
// changes another agent.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AttentionService } from '../../electron/core/attention/attention-service.js';
import { HOOK_ENV } from '../../electron/core/attention/hook-protocol.js';
import type { RunRepository } from '../../electron/core/runs/run-repository.js';
import { createVendors } from '../../electron/core/vendors/registry.js';
import { sendHookReport } from '../../electron/cli/hook/report.js';
import type { EventName, EventPayload } from '../../shared/contract.js';

const A = 'agt_aaaaaaaaaaaaaaaa';
const B = 'agt_bbbbbbbbbbbbbbbb';
const RUN = 'run_aaaaaaaaaaaaaaaa';
let dir = '';
let service: AttentionService | null = null;

afterEach(async () => {
  await service?.close();
  service = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function open() {
  dir = mkdtempSync(join(tmpdir(), 'baton-hooks-'));
  const events: EventPayload<'agent.state'>[] = [];
  const announce = <E extends EventName>(name: E, payload: EventPayload<E>) => {
    if (name === 'agent.state') events.push(payload as EventPayload<'agent.state'>);
  };
  // The reports never touch the runs (only attention.* requests do).
  service = new AttentionService({} as RunRepository, announce, {}, ['/bin/true']);
  await service.open(dir);
  const claude = createVendors().get('claude')!;
  const a = service.prepare(RUN, A, claude);
  const b = service.prepare(RUN, B, claude);
  return { events, a: a.env, b: b.env };
}

/** Sends raw bytes and reads the one-word answer. */
function raw(path: string, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    let answer = '';
    const c = connect(path, () => c.end(bytes));
    c.on('data', (d) => (answer += d.toString()));
    c.on('error', () => resolve(answer.trim() || 'closed'));
    c.on('close', () => resolve(answer.trim() || 'closed'));
  });
}

const stop = JSON.stringify({ hook_event_name: 'Stop' });
const stateOf = (events: EventPayload<'agent.state'>[], id: string) =>
  events.filter((e) => e.agentId === id).at(-1)?.attention.state;

describe('hook socket', () => {
  it('is a socket only its user can open, in a private place', async () => {
    const { a } = await open();
    const st = statSync(a[HOOK_ENV.socket]!);
    expect(st.isSocket()).toBe(true);
    expect(st.mode & 0o077).toBe(0);
  });

  it("takes a report with the agent's own secret; refuses another agent's secret, and b does not change", async () => {
    const { events, a, b } = await open();
    expect(await sendHookReport('claude', null, a, stop)).toEqual({ sent: true, answer: 'ok' });
    expect(stateOf(events, A)).toBe('waiting');
    const forged = { ...a, [HOOK_ENV.agent]: B };
    expect(await sendHookReport('claude', null, forged, stop)).toEqual({ sent: true, answer: 'refused' });
    expect(stateOf(events, B)).toBeUndefined();
    // Another vendor's report for the agent, an ended agent's secret: refused as well.
    expect((await sendHookReport('codex', '{"type":"agent-turn-complete"}', b, null)).answer).toBe('refused');
    service!.exited(B);
    expect((await sendHookReport('claude', null, b, stop)).answer).toBe('refused');
  });

  it('answers garbage with "refused" and keeps serving: bad JSON, wrong shapes, oversize, half a line', async () => {
    const { a } = await open();
    const path = a[HOOK_ENV.socket]!;
    const envelope = { v: 1, agent: A, secret: a[HOOK_ENV.secret], vendor: 'claude', stdin: null, arg: null };
    for (const bad of [
      'not json\n',
      '{"v":2}\n',
      `${JSON.stringify({ ...envelope, extra: 1 })}\n`,
      `${JSON.stringify({ ...envelope, secret: 'x'.repeat(64) })}\n`,
      `${JSON.stringify({ ...envelope, agent: '../../etc' })}\n`,
      Buffer.alloc(300 * 1024, 0x61),
      '{"v":1,',
    ])
      expect(await raw(path, bad)).toMatch(/^(refused|closed)$/);
    expect(await sendHookReport('claude', null, a, stop)).toEqual({ sent: true, answer: 'ok' });
  });

  it('a client without the variables (a CLI started outside Baton) sends nothing and fails nothing', async () => {
    expect(await sendHookReport('claude', null, {}, stop)).toEqual({ sent: false, answer: null });
  });
});
