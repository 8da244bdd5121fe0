// Commands about agents: start a run of them, type into one, read one's screen.
import { posix, resolve } from 'node:path';
import type { RpcClient } from '../../../shared/client.js';
import type { AgentSpec, AgentView } from '../../../shared/contract.js';
import { HOST_ALIAS } from '../../../shared/contract/host-alias.js';
import { VENDOR_NAMES, type VendorName } from '../../../shared/words.js';
import { DATA_DIR_OPTION, JSON_OPTION, type CommandSpec } from '../command.js';
import { shownArgument, UsageError } from '../errors.js';
import { expandHome } from '../home.js';
import { json, note, out, plural } from '../output.js';
import { agentByLabel, isLive, LABEL_ARG, labelArg, notRunningReason, RUN_ARG, runArg } from './common.js';

const AGENT_FORM = '<vendor>[:<label>]@[<host>:]<dir>';
/** `devbox:~/src/app`, `me@10.0.0.5:2222:/srv/app`: a host, then the first `:` before a `/` or `~`. */
const ON_HOST = /^([^:/~][^/~]*?):([/~].*)$/;

/** `claude:planner@~/src/app` → the spec run.start takes; the directory as an absolute path, `~` expanded. */
export function parseAgentSpec(text: string, env: NodeJS.ProcessEnv): AgentSpec {
  const at = text.indexOf('@');
  if (at < 0) throw new UsageError(`--agent ${shownArgument(text, env)} must look like ${AGENT_FORM}`);
  const head = text.slice(0, at);
  const colon = head.indexOf(':');
  const vendor = colon < 0 ? head : head.slice(0, colon);
  const label = colon < 0 ? undefined : head.slice(colon + 1);
  if (!(VENDOR_NAMES as readonly string[]).includes(vendor))
    throw new UsageError(
      `unknown vendor ${shownArgument(vendor, env)} in --agent (one of: ${VENDOR_NAMES.join(', ')})`,
    );
  if (label === '')
    throw new UsageError(`--agent ${shownArgument(text, env)} has an empty label: leave out the ':' or name the agent`);
  const place = text.slice(at + 1);
  if (place === '') throw new UsageError(`--agent ${shownArgument(text, env)} has no directory after '@'`);
  const remote = ON_HOST.exec(place);
  if (remote) {
    const [, host, dir] = remote as unknown as [string, string, string];
    if (!HOST_ALIAS.test(host))
      throw new UsageError(`--agent: ${shownArgument(host, env)} is not a host (an ssh alias or user@host[:port])`);
    // `~` is the remote user's home: the CLI expands it once it has asked that host (remoteHomes).
    return { vendor: vendor as VendorName, cwd: dir, host, ...(label !== undefined ? { label } : {}) };
  }
  return {
    vendor: vendor as VendorName,
    cwd: resolve(expandHome(place, env, '--agent')),
    ...(label !== undefined ? { label } : {}),
  };
}

/** Directories on other hosts that start with `~`, expanded with that host's home (connecting to it first). */
export async function expandRemoteHomes(specs: AgentSpec[], client: RpcClient): Promise<AgentSpec[]> {
  const homes = new Map<string, string>();
  for (const spec of specs) {
    if (!spec.host || !spec.cwd.startsWith('~')) continue;
    if (!/^~(?:\/|$)/.test(spec.cwd))
      throw new UsageError(`--agent: on another host, only ~ (that user's home) is expanded, not ~user`);
    let home = homes.get(spec.host);
    if (home === undefined) {
      const view = await client.call('hosts.connect', { host: spec.host });
      if (view.home === null) throw new Error(`${spec.host} is ${view.state}: ${view.message ?? 'no answer'}`);
      home = view.home;
      homes.set(spec.host, home);
    }
    spec.cwd = posix.normalize(`${home}${spec.cwd.slice(1)}`).replace(/(.)\/$/, '$1');
  }
  return specs;
}

/**
 * The agents of `baton start`, in order: each --agent, with the --worktree and --base typed after it (before the
 * next --agent) applying to it alone.
 */
export function agentSpecsOf(typed: readonly { name: string; value: string }[], env: NodeJS.ProcessEnv): AgentSpec[] {
  const specs: AgentSpec[] = [];
  for (const { name, value } of typed) {
    if (name === 'agent') {
      specs.push(parseAgentSpec(value, env));
      continue;
    }
    if (name !== 'worktree' && name !== 'base') continue;
    const last = specs.at(-1);
    if (!last) throw new UsageError(`--${name} belongs to the --agent before it: give it after that --agent`);
    if (name === 'worktree') {
      if (last.worktree !== undefined) throw new UsageError(`--worktree is given twice for one --agent`);
      last.worktree = 'new';
    } else {
      if (last.base !== undefined) throw new UsageError(`--base is given twice for one --agent`);
      last.base = value;
    }
  }
  const [noWorktree] = specs.filter((s) => s.base !== undefined && s.worktree === undefined);
  if (noWorktree)
    throw new UsageError(
      `--base is for a new worktree: add --worktree to that --agent (${noWorktree.label ?? noWorktree.vendor})`,
    );
  return specs;
}

/** `planner (claude) running in /wt/app/demo-planner (worktree on baton/demo/planner)` */
export function agentLine(a: AgentView): string {
  const where = `${a.host ? ` on ${a.host}` : ''}${a.worktree ? ` in ${a.cwd} (worktree on ${a.worktree.branch})` : ''}`;
  return `${a.label} (${a.vendor}) ${a.status}${where}${a.warning ? ` — ${a.warning}` : ''}`;
}

export const startCommand: CommandSpec = {
  name: 'start',
  args: [{ name: 'run', help: 'a name for the new run' }],
  summary: 'start a run of agents',
  details:
    'Starts a new run with one agent per --agent, each in its directory. --worktree after an --agent gives that ' +
    'agent a git worktree of its own (branch baton/<run>/<label>, made from the checkout its directory is in; it ' +
    "works in the same folder there), so agents never see each other's half-written files; --base after it makes " +
    'the worktree from another branch or commit. A run name already taken is refused. Exits 1 when an agent could ' +
    'not start (the others keep running).',
  options: [
    {
      name: 'agent',
      value: AGENT_FORM,
      repeatable: true,
      help: `an agent to start (at least one; repeat for more). <vendor> is one of ${VENDOR_NAMES.join(', ')}; <label> defaults to the vendor; ~ and ~user in <dir> are expanded`,
    },
    {
      name: 'worktree',
      repeatable: true,
      help: 'after an --agent: that agent works in a new git worktree of its own (its <dir> must be in a git checkout)',
    },
    {
      name: 'base',
      value: 'BRANCH',
      repeatable: true,
      help: "after an --agent with --worktree: make its worktree from this branch or commit (default: the checkout's HEAD)",
    },
    JSON_OPTION,
    DATA_DIR_OPTION,
  ],
  example:
    'start demo --agent claude:planner@~/src/app --worktree --agent codex:tests@~/src/app --worktree --base main',
  async run(ctx) {
    const name = runArg(ctx);
    const specs = agentSpecsOf(ctx.args.inOrder(), ctx.env);
    if (specs.length === 0) throw new UsageError(`give at least one --agent ${AGENT_FORM}`);
    const client = await ctx.server();
    const run = await client.call('run.start', { name, agents: await expandRemoteHomes(specs, client) });
    if (ctx.args.has('json')) json(run);
    else for (const a of run.agents) out(agentLine(a));
    const failed = run.agents.filter((a) => a.status === 'failed');
    const [first] = failed;
    if (first)
      throw new Error(
        `${plural(failed.length, 'agent')} could not start: ${first.label}: ${first.warning ?? 'unknown reason'}`,
      );
    return 'done';
  },
};

export const sendCommand: CommandSpec = {
  name: 'send',
  args: [
    RUN_ARG,
    { ...LABEL_ARG, orSwitch: 'all' },
    { name: 'text', help: 'what to type (quote it; after -- it may start with -)' },
  ],
  summary: 'type text into an agent (or every running agent), then Enter',
  details:
    "Types the text as a user would, then presses Enter after the vendor's pause, so the agent's CLI takes it as a prompt.",
  options: [{ name: 'all', help: 'type into every running agent of the run instead of one' }, DATA_DIR_OPTION],
  example: 'send demo planner "remember the number 777"',
  async run(ctx) {
    const runRef = runArg(ctx);
    const text = ctx.args.required('text');
    const label = labelArg(ctx);
    const client = await ctx.server();
    let targets: AgentView[];
    if (label === undefined) {
      const run = await client.call('run.get', { run: runRef });
      targets = run.agents.filter(isLive);
      if (targets.length === 0)
        throw new Error(`run '${run.name}' has no running agent: resume it first (baton resume ${run.name})`);
    } else {
      const { run, agent } = await agentByLabel(client, runRef, label);
      if (!isLive(agent))
        throw new Error(
          `agent '${agent.label}' of '${run.name}' ${notRunningReason(agent)}: resume the run first (baton resume ${run.name})`,
        );
      targets = [agent];
    }
    await Promise.all(targets.map((a) => client.call('agent.send', { agentId: a.id, text })));
    return 'done';
  },
};

export const screenCommand: CommandSpec = {
  name: 'screen',
  args: [RUN_ARG, LABEL_ARG],
  summary: "print an agent's screen as plain text",
  details:
    "Prints the agent's screen and the tail of its scrollback as plain text. For an agent that is not running, " +
    'standard error says so and standard output gets its last recorded screen.',
  options: [DATA_DIR_OPTION],
  example: 'screen demo planner',
  async run(ctx) {
    const runRef = runArg(ctx);
    const label = labelArg(ctx) ?? ctx.args.required('label');
    const client = await ctx.server();
    const { run, agent } = await agentByLabel(client, runRef, label);
    const screen = await client.call('agent.screen', { agentId: agent.id });
    if (!isLive(agent))
      note(`agent '${agent.label}' of '${run.name}' ${notRunningReason(agent)}: this is its last recorded screen`);
    out(screen.text);
    return 'done';
  },
};
