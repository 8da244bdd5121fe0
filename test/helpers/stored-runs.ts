// A long history for scale tests: `n` stopped runs written straight into a data directory's store (runs/<id>/run.json,
// the manifest format of electron/core/store/manifest.ts), as years of use would leave them, before the core opens it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const id = (prefix: string, i: number) => `${prefix}_${i.toString(36).padStart(16, '0')}`;
const VENDORS = ['claude', 'codex', 'gemini', 'copilot', 'opencode'] as const;

/** Writes `n` stopped runs named `history-00001`…; each has one or two agents in `cwd`. Returns the names. */
export function writeStoredRuns(dataDir: string, n: number, cwd: string): string[] {
  const runsDir = join(dataDir, 'runs');
  mkdirSync(runsDir, { recursive: true, mode: 0o700 });
  const names: string[] = [];
  const start = Date.parse('2025-01-01T00:00:00Z');
  for (let i = 1; i <= n; i++) {
    const name = `history-${String(i).padStart(5, '0')}`;
    const at = new Date(start + i * 60_000).toISOString();
    const agents = Array.from({ length: 1 + (i % 2) }, (_, k) => ({
      id: id('agt', i * 2 + k),
      label: `agent-${k + 1}`,
      vendor: VENDORS[(i + k) % VENDORS.length],
      cwd,
      args: [],
      command: null,
      sessionIds: [],
      status: 'stopped',
      exitCode: null,
      warning: null,
      startedAt: at,
    }));
    const manifest = { v: 1, id: id('run', i), name, createdAt: at, updatedAt: at, agents, lastSnapshot: null };
    const dir = join(runsDir, manifest.id);
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(join(dir, 'run.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    names.push(name);
  }
  return names;
}
