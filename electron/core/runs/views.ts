// What clients see of a run: the manifest joined with the live terminals, and how they are told of a change.
import {
  needsUser,
  type AgentAttention,
  type AgentView,
  type EventName,
  type EventPayload,
  type RunSummary,
  type RunView,
} from '../../../shared/contract.js';
import type { VendorName } from '../../../shared/words.js';
import type { AgentRecord, RunManifest } from '../store/types.js';

/** Tells every client of a change (`run.changed`, `agent.status`, …; docs/architecture.md §3). */
export type Announce = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

/** Each agent's attention state (attention/attention-service.ts `view`). */
export type AttentionOf = (agent: AgentRecord) => AgentAttention;

export interface LiveInfo {
  terminalId: string;
  pid: number;
}

export function currentSessionId(agent: AgentRecord): string | null {
  return agent.sessionIds.at(-1)?.id ?? null;
}

export function agentView(agent: AgentRecord, live: LiveInfo | undefined, attentionOf: AttentionOf): AgentView {
  return {
    id: agent.id,
    label: agent.label,
    vendor: agent.vendor,
    cwd: agent.cwd,
    args: agent.args,
    command: agent.command,
    sessionId: currentSessionId(agent),
    sessionIds: agent.sessionIds,
    status: agent.status,
    exitCode: agent.exitCode,
    terminalId: live?.terminalId ?? null,
    pid: live?.pid ?? null,
    warning: agent.warning,
    startedAt: agent.startedAt,
    worktree: worktreeView(agent),
    ...(agent.host ? { host: agent.host } : {}),
    attention: attentionOf(agent),
  };
}

/** The agent's worktree as clients see it (the base branch stays the core's own, for merges). */
export function worktreeView(agent: AgentRecord): AgentView['worktree'] {
  const w = agent.worktree;
  return w
    ? {
        repoRoot: w.repoRoot,
        worktreePath: w.worktreePath,
        branch: w.branch,
        baseCommit: w.baseCommit,
        created: w.created,
      }
    : null;
}

export function runView(
  run: RunManifest,
  live: (agentId: string) => LiveInfo | undefined,
  attentionOf: AttentionOf,
): RunView {
  return {
    id: run.id,
    name: run.name,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    agents: run.agents.map((a) => agentView(a, live(a.id), attentionOf)),
    lastSnapshot: run.lastSnapshot,
  };
}

export function runSummary(
  run: RunManifest,
  isLive: (agentId: string) => boolean,
  health: RunSummary['health'],
  attentionOf: AttentionOf,
  cost?: RunSummary['cost'],
  withStates = true,
): RunSummary {
  let needYou = 0;
  let liveAgents = 0;
  const vendors: VendorName[] = [];
  const states: NonNullable<RunSummary['states']> = [];
  for (const a of run.agents) {
    const state = attentionOf(a).state;
    if (needsUser(state)) needYou++;
    if (isLive(a.id)) liveAgents++;
    if (!vendors.includes(a.vendor)) vendors.push(a.vendor);
    if (withStates) states.push({ agentId: a.id, label: a.label, state });
  }
  const summary: RunSummary = {
    needYou,
    health,
    id: run.id,
    name: run.name,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    agentCount: run.agents.length,
    liveAgents,
    vendors,
    lastSnapshotAt: run.lastSnapshot?.at ?? null,
  };
  // Set on the summary made, not spread into a copy of it: 10,000 copies were a tenth of a whole list's making.
  if (withStates) summary.states = states;
  if (cost) summary.cost = cost;
  return summary;
}

/** Search as the user types: run name, agent labels, vendors and directories. */
export function matchesQuery(run: RunManifest, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  const haystack = [run.name, ...run.agents.flatMap((a) => [a.label, a.vendor, a.cwd, a.worktree?.branch ?? ''])]
    .join('\n')
    .toLowerCase();
  return q.split(/\s+/).every((word) => haystack.includes(word));
}
