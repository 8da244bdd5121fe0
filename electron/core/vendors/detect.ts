// Which vendor CLIs are installed here, where, and which version: for first launch and the New run dialog.
import { execFile } from 'node:child_process';
import type { VendorInfo } from '../../../shared/contract.js';
import type { VendorAdapter, VendorEnv } from './adapter.js';
import { adapters, findOnPath, resolveBin } from './registry.js';

const VERSION_TIMEOUT_MS = 5000;
const CACHE_MS = 60_000;
let cache: { at: number; infos: Promise<VendorInfo[]> } | null = null;

export function detectVendors(env: VendorEnv): Promise<VendorInfo[]> {
  if (cache && Date.now() - cache.at < CACHE_MS) return cache.infos;
  const infos = Promise.all([...adapters.values()].map((a) => detectOne(a, env)));
  cache = { at: Date.now(), infos };
  return infos;
}

async function detectOne(adapter: VendorAdapter, env: VendorEnv): Promise<VendorInfo> {
  const bin = findOnPath(resolveBin(adapter, env), env);
  const version = bin && adapter.versionArgs ? await versionOf(bin, adapter.versionArgs, env) : null;
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

function versionOf(bin: string, args: readonly string[], env: VendorEnv): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(bin, [...args], { timeout: VERSION_TIMEOUT_MS, env: env as NodeJS.ProcessEnv }, (err, stdout) => {
      const line = String(stdout).split('\n').find((l) => l.trim() !== '');
      resolve(err || !line ? null : line.trim().slice(0, 80));
    });
  });
}
