// Where vendor CLIs keep their data: a variable of the CLI's own when it is set, else a folder under HOME
// (docs/vendors.md §0, "transcript (override)"), and how such a path is shown to the user.
import { join } from 'node:path';
import type { VendorEnv } from '../adapter.js';

/** `env[overrideVar]` when set, else `$HOME/<dotDir>` (`/` standing in for a missing HOME, as the CLIs' own fallback). */
export function vendorHome(env: VendorEnv, overrideVar: string | null, dotDir: string): string {
  const override = overrideVar === null ? undefined : env[overrideVar];
  return override || join(env.HOME || '/', dotDir);
}

/** A path as the user would write it (`~/.vendor/…` under HOME), for messages. */
export function displayPath(path: string, env: VendorEnv): string {
  const home = env.HOME;
  if (home && home !== '/' && (path === home || path.startsWith(`${home}/`))) return `~${path.slice(home.length)}`;
  return path;
}
