// The environment under which a core writes CPU profiles of its threads into `dir` (cpu-profile-preload.cjs): at its
// exit, or, with `window`, over each stretch in which the file `<dir>/window` exists (windowMarker).
import { join } from 'node:path';

export function cpuProfileEnv(dir: string | undefined, window = false): Record<string, string> {
  if (!dir) return {};
  return {
    NODE_OPTIONS: `--require=${join(import.meta.dirname, 'cpu-profile-preload.cjs')}`,
    BATON_PROFILE_DIR: dir,
    ...(window ? { BATON_PROFILE_WINDOW: '1' } : {}),
  };
}

/** The marker whose presence opens a profiled window of a core started with `cpuProfileEnv(dir, true)`. */
export const windowMarker = (dir: string): string => join(dir, 'window');
