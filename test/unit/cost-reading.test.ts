// How cost follows an agent's transcripts over time (docs/cost.md): Claude's /clear adds a session and both count; a
// transcript reached twice (two ids, a fork that copies lines) counts once; a transcript that grows is read from where
// the last read ended; a line still being written waits; a replaced transcript is read again from its start.
import { appendFile, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CostService } from '../../electron/core/cost/cost-service.js';
import { listCosts } from '../../electron/core/cost/list-costs.js';
import type { AgentRecord, RunManifest } from '../../electron/core/store/types.js';
import { claudeUsageOf } from '../../electron/core/vendors/claude/usage.js';
import { encodeClaudeCwd } from '../../electron/core/vendors/claude/store.js';
import { JsonlUsageFiles, type LineParser } from '../../electron/core/vendors/kit/usage.js';
import { createVendors } from '../../electron/core/vendors/registry.js';

const FIRST = '11111111-2222-4333-8444-555555555555';
const AFTER_CLEAR = '22222222-3333-4444-8555-666666666666';

let tmp: string;
let cwd: string;
let projects: string;
let env: Record<string, string>;

beforeEach(async () => {
  tmp = await realpath(await mkdtemp(join(tmpdir(), 'baton-cost-read-')));
  cwd = join(tmp, 'proj');
  await mkdir(cwd);
  projects = join(tmp, 'home', '.claude', 'projects', encodeClaudeCwd(cwd));
  await mkdir(projects, { recursive: true });
  env = { HOME: join(tmp, 'home'), PATH: '/usr/bin:/bin' };
});

afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** One assistant line as Claude Code writes it; `block` tells apart the lines of one call (one per content block). */
const call = (session: string, msg: string, input: number, output: number, block = 0) =>
  JSON.stringify({
    type: 'assistant',
    sessionId: session,
    requestId: `req_${msg}`,
    uuid: `${msg}-${block}`,
    message: {
      id: `msg_${msg}`,
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: `block ${block}` }],
      usage: {
        input_tokens: input,
        output_tokens: output,
        cache_read_input_tokens: 100,
        cache_creation_input_tokens: 10,
      },
    },
  });
const user = (session: string) => JSON.stringify({ type: 'user', sessionId: session, message: { content: 'hi' } });

function agent(ids: readonly string[]): AgentRecord {
  return {
    id: 'agt_0123456789abcdef',
    label: 'claude',
    vendor: 'claude',
    cwd,
    args: [],
    command: null,
    sessionIds: ids.map((id) => ({ id, chosenBy: 'baton', seenAt: '2026-11-25T21:47:05.000Z', confirmed: true })),
    status: 'running',
    exitCode: null,
    warning: null,
    startedAt: null,
  };
}

const write = (id: string, lines: string[]) => writeFile(join(projects, `${id}.jsonl`), `${lines.join('\n')}\n`);

describe('an agent across its sessions', () => {
  it("sums every session after Claude's /clear, each call once, and prices them from the table", async () => {
    // A call written as two lines (two content blocks) is one call.
    await write(FIRST, [user(FIRST), call(FIRST, 'a', 10, 5, 0), call(FIRST, 'a', 10, 5, 1), call(FIRST, 'b', 20, 6)]);
    await write(AFTER_CLEAR, [user(AFTER_CLEAR), call(AFTER_CLEAR, 'c', 30, 7)]);
    const service = new CostService(createVendors(), env, tmp);
    const table = await service.priceTable();
    const before = await service.agentCost(agent([FIRST]), table);
    expect(before?.tokens).toEqual({ input: 30, output: 11, cacheRead: 200, cacheWrite: 20, total: 261 });
    const both = await service.agentCost(agent([FIRST, AFTER_CLEAR]), table);
    expect(both?.sessions).toBe(2);
    expect(both?.tokens).toEqual({ input: 60, output: 18, cacheRead: 300, cacheWrite: 30, total: 408 });
    // Claude Sonnet 4.5 in the built-in table: $3 in, $15 out, $0.30 cache read, $3.75 cache write per million.
    expect(both?.usd).toBeCloseTo((60 * 3 + 18 * 15 + 300 * 0.3 + 30 * 3.75) / 1e6, 9);
    expect(both?.usdFrom).toBe('priced');
    // The same id twice in the history (a resume under the same id) is one session, read once.
    expect((await service.agentCost(agent([FIRST, AFTER_CLEAR, FIRST]), table))?.tokens?.total).toBe(408);
  });

  it('counts a call once when a fork copied it into the new session, and takes the recorded costUSD first', async () => {
    await write(FIRST, [call(FIRST, 'a', 10, 5)]);
    const copied = JSON.parse(call(AFTER_CLEAR, 'a', 10, 5)) as Record<string, unknown>;
    const recorded = { ...(JSON.parse(call(AFTER_CLEAR, 'd', 1, 1)) as Record<string, unknown>), costUSD: 0.25 };
    await write(AFTER_CLEAR, [JSON.stringify(copied), JSON.stringify(recorded)]);
    const service = new CostService(createVendors(), env, tmp);
    const c = await service.agentCost(agent([FIRST, AFTER_CLEAR]), await service.priceTable());
    expect(c?.tokens?.input).toBe(11);
    expect(c?.usdFrom).toBe('mixed');
    expect(c?.usd).toBeCloseTo(0.25 + (10 * 3 + 5 * 15 + 100 * 0.3 + 10 * 3.75) / 1e6, 9);
  });

  it('a model the table does not name: tokens known, cost unknown, the model named', async () => {
    await write(FIRST, [call(FIRST, 'a', 10, 5), call(FIRST, 'b', 1, 1).replace('claude-sonnet-4-5', 'claude-next-9')]);
    const service = new CostService(createVendors(), env, tmp);
    const c = await service.agentCost(agent([FIRST]), await service.priceTable());
    expect(c?.tokens?.input).toBe(11);
    expect(c?.usd).toBeNull();
    expect(c?.unpricedModels).toEqual(['claude-next-9']);
  });
});

describe('reading a transcript that grows', () => {
  const counting: LineParser<null> & { lines: number } = {
    lines: 0,
    init: () => null,
    line(_s, v) {
      counting.lines++;
      return claudeUsageOf(v);
    },
    answer: () => true,
  };

  it('parses only the new lines, waits for a torn last line, and starts over when the file is replaced', async () => {
    const path = join(projects, `${FIRST}.jsonl`);
    const files = new JsonlUsageFiles(counting);
    await write(FIRST, [call(FIRST, 'a', 10, 5), call(FIRST, 'b', 20, 6)]);
    expect((await files.source(path))?.entries).toHaveLength(2);
    expect(counting.lines).toBe(2);
    // Unchanged: nothing parsed.
    await files.source(path);
    expect(counting.lines).toBe(2);
    // A new whole line and half of the next one (the CLI is writing it).
    const next = call(FIRST, 'd', 40, 8);
    await appendFile(path, `${call(FIRST, 'c', 30, 7)}\n${next.slice(0, 25)}`);
    expect((await files.source(path))?.entries.map((e) => e.input)).toEqual([10, 20, 30]);
    expect(counting.lines).toBe(3);
    await appendFile(path, `${next.slice(25)}\n`);
    expect((await files.source(path))?.entries.map((e) => e.input)).toEqual([10, 20, 30, 40]);
    expect(counting.lines).toBe(4);
    // Replaced by a shorter file: read again from its start, the old entries dropped.
    await rm(path);
    await write(FIRST, [call(FIRST, 'z', 1, 1)]);
    expect((await files.source(path))?.entries.map((e) => e.input)).toEqual([1]);
  });

  it('two reads at once consume the new lines once', async () => {
    const path = join(projects, `${FIRST}.jsonl`);
    const files = new JsonlUsageFiles(counting);
    await write(FIRST, [call(FIRST, 'a', 10, 5)]);
    await appendFile(path, `${call(FIRST, 'b', 20, 6)}\n`);
    const [one, two] = await Promise.all([files.source(path), files.source(path)]);
    expect(one?.entries).toHaveLength(2);
    expect(two?.entries).toHaveLength(2);
  });
});

describe("a list's sums over stopped runs (one store index for the list)", () => {
  const run = (id: string, ids: readonly string[]): RunManifest => ({
    v: 1,
    id,
    name: id,
    createdAt: '2026-11-25T21:47:05.000Z',
    updatedAt: '2026-11-25T21:47:05.000Z',
    agents: [{ ...agent(ids), id: `agt_${id.slice(4).padEnd(16, '0')}`, status: 'stopped', exitCode: 0 }],
    lastSnapshot: null,
  });

  it('sums what each session looked up alone would, and a session removed since is gone at the next list', async () => {
    await write(FIRST, [user(FIRST), call(FIRST, 'a', 10, 5)]);
    const runs = [run('run_0123456789abcdef', [FIRST]), run('run_fedcba9876543210', [AFTER_CLEAR])];
    const alone = new CostService(createVendors(), env, tmp);
    const expected = await Promise.all(runs.map(async (r) => (await alone.totals(r)).total));
    const listed = await listCosts(new CostService(createVendors(), env, tmp), runs, () => undefined, 10_000);
    expect(runs.map((r) => listed.get(r.id))).toEqual(expected);
    expect(listed.get(runs[0]!.id)?.tokens).toBe(125);

    await rm(join(projects, `${FIRST}.jsonl`));
    const again = await listCosts(new CostService(createVendors(), env, tmp), runs, () => undefined, 10_000);
    expect(again.get(runs[0]!.id)).toEqual(expected[1]);
  });
});
