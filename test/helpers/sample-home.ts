// A HOME holding the vendor samples' stores (test/fixtures/vendor-samples) and an empty data directory beside it, for
// tests that read real transcripts through the adapters (costs, say): made before each test, removed after it.
import { cp, mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach } from 'vitest';

const SAMPLES = fileURLToPath(new URL('../fixtures/vendor-samples', import.meta.url));

export interface SampleHome {
  home: string;
  dataDir: string;
  env: Record<string, string>;
}

/** Registers the hooks; the returned object holds the current test's HOME, data directory and environment. */
export function useSampleHome(vendors: readonly string[], prefix: string): SampleHome {
  const current: SampleHome = { home: '', dataDir: '', env: {} };
  beforeEach(async () => {
    const tmp = await realpath(await mkdtemp(join(tmpdir(), prefix)));
    current.home = join(tmp, 'home');
    current.dataDir = join(tmp, 'data');
    await mkdir(current.dataDir);
    for (const v of vendors) await cp(join(SAMPLES, v), current.home, { recursive: true });
    current.env = { HOME: current.home, PATH: '/usr/bin:/bin' };
  });
  afterEach(async () => {
    await rm(join(current.home, '..'), { recursive: true, force: true });
  });
  return current;
}
