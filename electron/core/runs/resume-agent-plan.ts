// One agent's resume plan: the argv its vendor's adapter gives for the handle's session (read once from the vendor's
// store, `planResumeChecked`), whether the session was found, and the id recorded on the agent. Apart from
// resume-planner.ts, which decides which agents a handle brings and where they run.
import type { SessionCheck } from '../../../shared/contract.js';
import type { HandleAgent } from '../handle/codec.js';
import { remotePlan } from '../remote/remote-launcher.js';
import type { AgentRecord } from '../store/types.js';
import type { PriorSession, SpawnPlan, VendorEnv } from '../vendors/adapter.js';
import type { Vendors } from '../vendors/registry.js';
import type { WorktreeAssessment } from './agent-worktrees.js';
import { currentSessionId } from './views.js';

export interface PlannedAgent {
  agent: AgentRecord;
  plan: SpawnPlan;
  /** The vendor's store held the handle's session for this agent's directory when the plan was made. */
  found: boolean;
  check: SessionCheck;
  /** Its position in the handle: how run.resume's `confirmShell` names it. */
  index: number;
  /** The store already has this agent in this run: it runs in its recorded directory, not the handle's. */
  known: boolean;
  /** Where its worktree is (null: it has none): found, to be re-created before it starts, or failed (why). */
  worktree: WorktreeAssessment | null;
  /** The session id the handle gave it: a plan made again once a re-created worktree moved its directory. */
  sessionId: string | null;
}

/** The agent's plan for the handle's session; an id the store did not have is added to the agent (confirmed if found). */
export async function planAgent(
  vendors: Vendors,
  env: VendorEnv,
  runName: string,
  agent: AgentRecord,
  h: HandleAgent,
): Promise<Omit<PlannedAgent, 'index' | 'known' | 'worktree' | 'sessionId'>> {
  const adapter = vendors.get(agent.vendor)!;
  // Planned by its host's core when it starts: its CLI and its vendor's store are there (docs/hosts.md).
  if (agent.host) {
    if (h.sessionId !== null && !agent.sessionIds.some((s) => s.id === h.sessionId))
      agent.sessionIds.push({
        id: h.sessionId,
        chosenBy: 'vendor',
        seenAt: new Date().toISOString(),
        confirmed: true,
      });
    return { agent, plan: remotePlan(h.sessionId, 'resumed'), found: h.sessionId !== null, check: 'remote' };
  }
  const ctx = { runName, label: agent.label, cwd: agent.cwd, args: agent.args, command: agent.command };
  if (h.sessionId === null || adapter.sessionIdPattern === null) {
    const { plan } = await adapter.planResumeChecked(ctx, { sessionId: '', chosenBy: 'baton', confirmed: false }, env);
    return { agent, plan, found: false, check: 'no-session' };
  }
  // What the store remembers of this id decides between "never written: same id again" and "gone: fresh".
  const remembered = agent.sessionIds.find((s) => s.id === h.sessionId);
  const prior: PriorSession = remembered
    ? { sessionId: h.sessionId, chosenBy: remembered.chosenBy, confirmed: remembered.confirmed }
    : { sessionId: h.sessionId, chosenBy: 'vendor', confirmed: true };
  const { plan, found } = await adapter.planResumeChecked(ctx, prior, env);
  if (currentSessionId(agent) !== h.sessionId && !remembered) {
    agent.sessionIds.push({
      id: h.sessionId,
      chosenBy: 'vendor',
      seenAt: new Date().toISOString(),
      confirmed: found,
    });
  }
  return { agent, plan, found, check: found ? 'found' : 'missing' };
}
