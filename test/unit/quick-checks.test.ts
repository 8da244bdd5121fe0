// The quick check of `run.list`'s answer (shared/contract/quick-checks.ts) stands in for the contract's schema in the
// client: whatever it passes must pass the schema, and a malformed answer must still be refused as one. Each summary
// below is broken one field at a time, in every way a wire could break it; the schema's fingerprint ties the check to
// the shape it was written for.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RpcClient, type Wire } from '../../shared/client.js';
import { BatonError, isRunSummaryList, requests, runSummarySchema, type RunSummary } from '../../shared/contract.js';

const schema = requests['run.list'].result;

const lean: RunSummary = {
  id: 'run_0123456789abcdef',
  name: 'history 00042',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:42:00.000Z',
  agentCount: 4,
  liveAgents: 1,
  vendors: ['claude', 'codex', 'shell'],
  lastSnapshotAt: null,
  health: 'stale',
  needYou: 1,
};
const full: RunSummary = {
  ...lean,
  lastSnapshotAt: '2026-01-01T00:40:00.000Z',
  health: 'live',
  cost: { tokens: 1200, usd: 0.25, partial: false, usdPartial: true },
  states: [
    { agentId: 'agt_0123456789abcdef', label: 'planner', state: 'asking' },
    { agentId: 'agt_fedcba9876543210', label: 'tests', state: 'exited' },
  ],
};
const unknownCost: RunSummary = { ...lean, cost: { tokens: null, usd: null, partial: true } };
const valid = [lean, full, unknownCost, { ...lean, vendors: [], needYou: 0, agentCount: 0, states: [] }];

/** Values a field may be replaced with: wrong types, wrong shapes, numbers that are no counts. */
const ODD: unknown[] = [
  undefined,
  null,
  0,
  -1,
  1.5,
  Number.MAX_SAFE_INTEGER + 2,
  '',
  'x',
  'run_0123456789ABCDEF',
  'agt_0123456789abcdef',
  true,
  [],
  [null],
  ['claude', 'nobody'],
  {},
  { tokens: null, usd: null },
  Object.create({ inherited: 1 }) as unknown,
];

/** `value` with the field at `path` replaced by `to` (undefined: removed), and with one key too many. */
function* broken(value: unknown, path: (string | number)[] = []): Generator<{ where: string; value: unknown }> {
  if (typeof value !== 'object' || value === null) return;
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  const at = (key: string | number, to: unknown) => {
    if (Array.isArray(value)) return value.map((v, i) => (i === key ? to : v));
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    if (to === undefined) delete copy[key];
    else copy[key] = to;
    return copy;
  };
  for (const key of keys) {
    for (const to of ODD) yield { where: [...path, key].join('.'), value: at(key, to) };
    const inner = (value as Record<string | number, unknown>)[key];
    for (const deeper of broken(inner, [...path, key])) yield { where: deeper.where, value: at(key, deeper.value) };
  }
  if (!Array.isArray(value)) yield { where: [...path, '+extra'].join('.'), value: { ...value, extra: 1 } };
}

describe('the quick check of run.list', () => {
  it('passes every answer the core sends: with or without states and costs, empty or not', () => {
    for (const run of valid) expect(schema.safeParse([run]).success).toBe(true);
    expect(isRunSummaryList(valid)).toBe(true);
    expect(isRunSummaryList([])).toBe(true);
  });

  it('passes nothing the schema refuses, one field broken at a time, at every depth', () => {
    let refused = 0;
    for (const run of valid)
      for (const { where, value } of broken(run)) {
        const bySchema = schema.safeParse([value]).success;
        if (!bySchema) refused++;
        if (isRunSummaryList([value])) expect({ where, bySchema }).toEqual({ where, bySchema: true });
      }
    // Each field was broken in ways the schema refuses (the loop above checked something).
    expect(refused).toBeGreaterThan(500);
    expect(isRunSummaryList({ 0: lean, length: 1 })).toBe(false);
    expect(isRunSummaryList([lean, , lean])).toBe(false);
  });

  it('was written for the summary schema as it is (a changed schema fails here: change the check with it)', () => {
    const fingerprint = createHash('sha256')
      .update(JSON.stringify(z.toJSONSchema(runSummarySchema)))
      .digest('hex')
      .slice(0, 16);
    expect(fingerprint).toBe('df05d71baf74b70e');
  });
});

/** A client whose core answers every request with `result`. */
function clientAnswering(result: unknown): RpcClient {
  let listener: (data: string | Uint8Array) => void = () => undefined;
  const wire: Wire = {
    send: (data) => {
      const { id } = JSON.parse(data as string) as { id: number };
      queueMicrotask(() => listener(JSON.stringify({ t: 'res', id, ok: true, result })));
    },
    onMessage: (l) => (listener = l),
    onClose: () => undefined,
    close: () => undefined,
  };
  return new RpcClient(wire);
}

describe("the client's run.list", () => {
  it('gives the runs the core sent, and refuses a malformed answer as the schema would', async () => {
    await expect(clientAnswering([full, lean]).call('run.list', {})).resolves.toEqual([full, lean]);
    const malformed = clientAnswering([lean, { ...full, states: [{ agentId: 'agt_x', label: 'a', state: 'exited' }] }]);
    const refused = await malformed.call('run.list', {}).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(BatonError);
    expect((refused as BatonError).message).toMatch(/malformed reply to run.list/);
  });
});
