// Which vendor CLIs are installed here, where, and which version: for first launch and the New run dialog
// (docs/architecture.md §9 "Vendor detection"). The answer is kept for a minute per vendor context.
import { execFile } from 'node:child_process';
import type { VendorInfo } from '../../../../shared/contract.js';
import type { VendorAdapter, VendorEnv } from '../adapter.js';
import { findOnPath, resolveBin } from './bin.js';
import { stateSlot, type VendorContext } from './context.js';
import { inheritedEnv } from './env.js';
import type { VersionCache } from './version-cache.js';

const VERSION_TIMEOUT_MS = 5000;
const CACHE_MS = 60_000;

const DETECTED = stateSlot('detected vendors', () => ({
  last: null as { at: number; infos: Promise<VendorInfo[]> } | null,
}));

/**
 * Every adapter's binary and version, asked again at most once a minute; `versions`: the answers kept across cores
 * for binaries that have not changed (version-cache.ts).
 */
export function detectVendors(
  ctx: VendorContext,
  adapters: Iterable<VendorAdapter>,
  env: VendorEnv,
  versions?: VersionCache,
): Promise<VendorInfo[]> {
  const cache = ctx.state(DETECTED);
  if (cache.last && Date.now() - cache.last.at < CACHE_MS) return cache.last.infos;
  const infos = Promise.all([...adapters].map((a) => detectOne(a, env, versions)));
  cache.last = { at: Date.now(), infos };
  return infos;
}

async function detectOne(adapter: VendorAdapter, env: VendorEnv, versions?: VersionCache): Promise<VendorInfo> {
  const bin = findOnPath(resolveBin(adapter, env), env);
  const args = adapter.versionArgs;
  const ask = (b: string, a: readonly string[]) => () => versionOf(b, a, env);
  const version =
    bin && args ? await (versions ? versions.version(bin, args, ask(bin, args)) : ask(bin, args)()) : null;
  return {
    vendor: adapter.vendor,
    displayName: adapter.displayName,
    bin,
    found: bin !== null,
    version,
    binEnvVar: adapter.binEnvVar,
    note: adapter.supportNote ?? null,
  };
}

/** The first line of `<bin> --version`; the CLI gets Baton's environment as an agent would (never its token). */
function versionOf(bin: string, args: readonly string[], env: VendorEnv): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(bin, [...args], { timeout: VERSION_TIMEOUT_MS, env: inheritedEnv(env) }, (err, stdout) => {
      const line = String(stdout)
        .split('\n')
        .find((l) => l.trim() !== '');
      resolve(err || !line ? null : line.trim().slice(0, 80));
    });
  });
}
