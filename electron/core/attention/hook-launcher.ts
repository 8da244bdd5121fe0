// The argv that runs `baton hook` from an agent's CLI (docs/attention.md §4): this core's own runtime and the CLI's
// small hook entry beside it (hook.cjs, hook-main.ts bundled by scripts/build-cli.mjs), both absolute paths Baton
// chose, run through `env` so that the hook starts with a clean Node: the agent's environment is the user's, and what
// Node reads from it before any script runs is no use to a hook that only writes a line to a Unix socket. NODE_OPTIONS
// may preload modules, open an inspector or fail the start outright; NODE_EXTRA_CA_CERTS makes every start parse a
// certificate file (35 ms of CPU a start here: more than Node's own start). In the desktop app the core runs in
// Electron's binary as Node, so the hook gets the same switch there too (never through the agent's own environment).
import { fileURLToPath } from 'node:url';

/** Read by Node before the hook's first line, and never needed by it. */
export const HOOK_UNSET_ENV = ['NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS'] as const;

export function defaultHookLauncher(): string[] {
  const script = fileURLToPath(new URL('../../cli/hook.cjs', import.meta.url));
  if (process.platform === 'win32') return [process.execPath, script];
  const electron = process.versions.electron !== undefined ? ['ELECTRON_RUN_AS_NODE=1'] : [];
  return ['/usr/bin/env', ...HOOK_UNSET_ENV.flatMap((name) => ['-u', name]), ...electron, process.execPath, script];
}
