import { defineConfig } from 'vitest/config';

/**
 * The fault pass: tests that take a shared component away (restart PostgreSQL, or load every core with a
 * CPU hog) run after the main suite, one file at a time, so that no other test sees the outage.
 */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    reporters: ['default', './test/helpers/slowest-reporter.ts'], // the slowest files are printed at the end
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
    env: { TZ: 'UTC' },
    globalSetup: ['test/helpers/pg-global.ts', 'test/helpers/golden-global.ts'], // one PostgreSQL database per test file, dropped at the end; one golden build per run
  },
});
