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
    // In CI a failed test runs once more: real PTYs, servers and Chromium on a loaded machine meet timing a quiet one
    // never does. A test that passes only at its retry is listed with its first failure (test/helpers/flaky-reporter.ts)
    // and .ci/run prints that list, so each race is still seen and found; a test failing twice fails CI.
    retry: process.env.CI ? 1 : 0,
    reporters: ['default', './test/helpers/flaky-reporter.ts'],
  },
});
