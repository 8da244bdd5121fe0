// Checks on what a user or a handle asks for, done before anything is spawned or written, and the new agents of a
// request's specs, which pass them.
import { BatonError, type AgentSpec } from '../../../shared/contract.js';
import { LIMITS } from '../../../shared/words.js';
import type { AgentRecord } from '../store/types.js';
import type { Vendors } from '../vendors/registry.js';
import type { AgentWorktrees, HostWorktreeIntent, WorktreeIntent } from './agent-worktrees.js';
import { invalid } from './errors.js';
import { newAgentId } from './ids.js';
import { inspectDirectory, problemText, typedProblemText } from './workdir.js';

/** The agent a user typed a directory for (run.start, agent.add), to name in the error with that directory. */
export interface DirectoryTypedFor {
  label: string | undefined;
  vendor: string;
}

/**
 * The directory an agent will run in, as its real path; refused when it is not an existing directory that the
 * user owns and alone can write (workdir.ts says why). `typedFor` is given only when the user typed this path in
 * this very request: the error then names the agent and the path, which the user already knows. Without it (a
 * path decoded from a handle, which is a secret, or anything else) the error names only the field and the
 * reason, never the path.
 */
export async function checkedDirectory(cwd: string, field: string, typedFor?: DirectoryTypedFor): Promise<string> {
  const check = await inspectDirectory(cwd);
  if (check.ok) return check.real;
  if (typedFor)
    throw new BatonError({
      code: 'invalid',
      message: `${agentName(typedFor)}: ${typedProblemText(check.problem, cwd)}`,
      field,
    });
  throw invalid(problemText(check.problem), field);
}

/** `agent 'planner' (claude)`, or `claude agent` when the user gave no label. */
function agentName(agent: DirectoryTypedFor): string {
  return agent.label === undefined ? `${agent.vendor} agent` : `agent '${agent.label}' (${agent.vendor})`;
}

/** A run holds at most LIMITS.agentsPerRun agents (run.start's schema says so; adding and resuming check here). */
export function checkRoom(current: number, adding: number, field: string): void {
  if (current + adding <= LIMITS.agentsPerRun) return;
  const has = `this one has ${current}`;
  throw invalid(
    `a run holds at most ${LIMITS.agentsPerRun} agents: ${adding === 1 ? has : `${has} and ${adding} more would be added`}`,
    field,
  );
}

/** A label unique within its run: an explicit clash is an error, a derived one gets a number. */
export function uniqueLabel(wanted: string, taken: readonly string[], field: string, explicit: boolean): string {
  if (!taken.includes(wanted)) return wanted;
  if (explicit) throw invalid('label is already used by another agent of this run', field);
  for (let n = 2; ; n++) {
    const candidate = `${wanted.slice(0, LIMITS.labelMaxChars - String(n).length - 1)}-${n}`;
    if (!taken.includes(candidate)) return candidate;
  }
}

/** A run name not yet taken: `demo`, `demo (2)`, … */
export function uniqueRunName(wanted: string, isTaken: (name: string) => boolean): string {
  if (!isTaken(wanted)) return wanted;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const candidate = `${wanted.slice(0, LIMITS.nameMaxChars - suffix.length)}${suffix}`;
    if (!isTaken(candidate)) return candidate;
  }
}

/**
 * New agents from the request's specs (run.start, agent.add): validated, labelled uniquely within their run, not
 * started; with each, the worktree its spec asks for, checked (null: none). Nothing is created here.
 */
export async function newAgentRecords(
  specs: readonly AgentSpec[],
  existing: readonly AgentRecord[],
  vendors: Vendors,
  worktrees: AgentWorktrees,
): Promise<{ agent: AgentRecord; worktree: WorktreeIntent | HostWorktreeIntent | null }[]> {
  const labels = existing.map((a) => a.label);
  const out: { agent: AgentRecord; worktree: WorktreeIntent | HostWorktreeIntent | null }[] = [];
  for (const [i, spec] of specs.entries()) {
    const field = `agents[${i}]`;
    const adapter = vendors.get(spec.vendor);
    if (!adapter) throw invalid(`vendor '${spec.vendor}' is not supported yet`, `${field}.vendor`);
    if (spec.command && spec.vendor !== 'shell') throw invalid('only shell agents take a command', `${field}.command`);
    // A remote agent's directory and worktree are its host's to check, when its core there starts it (docs/hosts.md).
    if (spec.host && spec.base !== undefined && (spec.worktree ?? 'none') === 'none')
      throw invalid('a base is for a new worktree: ask for worktree "new" too', `${field}.base`);
    const cwd = spec.host
      ? spec.cwd
      : await checkedDirectory(spec.cwd, `${field}.cwd`, { label: spec.label, vendor: spec.vendor });
    const label = uniqueLabel(spec.label ?? spec.vendor, labels, `${field}.label`, spec.label !== undefined);
    labels.push(label);
    const worktree = spec.host
      ? hostIntent(spec)
      : await worktrees.check(spec, cwd, field, agentName({ label, vendor: spec.vendor }));
    const agent: AgentRecord = {
      id: newAgentId(),
      label,
      vendor: spec.vendor,
      cwd,
      args: [...(spec.args ?? [])],
      command: spec.command ? [...spec.command] : null,
      sessionIds: [],
      status: 'starting',
      exitCode: null,
      warning: null,
      startedAt: null,
      ...(spec.host ? { host: spec.host } : {}),
    };
    out.push({ agent, worktree });
  }
  return out;
}

/** A remote agent's worktree, as its spec asked: its host's core checks and makes it (null: none). */
function hostIntent(spec: AgentSpec): HostWorktreeIntent | null {
  if (spec.worktree === undefined || spec.worktree === 'none') return null;
  return { onHost: true, worktree: spec.worktree, ...(spec.base !== undefined ? { base: spec.base } : {}) };
}
