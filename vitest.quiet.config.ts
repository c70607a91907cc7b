import { defineConfig } from 'vitest/config';

/**
 * The quiet pass: measurements that need the machine to themselves (Lighthouse's performance score scales the
 * CPU time it observes by 4, so a test file running beside it on a 2-core machine costs it points). It runs
 * after the main suite and the fault pass, one file at a time.
 */
export default defineConfig({
  test: {
    include: ['test/pages/lighthouse.test.ts'],
    reporters: ['default', './test/helpers/slowest-reporter.ts'], // the slowest files are printed at the end
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    env: { TZ: 'UTC' },
    globalSetup: ['test/helpers/pg-global.ts', 'test/helpers/golden-global.ts'],
  },
});
