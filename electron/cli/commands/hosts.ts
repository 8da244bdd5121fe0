// `baton hosts`: the Hosts list (this machine, ~/.ssh/config, the ones added) with each host's state; `--add` and
// `--connect` (which installs Baton's core there on first use). `baton connect --stdio` is what Baton itself runs on
// a remote host over ssh (docs/hosts.md).
import type { HostView } from '../../../shared/contract.js';
import { hostAliasSchema } from '../../../shared/contract/host-alias.js';
import { DATA_DIR_OPTION, JSON_OPTION, type CommandSpec } from '../command.js';
import { shownArgument, UsageError } from '../errors.js';
import { json, out } from '../output.js';

function hostArg(value: string, option: string): string {
  const checked = hostAliasSchema.safeParse(value);
  if (!checked.success)
    throw new UsageError(`${option} ${shownArgument(value)} is not a host (an ssh alias or user@host[:port])`);
  return checked.data;
}

export function hostLine(h: HostView): string {
  const name = h.alias ?? 'this machine';
  const target = h.target && h.target !== h.alias ? ` (${h.target})` : '';
  const live = h.liveAgents > 0 ? `, ${h.liveAgents} live agent${h.liveAgents === 1 ? '' : 's'}` : '';
  return `${name}${target}: ${h.state}${live}${h.message ? ` — ${h.message}` : ''}`;
}

export const hostsCommand: CommandSpec = {
  name: 'hosts',
  args: [],
  summary: 'list the hosts agents can run on (this machine and your ssh hosts), or add or connect one',
  details:
    'Lists this machine, the hosts of ~/.ssh/config (as `ssh -G` resolves them) and the ones added, each with its ' +
    "state: connected, connecting, unreachable (with ssh's own error), needs-setup, or idle. --add user@host[:port] " +
    'adds one; --connect HOST connects to it with your own ssh (your keys, agent, ProxyJump and known_hosts; an unknown ' +
    "host key is refused) and on first use installs Baton's core there (Node 20 or later must be installed there). " +
    'Exits 1 when --connect fails.',
  options: [
    { name: 'add', value: 'HOST', help: 'add user@host[:port] (or an ssh alias) to the list' },
    { name: 'connect', value: 'HOST', help: "connect to HOST, installing Baton's core there on first use" },
    JSON_OPTION,
    DATA_DIR_OPTION,
  ],
  example: 'hosts --connect devbox',
  async run(ctx) {
    const add = ctx.args.value('add');
    const connect = ctx.args.value('connect');
    const client = await ctx.server();
    if (add !== undefined) {
      const view = await client.call('hosts.add', { host: hostArg(add, '--add') });
      if (ctx.args.has('json')) json(view);
      else out(hostLine(view));
      return 'done';
    }
    if (connect !== undefined) {
      const view = await client.call('hosts.connect', { host: hostArg(connect, '--connect') });
      if (ctx.args.has('json')) json(view);
      else out(hostLine(view));
      if (view.state !== 'connected') throw new Error(`${view.alias ?? ''}: ${view.message ?? view.state}`);
      return 'done';
    }
    const hosts = await client.call('hosts.list', {});
    if (ctx.args.has('json')) json(hosts);
    else for (const h of hosts) out(hostLine(h));
    return 'done';
  },
};

export const connectCommand: CommandSpec = {
  name: 'connect',
  args: [],
  summary: "carry Baton's protocol between standard input/output and this host's core (what Baton runs over ssh)",
  details:
    'Run by Baton on a remote host, over ssh: finds the background core of the data directory (starting ' +
    "`baton serve --socket` when none runs, and replacing an older version's core after it snapshotted its runs), " +
    'then carries one JSON message per line between standard input/output and its socket. Opens no port.',
  options: [
    { name: 'stdio', help: 'speak the protocol on standard input and output' },
    { name: 'address', help: "print the core's socket and token as JSON and exit (for a forwarded socket)" },
    DATA_DIR_OPTION,
  ],
  example: 'connect --stdio',
  async run(ctx) {
    const { connectStdio, printAddress } = await import('../../remote-connect.js');
    const { packageVersion } = await import('../../core/paths.js');
    if (ctx.args.has('address')) {
      await printAddress(ctx.dataDir, packageVersion());
      return 'done';
    }
    if (!ctx.args.has('stdio')) throw new UsageError('connect speaks only on standard input/output: give --stdio');
    await connectStdio(ctx.dataDir, packageVersion());
    return 'keeps-running';
  },
};
