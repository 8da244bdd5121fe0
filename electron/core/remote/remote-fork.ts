// A fork of a run with agents on other hosts (docs/hosts.md "Forks"): each host's core forks the agents it runs for
// the source run, in one `run.fork` there (its vendor's own fork or a copy of the transcript in that host's store, a
// new worktree there from the commit its source has now), into a run named after the fork's id here, as every remote
// run is. The fork here then reattaches to them like any remote agent (remote-launcher.ts).
import type { ForkOutcome } from '../../../shared/contract.js';
import type { RemoteLauncher } from './remote-launcher.js';

/** What a host's fork gave one agent: its outcome there, or why the host could not fork it. */
export type HostFork = { ok: true; outcome: ForkOutcome } | { ok: false; message: string };

export interface HostForkRequest {
  /** The source run here (its remote runs are named after its id). */
  sourceRunId: string;
  /** The fork here: its id names the remote fork, its name the new worktrees' branches and folders. */
  forkRunId: string;
  forkName: string;
  /** The labels of the agents to fork on each host. */
  labelsByHost: ReadonlyMap<string, readonly string[]>;
}

/** Each host forks its agents; the answer is by host, then by label. A host out of reach fails its agents. */
export async function forkOnHosts(
  launcher: RemoteLauncher,
  request: HostForkRequest,
): Promise<Map<string, Map<string, HostFork>>> {
  const out = new Map<string, Map<string, HostFork>>();
  for (const [host, labels] of request.labelsByHost) {
    const byLabel = new Map<string, HostFork>();
    out.set(host, byLabel);
    const fail = (message: string) => labels.forEach((l) => byLabel.set(l, { ok: false, message }));
    try {
      const core = launcher.cores.core(host);
      await core.connect();
      const source = await launcher.remoteRun(core, request.sourceRunId);
      if (!source) {
        fail(`${host} has no record of this run's agents (they never started there)`);
        continue;
      }
      const there = labels.filter((l) => source.agents.some((a) => a.label === l));
      for (const l of labels)
        if (!there.includes(l)) byLabel.set(l, { ok: false, message: `${host} has no agent '${l}'` });
      if (there.length === 0) continue;
      const { outcomes } = await core.call('run.fork', {
        run: source.id,
        name: request.forkRunId,
        agents: there,
        worktreeName: request.forkName,
      });
      for (const o of outcomes) byLabel.set(o.label, { ok: true, outcome: o });
    } catch (err) {
      fail(`${host} could not fork it: ${(err as Error).message}`);
    }
  }
  return out;
}
