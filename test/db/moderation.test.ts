import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openReportsDb, type Db } from '../../build/db/open.ts';
import {
  FilterError,
  ModerationError,
  countReports,
  deleteReports,
  listReports,
  moderateIds,
  moderatePending,
  moderationLog,
  planIds,
  specialtyFences,
  withOutliers,
} from '../../build/db/moderation.ts';
import type { ReportStatus } from '../../build/contract/vocab.ts';
import { NO_OFFER_TERMS } from '../../build/contract/offer-terms.ts';
import { createDemoDb } from '../../build/demo/create.ts';
import { readDataset } from '../../build/source/read.ts';
import { nationalFacts } from '../../build/compute/national.ts';
import { quantile } from '../../build/compute/stats.ts';
import Database from 'better-sqlite3';
import { MIGRATIONS, migrate } from '../../build/db/migrations.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const T1 = new Date('2026-03-01T10:00:00.000Z');
const T2 = new Date('2026-03-02T11:30:00.000Z');
const EARLIER = '2026-01-05T00:00:00.000Z';

let db: Db;

interface Seed {
  specialty: string;
  state: string;
  status?: ReportStatus;
  submitted_at?: string;
  total?: number;
}

function insert(r: Seed): number {
  const sid = (db.prepare('SELECT id FROM specialties WHERE slug = ?').get(r.specialty) as { id: number }).id;
  const status = r.status ?? 'pending';
  return Number(
    db
      .prepare(
        `INSERT INTO reports (specialty_id, state, year, total_compensation, submitted_at, status, moderated_at, practice_setting)
         VALUES (?, ?, 2025, ?, ?, ?, ?, 'Academic')`,
      )
      .run(sid, r.state, r.total ?? 300_000, r.submitted_at ?? '2026-02-01T00:00:00.000Z', status, status === 'pending' ? null : EARLIER)
      .lastInsertRowid,
  );
}

function state(id: number): { status: string; moderated_at: string | null } {
  return db.prepare('SELECT status, moderated_at FROM reports WHERE id = ?').get(id) as { status: string; moderated_at: string | null };
}

function snapshot(): unknown[] {
  return db.prepare('SELECT * FROM reports ORDER BY id').all();
}

beforeEach(() => {
  db = openReportsDb(':memory:');
});
afterEach(() => db.close());

describe('moderateIds', () => {
  it('approves the given ids and stamps moderated_at from the given clock', () => {
    const a = insert({ specialty: 'cardiology', state: 'NY' });
    const b = insert({ specialty: 'cardiology', state: 'TX' });
    const c = insert({ specialty: 'pediatrics', state: 'TX' });
    expect(moderateIds(db, 'approve', [a, b], T1)).toEqual({ changed: 2, unchanged: [] });
    expect(state(a)).toEqual({ status: 'approved', moderated_at: T1.toISOString() });
    expect(state(b)).toEqual({ status: 'approved', moderated_at: T1.toISOString() });
    expect(state(c)).toEqual({ status: 'pending', moderated_at: null });
  });

  it('rejects the given ids and stamps moderated_at', () => {
    const a = insert({ specialty: 'cardiology', state: 'NY' });
    const b = insert({ specialty: 'cardiology', state: 'NY' });
    expect(moderateIds(db, 'reject', [b], T2)).toEqual({ changed: 1, unchanged: [] });
    expect(state(b)).toEqual({ status: 'rejected', moderated_at: T2.toISOString() });
    expect(state(a)).toEqual({ status: 'pending', moderated_at: null });
  });

  it('refuses the whole batch when any id is unknown, naming it, and changes nothing', () => {
    const a = insert({ specialty: 'cardiology', state: 'NY' });
    const b = insert({ specialty: 'cardiology', state: 'NY', status: 'approved' });
    const before = snapshot();
    expect(() => moderateIds(db, 'reject', [a, 9999, b, 12345], T1)).toThrow(ModerationError);
    expect(() => moderateIds(db, 'reject', [a, 9999, b, 12345], T1)).toThrow(/9999, 12345.*nothing changed/);
    expect(snapshot()).toEqual(before);
  });

  it('reports ids already in the target state as unchanged and leaves their moderated_at alone', () => {
    const done = insert({ specialty: 'cardiology', state: 'NY', status: 'approved' });
    const todo = insert({ specialty: 'cardiology', state: 'NY' });
    expect(moderateIds(db, 'approve', [done, todo], T1)).toEqual({ changed: 1, unchanged: [done] });
    expect(state(done)).toEqual({ status: 'approved', moderated_at: EARLIER });
    expect(state(todo)).toEqual({ status: 'approved', moderated_at: T1.toISOString() });

    expect(moderateIds(db, 'approve', [done, todo], T2)).toEqual({ changed: 0, unchanged: [done, todo] });
    expect(state(todo).moderated_at).toBe(T1.toISOString());
  });

  it('lets an operator reverse a decision (approved <-> rejected)', () => {
    const a = insert({ specialty: 'cardiology', state: 'NY', status: 'approved' });
    expect(moderateIds(db, 'reject', [a], T1).changed).toBe(1);
    expect(state(a)).toEqual({ status: 'rejected', moderated_at: T1.toISOString() });
    expect(moderateIds(db, 'approve', [a], T2).changed).toBe(1);
    expect(state(a)).toEqual({ status: 'approved', moderated_at: T2.toISOString() });
  });

  it('counts a repeated id once', () => {
    const a = insert({ specialty: 'cardiology', state: 'NY' });
    expect(moderateIds(db, 'approve', [a, a, a], T1)).toEqual({ changed: 1, unchanged: [] });
  });
});

describe('moderatePending', () => {
  let ids: Record<string, number>;
  beforeEach(() => {
    ids = {
      cardNyPending: insert({ specialty: 'cardiology', state: 'NY' }),
      cardNyPending2: insert({ specialty: 'cardiology', state: 'NY', submitted_at: '2025-12-01T00:00:00.000Z' }),
      cardNyApproved: insert({ specialty: 'cardiology', state: 'NY', status: 'approved' }),
      cardNyRejected: insert({ specialty: 'cardiology', state: 'NY', status: 'rejected' }),
      cardTxPending: insert({ specialty: 'cardiology', state: 'TX' }),
      obNyPending: insert({ specialty: 'obstetrics-gynecology', state: 'NY' }),
      obCaPending: insert({ specialty: 'obstetrics-gynecology', state: 'CA', submitted_at: '2025-11-01T00:00:00.000Z' }),
    };
  });

  it('with a specialty and state filter changes only matching pending reports', () => {
    const before = new Map(Object.entries(ids).map(([k, id]) => [k, state(id)]));
    expect(moderatePending(db, 'approve', { specialty: 'cardiologist', state: 'ny' }, T1)).toEqual({ changed: 2, unchanged: [] });
    for (const [k, id] of Object.entries(ids)) {
      if (k === 'cardNyPending' || k === 'cardNyPending2') {
        expect(state(id), k).toEqual({ status: 'approved', moderated_at: T1.toISOString() });
      } else {
        expect(state(id), k).toEqual(before.get(k));
      }
    }
  });

  it('with only a specialty filter (given as an alias) changes that specialty in every state', () => {
    expect(moderatePending(db, 'reject', { specialty: 'ob-gyn' }, T2).changed).toBe(2);
    expect(state(ids.obNyPending!)).toEqual({ status: 'rejected', moderated_at: T2.toISOString() });
    expect(state(ids.obCaPending!)).toEqual({ status: 'rejected', moderated_at: T2.toISOString() });
    expect(state(ids.cardNyPending!).status).toBe('pending');
    expect(state(ids.cardTxPending!).status).toBe('pending');
  });

  it('with only a state filter changes every specialty in that state, never approved or rejected ones', () => {
    expect(moderatePending(db, 'approve', { state: 'NY' }, T1).changed).toBe(3);
    expect(state(ids.cardNyRejected!)).toEqual({ status: 'rejected', moderated_at: EARLIER });
    expect(state(ids.cardNyApproved!)).toEqual({ status: 'approved', moderated_at: EARLIER });
    expect(countReports(db, { status: 'pending' })).toBe(2);
  });

  it('with a submitted-before filter changes only older pending reports', () => {
    expect(moderatePending(db, 'approve', { submittedBefore: '2026-01-01' }, T1).changed).toBe(2);
    expect(state(ids.cardNyPending2!).status).toBe('approved');
    expect(state(ids.obCaPending!).status).toBe('approved');
    expect(state(ids.cardNyPending!).status).toBe('pending');
  });

  it('without filters changes every pending report', () => {
    expect(moderatePending(db, 'approve', {}, T1).changed).toBe(5);
    expect(countReports(db, { status: 'pending' })).toBe(0);
    expect(state(ids.cardNyRejected!).status).toBe('rejected');
  });

  it('refuses an unknown specialty or state and changes nothing', () => {
    const before = snapshot();
    expect(() => moderatePending(db, 'approve', { specialty: 'astrology' }, T1)).toThrow(/--specialty must be .* \(got "astrology"\)/);
    expect(() => moderatePending(db, 'approve', { state: 'XX' }, T1)).toThrow(/--state must be a two-letter state code .*\(got "XX"\)/);
    expect(() => moderatePending(db, 'approve', { submittedBefore: 'yesterday' }, T1)).toThrow(ModerationError);
    expect(snapshot()).toEqual(before);
  });
});

describe('listReports and countReports', () => {
  beforeEach(() => {
    insert({ specialty: 'cardiology', state: 'NY', submitted_at: '2026-02-03T00:00:00.000Z', total: 510_000 });
    insert({ specialty: 'cardiology', state: 'NY', submitted_at: '2026-02-01T00:00:00.000Z', total: 500_000 });
    insert({ specialty: 'cardiology', state: 'TX', submitted_at: '2026-02-02T00:00:00.000Z' });
    insert({ specialty: 'cardiology', state: 'NY', status: 'approved' });
    insert({ specialty: 'pediatrics', state: 'NY', status: 'rejected' });
    insert({ specialty: 'otolaryngology', state: 'CA', submitted_at: '2025-06-01T00:00:00.000Z' });
  });

  it('counts by status, specialty (slug, name or alias), state and submission date', () => {
    expect(countReports(db, {})).toBe(6);
    expect(countReports(db, { status: 'pending' })).toBe(4);
    expect(countReports(db, { status: 'approved' })).toBe(1);
    expect(countReports(db, { status: 'rejected' })).toBe(1);
    expect(countReports(db, { specialty: 'cardiology' })).toBe(4);
    expect(countReports(db, { specialty: 'Cardiology', status: 'pending' })).toBe(3);
    expect(countReports(db, { specialty: 'ENT' })).toBe(1);
    expect(countReports(db, { state: 'ny' })).toBe(4);
    expect(countReports(db, { state: 'NY', specialty: 'cardiologist', status: 'pending' })).toBe(2);
    expect(countReports(db, { submittedBefore: '2026-01-01' })).toBe(1);
    expect(countReports(db, { specialty: 'neurosurgery' })).toBe(0);
  });

  it('lists matching reports oldest first with their fields, up to the limit', () => {
    const rows = listReports(db, { status: 'pending', specialty: 'cardiology' });
    expect(rows.map((r) => r.submitted_at)).toEqual([
      '2026-02-01T00:00:00.000Z',
      '2026-02-02T00:00:00.000Z',
      '2026-02-03T00:00:00.000Z',
    ]);
    expect(rows[0]).toEqual({
      id: expect.any(Number),
      specialty: 'cardiology',
      state: 'NY',
      year: 2025,
      total_compensation: 500_000,
      base_salary: null,
      bonus: null,
      hours_per_week: null,
      wrvus: null,
      years_in_practice: null,
      practice_setting: 'Academic',
      employment_type: null,
      submitted_at: '2026-02-01T00:00:00.000Z',
      status: 'pending',
      moderated_at: null,
      moderated_by: null,
      moderation_reason: null,
      source: null,
      batch_id: null, // written straight into the DB by the test, not by an import
      intake_signals: null,
      ...NO_OFFER_TERMS, // the whole offer: none given
    });
    expect(listReports(db, { status: 'pending' }, 2).map((r) => r.specialty)).toEqual(['otolaryngology', 'cardiology']);
    expect(listReports(db, { status: 'rejected' }).map((r) => [r.specialty, r.state])).toEqual([['pediatrics', 'NY']]);
    expect(listReports(db, { state: 'TX' })).toHaveLength(1);
  });

  it('refuses unknown filter values', () => {
    expect(() => listReports(db, { specialty: 'nope' })).toThrow(ModerationError);
    expect(() => countReports(db, { state: 'ZZ' })).toThrow(ModerationError);
  });

  it('refuses them as filter (usage) errors naming the flag, the accepted values and a close match', () => {
    expect(() => listReports(db, { specialty: 'nope' })).toThrow(FilterError);
    expect(() => countReports(db, { state: 'Texas' })).toThrow('--state must be a two-letter state code (50 states and DC) (got "Texas"; did you mean TX?)');
    expect(() => countReports(db, { state: 'ZZ' })).toThrow('--state must be a two-letter state code (50 states and DC) (got "ZZ")');
    expect(() => countReports(db, { submittedBefore: 'soon' })).toThrow(FilterError);
  });

  it('lists every status with no status filter, and without a limit when the limit is null', () => {
    expect(listReports(db, {}, null)).toHaveLength(6);
  });
});

describe('decisions record the moderator, the reason and the time (migration 4)', () => {
  it('approve and reject by id store moderator, reason and time on the report and in the log', () => {
    const a = insert({ specialty: 'cardiology', state: 'NY' });
    const b = insert({ specialty: 'cardiology', state: 'NY' });
    expect(moderateIds(db, 'approve', [a], T1, { moderator: 'alice', reason: 'checked against the contract' })).toEqual({ changed: 1, unchanged: [] });
    expect(moderateIds(db, 'reject', [b], T2, { moderator: 'bob', reason: null })).toEqual({ changed: 1, unchanged: [] });
    const row = (id: number) => db.prepare('SELECT status, moderated_at, moderated_by, moderation_reason FROM reports WHERE id = ?').get(id);
    expect(row(a)).toEqual({ status: 'approved', moderated_at: T1.toISOString(), moderated_by: 'alice', moderation_reason: 'checked against the contract' });
    expect(row(b)).toEqual({ status: 'rejected', moderated_at: T2.toISOString(), moderated_by: 'bob', moderation_reason: null });
    expect(moderationLog(db)).toEqual([
      { id: 1, report_id: a, action: 'approve', from_status: 'pending', to_status: 'approved', moderator: 'alice', reason: 'checked against the contract', at: T1.toISOString(), report: null },
      { id: 2, report_id: b, action: 'reject', from_status: 'pending', to_status: 'rejected', moderator: 'bob', reason: null, at: T2.toISOString(), report: null },
    ]);
    // A reversal is a new decision: the report shows the newest, the log keeps both.
    moderateIds(db, 'reject', [a], T2, { moderator: 'carol', reason: 'duplicate of another report' });
    expect(row(a)).toEqual({ status: 'rejected', moderated_at: T2.toISOString(), moderated_by: 'carol', moderation_reason: 'duplicate of another report' });
    expect(moderationLog(db, a).map((e) => [e.action, e.from_status, e.moderator])).toEqual([['approve', 'pending', 'alice'], ['reject', 'approved', 'carol']]);
    // listReports shows the decision.
    expect(listReports(db, { status: 'rejected' }, null).map((r) => [r.id, r.moderated_by, r.moderation_reason])).toEqual([
      [a, 'carol', 'duplicate of another report'],
      [b, 'bob', null],
    ]);
  });

  it('bulk decisions record every changed report, and an unchanged report gets no log entry', () => {
    const a = insert({ specialty: 'cardiology', state: 'NY' });
    const b = insert({ specialty: 'cardiology', state: 'TX' });
    const done = insert({ specialty: 'cardiology', state: 'NY', status: 'approved' });
    expect(moderatePending(db, 'approve', { specialty: 'cardiology' }, T1, { moderator: 'alice', reason: 'batch 7' })).toEqual({ changed: 2, unchanged: [] });
    expect(moderationLog(db).map((e) => [e.report_id, e.action, e.moderator, e.reason, e.at])).toEqual([
      [a, 'approve', 'alice', 'batch 7', T1.toISOString()],
      [b, 'approve', 'alice', 'batch 7', T1.toISOString()],
    ]);
    expect(moderationLog(db, done)).toEqual([]);
    expect(moderateIds(db, 'approve', [a], T2, { moderator: 'bob' })).toEqual({ changed: 0, unchanged: [a] });
    expect(moderationLog(db, a)).toHaveLength(1);
  });

  it('a bulk decision with expectCount changes nothing when a different number of reports match', () => {
    insert({ specialty: 'cardiology', state: 'NY' });
    insert({ specialty: 'cardiology', state: 'NY' });
    const before = snapshot();
    expect(() => moderatePending(db, 'approve', {}, T1, { moderator: 'alice', expectCount: 3 })).toThrow('--expect-count is 3 but 2 reports match; nothing changed');
    expect(snapshot()).toEqual(before);
    expect(moderationLog(db)).toEqual([]);
    expect(moderatePending(db, 'approve', {}, T1, { moderator: 'alice', expectCount: 2 }).changed).toBe(2);
  });

  it('planIds says what an id-based decision would change, without changing it', () => {
    const a = insert({ specialty: 'cardiology', state: 'NY' });
    const b = insert({ specialty: 'cardiology', state: 'NY', status: 'approved' });
    const before = snapshot();
    expect(planIds(db, 'approve', [a, b, 999, a])).toEqual({ change: [a], unchanged: [b], missing: [999] });
    expect(planIds(db, 'delete', [a, b])).toEqual({ change: [a, b], unchanged: [], missing: [] });
    expect(snapshot()).toEqual(before);
  });
});

describe('migration 4 on a DB made before it', () => {
  it('keeps every report, with no moderator or reason yet, and starts an empty moderation log', () => {
    const old = new Database(':memory:');
    try {
      old.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT');
      for (const m of MIGRATIONS.filter((x) => x.version < 4)) {
        m.up(old);
        old.prepare("INSERT INTO schema_migrations VALUES (?, ?, '2026-01-01T00:00:00Z')").run(m.version, m.name);
      }
      old.prepare(`INSERT INTO reports (specialty_id, state, year, total_compensation, submitted_at, status, moderated_at)
        VALUES (1, 'NY', 2025, 300000, '2026-01-01T00:00:00Z', 'approved', '2026-01-02T00:00:00Z')`).run();
      expect(migrate(old)).toContain(4);
      expect(old.prepare('SELECT status, moderated_at, moderated_by, moderation_reason FROM reports').all()).toEqual([
        { status: 'approved', moderated_at: '2026-01-02T00:00:00Z', moderated_by: null, moderation_reason: null },
      ]);
      expect(moderationLog(old)).toEqual([]);
    } finally {
      old.close();
    }
  });
});

describe('deleteReports', () => {
  it('deletes the given reports and keeps each one, with moderator, reason and time, in the log', () => {
    const a = insert({ specialty: 'cardiology', state: 'NY', total: 510_000 });
    const b = insert({ specialty: 'pediatrics', state: 'TX', status: 'approved' });
    const keep = insert({ specialty: 'pediatrics', state: 'TX' });
    const rowA = db.prepare('SELECT * FROM reports WHERE id = ?').get(a);
    expect(deleteReports(db, [a, b], T1, { moderator: 'alice', reason: 'test submissions' })).toEqual({ deleted: 2 });
    expect(db.prepare('SELECT id FROM reports ORDER BY id').all()).toEqual([{ id: keep }]);
    const log = moderationLog(db);
    expect(log.map((e) => [e.report_id, e.action, e.from_status, e.to_status, e.moderator, e.reason, e.at])).toEqual([
      [a, 'delete', 'pending', null, 'alice', 'test submissions', T1.toISOString()],
      [b, 'delete', 'approved', null, 'alice', 'test submissions', T1.toISOString()],
    ]);
    expect(JSON.parse(log[0]!.report!)).toEqual(rowA);
  });

  it('refuses the whole batch when an id is unknown or the count differs from expectCount', () => {
    const a = insert({ specialty: 'cardiology', state: 'NY' });
    const before = snapshot();
    expect(() => deleteReports(db, [a, 999], T1, { moderator: 'alice', reason: 'x' })).toThrow(/no report with id 999; nothing changed/);
    expect(() => deleteReports(db, [a], T1, { moderator: 'alice', reason: 'x', expectCount: 2 })).toThrow(/--expect-count is 2 but 1 report matches; nothing changed/);
    expect(snapshot()).toEqual(before);
    expect(moderationLog(db)).toEqual([]);
  });
});

describe('outlier flags (the build\'s rule: Tukey fences of the specialty\'s approved totals)', () => {
  it('flags a pending report above or below its specialty\'s fences, and none for a specialty without approved reports', () => {
    const totals = [200_000, 250_000, 300_000, 320_000, 350_000, 400_000, 420_000, 500_000];
    for (const t of totals) insert({ specialty: 'cardiology', state: 'NY', status: 'approved', total: t });
    const high = insert({ specialty: 'cardiology', state: 'NY', total: 5_000_000 });
    const low = insert({ specialty: 'cardiology', state: 'NY', total: 20_000 });
    const ok = insert({ specialty: 'cardiology', state: 'NY', total: 330_000 });
    const lone = insert({ specialty: 'pediatrics', state: 'NY', total: 9_000_000 });
    const q1 = quantile(totals, 0.25);
    const q3 = quantile(totals, 0.75);
    const fences = specialtyFences(db, ['cardiology', 'pediatrics']);
    expect([...fences.entries()]).toEqual([['cardiology', { approved: 8, lower: q1 - 1.5 * (q3 - q1), upper: q3 + 1.5 * (q3 - q1) }]]);
    const rows = withOutliers(db, listReports(db, { status: 'pending' }, null));
    expect(Object.fromEntries(rows.map((r) => [r.id, r.outlier]))).toEqual({ [high]: 'high', [low]: 'low', [ok]: null, [lone]: null });
  });

  it('agrees with the build\'s rule: per specialty, as many approved reports flagged as nationalFacts counts outliers of the reported pay', () => {
    const dir = mkdtempSync(join(tmpdir(), 'physpay-outliers-'));
    try {
      const path = join(dir, 'demo.db');
      createDemoDb(path, { reports: 3000, seed: 11, asOf: '2026-11-15', now: () => T1 });
      const demo = openReportsDb(path);
      try {
        const read = readDataset(demo);
        // The moderator sees the pay as reported; the build applies the same fences to the pay as distorted by
        // the disclosure factors (README: Disclosure control). Same rule, so on the reported pay they agree.
        const total = Float64Array.from(read.exactTotal);
        for (const { start, end } of read.specialtyRange) total.subarray(start, end).sort();
        const ds = { ...read, reports: { ...read.reports, total } };
        const facts = nationalFacts(ds);
        const flagged = new Map<string, number>();
        for (const r of withOutliers(demo, listReports(demo, { status: 'approved' }, null))) {
          if (r.outlier) flagged.set(r.specialty, (flagged.get(r.specialty) ?? 0) + 1);
        }
        const expected = new Map(ds.specialties.map((s, i) => [s.slug, facts.outliers[i]!] as const).filter(([, n]) => n > 0));
        expect(expected.size).toBeGreaterThan(3);
        expect(flagged).toEqual(expected);
      } finally {
        demo.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
