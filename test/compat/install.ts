// Installs the pinned real vendor CLIs from the npm registry into a cache folder, once, and says how to run each.
// `${BATON_COMPAT_CACHE:-~/.cache/baton-compat}/<vendor>@<version>/` holds one `npm install --prefix` per vendor;
// an install whose binary answers `--version` with the pinned version is reused. Anything that goes wrong
// becomes a skip reason: the suite reports the vendor as skipped, never as passed.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export type CompatVendor = 'claude' | 'codex' | 'gemini' | 'copilot' | 'opencode' | 'qwen';

export interface Pin {
  vendor: CompatVendor;
  /** npm package name. */
  pkg: string;
  version: string;
  /** The executable inside the install folder (relative). */
  bin: string;
  /** How long `npm install` may take. */
  installTimeoutMs: number;
}

/**
 * Pinned versions (docs/vendors.md §12.4): `latest` moves within hours, and on Node 20 the engines field makes plain
 * npm silently pick an old Claude (2.1.197) and Qwen (0.15.10). These are the versions docs/vendors.md was checked against.
 */
export const PINS: Record<CompatVendor, Pin> = {
  claude: {
    vendor: 'claude',
    pkg: '@anthropic-ai/claude-code',
    version: '2.1.332',
    bin: 'node_modules/.bin/claude',
    installTimeoutMs: 300_000,
  },
  codex: {
    vendor: 'codex',
    pkg: '@openai/codex',
    version: '0.169.0',
    bin: 'node_modules/.bin/codex',
    installTimeoutMs: 400_000,
  },
  gemini: {
    vendor: 'gemini',
    pkg: '@google/gemini-cli',
    version: '0.61.0',
    bin: 'node_modules/.bin/gemini',
    installTimeoutMs: 300_000,
  },
  copilot: {
    vendor: 'copilot',
    pkg: '@github/copilot',
    version: '1.0.102',
    bin: 'node_modules/.bin/copilot',
    installTimeoutMs: 300_000,
  },
  opencode: {
    vendor: 'opencode',
    pkg: 'opencode-ai',
    version: '1.18.33',
    bin: 'node_modules/.bin/opencode',
    installTimeoutMs: 400_000,
  },
  // Qwen's `.bin/qwen` is fine on Node 22+; on Node 20 it must start through cli-entry.js: a wrapper of ours does.
  qwen: { vendor: 'qwen', pkg: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen', installTimeoutMs: 300_000 },
};

export type Installed = {
  ok: true;
  vendor: CompatVendor;
  version: string;
  dir: string;
  bin: string;
  versionText: string;
  seconds: number;
};
export type NotInstalled = { ok: false; vendor: CompatVendor; version: string; reason: string; seconds: number };
export type InstallResult = Installed | NotInstalled;

export function cacheRoot(): string {
  return process.env.BATON_COMPAT_CACHE || join(homedir(), '.cache', 'baton-compat');
}

export function installDir(pin: Pin): string {
  return join(cacheRoot(), `${pin.vendor}@${pin.version}`);
}

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  timedOut: boolean;
}

/** Runs a command without a shell; stdout and stderr together, killed (whole group) after `ms`. */
export function run(argv: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; ms: number }): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let timedOut = false;
    const add = (d: Buffer) => {
      out += d.toString();
      if (out.length > 200_000) out = out.slice(-100_000);
    };
    child.stdout!.on('data', add);
    child.stderr!.on('data', add);
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, opts.ms);
    child.once('error', (err) => {
      clearTimeout(timer);
      resolve({ code: null, signal: null, out: out + String(err), timedOut });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out, timedOut });
    });
  });
}

/**
 * The environment for npm and for `--version`: this process's, without credentials a CLI could pick up, and with a
 * HOME (and XDG folders) of its own inside the install folder. A real CLI, or an install script it ships, writes its
 * config, data, state and cache under HOME on first run (opencode creates four folders there): the user's real HOME
 * is never touched. npm keeps the user's own config (registry, CA file) and cache, named explicitly.
 */
export function sandboxEnv(home: string): NodeJS.ProcessEnv {
  const realHome = homedir();
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (/^(ANTHROPIC_|OPENAI_|CODEX_|GEMINI_|GOOGLE_|COPILOT_|GH_|GITHUB_|QWEN_|OPENCODE_|CLAUDE|XDG_)/.test(k))
      delete env[k];
  }
  for (const dir of ['.config', '.cache', join('.local', 'share'), join('.local', 'state')])
    mkdirSync(join(home, dir), { recursive: true });
  return {
    ...env,
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    npm_config_userconfig: env.npm_config_userconfig ?? join(realHome, '.npmrc'),
    npm_config_cache: env.npm_config_cache ?? join(realHome, '.npm'),
    DISABLE_AUTOUPDATER: '1',
    CI: env.CI ?? 'true',
  };
}

/** The sandbox HOME of one pinned install: beside its node_modules, so it goes when the install is removed. */
const installHome = (pin: Pin): string => join(installDir(pin), 'home');

const tail = (s: string, n = 600) => s.trim().split('\n').slice(-8).join(' | ').slice(-n);

/** The lines of npm's error output that say what went wrong (code, the failed request), not the log-file hints. */
function npmError(out: string): string {
  const lines = out
    .split('\n')
    .filter((l) => /^npm (error|ERR!)/.test(l))
    .map((l) => l.replace(/^npm (error|ERR!)\s*/, '').trim())
    .filter((l) => l !== '' && !/complete log|^[{}]$|behind a proxy|^\w+: '/.test(l));
  return (lines.length > 0 ? lines.slice(0, 3).join(' | ') : tail(out)).slice(0, 400);
}

/** `<bin> --version` printed the pinned version. */
async function versionOf(pin: Pin, bin: string): Promise<{ ok: boolean; text: string }> {
  const r = await run([bin, '--version'], { ms: 60_000, env: sandboxEnv(installHome(pin)) });
  const first = r.out.trim().split('\n')[0] ?? '';
  return {
    ok: r.code === 0 && r.out.includes(pin.version),
    text: r.timedOut ? `timed out: ${tail(r.out)}` : r.code === 0 ? first : tail(r.out),
  };
}

/** Qwen on Node 20: `node <pkg>/cli-entry.js`, wrapped as one executable (absolute node, so PATH does not matter). */
function writeQwenWrapper(dir: string): string {
  const entry = join(dir, 'node_modules', '@qwen-code', 'qwen-code', 'cli-entry.js');
  const wrapper = join(dir, 'qwen');
  writeFileSync(wrapper, `#!/bin/sh\nexec '${process.execPath}' '${entry}' "$@"\n`);
  chmodSync(wrapper, 0o755);
  return wrapper;
}

/** Makes sure the pinned CLI is installed and answers `--version`; never throws. */
export async function ensureInstalled(vendor: CompatVendor): Promise<InstallResult> {
  const started = Date.now();
  const pin = PINS[vendor];
  const dir = installDir(pin);
  const seconds = () => Math.round((Date.now() - started) / 100) / 10;
  const skip = (reason: string): NotInstalled => ({
    ok: false,
    vendor,
    version: pin.version,
    reason,
    seconds: seconds(),
  });
  const bin = join(dir, pin.bin);
  const marker = join(dir, '.baton-compat-installed');

  try {
    if (existsSync(marker)) {
      if (vendor === 'qwen') writeQwenWrapper(dir);
      const v = await versionOf(pin, bin);
      if (v.ok) return { ok: true, vendor, version: pin.version, dir, bin, versionText: v.text, seconds: seconds() };
      rmSync(marker, { force: true });
    }

    mkdirSync(dir, { recursive: true });
    // A package.json of our own keeps npm from walking up into a parent project.
    const pkgJson = join(dir, 'package.json');
    if (!existsSync(pkgJson))
      writeFileSync(pkgJson, JSON.stringify({ name: `baton-compat-${vendor}`, private: true }) + '\n');
    const npm = await run(
      ['npm', 'install', '--prefix', dir, `${pin.pkg}@${pin.version}`, '--no-audit', '--no-fund', '--loglevel=error'],
      { cwd: dir, env: sandboxEnv(installHome(pin)), ms: pin.installTimeoutMs },
    );
    if (npm.timedOut)
      return skip(`npm install ${pin.pkg}@${pin.version} did not finish within ${pin.installTimeoutMs / 1000} s`);
    if (npm.code !== 0)
      return skip(`npm install ${pin.pkg}@${pin.version} failed (exit ${npm.code}): ${npmError(npm.out)}`);

    const installedVersion = readInstalledVersion(dir, pin);
    if (installedVersion !== pin.version)
      return skip(`npm installed ${pin.pkg}@${installedVersion ?? '?'} instead of ${pin.version}`);

    if (vendor === 'qwen') writeQwenWrapper(dir);
    if (!existsSync(bin)) return skip(`${pin.pkg}@${pin.version} installed no ${pin.bin}`);
    let v = await versionOf(pin, bin);
    if (!v.ok && vendor === 'claude') {
      // npm skipped the postinstall that swaps in the native binary (docs/vendors.md §1): run it by hand.
      const pkgDir = join(dir, 'node_modules', ...pin.pkg.split('/'));
      const fix = await run([process.execPath, 'install.cjs'], {
        cwd: pkgDir,
        env: sandboxEnv(installHome(pin)),
        ms: 120_000,
      });
      if (fix.code !== 0)
        return skip(`claude --version failed (${tail(v.text)}) and node install.cjs failed: ${tail(fix.out)}`);
      v = await versionOf(pin, bin);
    }
    if (!v.ok) return skip(`${pin.bin} --version did not print ${pin.version}: ${tail(v.text)}`);
    writeFileSync(marker, `${pin.pkg}@${pin.version}\n${v.text}\n`);
    return { ok: true, vendor, version: pin.version, dir, bin, versionText: v.text, seconds: seconds() };
  } catch (err) {
    return skip(`install failed: ${String(err)}`);
  }
}

function readInstalledVersion(dir: string, pin: Pin): string | null {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'node_modules', ...pin.pkg.split('/'), 'package.json'), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? null;
  } catch {
    return null;
  }
}
