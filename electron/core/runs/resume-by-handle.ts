// Resume by handle, once the handle is resolved: the run continues in the store (or is created there) and each
// agent the handle names is launched as planned, with its resume outcome.
import type { ResumeOutcome } from '../../../shared/contract.js';
import type { AgentRecord, RunManifest } from '../store/types.js';
import type { AgentLifecycle } from './agent-lifecycle.js';
import { invalid } from './errors.js';
import type { PlannedAgent, ResumeTarget } from './handle-resolver.js';
import { now, type RunContext } from './run-context.js';
import { checkRoom } from './validation.js';
import { currentSessionId } from './views.js';

const SHELL_NOT_CONFIRMED =
  'not started: a shell agent from a handle runs a command in the directory the handle names, so it starts only once you confirm it';

/**
 * `confirmShell`: the handle indexes of the shell agents the user confirmed. Any other shell agent is not
 * started, and one new to this store is not added to it either, so a later resume of the run by name (which
 * confirms its own agents) can never start it unconfirmed (docs/architecture.md §10).
 */
export async function resumeTarget(
  ctx: RunContext,
  agents: AgentLifecycle,
  target: ResumeTarget,
  confirmShell: ReadonlySet<number>,
): Promise<{ runId: string; outcomes: ResumeOutcome[] }> {
  const held = (p: PlannedAgent) => p.agent.vendor === 'shell' && !confirmShell.has(p.index) && !agents.isLive(p.agent.id);
  const adopted = target.agents.filter((p) => p.known || !held(p)).map((p) => p.agent);
  const runId = await adoptTarget(ctx, target, adopted);
  const outcomes: ResumeOutcome[] = [];
  for (const planned of target.agents) {
    if (held(planned)) {
      const { id, label, vendor } = planned.agent;
      outcomes.push({ agentId: id, label, vendor, outcome: 'failed', sessionId: null, message: SHELL_NOT_CONFIRMED });
      continue;
    }
    const agent = ctx.store.get(runId)!.agents.find((a) => a.id === planned.agent.id)!;
    if (agents.isLive(agent.id)) {
      outcomes.push({ agentId: agent.id, label: agent.label, vendor: agent.vendor, outcome: 'resumed', sessionId: currentSessionId(agent), message: 'already running' });
      continue;
    }
    outcomes.push(await agents.launchResumed(runId, agent, planned.plan));
  }
  const counts = ['resumed', 'fresh', 'failed']
    .map((k) => `${outcomes.filter((o) => o.outcome === k).length} ${k}`)
    .join(', ');
  await ctx.event(runId, { type: 'resumed', message: `resumed from a handle: ${counts}` });
  ctx.emit('run.changed', { runId });
  return { runId, outcomes };
}

/** Creates the run a handle names if the store lacks it, and adds the agents it does not know. */
async function adoptTarget(ctx: RunContext, target: ResumeTarget, records: AgentRecord[]): Promise<string> {
  const at = now();
  const existing = ctx.store.get(target.runId);
  if (!existing) {
    // A run with no agent is not a run: every agent was a shell agent the user did not confirm.
    if (records.length === 0) throw invalid('nothing to resume: every agent of this handle is a shell agent, and none was confirmed', 'confirmShell');
    const run: RunManifest = { v: 1, id: target.runId, name: target.runName, createdAt: at, updatedAt: at, agents: records, lastSnapshot: null };
    await ctx.store.save(run);
    await ctx.event(run.id, { type: 'started', message: `created from a handle with ${records.length} agent${records.length === 1 ? '' : 's'}` });
    return run.id;
  }
  const unknown = records.filter((r) => !existing.agents.some((a) => a.id === r.id));
  if (unknown.length > 0) {
    await ctx.queue.mutate(existing.id, (m) => {
      const adding = unknown.filter((r) => !m.agents.some((a) => a.id === r.id));
      // Checked again in the run's queue: an agent.add since the plan must not take the run past its limit.
      checkRoom(m.agents.length, adding.length, 'agents');
      m.agents.push(...adding);
    });
  }
  return existing.id;
}
