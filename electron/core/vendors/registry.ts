// The vendor adapters this build knows, and how their binaries are found. Adding a vendor = one more file + one line.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { VendorName } from '../../../shared/words.js';
import type { VendorAdapter, VendorEnv } from './adapter.js';
import { claudeAdapter } from './claude.js';
import { copilotAdapter } from './copilot.js';
import { geminiAdapter } from './gemini.js';
import { qwenAdapter } from './qwen.js';
import { codexAdapter } from './codex.js';
import { opencodeAdapter } from './opencode.js';
import { cursorAdapter } from './cursor.js';
import { shellAdapter } from './shell.js';

export const adapters: ReadonlyMap<VendorName, VendorAdapter> = new Map<VendorName, VendorAdapter>([
  ['claude', claudeAdapter],
  ['gemini', geminiAdapter],
  ['copilot', copilotAdapter],
  ['qwen', qwenAdapter],
  ['codex', codexAdapter],
  ['opencode', opencodeAdapter],
  ['cursor', cursorAdapter],
  ['shell', shellAdapter],
]);

export function getAdapter(vendor: VendorName): VendorAdapter | undefined {
  return adapters.get(vendor);
}

/** The binary an adapter runs: `env[BATON_<VENDOR>_BIN]`, else its default (the shell: env.SHELL, else /bin/sh). */
export function resolveBin(adapter: VendorAdapter, env: VendorEnv): string {
  const override = env[adapter.binEnvVar];
  if (override) return override;
  return adapter.defaultBin(env);
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path `bin` runs as, or null. An absolute path must be an executable file; a path with a "/" in it
 * is not looked up; a bare name is searched in env.PATH (empty entries are skipped, never "the current directory").
 */
export function findOnPath(bin: string, env: VendorEnv): string | null {
  if (bin === '') return null;
  if (isAbsolute(bin)) return isExecutableFile(bin) ? bin : null;
  if (bin.includes('/')) return null;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const candidate = join(dir, bin);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}
