// For running the browser journeys on their own: `npx vitest run --config test/e2e/vitest.e2e.config.ts`.
// (The main vitest.config.ts picks them up once it includes 'test/e2e/**/*.e2e.test.ts'.)
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: resolve(import.meta.dirname, '../..'),
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    testTimeout: 90_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
