// First use of a host (docs/hosts.md §Install): Node ≥ 20 there, and Baton's core at this very version in
// ~/.baton/server/<version>/. The package is copied over the shared ssh connection as a tar stream: with its
// production node_modules when the host has the same OS, CPU and Node ABI as this machine (node-pty is native),
// else without them, and `npm install --omit=dev` runs there. Every remote command is Baton's own fixed text, with
// only the version (checked below) in it.
import { existsSync, readFileSync } from 'node:fs';
import { machine, type } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { execa } from 'execa';
import { explainSshFailure, runSsh, sshArgs, sshError, type SshOptions } from './ssh.js';

const VERSION = /^[0-9]+\.[0-9]+\.[0-9]+(?:-[0-9A-Za-z.-]+)?$/;
const MIN_NODE_MAJOR = 20;

/** A first-use step that failed: the step's name and the words of whoever failed (ssh, node, tar, npm). */
export class HostSetupError extends Error {
  constructor(
    readonly step: string,
    message: string,
    /** The host could not be reached at all (ssh's own error): `unreachable`, not `needs-setup`. */
    readonly unreachable = false,
  ) {
    super(`${step}: ${message}`);
  }
}

export type Progress = (message: string) => void;

/**
 * Where the core of `version` lives on a host, as the remote shell expands it: under $HOME (which is also where that
 * host's core keeps its data), not the directory sshd starts a session in.
 */
export function serverDir(version: string): string {
  if (!VERSION.test(version)) throw new Error('not a version Baton can install');
  return `"$HOME/.baton/server/${version}"`;
}

export interface Probe {
  nodeVersion: string | null;
  platform: string;
  abi: string;
  installed: boolean;
  /** $HOME there: what `~` in a directory on that host means. */
  home: string | null;
}

/** One ssh round trip: Node's version and ABI, the OS and CPU, and whether this version is installed there. */
export async function probeHost(alias: string, ssh: SshOptions, version: string): Promise<Probe> {
  const dir = serverDir(version);
  const result = await runSsh(
    alias,
    ssh,
    `echo "home=$HOME"; echo "node=$(node --version 2>/dev/null)"; echo "abi=$(node -p process.versions.modules 2>/dev/null)"; echo "os=$(uname -sm)"; if [ -f ${dir}/package.json ] && [ -d ${dir}/node_modules ]; then echo installed=yes; else echo installed=no; fi`,
    30_000,
  );
  if (result.exitCode !== 0) throw new HostSetupError('connect', explainSshFailure(alias, result.stderr), true);
  const field = (name: string) => new RegExp(`^${name}=(.*)$`, 'm').exec(result.stdout)?.[1]?.trim() ?? '';
  const node = field('node');
  const home = field('home');
  return {
    nodeVersion: node === '' ? null : node,
    platform: field('os'),
    abi: field('abi'),
    installed: field('installed') === 'yes',
    home: home.startsWith('/') ? home : null,
  };
}

/** Node ≥ 20 or a message that says what to do. */
export function checkNode(alias: string, probe: Probe): void {
  if (probe.nodeVersion === null)
    throw new HostSetupError(
      'check Node',
      `Node.js is not installed on ${alias} (\`node\` is not on the PATH of a non-interactive ssh session): install Node ${MIN_NODE_MAJOR} or later there`,
    );
  const major = Number(/^v(\d+)\./.exec(probe.nodeVersion)?.[1] ?? '0');
  if (major < MIN_NODE_MAJOR)
    throw new HostSetupError(
      'check Node',
      `${alias} has Node.js ${probe.nodeVersion.slice(0, 20)}; Baton needs ${MIN_NODE_MAJOR} or later there`,
    );
}

/** Installs this package's core on the host unless it is there already. */
export async function ensureInstalled(
  alias: string,
  ssh: SshOptions,
  version: string,
  packageRoot: string,
  progress: Progress,
): Promise<Probe> {
  progress('checking Node and Baton on the host');
  const probe = await probeHost(alias, ssh, version);
  checkNode(alias, probe);
  if (probe.installed) return probe;
  const dir = serverDir(version);
  const partial = `"$HOME/.baton/server/${version}.partial"`;
  const sameBinaries = probe.platform === `${type()} ${machine()}` && probe.abi === process.versions.modules;
  const paths = ['package.json', 'bin', 'dist', ...(sameBinaries ? productionModules(packageRoot) : [])];
  progress(`copying Baton ${version} to the host${sameBinaries ? ' (with its modules)' : ''}`);
  const tar = execa('tar', ['-c', '-z', '-C', packageRoot, '--', ...paths], {
    reject: false,
    buffer: { stdout: false },
  });
  const copy = await tar.pipe(
    'ssh',
    [...sshArgs(alias, ssh), `umask 077 && rm -rf ${partial} && mkdir -p ${partial} && tar -x -z -C ${partial}`],
    { reject: false, encoding: 'utf8', timeout: 600_000 },
  );
  if (copy.exitCode !== 0) throw new HostSetupError('copy the core', sshError(copy.stderr));
  if (!sameBinaries) {
    progress('installing its modules with npm on the host');
    const npm = await runSsh(
      alias,
      ssh,
      `cd ${partial} && npm install --omit=dev --no-audit --no-fund --no-save --loglevel=error`,
      900_000,
    );
    if (npm.exitCode !== 0) throw new HostSetupError('npm install', sshError(npm.stderr || npm.stdout));
  }
  const done = await runSsh(alias, ssh, `rm -rf ${dir} && mv ${partial} ${dir} && chmod 700 "$HOME/.baton"`, 60_000);
  if (done.exitCode !== 0) throw new HostSetupError('finish the install', sshError(done.stderr));
  progress(`Baton ${version} is installed`);
  return probe;
}

/**
 * The package's production dependencies, transitively, as the top-level `node_modules/<name>` paths that hold them
 * (a package's own nested node_modules travel inside it; their dependencies are resolved as Node would, upwards).
 */
export function productionModules(root: string): string[] {
  const topLevel = new Set<string>();
  const seen = new Set<string>();
  const resolveFrom = (dir: string, name: string): string | null => {
    for (let d = dir; d.startsWith(root); d = dirname(d)) {
      const candidate = join(d, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return candidate;
      if (d === root) break;
    }
    return null;
  };
  const visit = (dir: string) => {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    for (const name of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) {
      const found = resolveFrom(dir, name);
      if (!found || seen.has(found)) continue;
      seen.add(found);
      const rel = relative(root, found).split(sep);
      // node_modules/<name> or node_modules/@scope/<name>: the top-level folder that carries it.
      topLevel.add(rel.slice(0, rel[1]?.startsWith('@') ? 3 : 2).join('/'));
      visit(found);
    }
  };
  visit(root);
  return [...topLevel].sort();
}
