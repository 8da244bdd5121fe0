// What a remote agent cost (docs/hosts.md, docs/cost.md): its vendor's transcripts are on its host, so the core there
// sums them (`run.cost` of the remote run, named after the local run's id) and this side takes that agent's figures by
// its label. A host that is not connected is never connected for a cost (a run list must not open ssh sessions): its
// last figures stand, or the cost is unknown and says why.
import type { CostFigures, RunCost } from '../../../shared/contract.js';
import { unknownFigures } from '../cost/sum.js';
import type { AgentRecord } from '../store/types.js';
import type { RemoteCores } from './remote-launcher.js';

/** How long one answer of a host serves every agent of that run (a run list sums each agent in turn). */
const FRESH_MS = 2000;

export class RemoteCosts {
  private readonly asked = new Map<string, { at: number; cost: Promise<RunCost | null> }>();
  /** Per local agent, the last figures its host gave. */
  private readonly last = new Map<string, CostFigures>();

  constructor(private readonly cores: RemoteCores) {}

  async figures(runId: string, agent: AgentRecord & { host: string }): Promise<CostFigures> {
    const core = this.cores.core(agent.host);
    if (core.state !== 'connected')
      return this.last.get(agent.id) ?? unknownFigures(`its host ${agent.host} is not connected`);
    const cost = await this.runCost(runId, agent.host).catch(() => null);
    const mine = cost?.agents.find((a) => a.label === agent.label);
    if (!mine) return this.last.get(agent.id) ?? unknownFigures(`its host ${agent.host} did not say what it cost`);
    const { agentId: _id, label: _label, vendor: _vendor, sessions: _sessions, ...figures } = mine;
    this.last.set(agent.id, figures);
    return figures;
  }

  /** The remote run's cost, asked once per run and host within FRESH_MS. */
  private runCost(runId: string, host: string): Promise<RunCost | null> {
    const key = `${host}\u0000${runId}`;
    const cached = this.asked.get(key);
    if (cached && Date.now() - cached.at < FRESH_MS) return cached.cost;
    const core = this.cores.core(host);
    const cost = (async () => {
      const found = (await core.call('run.list', { query: runId })).find((r) => r.name === runId || r.id === runId);
      return found ? core.call('run.cost', { run: found.id }) : null;
    })();
    for (const [k, v] of this.asked) if (Date.now() - v.at >= FRESH_MS) this.asked.delete(k);
    this.asked.set(key, { at: Date.now(), cost });
    // A failed ask is not kept: the next one tries again.
    void cost.catch(() => this.asked.delete(key));
    return cost;
  }
}
