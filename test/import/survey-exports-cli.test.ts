/**
 * Real survey exports through `physpay import` (issue 28, item 2): --date-format, the import summary's count
 * of normalised values, and refusals that name the fix.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { REPORT_COLUMNS } from '../../build/import/reports.ts';
import { INSTITUTION_COLUMNS } from '../../build/import/institutions.ts';

const tmp = useTempDir('survey-cli', { each: true });
let dir: string;
let dbPath: string;

beforeEach(async () => {
  dir = tmp.path;
  dbPath = join(dir, 'reports.db');
  expect((await runCli(['init', '--db', dbPath])).code).toBe(0);
});

function file(name: string, lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

function submittedDates(): string[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare('SELECT submitted_at FROM reports ORDER BY id').all() as { submitted_at: string }[]).map((r) => r.submitted_at);
  } finally {
    db.close();
  }
}

/** A survey export: capitalised header, $ and thousands separators, a trailing space, day-first dates. */
const EXPORT = [
  REPORT_COLUMNS.map((c) => c[0]!.toUpperCase() + c.slice(1)).join(','),
  '"Cardiology ",NY,2025,"$520,000","480,000","$40,000",55,12,Private Practice,Partner/Owner,"7,000",11/03/2025,',
  'Family Medicine,TX,2025,285000,,,,,,,,02/12/2025,',
];

describe('physpay import reports --date-format', () => {
  it('refuses day/month dates without it, naming the option; nothing is imported', async () => {
    const r = await runCli(['import', 'reports', '--db', dbPath, file('export.csv', EXPORT)]);
    expect(r.code).toBe(1);
    expect(r.err[0]).toMatch(/^export\.csv line 2: submitted_at: must be an ISO 8601 date or timestamp.*--date-format MDY.*--date-format DMY/);
    expect(submittedDates()).toEqual([]);
  });

  it('refuses a bad value with exit 2, naming the accepted ones', async () => {
    const r = await runCli(['import', 'reports', '--db', dbPath, '--date-format', 'dd/mm/yyyy', file('export.csv', EXPORT)]);
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toMatch(/--date-format must be MDY .*DMY .*YMD .*\(got "dd\/mm\/yyyy"\)/);
    expect(submittedDates()).toEqual([]);
  });

  // Passes once build/import/run.ts passes ImportOptions.dateFormat to validateReportRows and appends the
  // count of normalised values to the summary (integration of issue 28, item 2 with the streaming import).
  it('reads the dates in the order given and says how many values were normalised', async () => {
    const r = await runCli(['import', 'reports', '--db', dbPath, '--date-format', 'dmy', file('export.csv', EXPORT)]);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.out).toEqual([
      '2 reports imported from export.csv (2 pending); 7 values normalised (4 with $ or thousands separators, 2 dates rewritten as ISO 8601, 1 with surrounding spaces); batch 1',
    ]);
    expect(submittedDates()).toEqual(['2025-03-11T00:00:00.000Z', '2025-12-02T00:00:00.000Z']);
  });

  it('institutions: the summary counts normalised salaries too (after integration, like the test above)', async () => {
    const r = await runCli(['import', 'institutions', '--db', dbPath, file('hospitals.csv', [
      INSTITUTION_COLUMNS.join(',').toUpperCase(),
      'mercy-general-hospital,Mercy General Hospital ,Sacramento,CA,2025-2026,2025-07-01,https://example.org/mercy,1,"$68,500"',
    ])]);
    expect(r.code).toBe(0);
    expect(r.out).toEqual(['1 institutions imported from hospitals.csv (1 new, 0 pay scales replaced); 2 values normalised (1 with $ or thousands separators, 1 with surrounding spaces); batch 1']);
  });
});

describe('physpay import: unknown names point at physpay reference', () => {
  it('an unknown specialty and state name the commands that list the valid ones', async () => {
    const r = await runCli(['import', 'reports', '--db', dbPath, file('bad.csv', [
      REPORT_COLUMNS.join(','),
      'astrology,NY,2025,285000,,,,,,,,2025-12-01,',
      'cardiology,XX,2025,285000,,,,,,,,2025-12-01,',
    ])]);
    expect(r.code).toBe(1);
    expect(r.err[0]).toBe('bad.csv line 2: specialty: unknown specialty "astrology" (physpay reference specialties lists the names and spellings)');
    expect(r.err[1]).toBe('bad.csv line 3: state: must be a two-letter US state code such as NY or DC (got "XX": physpay reference states lists them)');
    const listed = await runCli(['reference', 'specialties']);
    expect(listed.out.some((l) => l.startsWith('cardiology '))).toBe(true);
  });
});
