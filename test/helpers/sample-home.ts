// A HOME holding the vendor samples' stores (test/fixtures/vendor-samples) and an empty data directory beside it, for
// tests that read real transcripts through the adapters (costs, say): made before each test, removed after it.
import { cp, mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach } from 'vitest';
import type { VendorName } from '../../shared/words.js';
import type { AgentRecord, RunManifest } from '../../electron/core/store/types.js';

/** The project directory the samples' transcripts were recorded in. */
export const SAMPLE_CWD = '/home/u/proj';
const SAMPLE_AT = '2026-11-25T21:47:05.000Z';

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

/** A stored agent of `vendor` in the samples' project, having had sessions `ids` (Baton's guesses unless confirmed). */
export function sampleAgent(
  id: string,
  vendor: VendorName,
  ids: readonly string[],
  options: { confirmed?: boolean; status?: AgentRecord['status'] } = {},
): AgentRecord {
  const confirmed = options.confirmed ?? true;
  return {
    id,
    label: vendor,
    vendor,
    cwd: SAMPLE_CWD,
    args: [],
    command: null,
    sessionIds: ids.map((session) => ({ id: session, chosenBy: 'baton', seenAt: SAMPLE_AT, confirmed })),
    status: options.status ?? 'stopped',
    exitCode: null,
    warning: null,
    startedAt: null,
  };
}

/** A stored run holding `agents`, never snapshotted. */
export function sampleRun(id: string, name: string, agents: AgentRecord[]): RunManifest {
  return { v: 1, id, name, createdAt: SAMPLE_AT, updatedAt: SAMPLE_AT, agents, lastSnapshot: null };
}
