// run-store*.test.ts's shared parts: a fresh data directory per test (stderr captured), and the manifests,
// snapshots, screens and events the tests store.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, vi } from 'vitest';
import type { RunEvent, RunManifest, SnapshotView, StoredScreen } from '../../electron/core/store/types.js';

export const RUN_A = 'run_aaaaaaaaaaaaaaaa';
export const RUN_B = 'run_bbbbbbbbbbbbbbbb';
export const AGENT = 'agt_aaaaaaaaaaaaaaaa';

export let dataDir: string;
export let stderr: ReturnType<typeof vi.spyOn>;

export function useStoreDataDir(): void {
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'baton-store-'));
    stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });

  afterEach(async () => {
    stderr.mockRestore();
    await rm(dataDir, { recursive: true, force: true });
  });
}

export function manifest(id: string, name: string, updatedAt: string, sessionId = 'sess-1'): RunManifest {
  return {
    v: 1,
    id,
    name,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt,
    agents: [
      {
        id: AGENT,
        label: 'planner',
        vendor: 'claude',
        cwd: '/tmp/project',
        args: [],
        command: null,
        sessionIds: [{ id: sessionId, chosenBy: 'baton', seenAt: updatedAt, confirmed: true }],
        status: 'running',
        exitCode: null,
        warning: null,
        startedAt: updatedAt,
      },
    ],
    lastSnapshot: null,
  };
}

export function snapshotId(n: number): string {
  return `snp_${n.toString(36).padStart(16, '0')}`;
}

export function snapshot(n: number): SnapshotView {
  return {
    id: snapshotId(n),
    at: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(),
    reason: 'user',
    agents: [
      {
        agentId: AGENT,
        label: 'planner',
        vendor: 'claude',
        cwd: '/tmp/project',
        sessionId: 'sess-1',
        status: 'running',
      },
    ],
  };
}

export function screen(text = 'hello'): StoredScreen {
  return { agentId: AGENT, label: 'planner', cols: 80, rows: 24, text, serialized: `\u001b[1m${text}` };
}

export const event = (type: RunEvent['type'], message?: string): RunEvent => ({
  at: '2025-01-01T00:00:00.000Z',
  type,
  ...(message === undefined ? {} : { message }),
});
