import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openReportsDb, type Db } from '../../build/db/open.ts';
import {
  ModerationError,
  countReports,
  listReports,
  moderateIds,
  moderatePending,
} from '../../build/db/moderation.ts';
import type { ReportStatus } from '../../build/contract/vocab.ts';

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
    expect(() => moderatePending(db, 'approve', { specialty: 'astrology' }, T1)).toThrow(/unknown specialty "astrology"/);
    expect(() => moderatePending(db, 'approve', { state: 'XX' }, T1)).toThrow(/unknown state code "XX"/);
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
      practice_setting: 'Academic',
      employment_type: null,
      submitted_at: '2026-02-01T00:00:00.000Z',
      status: 'pending',
    });
    expect(listReports(db, { status: 'pending' }, 2).map((r) => r.specialty)).toEqual(['otolaryngology', 'cardiology']);
    expect(listReports(db, { status: 'rejected' }).map((r) => [r.specialty, r.state])).toEqual([['pediatrics', 'NY']]);
    expect(listReports(db, { state: 'TX' })).toHaveLength(1);
  });

  it('refuses unknown filter values', () => {
    expect(() => listReports(db, { specialty: 'nope' })).toThrow(ModerationError);
    expect(() => countReports(db, { state: 'ZZ' })).toThrow(ModerationError);
  });
});
