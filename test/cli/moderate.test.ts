/**
 * `physpay moderate` at scale (issue 18 item 8): list shows every field a moderator needs with an outlier
 * flag, --json and --csv export, decisions record moderator, reason and time, bulk actions have --dry-run and
 * a count confirmation, and `moderate delete`.
 */
import { writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REPORT_COLUMNS } from '../../build/import/reports.ts';
import { NO_OFFER_TERMS, OFFER_COLUMNS } from '../../build/contract/offer-terms.ts';
import { runCli } from '../helpers/cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const NOW = new Date('2026-01-15T12:00:00.000Z');

/** Run in-process; `answer` simulates an operator at a terminal (undefined: no terminal). */
const run = (args: string[], answer?: boolean) => runCli(args, { now: NOW, ...(answer === undefined ? {} : { confirm: () => answer }) });

const tmp = useTempDir('moderate', { each: true });
let dir: string;
let db: string;

function query<T>(sql: string, ...params: unknown[]): T[] {
  const conn = new Database(db, { readonly: true });
  try {
    return conn.prepare(sql).all(...params) as T[];
  } finally {
    conn.close();
  }
}
const statuses = () => query<{ id: number; status: string }>('SELECT id, status FROM reports ORDER BY id').map((r) => `${r.id}:${r.status}`);

const ROW = 'cardiology,NY,2025,520000,480000,40000,55,12,Private Practice,Partner/Owner,7000,2025-12-01,';

beforeEach(async () => {
  dir = tmp.path;
  db = join(dir, 'reports.db');
  expect((await run(['init', '--db', db])).code).toBe(0);
  // Ten approved cardiology reports give the specialty its fences; then three pending ones (1 outlier).
  const approved = Array.from({ length: 10 }, (_, i) => `cardiology,CA,2025,${400_000 + i * 20_000},,,,,,,,2025-06-0${(i % 9) + 1},approved`);
  const csv = join(dir, 'reports.csv');
  writeFileSync(csv, `${REPORT_COLUMNS.join(',')}\n${[
    ...approved,
    ROW,
    'cardiology,TX,2024,4000000,,,40,3,Academic,"Full-Time (W-2)",,2025-12-02,',
    'pediatrics,OH,2025,250000,,,,,,,,2025-12-03,',
  ].join('\n')}\n`);
  expect((await run(['import', 'reports', '--db', db, csv])).code).toBe(0);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('moderate list', () => {
  it('shows every field a moderator needs, the outlier flag and the decision, aligned under a header', async () => {
    const r = await run(['moderate', 'list', '--db', db]);
    expect(r.code).toBe(0);
    const [header, ...rows] = r.out;
    expect(header!.split(/\s{2,}/)).toEqual([
      'id', 'submitted', 'specialty', 'state', 'year', 'total', 'base', 'bonus', 'hours', 'wRVUs', 'years', 'setting', 'employment',
      'outlier', 'status', 'decided', 'by', 'source', 'reason', 'signals',
    ]);
    expect(rows[0]!.split(/\s{2,}/)).toEqual([
      '11', '2025-12-01', 'cardiology', 'NY', '2025', '520,000', '480,000', '40,000', '55', '7,000', '12', 'Private Practice', 'Partner/Owner',
      '-', 'pending', '-', '-', 'csv batch 1', '-', '-',
    ]);
    expect(rows[1]!.split(/\s{2,}/)).toEqual([
      '12', '2025-12-02', 'cardiology', 'TX', '2024', '4,000,000', '-', '-', '40', '-', '3', 'Academic', 'Full-Time (W-2)',
      // past 5 approved reports, the reference level is still checked beside the fences: $4,000,000 is absurd, not just high
      'high; implausible: 7.7x the national level ($520,000)', 'pending', '-', '-', 'csv batch 1', '-', '-',
    ]);
    expect(rows[2]).toMatch(/^13 +2025-12-03 +pediatrics +OH/);
    // Columns are aligned: every field of a row starts where its header does.
    expect(rows[0]!.indexOf('cardiology')).toBe(header!.indexOf('specialty'));
    expect(rows[1]!.indexOf('high')).toBe(header!.indexOf('outlier'));
    expect(rows.at(-3)).toBe('3 of 3 pending reports shown, oldest first');
    expect(rows.at(-2)).toMatch(/^outlier: total outside the Tukey fences of its specialty's approved totals \(the build's rule\); no approved reports to compare: pediatrics$/);
    expect(rows.at(-1)).toMatch(/^implausible: the report is checked against its specialty's reference level/);
  });

  it('--json prints one JSON object with the rows, the filters, the count and the fences', async () => {
    const r = await run(['moderate', 'list', '--db', db, '--json', '--specialty', 'cardiologist']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out.join('\n'));
    expect(doc).toEqual({
      status: 'pending',
      filters: { specialty: 'cardiologist', state: null, submitted_before: null },
      total: 2,
      shown: 2,
      limit: 50,
      fences: { cardiology: { approved: 10, lower: expect.any(Number), upper: expect.any(Number) } },
      rows: [expect.objectContaining({ id: 11 }), expect.objectContaining({ id: 12 })],
    });
    expect(doc.rows[1]).toEqual({
      id: 12,
      submitted_at: '2025-12-02T00:00:00.000Z',
      specialty: 'cardiology',
      state: 'TX',
      year: 2024,
      total_compensation: 4_000_000,
      base_salary: null,
      bonus: null,
      hours_per_week: 40,
      wrvus: null,
      years_in_practice: 3,
      practice_setting: 'Academic',
      employment_type: 'Full-Time (W-2)',
      status: 'pending',
      outlier: 'high; implausible: 7.7x the national level ($520,000)',
      moderated_at: null,
      moderated_by: null,
      moderation_reason: null,
      source: 'csv batch 1',
      signals: null,
      ...NO_OFFER_TERMS, // the whole offer's columns, last: none given
    });
  });

  it('--csv exports the same rows (RFC 4180 quoting), and --limit all lifts the limit', async () => {
    expect((await run(['moderate', 'reject', '--db', db, '11', '--reason', 'says "test", twice', '--moderator', 'alice'])).code).toBe(0);
    const r = await run(['moderate', 'list', '--db', db, '--csv', '--status', 'all', '--limit', 'all']);
    expect(r.code).toBe(0);
    expect(r.out[0]).toBe(`id,submitted_at,specialty,state,year,total_compensation,base_salary,bonus,hours_per_week,wrvus,years_in_practice,practice_setting,employment_type,status,outlier,moderated_at,moderated_by,moderation_reason,source,signals,${OFFER_COLUMNS.join(',')}`);
    expect(r.out).toHaveLength(1 + 13);
    const noOffer = ','.repeat(14);
    expect(r.out).toContain(`11,2025-12-01T00:00:00.000Z,cardiology,NY,2025,520000,480000,40000,55,7000,12,Private Practice,Partner/Owner,rejected,,2026-01-15T12:00:00.000Z,alice,"says ""test"", twice",csv batch 1,${noOffer}`);
    expect(r.out).toContain(`12,2025-12-02T00:00:00.000Z,cardiology,TX,2024,4000000,,,40,,3,Academic,Full-Time (W-2),pending,"high; implausible: 7.7x the national level ($520,000)",,,,csv batch 1,${noOffer}`);
    expect(r.err).toEqual([]);
  });
});

describe('decisions record moderator, reason and time', () => {
  it('--reason and --moderator are stored and shown by list', async () => {
    const r = await run(['moderate', 'approve', '--db', db, '11', '--reason', 'matches the contract', '--moderator', 'Dr. Alice Ng']);
    expect(r.code).toBe(0);
    expect(r.out).toEqual(['1 report approved by Dr. Alice Ng']);
    const list = await run(['moderate', 'list', '--db', db, '--status', 'approved', '--json', '--specialty', 'cardiology', '--state', 'NY']);
    expect(JSON.parse(list.out.join('\n')).rows).toEqual([
      expect.objectContaining({ id: 11, status: 'approved', moderated_at: NOW.toISOString(), moderated_by: 'Dr. Alice Ng', moderation_reason: 'matches the contract' }),
    ]);
    const text = await run(['moderate', 'list', '--db', db, '--status', 'approved', '--state', 'NY']);
    expect(text.out[1]).toMatch(/approved {2}2026-01-15 {2}Dr\. Alice Ng {2}csv batch 1 {2}matches the contract {2}-$/);
  });

  it('the moderator comes from PHYSPAY_MODERATOR, else the OS user', async () => {
    vi.stubEnv('PHYSPAY_MODERATOR', 'bob');
    expect((await run(['moderate', 'reject', '--db', db, '11'])).out).toEqual(['1 report rejected by bob']);
    vi.unstubAllEnvs();
    delete process.env.PHYSPAY_MODERATOR;
    expect((await run(['moderate', 'approve', '--db', db, '12'])).out).toEqual([`1 report approved by ${userInfo().username}`]);
    expect(query('SELECT id, moderated_by, moderation_reason FROM reports WHERE id IN (11, 12) ORDER BY id')).toEqual([
      { id: 11, moderated_by: 'bob', moderation_reason: null },
      { id: 12, moderated_by: userInfo().username, moderation_reason: null },
    ]);
  });
});

describe('bulk decisions: --dry-run and the count confirmation', () => {
  it('--dry-run prints what would change and changes nothing', async () => {
    const before = statuses();
    const r = await run(['moderate', 'approve', '--db', db, '--all-pending', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.out[0]).toBe('dry run: would approve 3 pending reports (cardiology 2, pediatrics 1); nothing changed');
    expect(r.out.slice(1)).toEqual(['ids: 11, 12, 13']);
    expect(statuses()).toEqual(before);
  });

  it('on a terminal it asks, and changes nothing unless the answer is yes', async () => {
    const no = await run(['moderate', 'approve', '--db', db, '--all-pending', '--reason', 'spring batch'], false);
    expect(no.asked).toEqual(['Approve 3 reports? [y/N] ']);
    expect(no.code).toBe(2);
    expect(no.err).toEqual(['physpay: not confirmed; nothing changed']);
    expect(query("SELECT count(*) AS n FROM reports WHERE status = 'pending'")).toEqual([{ n: 3 }]);

    const yes = await run(['moderate', 'approve', '--db', db, '--all-pending', '--reason', 'spring batch', '--moderator', 'alice'], true);
    expect(yes.asked).toEqual(['Approve 3 reports? [y/N] ']);
    expect(yes.code).toBe(0);
    expect(yes.out).toEqual(['3 reports approved by alice']);
    expect(query("SELECT count(*) AS n FROM reports WHERE status = 'approved' AND moderated_by = 'alice' AND moderation_reason = 'spring batch'")).toEqual([{ n: 3 }]);
  });

  it('--yes skips the question; --expect-count goes ahead only when exactly that many match', async () => {
    const yes = await run(['moderate', 'reject', '--db', db, '--all-pending', '--state', 'OH', '--yes'], false);
    expect(yes.asked).toEqual([]);
    expect(yes.out[0]).toMatch(/^1 report rejected by /);
    const wrong = await run(['moderate', 'approve', '--db', db, '--all-pending', '--expect-count', '3']);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toEqual(['physpay: refusing to approve: --expect-count is 3 but 2 reports match; nothing changed']);
    const right = await run(['moderate', 'approve', '--db', db, '--all-pending', '--expect-count', '2']);
    expect(right.code).toBe(0);
    expect(right.out[0]).toMatch(/^2 reports approved by /);
  });

  it('prints large counts with thousands separators in the question', async () => {
    const conn = new Database(db);
    conn.exec(`INSERT INTO reports (specialty_id, state, year, total_compensation, submitted_at)
      SELECT specialty_id, state, year, total_compensation, submitted_at FROM reports r, (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400) SELECT i FROM n)
      WHERE r.status = 'pending'`);
    conn.close();
    const r = await run(['moderate', 'approve', '--db', db, '--all-pending'], false);
    expect(r.asked).toEqual(['Approve 1,203 reports? [y/N] ']);
  });

  it('single-id decisions need no confirmation (unchanged behaviour)', async () => {
    const r = await run(['moderate', 'approve', '--db', db, '11', '12']);
    expect(r.code).toBe(0);
    expect(r.out[0]).toMatch(/^2 reports approved by /);
  });
});

describe('moderate delete', () => {
  it('deletes one report by id with a reason, recorded in the moderation log', async () => {
    const r = await run(['moderate', 'delete', '--db', db, '13', '--reason', 'spam', '--moderator', 'alice']);
    expect(r.code).toBe(0);
    expect(r.out).toEqual(['1 report deleted by alice']);
    expect(query('SELECT count(*) AS n FROM reports WHERE id = 13')).toEqual([{ n: 0 }]);
    expect(query("SELECT report_id, action, from_status, moderator, reason, at FROM moderation_log WHERE action = 'delete'")).toEqual([
      { report_id: 13, action: 'delete', from_status: 'pending', moderator: 'alice', reason: 'spam', at: NOW.toISOString() },
    ]);
  });

  it('asks before deleting several, has --dry-run, and refuses an unknown id', async () => {
    const dry = await run(['moderate', 'delete', '--db', db, '11', '12', '--reason', 'test rows', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out[0]).toBe('dry run: would delete 2 reports (cardiology 2); nothing changed');
    const no = await run(['moderate', 'delete', '--db', db, '11', '12', '--reason', 'test rows'], false);
    expect(no.asked).toEqual(['Delete 2 reports? [y/N] ']);
    expect(no.code).toBe(2);
    const unknown = await run(['moderate', 'delete', '--db', db, '11', '999', '--reason', 'test rows', '--yes']);
    expect(unknown.code).toBe(1);
    expect(unknown.err[0]).toMatch(/no report with id 999; nothing changed/);
    expect(query('SELECT count(*) AS n FROM reports')).toEqual([{ n: 13 }]);
    const yes = await run(['moderate', 'delete', '--db', db, '11', '12', '--reason', 'test rows'], true);
    expect(yes.code).toBe(0);
    expect(query('SELECT count(*) AS n FROM reports')).toEqual([{ n: 11 }]);
  });
});
