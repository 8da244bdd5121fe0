// How a vendor's binary is found: `BATON_<VENDOR>_BIN`, else the adapter's default, looked up on PATH
// (docs/vendors.md §0, docs/architecture.md §5 step 9). One rule for the adapters' argv, detection and the launcher.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { VendorName } from '../../../../shared/words.js';
import type { VendorEnv } from '../adapter.js';

/** What an adapter declares about its binary. */
export interface BinaryFacts {
  /** The environment variable that overrides the binary, e.g. BATON_CLAUDE_BIN. */
  readonly binEnvVar: string;
  /** The binary to run when no override is set (a name looked up on PATH, or an absolute path). */
  defaultBin(env: VendorEnv): string;
  /** How to ask the binary for its version (null: do not ask). */
  readonly versionArgs: readonly string[] | null;
}

/** A vendor CLI found by its name on PATH, overridden by `BATON_<VENDOR>_BIN`, asked `--version`. */
export function cliBinary(vendor: VendorName, bin: string): BinaryFacts {
  return { binEnvVar: `BATON_${vendor.toUpperCase()}_BIN`, defaultBin: () => bin, versionArgs: ['--version'] };
}

/** The binary an adapter runs: `env[BATON_<VENDOR>_BIN]`, else its default (the shell: env.SHELL, else /bin/sh). */
export function resolveBin(facts: Pick<BinaryFacts, 'binEnvVar' | 'defaultBin'>, env: VendorEnv): string {
  return env[facts.binEnvVar] || facts.defaultBin(env);
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
