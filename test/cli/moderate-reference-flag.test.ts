/**
 * Implausible values before any data exists (issue 28, item 3): while a specialty has fewer than 5 approved
 * reports, `physpay moderate` flags a report against the specialty's reference level (its BLS median, else
 * the built-in national level) instead of Tukey fences of a handful of reports; list shows which rule fired
 * (table, --json, --csv, legend), and approving a flagged report prints its flag and still approves it.
 * Also: counts of 1,000 and more in moderate's messages carry thousands separators.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { REPORT_COLUMNS } from '../../build/import/reports.ts';
import { runCli } from '../helpers/cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const NOW = new Date('2026-01-15T12:00:00.000Z');
const run = (args: string[]) => runCli(args, { now: NOW });

const tmp = useTempDir('moderate-reference', { each: true });
let db: string;

function query<T>(sql: string, ...params: unknown[]): T[] {
  const conn = new Database(db, { readonly: true });
  try {
    return conn.prepare(sql).all(...params) as T[];
  } finally {
    conn.close();
  }
}

function writeCsv(name: string, lines: string[]): string {
  const path = join(tmp.path, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

async function importReports(name: string, rows: string[]): Promise<void> {
  const r = await run(['import', 'reports', '--db', db, writeCsv(name, [REPORT_COLUMNS.join(','), ...rows])]);
  expect(r.code, r.err.join('\n')).toBe(0);
}

const DERM_3M = 'implausible: 6.4x the national level ($470,000)';
const PEDS_12K = 'implausible: 4.7% of the national level ($255,000)';
const PEDS_12K_20H = 'implausible: 9.4% of the national level ($255,000) at 40 hours a week';
const LEGEND_IMPLAUSIBLE =
  'implausible: the report is checked against its specialty\'s reference level (the BLS median, else the national level) whatever the number of approved reports, beside the fences: a total above 5x the level, or pay at 40 hours a week below 20% of it';

beforeEach(async () => {
  db = join(tmp.path, 'reports.db');
  expect((await run(['init', '--db', db])).code).toBe(0);
  // Reports 1-3: three approved dermatologists (too few for fences). Then five pending reports, 4-8.
  await importReports('first-month.csv', [
    'dermatology,IL,2025,400000,,,,,,,,2025-06-01,approved',
    'dermatology,IL,2025,450000,,,,,,,,2025-06-02,approved',
    'dermatology,IL,2025,500000,,,,,,,,2025-06-03,approved',
    'dermatology,NY,2025,3000000,,,50,10,Private Practice,Partner/Owner,,2025-12-01,',
    'pediatrics,OH,2025,12000,,,40,5,Hospital Employed,Full-Time (W-2),,2025-12-02,',
    'pediatrics,OH,2025,60000,,,12,5,Academic,Part-Time (W-2),,2025-12-03,',
    'dermatology,CA,2025,600000,,,,,,,,2025-12-04,',
    'pediatrics,TX,2025,12000,,,20,,,Part-Time (W-2),,2025-12-05,',
  ]);
});

describe('moderate list flags implausible totals while a specialty has fewer than 5 approved reports', () => {
  it('shows the rule, the ratio and the reference level in the outlier column, and explains it in the legend', async () => {
    const r = await run(['moderate', 'list', '--db', db]);
    expect(r.code).toBe(0);
    const [header, ...rows] = r.out;
    const outlier = header!.indexOf('outlier');
    const flagOf = (id: number) => {
      const row = rows.find((l) => l.startsWith(`${id} `))!;
      return row.slice(outlier).split(/\s{2,}/)[0];
    };
    expect(flagOf(4)).toBe(DERM_3M);
    expect(flagOf(5)).toBe(PEDS_12K);
    expect(flagOf(6)).toBe('-'); // $60,000 at 12 hours a week: $200,000 at 40 hours
    // $600,000 is outside the fences of three approved dermatologists ([350,000, 550,000]), but three
    // reports are too few for fences, and it is 1.3x the national level.
    expect(flagOf(7)).toBe('-');
    expect(flagOf(8)).toBe(PEDS_12K_20H);
    // The status column still starts where its header does.
    for (const row of rows.slice(0, 5)) expect(row.indexOf('pending')).toBe(header!.indexOf('status'));
    expect(rows.slice(-3)).toEqual([
      '5 of 5 pending reports shown, oldest first',
      "outlier: total outside the Tukey fences of its specialty's approved totals (the build's rule); no approved reports to compare: pediatrics; fewer than 5 approved: dermatology (3)",
      LEGEND_IMPLAUSIBLE,
    ]);
  });

  it('--json and --csv carry the same flag text in `outlier`', async () => {
    const json = await run(['moderate', 'list', '--db', db, '--json']);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.out.join('\n'));
    expect(Object.fromEntries(doc.rows.map((row: { id: number; outlier: string | null }) => [row.id, row.outlier]))).toEqual({
      4: DERM_3M, 5: PEDS_12K, 6: null, 7: null, 8: PEDS_12K_20H,
    });
    const csv = await run(['moderate', 'list', '--db', db, '--csv']);
    expect(csv.code).toBe(0);
    const noOffer = ','.repeat(14); // the whole offer's columns, last: none given
    expect(csv.out).toContain(`4,2025-12-01T00:00:00.000Z,dermatology,NY,2025,3000000,,,50,,10,Private Practice,Partner/Owner,pending,"${DERM_3M}",,,,csv batch 1,${noOffer}`);
    expect(csv.out).toContain(`6,2025-12-03T00:00:00.000Z,pediatrics,OH,2025,60000,,,12,,5,Academic,Part-Time (W-2),pending,,,,,csv batch 1,${noOffer}`);
  });

  it('takes the BLS median of the specialty\'s occupation once BLS wages are imported (a top-coded median is not used)', async () => {
    const bls = writeCsv('bls.csv', [
      'OCC_CODE,OCC_TITLE,A_MEDIAN',
      '29-1221,"Pediatricians, General","205,860"',
      '29-1213,Dermatologists,#',
    ]);
    expect((await run(['import', 'bls', '--db', db, bls, '--year', '2024'])).code).toBe(0);
    const doc = JSON.parse((await run(['moderate', 'list', '--db', db, '--json'])).out.join('\n'));
    expect(Object.fromEntries(doc.rows.map((row: { id: number; outlier: string | null }) => [row.id, row.outlier]))).toEqual({
      4: DERM_3M, // dermatologists' BLS median is top-coded ("at least $239,200"): the national level
      5: 'implausible: 5.8% of the BLS median ($205,860)',
      6: null,
      7: null,
      8: 'implausible: 11.7% of the BLS median ($205,860) at 40 hours a week',
    });
  });

  it('from 5 approved reports the Tukey fences decide again', async () => {
    await importReports('pediatrics.csv', [230, 240, 250, 260, 270].map((k, i) => `pediatrics,OH,2025,${k}000,,,,,,,,2025-07-0${i + 1},approved`));
    const doc = JSON.parse((await run(['moderate', 'list', '--db', db, '--json', '--specialty', 'pediatrics'])).out.join('\n'));
    // Q1 240,000, Q3 260,000: fences [210,000, 290,000]
    expect(doc.fences).toEqual({ pediatrics: { approved: 5, lower: 210_000, upper: 290_000 } });
    // The reference rule still applies, beside the fences: a $12,000 pediatrician is not just `low`.
    expect(Object.fromEntries(doc.rows.map((row: { id: number; outlier: string | null }) => [row.id, row.outlier]))).toEqual({
      5: `low; ${PEDS_12K}`, 6: 'low', 8: `low; ${PEDS_12K_20H}`,
    });
    const text = await run(['moderate', 'list', '--db', db, '--specialty', 'pediatrics']);
    expect(text.out.slice(-2)).toEqual(["outlier: total outside the Tukey fences of its specialty's approved totals (the build's rule)", LEGEND_IMPLAUSIBLE]);
  });
});

describe('past 5 approved reports, absurd totals are still implausible, beside the outlier flag', () => {
  beforeEach(async () => {
    // Dermatology: 3 approved + 3 more = 6 (fences from 5 on). Pending: 3,500, 35,000, 4,700,000 and an ordinary outlier.
    await importReports('more-dermatology.csv', [
      'dermatology,IL,2025,420000,,,,,,,,2025-06-04,approved',
      'dermatology,IL,2025,460000,,,,,,,,2025-06-05,approved',
      'dermatology,IL,2025,480000,,,,,,,,2025-06-06,approved',
      'dermatology,TX,2025,3500,,,45,3,,,,2025-12-06,',
      'dermatology,TX,2025,35000,,,45,3,,,,2025-12-07,',
      'dermatology,TX,2025,4700000,,,45,3,,,,2025-12-08,',
      'dermatology,TX,2025,249700,,,45,3,,,,2025-12-09,',
    ]);
  });

  it('moderate list: `low`/`high` and the implausible text, in the table, --json and --csv', async () => {
    const doc = JSON.parse((await run(['moderate', 'list', '--db', db, '--json', '--specialty', 'dermatology'])).out.join('\n'));
    expect(doc.fences.dermatology.approved).toBe(6);
    expect(Object.fromEntries(doc.rows.map((row: { total_compensation: number; outlier: string | null }) => [row.total_compensation, row.outlier]))).toEqual({
      3000000: `high; ${DERM_3M}`,
      600000: 'high',
      3500: 'low; implausible: 0.7% of the national level ($470,000)',
      35000: 'low; implausible: 7.4% of the national level ($470,000)',
      4700000: 'high; implausible: 10.0x the national level ($470,000)',
      249700: 'low', // an ordinary outlier: only the fences flag it
    });
    const csv = await run(['moderate', 'list', '--db', db, '--csv', '--specialty', 'dermatology']);
    expect(csv.out.some((l) => l.includes(',"low; implausible: 0.7% of the national level ($470,000)",'))).toBe(true);
    const text = await run(['moderate', 'list', '--db', db, '--specialty', 'dermatology']);
    expect(text.out.some((l) => l.includes('high; implausible: 10.0x the national level ($470,000)'))).toBe(true);
    expect(text.out.at(-1)).toBe(LEGEND_IMPLAUSIBLE);
  });

  it('moderate approve prints both flags', async () => {
    const ids = query<{ id: number; total_compensation: number }>("SELECT id, total_compensation FROM reports WHERE total_compensation IN (4700000, 249700) ORDER BY id");
    const r = await run(['moderate', 'approve', '--db', db, ...ids.map((x) => String(x.id)), '--moderator', 'alice']);
    expect(r.code).toBe(0);
    expect(r.err[0]).toMatch(/^report \d+ \(dermatology, total \$4,700,000\) approved with its flags: high \(above the upper Tukey fence, \$[\d,]+\); implausible: 10\.0x the national level \(\$470,000\)$/);
    expect(r.err[1]).toMatch(/^report \d+ \(dermatology, total \$249,700\) approved with its flag: low \(below the lower Tukey fence, \$[\d,]+\)$/);
  });
});

describe('approving a flagged report prints its flag, and approves it', () => {
  it('by id: one line per flagged report on stderr; the summary is unchanged', async () => {
    const r = await run(['moderate', 'approve', '--db', db, '4', '6', '--moderator', 'alice']);
    expect(r.code).toBe(0);
    expect(r.out).toEqual(['2 reports approved by alice']);
    expect(r.err).toEqual([`report 4 (dermatology, total $3,000,000) approved with its flag: ${DERM_3M}`]);
    expect(query('SELECT id, status FROM reports WHERE id IN (4, 6) ORDER BY id')).toEqual([
      { id: 4, status: 'approved' },
      { id: 6, status: 'approved' },
    ]);
  });

  it('a Tukey-fence flag is printed too, with the fence it is outside', async () => {
    await importReports('pediatrics.csv', [230, 240, 250, 260, 270].map((k, i) => `pediatrics,OH,2025,${k}000,,,,,,,,2025-07-0${i + 1},approved`));
    const r = await run(['moderate', 'approve', '--db', db, '5', '--moderator', 'alice']);
    expect(r.code).toBe(0);
    expect(r.err).toEqual([`report 5 (pediatrics, total $12,000) approved with its flags: low (below the lower Tukey fence, $210,000); ${PEDS_12K}`]);
  });

  it('--all-pending: every flagged report approved is printed', async () => {
    const r = await run(['moderate', 'approve', '--db', db, '--all-pending', '--yes', '--moderator', 'alice']);
    expect(r.code).toBe(0);
    expect(r.out).toEqual(['5 reports approved by alice']);
    expect(r.err).toEqual([
      `report 4 (dermatology, total $3,000,000) approved with its flag: ${DERM_3M}`,
      `report 5 (pediatrics, total $12,000) approved with its flag: ${PEDS_12K}`,
      `report 8 (pediatrics, total $12,000) approved with its flag: ${PEDS_12K_20H}`,
    ]);
    expect(query("SELECT count(*) AS n FROM reports WHERE status = 'approved'")).toEqual([{ n: 8 }]);
  });

  it('--all-pending prints at most 20 flags, then counts the rest', async () => {
    const conn = new Database(db);
    conn.exec(`INSERT INTO reports (specialty_id, state, year, total_compensation, submitted_at)
      SELECT specialty_id, state, year, total_compensation, submitted_at FROM reports r, (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1200) SELECT i FROM n)
      WHERE r.id = 4`);
    conn.close();
    const r = await run(['moderate', 'approve', '--db', db, '--all-pending', '--expect-count', '1205', '--moderator', 'alice']);
    expect(r.code).toBe(0);
    expect(r.out).toEqual(['1,205 reports approved by alice']);
    expect(r.err).toHaveLength(21);
    expect(r.err.at(-1)).toBe('... and 1,183 more flagged reports approved');
  });

  it('rejecting a flagged report prints no flag', async () => {
    const r = await run(['moderate', 'reject', '--db', db, '4', '--moderator', 'alice']);
    expect(r.code).toBe(0);
    expect(r.err).toEqual([]);
  });
});

describe('counts of 1,000 and more carry thousands separators', () => {
  it('in the --expect-count refusals, by id and in bulk', async () => {
    const byId = await run(['moderate', 'approve', '--db', db, '4', '5', '--expect-count', '1000']);
    expect(byId.code).toBe(2);
    expect(byId.err).toEqual(['physpay: refusing to approve: --expect-count is 1,000 but 2 reports match; nothing changed']);
    const conn = new Database(db);
    conn.exec(`INSERT INTO reports (specialty_id, state, year, total_compensation, submitted_at)
      SELECT specialty_id, state, year, total_compensation, submitted_at FROM reports r, (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) SELECT i FROM n)
      WHERE r.status = 'pending'`);
    conn.close();
    const bulk = await run(['moderate', 'approve', '--db', db, '--all-pending', '--expect-count', '1000']);
    expect(bulk.code).toBe(2);
    expect(bulk.err).toEqual(['physpay: refusing to approve: --expect-count is 1,000 but 1,505 reports match; nothing changed']);
  });
});
