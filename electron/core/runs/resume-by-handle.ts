// Resume by handle, once the handle is resolved: the run continues in the store (or is created there) and each
// agent the handle names is launched as planned, with its resume outcome.
import type { ResumeOutcome } from '../../../shared/contract.js';
import type { RunManifest } from '../store/types.js';
import type { AgentLifecycle } from './agent-lifecycle.js';
import type { ResumeTarget } from './handle-resolver.js';
import { now, type RunContext } from './run-context.js';
import { currentSessionId } from './views.js';

export async function resumeTarget(ctx: RunContext, agents: AgentLifecycle, target: ResumeTarget): Promise<{ runId: string; outcomes: ResumeOutcome[] }> {
  const runId = await adoptTarget(ctx, target);
  const outcomes: ResumeOutcome[] = [];
  for (const planned of target.agents) {
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

/** Creates the run a handle names if the store lacks it, and adds agents the store does not know. */
async function adoptTarget(ctx: RunContext, target: ResumeTarget): Promise<string> {
  const at = now();
  const existing = ctx.store.get(target.runId);
  const records = target.agents.map((t) => t.agent);
  if (!existing) {
    const run: RunManifest = { v: 1, id: target.runId, name: target.runName, createdAt: at, updatedAt: at, agents: records, lastSnapshot: null };
    await ctx.store.save(run);
    await ctx.event(run.id, { type: 'started', message: `created from a handle with ${records.length} agent${records.length === 1 ? '' : 's'}` });
    return run.id;
  }
  const unknown = records.filter((r) => !existing.agents.some((a) => a.id === r.id));
  if (unknown.length > 0) {
    await ctx.queue.mutate(existing.id, (m) => {
      m.agents.push(...unknown);
    });
  }
  return existing.id;
}
