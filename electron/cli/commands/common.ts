// Helpers the client commands share: the run a command is about, and one agent of it by label.
import type { RpcClient } from '../../../shared/client.js';
import type { AgentView, RunView } from '../../../shared/contract.js';
import type { ArgSpec, CommandContext } from '../command.js';
import { looksLikeHandle, shownArgument, UsageError } from '../errors.js';

export const RUN_ARG: ArgSpec = { name: 'run', help: "the run's name (or id)" };
export const LABEL_ARG: ArgSpec = {
  name: 'label',
  help: "the agent's label (or id), as `baton ls` and `baton events` show it",
};

/**
 * The <run> argument. A handle typed there would be visible to every user of the machine (process lists) and
 * end up in shell history: refuse it without echoing it, and say where a handle goes.
 */
export function runArg(ctx: CommandContext): string {
  return notAHandle(ctx.args.required('run'), '<run>');
}

/** The <label> argument, when given; refused like <run> when it looks like a handle. */
export function labelArg(ctx: CommandContext): string | undefined {
  const label = ctx.args.arg('label');
  return label === undefined ? undefined : notAHandle(label, '<label>');
}

/** `value` as typed, unless it looks like a handle: that is refused without being echoed. */
export function notAHandle(value: string, what: string): string {
  if (looksLikeHandle(value))
    throw new UsageError(
      `${what} looks like a handle: give a handle on standard input (baton resume < demo.handle), never as an argument`,
    );
  return value;
}

export async function agentByLabel(
  client: RpcClient,
  runRef: string,
  label: string,
): Promise<{ run: RunView; agent: AgentView }> {
  const run = await client.call('run.get', { run: runRef });
  const agent = run.agents.find((a) => a.label === label || a.id === label);
  if (!agent)
    throw new Error(
      `run '${run.name}' has no agent ${shownArgument(label)} (its agents: ${run.agents.map((a) => a.label).join(', ')})`,
    );
  return { run, agent };
}

/** Whether the agent's CLI is running now: only then does it have a live screen to type into. */
export function isLive(agent: AgentView): boolean {
  return agent.terminalId !== null && (agent.status === 'running' || agent.status === 'starting');
}

/** Why an agent is not running, in the user's words. */
export function notRunningReason(agent: AgentView): string {
  switch (agent.status) {
    case 'exited':
      return `has exited${agent.exitCode !== null ? ` (code ${agent.exitCode})` : ''}`;
    case 'failed':
      return `failed to start${agent.warning ? ` (${agent.warning})` : ''}`;
    case 'starting':
    case 'running':
      return 'has not been started since the server started';
    case 'stopped':
      return 'is stopped';
  }
}
