/**
 * `physpay import reports --json`: one JSON object on stdout whatever the outcome (a usage error, exit 2,
 * prints none); stderr keeps its lines.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { useReportsDb } from './reports-db.ts';

const NOW = new Date('2026-01-15T12:00:00.000Z');
const fx = useReportsDb('import-json');
const { csv } = fx;

const json = async (args: string[]) => {
  const r = await runCli(['import', 'reports', '--db', fx.db, '--json', ...args], { now: NOW });
  expect(r.out).toHaveLength(1);
  return { ...r, doc: JSON.parse(r.out[0]!) };
};

const ROWS = [
  'cardiology,NY,2025,"$520,000",,,55,12,,,,2025-12-01,',
  'cardiology,NY,2025,520000,,,55,12,,,,2025-12-01,', // a duplicate of line 2
  'dermatology,NY,2025,3000000,,,50,10,,,,2025-12-01,approved', // kept with --keep-implausible, flagged
];

describe('import reports --json', () => {
  it('imported: counts by status, duplicates, flags, normalised values, the summary line', async () => {
    const { code, doc, err } = await json(['--keep-implausible', csv('week.csv', ROWS)]);
    expect(code).toBe(0);
    expect(err).toEqual([
      'week.csv line 3: duplicate of line 2, skipped',
      'week.csv line 4: report 2 (dermatology, total $3,000,000) imported as approved with its flag: implausible: 6.4x the national level ($470,000)',
    ]);
    expect(doc).toEqual({
      status: 'imported', db: fx.db, file: 'week.csv', batch_id: 1, rows_read: 3, imported: 2,
      by_status: { pending: 1, approved: 1, rejected: 0 },
      decisions_restored: { approved: 0, rejected: 0 },
      duplicates: { count: 1, in_db: 0, in_file: 1, rows: [{ line: 3, first_line: 2 }] },
      flagged: { count: 1, rows: [{ line: 4, report_id: 2, specialty: 'dermatology', total_compensation: 3_000_000, flags: 'implausible: 6.4x the national level ($470,000)' }] },
      normalised: { numbers: 1, dates: 0, spaces: 0 },
      bad_rows: null,
      rejects_file: null,
      error: null,
      message: '2 reports imported from week.csv (1 pending, 1 approved); 1 duplicate skipped (repeated in the file: 1; --allow-duplicates imports them); 1 approved report flagged (on stderr); 1 value normalised (1 with $ or thousands separators); batch 1',
    });
  });

  it('the same bytes again: already_imported', async () => {
    const file = csv('week.csv', ROWS.slice(0, 1));
    await json([file]);
    const { code, doc } = await json([file]);
    expect(code).toBe(0);
    expect(doc).toMatchObject({ status: 'already_imported', batch_id: 1, imported: 0, error: null });
  });

  it('refused (exit 1): the bad rows, the refused batch, the error', async () => {
    const { code, doc } = await json([csv('bad.csv', [ROWS[0]!, 'astrology,NY,2025,520000,,,,,,,,2025-12-01,'])]);
    expect(code).toBe(1);
    expect(doc).toMatchObject({
      status: 'refused', batch_id: 1, imported: 0,
      bad_rows: { count: 1, rows: [{ line: 3, message: expect.stringMatching(/^specialty: unknown specialty "astrology"/) }], omitted: {} },
      error: 'bad.csv: 1 bad row(s); nothing was imported (the attempt is listed as batch 1)',
    });
  });

  it('with --rejects (exit 3): imported, the bad rows and the rejects file', async () => {
    const rejects = join(fx.dir, 'rejects.csv');
    const { code, doc } = await json(['--rejects', rejects, csv('night.csv', [ROWS[0]!, 'astrology,NY,2025,520000,,,,,,,,2025-12-01,'])]);
    expect(code).toBe(3);
    expect(doc).toMatchObject({
      status: 'imported', batch_id: 1, imported: 1, rejects_file: rejects,
      bad_rows: { count: 1, rows: [{ line: 3 }], omitted: {} },
      error: `night.csv: 1 bad row rejected, written to ${rejects}; the other rows were imported as batch 1`,
    });
  });

  it('a file that cannot be read, or is missing: refused, failed (exit 1)', async () => {
    const header = join(fx.dir, 'header.csv');
    writeFileSync(header, 'specialty,state\n');
    const refused = await json([header]);
    expect(refused.code).toBe(1);
    expect(refused.doc).toMatchObject({ status: 'refused', batch_id: null, bad_rows: null, error: expect.stringMatching(/^header\.csv line 1: bad header: /) });
    const missing = await json([join(fx.dir, 'missing.csv')]);
    expect(missing.code).toBe(1);
    expect(missing.doc).toMatchObject({ status: 'failed', batch_id: null, error: `cannot read ${join(fx.dir, 'missing.csv')}: no such file` });
  });

  it('a usage error prints nothing on stdout', async () => {
    const r = await runCli(['import', 'reports', '--db', fx.db, '--json', '--date-format', 'nope', csv('week.csv', ROWS)]);
    expect(r.code).toBe(2);
    expect(r.out).toEqual([]);
  });
});
