// What each agent and run cost (docs/cost.md): for every session an agent had (its `sessionIds`, so an id change such
// as Claude's /clear adds a session rather than replacing one), the vendor adapter reads the usage its transcripts
// record; each transcript counts once, each call once, and the calls are priced by price-table.ts. Reads are
// incremental and cached per file, so asking again (run.list with many runs) costs a stat per transcript.
import type { AgentCost, CostFigures, CostTotal, RunCost } from '../../../shared/contract.js';
import { shortId } from '../vendors/kit/ids.js';
import type { VendorAdapter, VendorEnv } from '../vendors/adapter.js';
import type { UsageEntry, UsageSource, VendorUsage } from '../vendors/kit/usage.js';
import type { Vendors } from '../vendors/registry.js';
import type { SessionIndexes } from '../vendors/session-indexes.js';
import type { AgentRecord, RunManifest } from '../store/types.js';
import { totalOf } from '../../../shared/cost-text.js';
import { PriceTables, type PriceTable } from './price-table.js';
import { figuresOf, sumFigures, unknownFigures } from './sum.js';

export interface RemoteFigures {
  figures(runId: string, agent: AgentRecord & { host: string }): Promise<CostFigures>;
}

export interface RunTotals {
  total: CostTotal;
  agents: Map<string, CostTotal>;
}

export class CostService {
  private readonly prices: PriceTables;
  /** Per agent: its last sum and what it was made of. */
  private readonly sums = new Map<
    string,
    { table: PriceTable; signature: string; gone: string; figures: CostFigures }
  >();

  constructor(
    private readonly vendors: Vendors,
    private readonly env: VendorEnv,
    dataDir: string,
    /** A remote agent's figures, as its host's core sums its transcripts there (remote/remote-cost.ts). */
    private readonly remote?: RemoteFigures,
  ) {
    this.prices = new PriceTables(dataDir);
  }

  /** The price table in use (the user's prices.json over the built-in one). */
  priceTable(): Promise<PriceTable> {
    return this.prices.current();
  }

  /** An agent's figures; null for an agent without a model (a shell). */
  async agentFigures(
    agent: AgentRecord,
    table: PriceTable,
    indexes?: SessionIndexes,
  ): Promise<{ figures: CostFigures; sessions: number } | null> {
    const adapter = this.vendors.get(agent.vendor);
    const usage = adapter?.usage;
    if (!adapter || !usage) return null;
    // A pass over many runs (run.list) reads each store once: a stopped agent's session not in it is missing without
    // a lookup of its own. A live agent's is looked up, as its transcript may be newer than the index.
    const stopped = agent.status !== 'running' && agent.status !== 'starting';
    const ids = [...new Set(agent.sessionIds.map((s) => s.id))];
    const sources = new Map<string, UsageSource>();
    const gone: string[] = [];
    for (const id of ids) {
      // A store that cannot be read (a database being rewritten, say) counts as a transcript not there now.
      const reading =
        indexes && stopped && (await indexes.missing(adapter, id, agent.cwd, this.env))
          ? ({ kind: 'missing' } as const)
          : await usage.read(id, agent.cwd, this.env).catch(() => ({ kind: 'missing' as const }));
      if (reading.kind === 'unrecorded') return { figures: unknownFigures(reading.reason), sessions: ids.length };
      if (reading.kind === 'missing') {
        // Never confirmed: nothing was said in it, so it cost nothing. Confirmed and now missing: its figures are lost.
        if (agent.sessionIds.some((s) => s.id === id && s.confirmed)) gone.push(shortId(id));
        continue;
      }
      // A transcript two session ids lead to (a resume under the same file) counts once.
      for (const source of reading.sources) if (!sources.has(source.source)) sources.set(source.source, source);
    }
    return { figures: this.figuresFrom(agent, [...sources.values()], gone, table, usage), sessions: ids.length };
  }

  /** An agent's figures from its transcripts read and the sessions found gone: the last ones if nothing changed. */
  private figuresFrom(
    agent: AgentRecord,
    sources: readonly UsageSource[],
    gone: readonly string[],
    table: PriceTable,
    usage: VendorUsage,
  ): CostFigures {
    // Nothing new since the last sum (same transcripts, same lengths, same prices): the last figures stand.
    const signature = sources.map((s) => `${s.source}:${s.stamp}`).join('|');
    const memo = this.sums.get(agent.id);
    if (memo && memo.table === table && memo.signature === signature && memo.gone === gone.join(','))
      return memo.figures;
    const figures = sumSources(sources, gone, table, usage.costUnknownBecause);
    this.sums.set(agent.id, { table, signature, gone: gone.join(','), figures });
    return figures;
  }

  /**
   * The sums of the runs among `runs` that need no transcript read, made together after one wait for the price table
   * and the vendors' store indexes: runs whose agents are all stopped and local, each with every session missing from
   * its vendor's store (gone, or never written: a long history whose transcripts the vendor has cleaned up) or
   * without a model. The same figures `totals` makes, without its chain of awaits per agent: summing 10,000 such runs
   * one promise chain each was most of a first list's wait (docs/performance.md "First list after open"). The other
   * runs are left out; the caller sums them with `totalsOnce`.
   */
  async stoppedTotals(runs: readonly RunManifest[], indexes: SessionIndexes): Promise<Map<string, RunTotals>> {
    const table = await this.priceTable();
    const stores = new Set<VendorAdapter>();
    for (const run of runs)
      for (const a of run.agents) {
        const adapter = this.vendors.get(a.vendor);
        if (adapter?.usage && adapter.indexSessions) stores.add(adapter);
      }
    await Promise.all([...stores].map((adapter) => indexes.load(adapter, this.env)));
    const out = new Map<string, RunTotals>();
    for (const run of runs) {
      const totals = this.totalsNow(run, table, indexes);
      if (totals) out.set(run.id, totals);
    }
    return out;
  }

  /** `totals` of a run that needs no read, from the indexes as they are; undefined for any other run. */
  private totalsNow(run: RunManifest, table: PriceTable, indexes: SessionIndexes): RunTotals | undefined {
    const agents = new Map<string, CostTotal>();
    const parts: CostFigures[] = [];
    for (const a of run.agents) {
      const adapter = this.vendors.get(a.vendor);
      const usage = adapter?.usage;
      if (!adapter || !usage) continue; // no model: no figures (figuresIn's null)
      if ((a.host && this.remote) || a.status === 'running' || a.status === 'starting') return undefined;
      const index = indexes.peek(adapter);
      if (!index) return undefined;
      const ids = [...new Set(a.sessionIds.map((s) => s.id))];
      if (ids.some((id) => index.has(id, a.cwd))) return undefined;
      // Never confirmed: nothing was said in it, so it cost nothing. Confirmed and now missing: its figures are lost.
      const gone = ids.filter((id) => a.sessionIds.some((s) => s.id === id && s.confirmed)).map(shortId);
      const figures = this.figuresFrom(a, [], gone, table, usage);
      agents.set(a.id, totalOf(figures));
      parts.push(figures);
    }
    return { total: totalOf(sumFigures(parts)), agents };
  }

  /** An agent's figures in its run: a remote agent's from its host, whose core reads its transcripts there. */
  async figuresIn(
    runId: string,
    agent: AgentRecord,
    table: PriceTable,
    indexes?: SessionIndexes,
  ): Promise<{ figures: CostFigures; sessions: number } | null> {
    if (!agent.host || !this.remote) return this.agentFigures(agent, table, indexes);
    if (!this.vendors.get(agent.vendor)?.usage) return null;
    const figures = await this.remote.figures(runId, { ...agent, host: agent.host });
    return { figures, sessions: new Set(agent.sessionIds.map((s) => s.id)).size };
  }

  /** With its run's id, a remote agent's figures come from its host (figuresIn). */
  async agentCost(agent: AgentRecord, table: PriceTable, runId?: string): Promise<AgentCost | null> {
    const got = runId === undefined ? await this.agentFigures(agent, table) : await this.figuresIn(runId, agent, table);
    if (!got) return null;
    return { ...got.figures, agentId: agent.id, label: agent.label, vendor: agent.vendor, sessions: got.sessions };
  }

  /** Per agent and in total, with the date of the prices used. */
  async runCost(run: RunManifest): Promise<RunCost> {
    const table = await this.priceTable();
    const agents: AgentCost[] = [];
    for (const a of run.agents) {
      const c = await this.agentCost(a, table, run.id);
      if (c) agents.push(c);
    }
    return {
      runId: run.id,
      name: run.name,
      agents,
      total: sumFigures(agents),
      prices: { asOf: table.asOf, source: table.source, file: table.file, error: table.error },
    };
  }

  /** Sums of a run being made now, so a list asked twice meanwhile reads the transcripts once. */
  private readonly inFlight = new Map<string, Promise<RunTotals>>();

  /** `totals`, shared by every caller while it is being made; `indexes`: the store indexes of the caller's pass. */
  totalsOnce(run: RunManifest, indexes?: SessionIndexes): Promise<RunTotals> {
    let p = this.inFlight.get(run.id);
    if (!p) {
      p = this.totals(run, indexes).finally(() => this.inFlight.delete(run.id));
      this.inFlight.set(run.id, p);
    }
    return p;
  }

  /** The run's compact sum (run summaries); per agent as well (snapshots). */
  async totals(run: RunManifest, indexes?: SessionIndexes): Promise<RunTotals> {
    const table = await this.priceTable();
    const agents = new Map<string, CostTotal>();
    const parts: CostFigures[] = [];
    for (const a of run.agents) {
      const got = await this.figuresIn(run.id, a, table, indexes);
      if (!got) continue;
      agents.set(a.id, totalOf(got.figures));
      parts.push(got.figures);
    }
    return { total: totalOf(sumFigures(parts)), agents };
  }
}

/**
 * The figures of an agent's transcripts: each call once (a call several transcripts repeat, by its key), priced,
 * with what is lost (a transcript gone, one that records no usage) said, and the sum marked as a lower bound then.
 */
function sumSources(
  sources: readonly UsageSource[],
  gone: readonly string[],
  table: PriceTable,
  costUnknownBecause: string | null,
): CostFigures {
  const keyed = new Map<string, UsageEntry>();
  const unkeyed: UsageEntry[] = [];
  /** Transcripts with answers but no usage recorded: their tokens are unknown, not 0. */
  let silent = 0;
  for (const { entries, answers } of sources) {
    if (entries.length === 0 && answers > 0) silent++;
    for (const e of entries) {
      if (e.key === null) unkeyed.push(e);
      else keyed.set(e.key, e);
    }
  }
  const figures = figuresOf([...keyed.values(), ...unkeyed], table, costUnknownBecause);
  const lost = [
    ...(gone.length > 0 ? [`the transcript of session ${gone.join(', ')} is gone`] : []),
    ...(silent > 0 ? ['its transcript records no token counts'] : []),
  ].join('; ');
  if (lost === '') return figures;
  // Nothing counted at all: unknown. Some counted: what is known, marked as a lower bound.
  if (sources.length - silent === 0) return unknownFigures(lost);
  return {
    ...figures,
    partial: true,
    usdPartial: figures.usd !== null,
    note: figures.note ? `${figures.note}; ${lost}` : lost,
  };
}
