/**
 * The intake half of the service store, on SQLite and PostgreSQL: one step decides each submission (spent
 * challenge, repeat by the same client, the per-client daily limit) exactly under concurrency; pending
 * submissions oldest first with their signals; marking them taken drops the client hash and is idempotent,
 * and keeps the repeat check (a digest of client and report, also filled in for rows stored before it);
 * the shared secret is made once and read alike by every connection; the count of submissions waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { PG_URL, pgSkipReason } from '../helpers/pg.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { SqliteServiceStore } from '../../server/store/sqlite.ts';
import { PostgresServiceStore } from '../../server/store/postgres.ts';
import type { IntakeReport, NewSubmission, ServiceStore } from '../../server/store/types.ts';
import { repeatKey } from '../../server/store/repeat-key.ts';

const work = useTempDir('intake-store');
const pgReason = await pgSkipReason('the PostgreSQL intake store tests');
const file = () => join(work.path, 'store.db');

const report = (total: number): IntakeReport => ({ specialty: 'Cardiology', state: 'TX', year: 2025, total_compensation: total, base_salary: null, bonus: null, hours_per_week: null, years_in_practice: null, practice_setting: null, employment_type: null, wrvus: null });
const sub = (client: string, total: number, over: Partial<NewSubmission> = {}): NewSubmission => ({
  id: randomUUID(), report: report(total), fingerprint: `fp-${total}`, clientHash: client, day: '2026-11-20', received_at: `2026-11-20T10:00:00.${String(total % 1000).padStart(3, '0')}Z`,
  challenge: 'pow', challengeSignature: null, seconds_to_submit: null, ...over,
});

/** 5 a client a day; no budget for reports without a proof of work to reach */
const LIMITS = { perClient: 5, withoutProofPerDay: 1_000_000 };

const backends: [string, () => Promise<ServiceStore>][] = [
  ['sqlite', async () => new SqliteServiceStore(file())],
  ['postgres', async () => PostgresServiceStore.open(PG_URL)],
];

for (const [kind, open] of backends) {
  (kind === 'postgres' && pgReason ? describe.skip : describe)(`${kind} intake store`, () => {
    let a: ServiceStore;
    let b: ServiceStore;
    const run = `${kind}-${Date.now()}`;
    beforeAll(async () => {
      a = await open();
      b = await open(); // a second connection (another process or instance)
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    it('per-client daily limit exact under concurrency across connections: 40 at once, 5 stored', async () => {
      const client = `c1-${run}`;
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => Promise.resolve((i % 2 ? a : b).submitReport(sub(client, 100_000 + i), LIMITS))));
      expect(results.filter((r) => r.outcome === 'stored')).toHaveLength(5);
      expect(results.filter((r) => r.outcome === 'limited')).toHaveLength(35);
      expect(new Set(results.filter((r) => r.outcome === 'stored').map((r) => r.clientCount))).toEqual(new Set([1, 2, 3, 4, 5]));
      // the next day the client may send again
      expect((await a.submitReport(sub(client, 100_500, { day: '2026-11-21' }), LIMITS)).outcome).toBe('stored');
    });

    it('a repeat by the same client, a spent challenge; the same report elsewhere counted for the moderator', async () => {
      const c2 = `c2-${run}`;
      const c3 = `c3-${run}`;
      const total = 200_000 + (Date.now() % 1000);
      expect(await a.submitReport(sub(c2, total, { fingerprint: `same-${run}`, challengeSignature: `sig-${run}` }), LIMITS)).toEqual({ outcome: 'stored', clientCount: 1 });
      expect(await b.submitReport(sub(c2, total, { fingerprint: `same-${run}` }), LIMITS)).toEqual({ outcome: 'repeat', clientCount: 1 });
      expect(await b.submitReport(sub(c3, total + 1, { challengeSignature: `sig-${run}` }), LIMITS)).toEqual({ outcome: 'spent', clientCount: 0 });
      expect((await b.submitReport(sub(c3, total, { fingerprint: `same-${run}`, received_at: '2026-11-20T11:00:00Z' }), LIMITS)).outcome).toBe('stored');
      const mine = (await a.pendingSubmissions(100_000)).filter((p) => p.fingerprint === `same-${run}`);
      expect(mine.map((p) => p.signals)).toEqual([
        { challenge: 'pow', seconds_to_submit: null, client_submissions_today: 1, same_report_elsewhere: 0 },
        { challenge: 'pow', seconds_to_submit: null, client_submissions_today: 1, same_report_elsewhere: 1 },
      ]);
      // taken: no longer pending, marked once only, the client hash dropped; the repeat is still recognised
      // (a keyed digest of client and report outlives the import), on another day too, and from either connection
      expect(await a.markSubmissionsTaken(mine.map((p) => p.id), 7, '2026-11-21T02:00:00Z')).toBe(2);
      expect(await b.markSubmissionsTaken(mine.map((p) => p.id), 8, '2026-11-21T02:00:01Z')).toBe(0);
      expect((await a.pendingSubmissions(100_000)).filter((p) => p.fingerprint === `same-${run}`)).toEqual([]);
      expect(await a.submitReport(sub(c2, total, { fingerprint: `same-${run}`, day: '2026-11-22' }), LIMITS)).toEqual({ outcome: 'repeat', clientCount: 0 });
      expect((await b.submitReport(sub(c3, total, { fingerprint: `same-${run}`, day: '2026-11-23' }), LIMITS)).outcome).toBe('repeat');
      // a third client: the two earlier clients are the "other clients" (a refused repeat is never counted)
      expect((await a.submitReport(sub(`c4-${run}`, total, { fingerprint: `same-${run}`, day: '2026-11-22' }), LIMITS)).outcome).toBe('stored');
      expect((await a.pendingSubmissions(100_000)).filter((p) => p.fingerprint === `same-${run}`).map((p) => p.signals.same_report_elsewhere)).toEqual([2]);
      // the client's hash is gone from the taken rows: what is kept cannot be grouped by client
      const rows = kind === 'sqlite'
        ? (a as SqliteServiceStore).db.prepare('SELECT client_hash, repeat_key FROM intake_submissions WHERE id IN (?, ?)').all(mine[0]!.id, mine[1]!.id) as { client_hash: string | null; repeat_key: string | null }[]
        : (await (a as PostgresServiceStore).pool.query<{ client_hash: string | null; repeat_key: string | null }>('SELECT client_hash, repeat_key FROM intake_submissions WHERE id = ANY($1)', [mine.map((p) => p.id)])).rows;
      expect(rows.map((r) => r.client_hash)).toEqual([null, null]);
      expect(new Set(rows.map((r) => r.repeat_key))).toEqual(new Set([repeatKey(c2, `same-${run}`), repeatKey(c3, `same-${run}`)]));
    });

    it('a submission stored before the upgrade (no repeat key yet) gets it from the migration, so its repeat is refused after the import', async () => {
      const old = `old-${run}`;
      const s = sub(old, 250_000, { fingerprint: `older-${run}` });
      expect((await a.submitReport(s, LIMITS)).outcome).toBe('stored');
      // as the row of an older physpay: no repeat key; the migration that fills them is run again below
      if (kind === 'sqlite') {
        const db = (a as SqliteServiceStore).db;
        db.prepare('UPDATE intake_submissions SET repeat_key = NULL WHERE id = ?').run(s.id);
        db.prepare('DELETE FROM service_migrations WHERE version = 9').run(); // the migration that fills repeat keys
      } else {
        const pool = (a as PostgresServiceStore).pool;
        await pool.query('UPDATE intake_submissions SET repeat_key = NULL WHERE id = $1', [s.id]);
        await pool.query('DELETE FROM service_migrations WHERE version = 10'); // the migration that fills repeat keys
      }
      const reopened = await open();
      try {
        expect(await reopened.markSubmissionsTaken([s.id], 9, '2026-11-21T02:00:00Z')).toBe(1);
        expect((await reopened.submitReport(sub(old, 250_000, { fingerprint: `older-${run}`, day: '2026-11-25' }), LIMITS)).outcome).toBe('repeat');
      } finally {
        await reopened.close();
      }
    });

    it('reports without a proof of work share one daily budget across connections: 20 at once from 20 clients, 3 stored', async () => {
      const day = `2027-0${kind === 'sqlite' ? 1 : 2}-${String(10 + (Date.now() % 18)).padStart(2, '0')}`;
      const limits = { perClient: 5, withoutProofPerDay: 3 };
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => Promise.resolve((i % 2 ? a : b).submitReport(sub(`nojs-${i}-${run}`, 310_000 + i, { day, challenge: 'form', challengeSignature: `form:${i}-${run}` }), limits))));
      expect(results.filter((r) => r.outcome === 'stored')).toHaveLength(3);
      expect(results.filter((r) => r.outcome === 'budget')).toHaveLength(17);
      // a report with a proof of work is not counted against it
      expect((await a.submitReport(sub(`nojs-pow-${run}`, 320_000, { day }), limits)).outcome).toBe('stored');
    });

    it('counts the submissions waiting, alike on every connection: stored ones added, taken ones gone', async () => {
      const before = await a.pendingSubmissionCount();
      expect(await b.pendingSubmissionCount()).toBe(before);
      const stored = [sub(`queue-${run}`, 410_000), sub(`queue-${run}`, 410_001), sub(`queue-${run}`, 410_002)];
      for (const s of stored) expect((await a.submitReport(s, LIMITS)).outcome).toBe('stored');
      expect(await b.pendingSubmissionCount()).toBe(before + 3);
      expect(await a.markSubmissionsTaken([stored[0]!.id, stored[1]!.id], 11, '2026-11-21T03:00:00Z')).toBe(2);
      expect(await a.pendingSubmissionCount()).toBe(before + 1);
      expect(await b.pendingSubmissionCount()).toBe(before + 1);
    });

    it('a report with the whole offer comes back as it was stored, from every connection; one without it has no offer keys', async () => {
      const offer = {
        call_pay: 30_000, call_nights_per_month: 5.5, signing_bonus: 0, retention_bonus: 10_000, relocation: 12_500.5, loan_repayment: 90_000,
        loan_repayment_years: 3, cme_allowance: 3_500, pto_weeks: 5.5, compensation_model: 'production' as const, wrvu_conversion_rate: 52.25,
        non_compete_miles: 0, non_compete_years: 0, partnership_track_years: 2,
      };
      const withOffer = sub(`offer-${run}`, 520_000, { report: { ...report(520_000), ...offer } });
      const without = sub(`offer-${run}`, 520_001);
      for (const x of [withOffer, without]) expect((await a.submitReport(x, LIMITS)).outcome).toBe('stored');
      for (const conn of [a, b]) {
        const mine = (await conn.pendingSubmissions(100_000)).filter((p) => p.id === withOffer.id || p.id === without.id);
        expect(mine.map((p) => p.report)).toEqual([{ ...report(520_000), ...offer }, report(520_001)]);
        expect(Object.keys(mine[1]!.report)).toEqual(Object.keys(report(520_001)));
      }
    });

    it('one secret for every connection', async () => {
      const [x, y] = await Promise.all([a.intakeSecret(), b.intakeSecret()]);
      expect(x).toMatch(/^[0-9a-f]{64}$/);
      expect(y).toBe(x);
    });
  });
}
