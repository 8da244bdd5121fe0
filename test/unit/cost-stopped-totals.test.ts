// The sums a pass makes together (cost/cost-service.ts `stoppedTotals`): a stopped run whose sessions are all missing
// from their vendors' stores needs no read, and is summed from the store indexes without a chain of awaits per agent.
// What it gives must be what `totals` gives for the same run; any run that needs a read (a session found, an agent
// live) is left to `totalsOnce`, and a whole list summed this way gives every run the sum it gave before.
import { describe, expect, it } from 'vitest';
import { sampleAgent, sampleRun, useSampleHome } from '../helpers/sample-home.js';
import type { VendorName } from '../../shared/words.js';
import { CostService } from '../../electron/core/cost/cost-service.js';
import { listCosts } from '../../electron/core/cost/list-costs.js';
import type { AgentRecord, RunManifest } from '../../electron/core/store/types.js';
import { createVendors } from '../../electron/core/vendors/registry.js';
import { SessionIndexes } from '../../electron/core/vendors/session-indexes.js';

/** Sessions the samples' stores hold. */
const FOUND = { claude: '7f3c2a1e-5b4d-4e6f-9a8b-0c1d2e3f4a5b', codex: '019abcde-1234-7def-8abc-0123456789ab' };
const GONE = ['11111111-2222-4333-8444-555555555555', '22222222-3333-4444-8555-666666666666'];

const sample = useSampleHome(Object.keys(FOUND), 'baton-cost-quick-');

let nextAgent = 0;
function agent(
  vendor: VendorName,
  ids: readonly string[],
  confirmed = true,
  status: AgentRecord['status'] = 'stopped',
) {
  return sampleAgent(`agt_${String(nextAgent++).padStart(16, '0')}`, vendor, ids, { confirmed, status });
}

const run = (n: number, agents: AgentRecord[]): RunManifest =>
  sampleRun(`run_${String(n).padStart(16, '0')}`, `r${n}`, agents);

/** Runs of every kind a history holds. */
function history(): { quick: RunManifest[]; read: RunManifest[] } {
  const quick = [
    run(1, [agent('claude', [GONE[0]!]), agent('codex', [GONE[1]!]), agent('shell', []), agent('shell', [])]),
    run(2, [agent('claude', [GONE[0]!], false)]),
    run(3, [agent('shell', [])]),
    run(4, [agent('codex', [GONE[1]!, GONE[0]!, GONE[1]!]), agent('claude', [])]),
  ];
  const read = [
    run(5, [agent('claude', [FOUND.claude]), agent('codex', [GONE[1]!])]),
    run(6, [agent('codex', [FOUND.codex])]),
    run(7, [agent('claude', [GONE[0]!], true, 'running')]),
  ];
  return { quick, read };
}

describe('sums made together for stopped runs that need no read', () => {
  it('gives what totals gives, and leaves out every run that needs a read', async () => {
    const { quick, read } = history();
    const service = new CostService(createVendors(), sample.env, sample.dataDir);
    const made = await service.stoppedTotals([...quick, ...read], new SessionIndexes());
    expect([...made.keys()].sort()).toEqual(quick.map((r) => r.id).sort());
    const reference = new CostService(createVendors(), sample.env, sample.dataDir);
    for (const r of quick) {
      const expected = await reference.totals(r, new SessionIndexes());
      expect(made.get(r.id)).toEqual(expected);
    }
    // A confirmed session gone is lost (unknown), a never-confirmed one cost nothing, a shell has no figures.
    expect(made.get(quick[0]!.id)!.total.tokens).toBeNull();
    expect(made.get(quick[1]!.id)!.total).toMatchObject({ tokens: 0, usd: 0 });
  });

  it('a whole list gives every run the sum the one-by-one path gives', async () => {
    const { quick, read } = history();
    const runs = [...read, ...quick];
    const together = await listCosts(
      new CostService(createVendors(), sample.env, sample.dataDir),
      runs,
      () => undefined,
      60_000,
    );
    const oneByOne = new CostService(createVendors(), sample.env, sample.dataDir);
    const alone = await listCosts({ totalsOnce: (r) => oneByOne.totalsOnce(r) }, runs, () => undefined, 60_000);
    expect(together).toEqual(alone);
    expect(together.get(read[0]!.id)?.tokens).toBeGreaterThan(0);
    expect(together.size).toBe(alone.size);
  });
});
