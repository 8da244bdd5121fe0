// Fork a run, and carry one to another machine: `baton fork`, `baton export`, `baton import` (docs/bundles.md).
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BundlePreview } from '../../../shared/contract.js';
import { DATA_DIR_OPTION, JSON_OPTION, type CommandContext, type CommandSpec, type OptionSpec } from '../command.js';
import { shownArgument, UsageError } from '../errors.js';
import { expandHome } from '../home.js';
import { json, out, plural } from '../output.js';
import { RUN_ARG, runArg } from './common.js';

const SNAPSHOT_OPTION: OptionSpec = {
  name: 'snapshot',
  value: 'ID',
  help: 'start from this snapshot (`baton events RUN` lists them) instead of the run as it is now',
};
const PASSPHRASE_FILE_OPTION: OptionSpec = {
  name: 'passphrase-file',
  value: 'FILE',
  help: "read the bundle's passphrase from the first line of FILE (else $BATON_PASSPHRASE, else it is asked for)",
};
const MAP_OPTION: OptionSpec = {
  name: 'map',
  value: 'OLD=NEW',
  repeatable: true,
  help: "the bundle's directory OLD (and everything below it) is NEW on this machine (repeat for more; ~ is expanded)",
};

function snapshotOf(ctx: CommandContext): string | undefined {
  const id = ctx.args.value('snapshot');
  if (id !== undefined && !/^snp_[0-9a-z]{16}$/.test(id))
    throw new UsageError(`--snapshot takes a snapshot id (snp_…), not ${shownArgument(id, ctx.env)}`);
  return id;
}

function passphraseFile(ctx: CommandContext): string | undefined {
  const f = ctx.args.value('passphrase-file');
  return f === undefined ? undefined : resolve(expandHome(f, ctx.env, '--passphrase-file'));
}

/** The passphrase, read by a module loaded here: every other command would load Node's terminal module for nothing. */
async function readPassphraseOnUse(
  file: string | undefined,
  env: NodeJS.ProcessEnv,
  confirm: boolean,
): Promise<string> {
  const { readPassphrase } = await import('../passphrase.js');
  return readPassphrase(file, env, confirm);
}

/** `--map OLD=NEW …` as the import's directory map. */
function mapOf(ctx: CommandContext): Record<string, string> | undefined {
  const given = ctx.args.values('map');
  if (given.length === 0) return undefined;
  const map: Record<string, string> = {};
  for (const pair of given) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1)
      throw new UsageError(`--map takes OLD=NEW (two directories), not ${shownArgument(pair, ctx.env)}`);
    const from = pair.slice(0, eq);
    // OLD is a path of the other machine: taken as written (absolute), never resolved here.
    if (!from.startsWith('/')) throw new UsageError('--map: OLD must be an absolute path of the bundle');
    map[from.replace(/\/+$/, '') || '/'] = resolve(expandHome(pair.slice(eq + 1), ctx.env, '--map'));
  }
  return map;
}

export const forkCommand: CommandSpec = {
  name: 'fork',
  args: [RUN_ARG],
  summary: 'a new run "<run> fork" continuing a copy of every conversation',
  details:
    "Makes a new run in which every agent continues a copy of its agent's conversation; the run itself is left as it " +
    "is. Each agent says how: the vendor's own fork, a copy of its transcript, or (for a vendor that allows neither) " +
    'a fresh conversation. With --snapshot, the conversations are cut where that snapshot was taken, where the ' +
    'vendor keeps a transcript Baton can cut; agents in worktrees get a new branch from the commit they had then.',
  options: [
    SNAPSHOT_OPTION,
    { name: 'name', value: 'NAME', help: 'the new run\'s name (default: "<run> fork")' },
    JSON_OPTION,
    DATA_DIR_OPTION,
  ],
  example: 'fork demo',
  async run(ctx) {
    const run = runArg(ctx);
    const snapshot = snapshotOf(ctx);
    const name = ctx.args.value('name');
    const result = await (
      await ctx.server()
    ).call('run.fork', { run, ...(snapshot ? { snapshot } : {}), ...(name !== undefined ? { name } : {}) });
    if (ctx.args.has('json')) json(result);
    else {
      out(`run '${result.run.name}'`);
      for (const o of result.outcomes)
        out(
          `${o.label} (${o.vendor}): ${o.method === 'none' ? o.outcome : `${o.method} fork from ${o.from}`}${o.message ? ` — ${o.message}` : ''}`,
        );
    }
    const failed = result.outcomes.filter((o) => o.outcome === 'failed');
    if (failed[0])
      throw new Error(
        `${plural(failed.length, 'agent')} failed to start: ${failed[0].label}: ${failed[0].message ?? ''}`,
      );
    return 'done';
  },
};

export const exportCommand: CommandSpec = {
  name: 'export',
  args: [RUN_ARG],
  summary: 'write the run (or a snapshot) to one encrypted bundle file',
  details:
    "Writes the run's handle, every agent's transcript and the branches of agents in worktrees to FILE, encrypted " +
    'with a passphrase (scrypt, AES-256-GCM). `baton import` brings it back on another machine. The file holds ' +
    'whole conversations: keep the passphrase apart from it.',
  options: [
    { name: 'output', short: 'o', value: 'FILE', help: 'the bundle file to write (-o FILE; never overwritten)' },
    SNAPSHOT_OPTION,
    PASSPHRASE_FILE_OPTION,
    DATA_DIR_OPTION,
  ],
  example: 'export demo -o demo.baton-bundle',
  async run(ctx) {
    const run = runArg(ctx);
    const snapshot = snapshotOf(ctx);
    const output = ctx.args.value('output');
    if (output === undefined) throw new UsageError('export needs -o FILE, the bundle to write');
    const file = resolve(expandHome(output, ctx.env, '--output'));
    const passphrase = await readPassphraseOnUse(passphraseFile(ctx), ctx.env, true);
    const result = await (
      await ctx.server()
    ).call('bundle.export', { run, passphrase, ...(snapshot ? { snapshot } : {}) });
    try {
      writeFileSync(file, Buffer.from(result.bundle, 'base64'), { flag: 'wx', mode: 0o600 });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new UsageError(
        code === 'EEXIST' ? `${file} already exists: choose another file` : `cannot write ${file} (${code ?? 'error'})`,
      );
    }
    out(`wrote ${file}`);
    for (const a of result.agents)
      out(
        `  ${a.label} (${a.vendor}): ${a.transcript ? 'conversation included' : 'no conversation'}${a.note ? ` — ${a.note}` : ''}`,
      );
    return 'done';
  },
};

function printPreview(p: BundlePreview): void {
  out(`run '${p.runName}' (bundled ${p.createdAt}${p.snapshotId ? `, snapshot ${p.snapshotId}` : ''})`);
  for (const a of p.agents) {
    const where = a.mappedCwd ?? `${a.cwd} — ${a.cwdProblem ?? 'not here'}: map it with --map ${a.cwd}=DIR`;
    out(
      `  ${a.label} (${a.vendor}) in ${where}: ${a.transcript ? 'conversation included' : 'starts fresh'}${a.branch ? `; branch ${a.branch}` : ''}${a.note ? ` — ${a.note}` : ''}`,
    );
  }
}

export const importCommand: CommandSpec = {
  name: 'import',
  args: [{ name: 'file', help: 'the bundle file `baton export` wrote' }],
  summary: 'bring a bundle in as a new run and resume it',
  details:
    'Decrypts and checks the whole bundle first (a wrong passphrase or a changed file is refused, and nothing is ' +
    "written), places each transcript where this machine's vendor CLI looks for it, restores the agents' branches, " +
    'then resumes every agent in a new run. Directories of the other machine are mapped to directories here with ' +
    '--map; --dry-run shows the plan only.',
  options: [
    MAP_OPTION,
    PASSPHRASE_FILE_OPTION,
    { name: 'name', value: 'NAME', help: "the new run's name (default: the bundle's, made unique)" },
    { name: 'dry-run', help: 'show what would be imported, and where, without writing anything' },
    JSON_OPTION,
    DATA_DIR_OPTION,
  ],
  example: 'import demo.baton-bundle --map /home/ana/proj=~/proj',
  async run(ctx) {
    const path = resolve(expandHome(ctx.args.arg('file') ?? '', ctx.env, 'file'));
    let size: number;
    try {
      size = statSync(path).size;
    } catch {
      throw new UsageError(`cannot read ${path}`);
    }
    // The contract loads here, not with the command line (docs/performance.md "CLI start").
    const { BUNDLE_MAX_BYTES } = await import('../../../shared/contract.js');
    if (size > BUNDLE_MAX_BYTES) throw new UsageError(`${path} is larger than a bundle can be`);
    const bundle = readFileSync(path).toString('base64');
    const map = mapOf(ctx);
    const name = ctx.args.value('name');
    const passphrase = await readPassphraseOnUse(passphraseFile(ctx), ctx.env, false);
    const client = await ctx.server();
    const preview = await client.call('bundle.inspect', { bundle, passphrase, ...(map ? { map } : {}) });
    if (ctx.args.has('dry-run')) {
      if (ctx.args.has('json')) json(preview);
      else printPreview(preview);
      return 'done';
    }
    const result = await client.call('bundle.import', {
      bundle,
      passphrase,
      ...(map ? { map } : {}),
      ...(name !== undefined ? { name } : {}),
    });
    if (ctx.args.has('json')) json(result);
    else {
      out(`run '${result.run.name}'`);
      for (const o of result.outcomes)
        out(`${o.label} (${o.vendor}): ${o.outcome}${o.message ? ` — ${o.message}` : ''}`);
    }
    return 'done';
  },
};
