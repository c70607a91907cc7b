import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // the fault pass runs them serially (vitest.faults.config.ts); Lighthouse runs alone after it (vitest.quiet.config.ts)
    exclude: ['test/faults/**', 'test/pages/lighthouse.test.ts', 'node_modules/**'],
    reporters: ['default', './test/helpers/slowest-reporter.ts'], // the slowest files are printed at the end
    pool: 'forks', // better-sqlite3 is a native addon: keep each test file in its own process
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { TZ: 'UTC' },
    // one PostgreSQL database per test file, dropped at the end; one golden build per run; one Chromium per run
    globalSetup: ['test/helpers/pg-global.ts', 'test/helpers/golden-global.ts', 'test/helpers/browser-global.ts'],
  },
});
