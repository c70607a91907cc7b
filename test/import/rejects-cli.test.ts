/**
 * One bad row no longer blocks the night (issue 42, item 7): `physpay import reports --rejects FILE` imports
 * the good rows as one batch and writes the bad ones to FILE (CSV: line, reason, then the row as it was),
 * exiting 3; without it the import stays all or nothing.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseCsv } from '../../build/import/csv.ts';
import { runCli } from '../helpers/cli.ts';
import { useReportsDb } from './reports-db.ts';

const fx = useReportsDb('rejects');
const { file, query } = fx;
let rejects: string;
beforeEach(() => {
  rejects = join(fx.dir, 'rejects.csv');
});

const HEADER = 'Specialty,State,Year,Total Compensation,Hours Per Week,Submitted At,Status';
const NIGHT = [
  HEADER,
  'Cardiology,NY,2025,"$520,000",55,2025-12-01,', // 2: good
  'astrology,NY,2025,520000,55,2025-12-01,', // 3: unknown specialty
  '"Family\nMedicine",TX,2025,285000,50,2025-12-02,', // 4-5: good, a quoted line break
  'Pediatrics,OH,2025,250000,50', // 6: two fields short
  'dermatology,NY,2025,"$19,500,000",50,2025-12-01,approved', // 7: implausible for an approved report
  ' Pediatrics ,OH,2025,250000,50,2025-12-03,', // 8: good
];

describe('import reports --rejects FILE', () => {
  it('imports the good rows as one batch, writes the bad ones to FILE and exits 3', async () => {
    const r = await runCli(['import', 'reports', '--db', fx.db, '--rejects', rejects, file('night.csv', NIGHT)]);
    expect(r.code).toBe(3);
    expect(r.out).toEqual([
      `3 reports imported from night.csv (3 pending); 3 rows rejected (written to ${rejects}); 2 values normalised (1 with $ or thousands separators, 1 with surrounding spaces); batch 1`,
    ]);
    expect(r.err).toEqual([
      'night.csv line 3: specialty: unknown specialty "astrology" (physpay reference specialties lists the names and spellings)',
      'night.csv line 6: expected 7 fields, found 5',
      'night.csv line 7: total_compensation: implausible for a report imported as approved (got $19,500,000, 41.5x the national level of $470,000: import it as pending for a moderator, or give --keep-implausible)',
      `physpay: night.csv: 3 bad rows rejected, written to ${rejects}; the other rows were imported as batch 1`,
    ]);
    expect(query('SELECT total_compensation FROM reports ORDER BY id')).toEqual([{ total_compensation: 520000 }, { total_compensation: 285000 }, { total_compensation: 250000 }]);
    expect(query('SELECT status, rows_read, rows_imported, rows_refused FROM import_batches')).toEqual([{ status: 'imported', rows_read: 6, rows_imported: 3, rows_refused: 3 }]);
  });

  it('FILE is CSV: line, reason, then the row as it was (its own header names, untrimmed cells)', async () => {
    await runCli(['import', 'reports', '--db', fx.db, '--rejects', rejects, file('night.csv', NIGHT)]);
    expect(readFileSync(rejects, 'utf8')).toBe(
      [
        `line,reason,${HEADER}`,
        '3,"specialty: unknown specialty ""astrology"" (physpay reference specialties lists the names and spellings)",astrology,NY,2025,520000,55,2025-12-01,',
        '6,"expected 7 fields, found 5",Pediatrics,OH,2025,250000,50',
        '7,"total_compensation: implausible for a report imported as approved (got $19,500,000, 41.5x the national level of $470,000: import it as pending for a moderator, or give --keep-implausible)",dermatology,NY,2025,"$19,500,000",50,2025-12-01,approved',
        '',
      ].join('\n'),
    );
    expect(readdirSync(fx.dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('the rows of FILE, without its first two columns and corrected, import as a file of their own', async () => {
    await runCli(['import', 'reports', '--db', fx.db, '--rejects', rejects, file('night.csv', NIGHT)]);
    const [header, ...rows] = parseCsv(readFileSync(rejects, 'utf8'));
    const fixed = rows.map((r) => r.fields.slice(2).map((v) => v.replace('astrology', 'dermatology').replace('19,500,000', '520,000')));
    fixed[1] = [...fixed[1]!, '2025-12-04', ''];
    const csv = [header!.fields.slice(2), ...fixed].map((f) => f.map((v) => (/[",]/.test(v) ? `"${v}"` : v)).join(','));
    const again = await runCli(['import', 'reports', '--db', fx.db, '--rejects', rejects, file('fixed.csv', csv)]);
    expect(again.err).toEqual([]);
    expect(again.code).toBe(0);
    expect(again.out[0]).toMatch(/^3 reports imported from fixed\.csv \(2 pending, 1 approved\);/);
    expect(readFileSync(rejects, 'utf8')).toBe(`line,reason,${HEADER}\n`);
  });

  it('writes every bad row to FILE, however many (stderr shows 20 and counts the rest)', async () => {
    const bad = Array.from({ length: 2_500 }, (_, i) => `astrology,NY,2025,${500_000 + i},55,2025-12-01,`);
    const r = await runCli(['import', 'reports', '--db', fx.db, '--rejects', rejects, file('big.csv', [HEADER, ...bad, 'Cardiology,NY,2025,520000,55,2025-12-01,'])]);
    expect(r.code).toBe(3);
    expect(r.err).toHaveLength(22);
    expect(r.err[20]).toBe("big.csv: ... and 2,480 more rows refused: 2,480 x 'specialty: unknown specialty'");
    const lines = readFileSync(rejects, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2_501);
    expect(lines.at(-1)).toMatch(/^2501,"specialty: unknown specialty ""astrology"" .*",astrology,NY,2025,502499,55,2025-12-01,$/);
    expect(query('SELECT count(*) AS n FROM reports')).toEqual([{ n: 1 }]);
  });

  it('with no bad row: exit 0, FILE holds the header alone', async () => {
    const r = await runCli(['import', 'reports', '--db', fx.db, '--rejects', rejects, file('good.csv', [HEADER, 'Cardiology,NY,2025,520000,55,2025-12-01,'])]);
    expect(r.code).toBe(0);
    expect(r.err).toEqual([]);
    expect(r.out).toEqual(['1 reports imported from good.csv (1 pending); batch 1']);
    expect(readFileSync(rejects, 'utf8')).toBe(`line,reason,${HEADER}\n`);
  });

  it('only bad rows: nothing imported, all in FILE, exit 3', async () => {
    const r = await runCli(['import', 'reports', '--db', fx.db, '--rejects', rejects, file('bad.csv', [HEADER, 'astrology,NY,2025,520000,55,2025-12-01,'])]);
    expect(r.code).toBe(3);
    expect(r.out).toEqual([`0 reports imported from bad.csv; 1 row rejected (written to ${rejects}); batch 1`]);
    expect(readFileSync(rejects, 'utf8').split('\n')).toHaveLength(3);
  });

  it('without --rejects, the same file is all or nothing, as before', async () => {
    const r = await runCli(['import', 'reports', '--db', fx.db, file('night.csv', NIGHT)]);
    expect(r.code).toBe(1);
    expect(r.err.at(-1)).toBe('physpay: night.csv: 3 bad row(s); nothing was imported (the attempt is listed as batch 1)');
    expect(query('SELECT count(*) AS n FROM reports')).toEqual([{ n: 0 }]);
    expect(existsSync(rejects)).toBe(false);
  });

  it('a file that cannot be read is refused whole and leaves FILE alone', async () => {
    writeFileSync(rejects, 'yesterday\n');
    const r = await runCli(['import', 'reports', '--db', fx.db, '--rejects', rejects, file('bad-header.csv', ['specialty,state', 'cardiology,NY'])]);
    expect(r.code).toBe(1);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/^physpay: bad-header\.csv line 1: bad header: missing column\(s\): year, total_compensation, submitted_at\./);
    expect(readFileSync(rejects, 'utf8')).toBe('yesterday\n');
    expect(readdirSync(fx.dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('refuses (exit 2, nothing imported) a FILE that is the file imported, or in a folder that does not exist', async () => {
    const night = file('night.csv', NIGHT);
    const same = await runCli(['import', 'reports', '--db', fx.db, '--rejects', night, night]);
    expect(same.code).toBe(2);
    expect(same.err).toEqual([`physpay: --rejects must name another file than the one imported (got "${night}")`]);
    const nowhere = join(fx.dir, 'no-such-folder', 'rejects.csv');
    const missing = await runCli(['import', 'reports', '--db', fx.db, '--rejects', nowhere, night]);
    expect(missing.code).toBe(2);
    expect(missing.err).toEqual([`physpay: --rejects: cannot write ${nowhere}: its folder does not exist; nothing was imported`]);
    mkdirSync(join(fx.dir, 'a-folder'));
    const folder = await runCli(['import', 'reports', '--db', fx.db, '--rejects', join(fx.dir, 'a-folder'), night]);
    expect(folder.code).toBe(2);
    expect(folder.err[0]).toMatch(/--rejects: cannot write .*a-folder: it is a folder; nothing was imported$/);
    expect(query('SELECT count(*) AS n FROM import_batches')).toEqual([{ n: 0 }]);
  });

  it('--rejects applies to reports only', async () => {
    const r = await runCli(['import', 'col', '--db', fx.db, '--rejects', rejects, file('col.csv', ['state,index,source,year', 'NY,120,x,2024'])]);
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toMatch(/unknown option '--rejects'/);
  });
});
