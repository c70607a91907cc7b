/**
 * `physpay import submissions` with no service DB where it looks: one sentence saying where the reports sent
 * through /contribute are kept (the service DB of `physpay serve`), not how to create a folder (exit 2).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliText } from '../helpers/cli.ts';
import { makeGoldenDb } from '../helpers/golden-build.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const tmp = useTempDir('import-submissions-store');

describe('import submissions without a store', () => {
  it.each([['a missing file', (d: string) => join(d, 'service.db')], ['a missing folder (the default dist-data/)', (d: string) => join(d, 'dist-data', 'service.db')]])('%s: names the service DB of physpay serve, exit 2', async (_name, store) => {
    const db = makeGoldenDb(tmp.path);
    const r = await runCliText(['import', 'submissions', '--db', db, '--service-db', store(tmp.path)]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^physpay: no service DB at .*service\.db \(--service-db\): the reports physicians send through \/contribute are kept in the service DB `physpay serve` uses/);
    expect(r.err).not.toMatch(/create it first/);
    expect(r.err.split('\n')).toHaveLength(1);
  });
});
