// The `baton` command line: `baton serve`, and a scripting client of a running server for everything else.
// Exit codes: 0 success, 1 failure (one clear line on stderr), 2 usage.
import { resolve } from 'node:path';
import { BatonError, type AgentSpec, type ResumeOutcome } from '../../shared/contract.js';
import type { RpcClient } from '../../shared/client.js';
import { VENDOR_NAMES, type VendorName } from '../../shared/words.js';
import { dataDirFrom } from '../core/paths.js';
import { flag, parseArgs, type Parsed } from './args.js';
import { connect, findServer, UsageError } from './connect.js';

const USAGE = `usage: baton <command> [options]

  serve [--port N] [--host 127.0.0.1] [--data-dir DIR]   run the core host and the web dashboard
  ls [--json]                                            list runs
  start <name> --agent <vendor>[:<label>]@<cwd>… [--json]
  send <name> <label|--all> <text>                       type text into agents, then Enter
  screen <name> <label>                                  print an agent's screen as plain text
  snapshot <name>                                        snapshot a run
  handle <name> [--agent <label>]                        print the run's (or one agent's) handle
  inspect [--cwd DIR] [--json]                           preview the handle on standard input
  resume [<name>] [--cwd DIR] [--json]                   resume a run; with no name, the handle on standard input
  events <name> [--json]                                 the run's history
  rename <name> <new name>
  delete <name>
  stop <name>                                            stop every agent of a run

Every command takes --data-dir DIR (default: $BATON_HOME or ~/.baton) to find the server,
unless BATON_URL and BATON_TOKEN are set.`;

const VALUED = ['port', 'host', 'data-dir', 'agent', 'cwd'];
const BOOLEANS = ['json', 'all', 'help'];

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  const args = parseArgs(rest, VALUED, BOOLEANS);
  const dataDir = dataDirFrom(flag(args, 'data-dir'));
  if (command === 'serve') return serveCommand(args, dataDir);
  const run = commands[command];
  if (!run) throw new UsageError(`unknown command '${command}'`);
  const client = await connect(findServer(dataDir));
  try {
    await run(client, args);
    return 0;
  } finally {
    client.close();
  }
}

async function serveCommand(args: Parsed, dataDir: string): Promise<number> {
  const { serve } = await import('../serve.js');
  const port = Number(flag(args, 'port') ?? process.env.BATON_PORT ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be a port number');
  const token = process.env.BATON_TOKEN;
  await serve({ host: flag(args, 'host') ?? '127.0.0.1', port, dataDir, ...(token ? { token } : {}) });
  return -1; // keeps running until a signal
}

type Command = (client: RpcClient, args: Parsed) => Promise<void>;

const out = (text: string): void => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
const json = (value: unknown): void => out(JSON.stringify(value, null, 2));

function need(args: Parsed, index: number, what: string): string {
  const value = args.positionals[index];
  if (value === undefined) throw new UsageError(`missing ${what}`);
  return value;
}

async function agentByLabel(client: RpcClient, runName: string, label: string) {
  const run = await client.call('run.get', { run: runName });
  const agent = run.agents.find((a) => a.label === label || a.id === label);
  if (!agent) throw new Error(`run '${run.name}' has no agent '${label}' (agents: ${run.agents.map((a) => a.label).join(', ')})`);
  return { run, agent };
}

function parseAgentSpec(text: string): AgentSpec {
  const at = text.indexOf('@');
  if (at < 0) throw new UsageError(`--agent '${text}' must look like <vendor>[:<label>]@<cwd>`);
  const head = text.slice(0, at);
  const colon = head.indexOf(':');
  const vendor = colon < 0 ? head : head.slice(0, colon);
  const label = colon < 0 ? undefined : head.slice(colon + 1);
  if (!(VENDOR_NAMES as readonly string[]).includes(vendor)) throw new UsageError(`unknown vendor '${vendor}' (one of: ${VENDOR_NAMES.join(', ')})`);
  return { vendor: vendor as VendorName, cwd: resolve(text.slice(at + 1)), ...(label ? { label } : {}) };
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Paste the handle, then press Ctrl-D:\n');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (!text) throw new UsageError('no handle on standard input');
  return text;
}

function printOutcomes(outcomes: ResumeOutcome[]): void {
  for (const o of outcomes) out(`${o.label} (${o.vendor}): ${o.outcome}${o.message ? ` — ${o.message}` : ''}`);
}

const commands: Record<string, Command> = {
  async ls(client, args) {
    const runs = await client.call('run.list', {});
    if (args.bools.has('json')) return json(runs);
    if (runs.length === 0) return out('No runs yet. Start one with: baton start <name> --agent claude@<dir>');
    for (const r of runs) out(`${r.name}\t${r.liveAgents}/${r.agentCount} live\t${r.vendors.join(',')}\tupdated ${r.updatedAt}`);
  },

  async start(client, args) {
    const name = need(args, 0, 'run name');
    const specs = (args.flags.get('agent') ?? []).map(parseAgentSpec);
    if (specs.length === 0) throw new UsageError('give at least one --agent <vendor>[:<label>]@<cwd>');
    const run = await client.call('run.start', { name, agents: specs });
    if (args.bools.has('json')) json(run);
    else for (const a of run.agents) out(`${a.label} (${a.vendor}) ${a.status}${a.warning ? ` — ${a.warning}` : ''}`);
    const failed = run.agents.filter((a) => a.status === 'failed');
    if (failed.length > 0) throw new Error(`${failed.length} agent${failed.length === 1 ? '' : 's'} could not start: ${failed[0]!.warning ?? 'unknown reason'}`);
  },

  async send(client, args) {
    const name = need(args, 0, 'run name');
    const all = args.bools.has('all');
    const text = need(args, all ? 1 : 2, 'text');
    const run = await client.call('run.get', { run: name });
    const targets = all ? run.agents.filter((a) => a.terminalId !== null) : [(await agentByLabel(client, name, need(args, 1, 'agent label'))).agent];
    if (targets.length === 0) throw new Error(`run '${run.name}' has no running agent`);
    await Promise.all(targets.map((a) => client.call('agent.send', { agentId: a.id, text })));
  },

  async screen(client, args) {
    const { agent } = await agentByLabel(client, need(args, 0, 'run name'), need(args, 1, 'agent label'));
    out((await client.call('agent.screen', { agentId: agent.id })).text);
  },

  async snapshot(client, args) {
    const snap = await client.call('run.snapshot', { run: need(args, 0, 'run name') });
    out(`snapshot ${snap.id} at ${snap.at}: ${snap.agents.length} agent${snap.agents.length === 1 ? '' : 's'}`);
  },

  async handle(client, args) {
    const agent = flag(args, 'agent');
    const { handle } = await client.call('run.handle', { run: need(args, 0, 'run name'), ...(agent ? { agent } : {}) });
    process.stdout.write(`${handle}\n`);
  },

  async inspect(client, args) {
    const cwd = flag(args, 'cwd');
    const preview = await client.call('handle.inspect', { handle: await readStdin(), ...(cwd ? { cwd: resolve(cwd) } : {}) });
    if (args.bools.has('json')) return json(preview);
    out(`run '${preview.runName}'${preview.knownRun ? ' (in the history)' : ' (new on this machine)'}`);
    for (const a of preview.agents) out(`  ${a.label} (${a.vendor}) in ${a.cwd ?? '?'}: ${a.check} — ${a.command.join(' ')}`);
  },

  async resume(client, args) {
    const name = args.positionals[0];
    const cwd = flag(args, 'cwd');
    const handle = name === undefined ? await readStdin() : (await client.call('run.handle', { run: name })).handle;
    const result = await client.call('run.resume', { handle, ...(cwd ? { cwd: resolve(cwd) } : {}) });
    if (args.bools.has('json')) json(result);
    else {
      out(`run '${result.run.name}'`);
      printOutcomes(result.outcomes);
    }
    const failed = result.outcomes.filter((o) => o.outcome === 'failed');
    if (failed.length > 0) throw new Error(`${failed.length} agent${failed.length === 1 ? '' : 's'} failed to resume`);
  },

  async events(client, args) {
    const events = await client.call('run.events', { run: need(args, 0, 'run name') });
    if (args.bools.has('json')) return json(events);
    for (const e of events) out(`${e.at}  ${e.type}${e.message ? `  ${e.message}` : ''}`);
  },

  async rename(client, args) {
    const run = await client.call('run.rename', { run: need(args, 0, 'run name'), name: need(args, 1, 'new name') });
    out(`renamed to '${run.name}'`);
  },

  async delete(client, args) {
    await client.call('run.delete', { run: need(args, 0, 'run name') });
    out('deleted');
  },

  async stop(client, args) {
    const run = await client.call('run.stop', { run: need(args, 0, 'run name') });
    out(`stopped ${run.agents.length} agent${run.agents.length === 1 ? '' : 's'} of '${run.name}'`);
  },
};

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`baton: ${err.message}\n${USAGE.split('\n')[0]}\n`);
      process.exit(2);
    }
    const message = err instanceof BatonError || err instanceof Error ? err.message : String(err);
    process.stderr.write(`baton: ${message.split('\n')[0]}\n`);
    process.exit(1);
  },
);
