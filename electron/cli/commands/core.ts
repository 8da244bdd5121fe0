// The core itself, seen from the command line: the footer of `baton ls` (how many agents run in the background core,
// runs a killed core interrupted, a core older than this `baton`) and `baton resume-interrupted`.
import type { RpcClient } from '../../../shared/client.js';
import type { RecoveryResult } from '../../../shared/contract.js';
import { DATA_DIR_OPTION, JSON_OPTION, type CommandContext, type CommandSpec } from '../command.js';
import { json, note, out, plural } from '../output.js';

/** Lines for standard error after `baton ls`; nothing at all from a core too old to answer `core.info`. */
export async function coreNotes(client: RpcClient, ctx: CommandContext): Promise<string[]> {
  // With the client, already loaded: the command line's start never evaluates the contract's schemas itself.
  const { PROTOCOL_VERSION } = await import('../../../shared/contract.js');
  let info;
  try {
    info = await client.call('core.info', {});
  } catch {
    return [
      `this server predates the background core (protocol 1; this baton speaks ${PROTOCOL_VERSION}): restart it with this version`,
    ];
  }
  const where = 'socket' in (await ctx.address()) ? 'the background core' : 'baton serve';
  const lines = [`${plural(info.liveAgents, 'agent')} running in ${where} (pid ${info.pid})`];
  if (info.protocolVersion < PROTOCOL_VERSION) {
    lines.push(
      `the core runs Baton ${info.version} (protocol ${info.protocolVersion}), older than this baton (protocol ${PROTOCOL_VERSION}): restart it from the desktop app, or stop it and start \`baton serve --socket\` again`,
    );
  }
  const { interrupted } = await client.call('recovery.get', {});
  if (interrupted) {
    const n = interrupted.runs.length;
    lines.push(
      `${plural(n, 'run')} ${n === 1 ? 'was' : 'were'} running when the core last stopped: \`baton resume-interrupted\` brings ${n === 1 ? 'it' : 'them'} back`,
    );
  }
  return lines;
}

export const resumeInterruptedCommand: CommandSpec = {
  name: 'resume-interrupted',
  args: [],
  summary: 'resume the runs that were running when the core was killed',
  details:
    'After the core was killed (kill -9, a crash, a reboot) or restarted, brings back every agent that was running then, ' +
    'each in its own conversation, and says per agent whether it was resumed, started fresh (and why) or failed. ' +
    'Exits 1 when an agent failed to resume.',
  options: [JSON_OPTION, DATA_DIR_OPTION],
  example: 'resume-interrupted',
  async run(ctx) {
    const client = await ctx.server();
    const { interrupted, last } = await client.call('recovery.get', {});
    if (!interrupted) {
      if (ctx.args.has('json')) json(last ?? { at: null, runs: [] });
      else
        note(
          last
            ? `nothing left to resume (the last resume was at ${last.at})`
            : 'nothing to resume: no run was interrupted',
        );
      return 'done';
    }
    const result = await client.call('recovery.resume', {});
    if (ctx.args.has('json')) json(result);
    else printResult(result);
    const failed = result.runs.flatMap((r) =>
      r.outcomes
        .filter((o) => o.outcome === 'failed')
        .map((o) => `${r.name}/${o.label}: ${o.message ?? 'unknown reason'}`),
    );
    const broken = result.runs.filter((r) => r.error !== null).map((r) => `${r.name}: ${r.error}`);
    const [first] = [...broken, ...failed];
    if (first) throw new Error(`${plural(failed.length + broken.length, 'agent or run')} failed to resume: ${first}`);
    return 'done';
  },
};

function printResult(result: RecoveryResult): void {
  for (const run of result.runs) {
    out(`run '${run.name}'${run.error ? `: ${run.error}` : ''}`);
    for (const o of run.outcomes) out(`  ${o.label} (${o.vendor}): ${o.outcome}${o.message ? ` — ${o.message}` : ''}`);
  }
}
