// The full-disk journey of test/integration/full-disk.test.ts (a real `baton serve` on a tmpfs filled to the last
// byte: clear errors, agents keep running, the store reads back whole once space returns), run `rounds` times.
import { spawnSync } from 'node:child_process';
import { ROOT } from '../helpers/server.js';
import type { SoakRow } from './table.js';

export function fullDiskRounds(rounds: number): Promise<Omit<SoakRow, 'check' | 'goal' | 'seconds'>> {
  let failed = 0;
  let skipped = '';
  for (let i = 0; i < rounds; i++) {
    const r = spawnSync(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', 'test/integration/full-disk.test.ts', '--reporter=verbose'],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 180_000,
      },
    );
    const out = `${r.stdout}${r.stderr}`;
    if (/↓|skipped/.test(out) && !/✓/.test(out)) skipped = /skipped[^\n]*/.exec(out)?.[0] ?? 'skipped';
    if (r.status !== 0) failed++;
  }
  if (skipped) return Promise.resolve({ count: 0, ok: true, figures: `not run here: ${skipped}` });
  return Promise.resolve({
    count: rounds,
    ok: failed === 0,
    figures: `${failed} rounds with a lost run, a dead agent or an unclear error`,
  });
}
