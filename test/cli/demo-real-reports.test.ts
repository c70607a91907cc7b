/**
 * `physpay demo` never replaces real reports, with or without --force: a DB not marked synthetic that holds
 * any report, or any DB holding reports from import batches (CSV imports, web submissions), is refused
 * (exit 2, one sentence naming how many reports and which batches), and the file is left untouched. A demo DB,
 * an empty DB, or a demo DB whose imported batch was undone is still replaced with --force.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { REPORT_COLUMNS } from '../../build/import/reports.ts';
import { runCliText } from '../helpers/cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const NOW = new Date('2026-01-15T12:00:00.000Z');
const run = (...args: string[]) => runCliText(args, { now: NOW });

const tmp = useTempDir('demo-real', { each: true });
let dir: string;
let db: string;
beforeEach(() => {
  dir = tmp.path;
  db = join(dir, 'reports.db');
});

/** A CSV of n different reports (total pay from `base`). */
function survey(name: string, n: number, base: number): string {
  const path = join(dir, name);
  const lines = Array.from({ length: n }, (_, i) => `cardiology,NY,2025,${base + i},,,50,10,,,,2025-12-01,`);
  writeFileSync(path, `${[REPORT_COLUMNS.join(','), ...lines].join('\n')}\n`);
  return path;
}

const reportCount = () => {
  const d = new Database(db, { readonly: true });
  try {
    return (d.prepare('SELECT count(*) AS n FROM reports').get() as { n: number }).n;
  } finally {
    d.close();
  }
};

describe('physpay demo refuses a DB holding real reports', () => {
  it('a DB made by init with two imported batches: refused with and without --force, naming the count and the batches; nothing changed', async () => {
    expect((await run('init', '--db', db)).code).toBe(0);
    expect((await run('import', 'reports', '--db', db, survey('survey-2025.csv', 3, 400_000))).code).toBe(0);
    expect((await run('import', 'reports', '--db', db, survey('march.csv', 2, 500_000))).code).toBe(0);
    const before = readFileSync(db);
    for (const force of [[], ['--force']]) {
      const r = await run('demo', '--db', db, '--reports', '300', ...force);
      expect(r.code, r.err).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toBe(
        `physpay: refusing to replace ${db} with demo data: it holds 5 real reports (3 from batch 1 survey-2025.csv, 2 from batch 2 march.csv; physpay import list --db ${db} lists the batches); ` +
          'physpay demo never replaces real reports, with or without --force: give another --db path for the demo DB',
      );
      expect(r.err.split('\n')).toHaveLength(1);
    }
    expect(readFileSync(db).equals(before)).toBe(true);
  });

  it('a demo DB into which real reports were imported: refused, naming the imported batch only; after import undo it is demo data again', async () => {
    expect((await run('demo', '--db', db, '--reports', '300')).code).toBe(0);
    const imported = await run('import', 'reports', '--db', db, survey('real.csv', 4, 410_000));
    expect(imported.code, imported.err).toBe(0);
    const r = await run('demo', '--db', db, '--reports', '300', '--force');
    expect(r.code).toBe(2);
    expect(r.err).toContain(`it holds 4 real reports (4 from batch 1 real.csv; physpay import list --db ${db} lists the batches)`);
    expect(reportCount()).toBe(304);
    expect((await run('import', 'undo', '1', '--db', db, '--yes')).code).toBe(0);
    const again = await run('demo', '--db', db, '--reports', '200', '--force');
    expect(again.code, again.err).toBe(0);
    expect(reportCount()).toBe(200);
  });

  it('a DB not marked synthetic whose reports came from no batch (written by other means) is refused as well', async () => {
    expect((await run('demo', '--db', db, '--reports', '300')).code).toBe(0);
    const d = new Database(db);
    d.prepare("DELETE FROM dataset_meta WHERE key = 'synthetic'").run();
    d.close();
    const r = await run('demo', '--db', db, '--reports', '300', '--force');
    expect(r.code).toBe(2);
    expect(r.err).toContain('it holds 300 real reports (300 not from any import batch, in a DB not marked synthetic; physpay import list');
    expect(reportCount()).toBe(300);
  });

  it('many batches: the first five are named, then how many more', async () => {
    expect((await run('init', '--db', db)).code).toBe(0);
    for (let i = 0; i < 7; i++) expect((await run('import', 'reports', '--db', db, survey(`f${i}.csv`, 1, 600_000 + i))).code).toBe(0);
    const r = await run('demo', '--db', db, '--force');
    expect(r.code).toBe(2);
    expect(r.err).toContain('it holds 7 real reports (1 from batch 1 f0.csv, 1 from batch 2 f1.csv, 1 from batch 3 f2.csv, 1 from batch 4 f3.csv, 1 from batch 5 f4.csv, and 2 more from 2 other batches; physpay import list');
  });

  it('still replaces a demo DB or an empty initialised DB with --force (and refuses without it)', async () => {
    expect((await run('init', '--db', db)).code).toBe(0);
    expect((await run('demo', '--db', db, '--reports', '300')).err).toMatch(/already exists; pass --force/);
    expect((await run('demo', '--db', db, '--reports', '300', '--force')).code).toBe(0);
    expect((await run('demo', '--db', db, '--reports', '250', '--force')).code).toBe(0);
    expect(reportCount()).toBe(250);
  });
});
