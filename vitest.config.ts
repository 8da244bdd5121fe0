import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/e2e/**/*.e2e.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Real PTYs and servers: two cores here, so keep files from starving each other.
    fileParallelism: true,
    maxWorkers: 2,
    pool: 'forks',
    setupFiles: ['test/helpers/temp-cleanup.ts'],
  },
});
