// The compat suite: the real vendor CLIs, one at a time (each is heavy, and the machine has 2 cores).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/compat/**/*.test.ts'],
    testTimeout: 600_000,
    // beforeAll installs a CLI from the registry when the cache lacks it.
    hookTimeout: 600_000,
    teardownTimeout: 60_000,
    fileParallelism: false,
    maxWorkers: 1,
    pool: 'forks',
    setupFiles: ['test/helpers/temp-cleanup.ts'],
    sequence: { concurrent: false },
    reporters: ['default'],
  },
});
