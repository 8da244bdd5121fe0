// Cost per vendor against the samples of every vendor's format (docs/cost.md): exact token totals read from each
// vendor's own transcript through its adapter, and "unknown" (null), never 0, where a transcript records no usage.
import { appendFile, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleAgent, sampleRun, useSampleHome } from '../helpers/sample-home.js';
import type { VendorName } from '../../shared/words.js';
import { CostService } from '../../electron/core/cost/cost-service.js';
import { listCosts } from '../../electron/core/cost/list-costs.js';
import type { AgentRecord, RunManifest } from '../../electron/core/store/types.js';
import { createVendors } from '../../electron/core/vendors/registry.js';

const IDS: Record<Exclude<VendorName, 'shell'>, string> = {
  claude: '7f3c2a1e-5b4d-4e6f-9a8b-0c1d2e3f4a5b',
  codex: '019abcde-1234-7def-8abc-0123456789ab',
  gemini: '3b9e7c10-4d2f-4a61-8e5b-6c7d8e9f0a1b',
  copilot: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9',
  qwen: '9d8c7b6a-5f4e-4d3c-b2a1-0f9e8d7c6b5a',
  opencode: 'ses_deb4a1b2c3ffQm7Lr2VxN9pK4s',
  cursor: '2c4e6a8b-1d3f-4a5b-8c7d-9e0f1a2b3c4d',
};
const CODEX_FILE = `.codex/sessions/2026/11/25/rollout-2026-11-25T21-47-05-${IDS.codex}.jsonl`;
const COPILOT_FILE = `.copilot/session-state/${IDS.copilot}/events.jsonl`;

const sample = useSampleHome(Object.keys(IDS), 'baton-cost-');

const agent = (vendor: VendorName, ids: readonly string[], confirmed = true) =>
  sampleAgent(`agt_${vendor.padEnd(16, 'x')}`, vendor, ids, { confirmed });
const run = (agents: AgentRecord[]): RunManifest => sampleRun('run_0123456789abcdef', 'samples', agents);

async function costOf(vendor: VendorName, ids: readonly string[] = [IDS[vendor as keyof typeof IDS]]) {
  const service = new CostService(createVendors(), sample.env, sample.dataDir);
  const cost = await service.runCost(run([agent(vendor, ids)]));
  return cost.agents[0]!;
}

const tokens = (input: number, output: number, cacheRead = 0, cacheWrite = 0) => ({
  input,
  output,
  cacheRead,
  cacheWrite,
  total: input + output + cacheRead + cacheWrite,
});

describe('cost from each vendor sample', () => {
  it('Claude: message.usage of each assistant line, priced by its model (Claude Opus 5.5: $4 in, $20 out)', async () => {
    const c = await costOf('claude');
    expect(c.tokens).toEqual(tokens(12 + 31, 9 + 8));
    expect(c.usd).toBeCloseTo((43 * 4 + 17 * 20) / 1e6, 9);
    expect(c).toMatchObject({ usdFrom: 'priced', unpricedModels: [], models: ['claude-opus-5-5'] });
  });

  it('Gemini: tokens of each gemini message, priced by its model (Gemini 3.1 Pro preview: $2 in, $12 out)', async () => {
    const c = await costOf('gemini');
    expect(c.tokens).toEqual(tokens(14 + 40, 8 + 3));
    expect(c.models).toEqual(['gemini-3.1-pro-preview']);
    expect(c.usd).toBeCloseTo((54 * 2 + 11 * 12) / 1e6, 9);
  });

  it('Qwen: usageMetadata of each assistant line; its model has no list price here, so cost is unknown and named', async () => {
    const c = await costOf('qwen');
    expect(c.tokens).toEqual(tokens(14 + 38, 6 + 2));
    expect(c.models).toEqual(['qwen3-coder-plus']);
    expect(c.usd).toBeNull();
    expect(c.unpricedModels).toEqual(['qwen3-coder-plus']);
    expect(c.note).toMatch(/no price for qwen3-coder-plus/);
  });

  it('opencode: message tokens; its recorded cost of 0 is no price, so the table prices it', async () => {
    const c = await costOf('opencode');
    expect(c.tokens).toEqual(tokens(14 + 40, 6 + 5));
    // Claude Sonnet 5: $2 in, $10 out.
    expect(c.usd).toBeCloseTo((54 * 2 + 11 * 10) / 1e6, 9);
    expect(c).toMatchObject({ usdFrom: 'priced', unpricedModels: [] });
    // With the model in the user's prices, the same calls are priced by those.
    await writeFile(
      join(sample.dataDir, 'prices.json'),
      JSON.stringify({ asOf: '2026-11-01', families: [{ models: ['claude-sonnet-5'], input: 3, output: 15 }] }),
    );
    const priced = await costOf('opencode');
    expect(priced.usd).toBeCloseTo((54 * 3 + 11 * 15) / 1e6, 9);
    expect(priced.usdFrom).toBe('priced');
  });

  it('Codex and Copilot samples hold answers but no usage lines: tokens unknown, not 0', async () => {
    for (const v of ['codex', 'copilot'] as const) {
      const c = await costOf(v);
      expect(c.tokens, v).toBeNull();
      expect(c.usd, v).toBeNull();
      expect(c.note, v).toMatch(/records no token counts/);
    }
  });

  it('Codex: token_count events as 0.169 writes them (repeats skipped, cached and written cache apart)', async () => {
    const usage = (input: number, cached: number, written: number, output: number) => ({
      input_tokens: input,
      cached_input_tokens: cached,
      cache_write_input_tokens: written,
      output_tokens: output,
      reasoning_output_tokens: 0,
      total_tokens: input + output,
    });
    const count = (last: object, total: object) =>
      JSON.stringify({
        timestamp: '2026-11-25T21:47:06.905Z',
        type: 'event_msg',
        payload: { type: 'token_count', info: { total_token_usage: total, last_token_usage: last }, rate_limits: {} },
      });
    const first = usage(12066, 0, 0, 7);
    const second = usage(12153, 8000, 100, 5);
    const total2 = usage(24219, 8000, 100, 9);
    await appendFile(
      join(sample.home, CODEX_FILE),
      [count(first, first), count(first, first), count(second, total2), ''].join('\n'),
    );
    const c = await costOf('codex');
    expect(c.tokens).toEqual(tokens(12066 + 12153 - 8000 - 100, 12, 8000, 100));
    expect(c.models).toEqual(['gpt-5.5-codex']);
  });

  it('Copilot: session.usage_record events (input includes the cache reads and writes); cost in USD unknown', async () => {
    const record = (id: string, input: number, read: number, write: number, output: number) =>
      JSON.stringify({
        type: 'session.usage_record',
        data: {
          usage: {
            model: 'gpt-5.4',
            inputTokens: input,
            outputTokens: output,
            cacheReadTokens: read,
            cacheWriteTokens: write,
            cost: 1,
            accounting: { sourceSessionId: IDS.copilot, sequence: 1, usageId: id },
          },
        },
        id: `a00000${id}-0000-4000-8000-000000000001`,
        timestamp: '2026-11-25T21:47:06.305Z',
        parentId: null,
      });
    await appendFile(
      join(sample.home, COPILOT_FILE),
      [record('u1', 14, 0, 0, 6), record('u2', 40, 10, 2, 2), record('u2', 40, 10, 2, 2), ''].join('\n'),
    );
    const c = await costOf('copilot');
    expect(c.tokens).toEqual(tokens(14 + 28, 8, 10, 2));
    expect(c.usd).toBeNull();
    expect(c.note).toMatch(/premium requests/);
  });

  it('Cursor: its store records no usage, said as unknown', async () => {
    const c = await costOf('cursor');
    expect(c.tokens).toBeNull();
    expect(c.usd).toBeNull();
    expect(c.note).toMatch(/records no token counts/);
  });

  it('a shell agent has no cost; the run total of known and unknown agents is a marked lower bound', async () => {
    const service = new CostService(createVendors(), sample.env, sample.dataDir);
    const cost = await service.runCost(
      run([agent('shell', []), agent('qwen', [IDS.qwen]), agent('cursor', [IDS.cursor])]),
    );
    expect(cost.agents.map((a) => a.vendor)).toEqual(['qwen', 'cursor']);
    expect(cost.total.tokens).toEqual(tokens(52, 8));
    expect(cost.total.partial).toBe(true);
    expect(cost.prices.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('a session never confirmed cost nothing (0 tokens); a confirmed one whose transcript is gone is unknown', async () => {
    const service = new CostService(createVendors(), sample.env, sample.dataDir);
    const neverSaid = await service.agentCost(
      agent('claude', ['11111111-2222-4333-8444-555555555555'], false),
      await service.priceTable(),
    );
    expect(neverSaid?.tokens).toEqual(tokens(0, 0));
    expect(neverSaid?.usd).toBe(0);
    const gone = await service.agentCost(
      agent('claude', ['11111111-2222-4333-8444-555555555555'], true),
      await service.priceTable(),
    );
    expect(gone?.tokens).toBeNull();
    expect(gone?.note).toMatch(/transcript of session 11111111… is gone/);
  });

  it('run.list waits for costs only within its budget, and names the runs summed later in one event', async () => {
    const runs = [
      run([agent('qwen', [IDS.qwen])]),
      { ...run([agent('gemini', [IDS.gemini])]), id: 'run_1123456789abcdef' },
    ];
    const costs = new CostService(createVendors(), sample.env, sample.dataDir);
    // Each sum takes a moment, so that none can beat a budget of 0 however the machine schedules the two.
    const service = { totalsOnce: (r: RunManifest) => sleep(50).then(() => costs.totalsOnce(r)) };
    let told: string[] | null = null;
    const none = await listCosts(service, runs, (ids) => (told = ids), 0);
    expect(none.size).toBe(0);
    await expect.poll(() => told).toEqual(runs.map((r) => r.id));
    // Read once: within any budget now.
    const all = await listCosts(service, runs, () => expect.unreachable('nothing is late'), 10_000);
    expect(all.get(runs[0]!.id)).toEqual({ tokens: 52 + 8, usd: null, partial: false, usdPartial: false });
    expect(all.get(runs[1]!.id)?.tokens).toBe(54 + 11);
  });
});
