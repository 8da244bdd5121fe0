// What cost adds to `run.list` with 100 runs (docs/cost.md): 100 stopped runs of three agents each (Claude, Codex,
// Gemini), every transcript holding 500 answered calls. Measured in the same run: the health check run.list already
// does per agent (the baseline: one store lookup each), the first cost read (every transcript parsed), the next
// reads (nothing changed: a stat per transcript), and a read after one transcript grew (only its new lines parsed).
// Run: npx tsx test/bench/cost.ts
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { CostService } from '../../electron/core/cost/cost-service.js';
import { encodeClaudeCwd } from '../../electron/core/vendors/claude/store.js';
import type { AgentRecord, RunManifest } from '../../electron/core/store/types.js';
import type { VendorName } from '../../shared/words.js';
import { createVendors } from '../../electron/core/vendors/registry.js';

const RUNS = 100;
const CALLS = 500;
const root = realpathSync(mkdtempSync(join(tmpdir(), 'baton-bench-cost-')));
const home = join(root, 'home');
const cwd = join(root, 'proj');
mkdirSync(cwd, { recursive: true });
const env = { HOME: home, PATH: '/usr/bin:/bin' };

const claudeDir = join(home, '.claude', 'projects', encodeClaudeCwd(cwd));
const codexDir = join(home, '.codex', 'sessions', '2026', '11', '25');
const geminiDir = join(home, '.gemini', 'tmp', 'proj', 'chats');
for (const d of [claudeDir, codexDir, geminiDir]) mkdirSync(d, { recursive: true });
writeFileSync(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [cwd]: 'proj' } }));
writeFileSync(join(home, '.gemini', 'tmp', 'proj', '.project_root'), cwd);

const lines = (make: (i: number) => object) =>
  `${Array.from({ length: CALLS }, (_, i) => JSON.stringify(make(i))).join('\n')}\n`;

function claude(id: string): string {
  const path = join(claudeDir, `${id}.jsonl`);
  writeFileSync(
    path,
    lines((i) => ({
      type: 'assistant',
      sessionId: id,
      requestId: `req_${i}`,
      message: {
        id: `msg_${i}`,
        model: 'claude-sonnet-4-5',
        usage: { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 5000, cache_creation_input_tokens: 0 },
        content: [{ type: 'text', text: 'x'.repeat(200) }],
      },
    })),
  );
  return path;
}

function codex(id: string): void {
  const meta = JSON.stringify({ type: 'session_meta', payload: { id, cwd } });
  const body = lines((i) => ({
    type: 'event_msg',
    payload: {
      type: 'token_count',
      info: {
        last_token_usage: { input_tokens: 100, output_tokens: 20 },
        total_token_usage: { input_tokens: 100 * (i + 1), output_tokens: 20 * (i + 1), total_tokens: 120 * (i + 1) },
      },
    },
  }));
  writeFileSync(join(codexDir, `rollout-2026-11-25T21-47-05-${id}.jsonl`), `${meta}\n${body}`);
}

function gemini(id: string): void {
  const head = JSON.stringify({ sessionId: id, projectHash: 'x', startTime: '2026-11-25T21:47:05.000Z', kind: 'main' });
  const body = lines((i) => ({
    id: `m${i}`,
    type: 'gemini',
    content: 'x'.repeat(200),
    tokens: { input: 100, output: 20, cached: 0 },
    model: 'gemini-2.5-pro',
  }));
  writeFileSync(join(geminiDir, `session-2026-11-25T21-47-${id.slice(0, 8)}.jsonl`), `${head}\n${body}`);
}

const agent = (vendor: VendorName, id: string, n: number): AgentRecord => ({
  id: `agt_${String(n).padStart(16, '0')}`,
  label: vendor,
  vendor,
  cwd,
  args: [],
  command: null,
  sessionIds: [{ id, chosenBy: 'baton', seenAt: '2026-11-25T21:47:05.000Z', confirmed: true }],
  status: 'stopped',
  exitCode: null,
  warning: null,
  startedAt: null,
});

const runs: RunManifest[] = [];
let grow = '';
for (let r = 0; r < RUNS; r++) {
  const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
  const path = claude(a);
  if (r === 0) grow = path;
  codex(b);
  gemini(c);
  const at = '2026-11-25T21:47:05.000Z';
  runs.push({
    v: 1,
    id: `run_${String(r).padStart(16, '0')}`,
    name: `r${r}`,
    createdAt: at,
    updatedAt: at,
    agents: [agent('claude', a, 3 * r), agent('codex', b, 3 * r + 1), agent('gemini', c, 3 * r + 2)],
    lastSnapshot: null,
  });
}

const vendors = createVendors();
const service = new CostService(vendors, env, root);
const time = async (fn: () => Promise<unknown>) => {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
};
const health = () =>
  Promise.all(
    runs.map(async (run) => {
      for (const a of run.agents) await vendors.get(a.vendor)!.exists(a.sessionIds[0]!.id, cwd, env);
    }),
  );
const cost = () => Promise.all(runs.map((run) => service.totals(run)));
const only = (v: VendorName) => () =>
  Promise.all(runs.map((run) => service.totals({ ...run, agents: run.agents.filter((a) => a.vendor === v) })));

await health(); // the stores' own caches warm, as in a core that has listed before

const cold = await time(cost);
// Interleaved, the best of several: the machine is shared, and each figure must meet the same load as its baseline.
let baseline = Infinity;
let warm = Infinity;
for (let i = 0; i < 9; i++) {
  baseline = Math.min(baseline, await time(health));
  warm = Math.min(warm, await time(cost));
}
let grown = Infinity;
for (let i = 0; i < 5; i++) {
  const usage = { input_tokens: 1, output_tokens: 1 };
  const line = {
    type: 'assistant',
    requestId: `req_new${i}`,
    message: { id: `msg_new${i}`, model: 'claude-sonnet-4-5', usage },
  };
  appendFileSync(grow, `${JSON.stringify(line)}\n`);
  grown = Math.min(grown, await time(cost));
}
const total = (await service.totals(runs[0]!)).total.tokens;

const row = (what: string, ms: number, goal: string) =>
  console.log(`${what.padEnd(44)} ${(ms / baseline).toFixed(2).padStart(6)}× baseline   goal ${goal}`);
console.log(
  `${RUNS} runs × 3 agents × ${CALLS} calls; baseline = run.list's health lookups (${baseline.toFixed(1)} ms here)`,
);
row('cost, first read (every transcript parsed)', cold, 'once per core start');
row('cost, nothing changed (a stat per transcript)', warm, '≤ 2×');
row('cost, one transcript grew by a line', grown, '≤ 2×');
console.log(`run 0 tokens after the new line: ${total} (expected ${CALLS * 5120 + 5 * 2 + CALLS * 120 * 2})`);
if (process.env.BENCH_COST_VENDORS)
  for (const v of ['claude', 'codex', 'gemini'] as const)
    row(`  ${v} alone, nothing changed`, Math.min(await time(only(v)), await time(only(v))), '-');
rmSync(root, { recursive: true, force: true });
