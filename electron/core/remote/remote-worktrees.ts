// A remote agent's worktree requests (agent.changes, agent.merge, agent.removeWorktree), answered by its host's core,
// where the worktree and its repository are and where git runs (docs/hosts.md "Worktrees on a host"). The local
// agent is found there as every remote agent is: in the remote run named after the local run's id, by its label.
import { BatonError, type Params, type Result } from '../../../shared/contract.js';
import type { AgentRecord } from '../store/types.js';
import type { RemoteLauncher } from './remote-launcher.js';

export type HostWorktreeMethod = 'agent.changes' | 'agent.merge' | 'agent.removeWorktree';

export async function askItsHost<M extends HostWorktreeMethod>(
  launcher: RemoteLauncher,
  runId: string,
  agent: AgentRecord & { host: string },
  method: M,
  params: Omit<Params<M>, 'agentId'>,
): Promise<Result<M>> {
  const core = launcher.cores.core(agent.host);
  try {
    await core.connect();
  } catch (err) {
    throw new BatonError({
      code: 'failed',
      message: `its worktree is on ${agent.host}, which cannot be reached now: ${(err as Error).message}`,
    });
  }
  const run = await launcher.remoteRun(core, runId);
  const there = run?.agents.find((a) => a.label === agent.label);
  if (!there)
    throw new BatonError({
      code: 'not-found',
      message: `${agent.host} no longer has agent '${agent.label}' of this run: resume the run to bring it back there`,
    });
  // The same request as for a local agent, with the id the agent has there: its checks and messages are that core's.
  const call = core.call.bind(core) as (m: M, p: Params<M>) => Promise<Result<M>>;
  return call(method, { ...params, agentId: there.id } as Params<M>);
}
