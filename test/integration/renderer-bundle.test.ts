// The dashboard as it ships (dist/renderer, what `baton serve` serves and the desktop app loads; built by
// `npm run build`, which `npm test` runs first) carries no bench hooks: they are in the bench build only
// (`npm run build:renderer-bench`, dist/renderer-bench; docs/architecture.md §11).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/server.js';

/** The global the hooks install: a property name, so minifying keeps it as it is. */
const BENCH_ONLY = '__batonBench';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe('the product dashboard bundle', () => {
  it('holds none of the bench hooks', () => {
    // The marker is what the hooks really install, so this test cannot pass by going stale.
    expect(readFileSync(join(ROOT, 'renderer', 'bench-hooks.ts'), 'utf8')).toContain(`window.${BENCH_ONLY} = {`);
    const dist = join(ROOT, 'dist', 'renderer');
    expect(existsSync(join(dist, 'index.html')), 'dist/renderer is built (npm run build)').toBe(true);
    const all = files(dist);
    expect(all.some((f) => f.endsWith('.js'))).toBe(true);
    // Source maps included: they would name the hooks' module if it were bundled.
    const carrying = all.filter((f) => {
      const text = readFileSync(f, 'utf8');
      return (
        ['__batonScale', 'bench-hooks', 'bench-scale-hooks'].some((marker) => text.includes(marker)) ||
        text.includes(BENCH_ONLY)
      );
    });
    expect(carrying).toEqual([]);
  });
});
