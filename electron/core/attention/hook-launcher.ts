// The argv that runs `baton hook` from an agent's CLI (docs/attention.md §4): this core's own runtime and the CLI's
// small hook entry beside it (hook.cjs, hook-main.ts bundled by scripts/build-cli.mjs), both absolute paths Baton
// chose. In the desktop app the core runs in Electron's binary as Node, so the hook gets the same switch through `env`
// (never through the agent's own environment).
import { fileURLToPath } from 'node:url';

export function defaultHookLauncher(): string[] {
  const script = fileURLToPath(new URL('../../cli/hook.cjs', import.meta.url));
  if (process.versions.electron !== undefined && process.platform !== 'win32')
    return ['/usr/bin/env', 'ELECTRON_RUN_AS_NODE=1', process.execPath, script];
  return [process.execPath, script];
}
