/**
 * `physpay import submissions`: pending intake from the service store into a reports DB as one batch of
 * pending reports with source `web` and their signals; a second run imports nothing; a run stopped between
 * the two stores (step 1 done, not marked) and a run killed at a random moment are both completed by the
 * next run with every submission exactly once; duplicates of reports already in the DB are skipped; the
 * batch is listed and undone like any; `moderate list` shows the source and the signals; on PostgreSQL too.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { goldenBuild, goldenBuildIn, makeGoldenDb } from '../helpers/golden-build.ts';
import { runCliText } from '../helpers/cli.ts';
import { PG_URL, pgSkipReason } from '../helpers/pg.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { BIN } from '../server/serve-process.ts';
import { openServiceStore } from '../../server/store/open.ts';
import type { IntakeReport, ServiceStore } from '../../server/store/types.ts';
import { openReportsDb } from '../../build/db/open.ts';
import { importSubmissions } from '../../build/import/submissions.ts';
import { submissionFingerprint } from '../../build/db/fingerprint.ts';
import { clientHash } from '../../server/intake/tokens.ts';
import { OFFER_COLUMNS } from '../../build/contract/offer-terms.ts';

const tmp = useTempDir('import-submissions');
let golden: string | undefined;
let n = 0;
const freshDb = () => {
  golden ??= makeGoldenDb(tmp.path);
  const p = join(tmp.path, `reports-${++n}.db`);
  copyFileSync(golden, p);
  return p;
};
const pgSkip = await pgSkipReason('import submissions from PostgreSQL');

const report = (total: number, over: Partial<IntakeReport> = {}): IntakeReport => ({
  specialty: 'Cardiology', state: 'TX', year: 2025, total_compensation: total, base_salary: null, bonus: null, hours_per_week: 50,
  years_in_practice: 4, practice_setting: 'Academic', employment_type: null, wrvus: null, ...over,
});

async function submit(store: ServiceStore, count: number, base: number, run: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    const r = await store.submitReport({
      id, report: report(base + i), fingerprint: `fp-${run}-${base + i}`, clientHash: `client-${run}-${Math.floor(i / 5)}`, day: '2026-11-20',
      received_at: new Date(Date.UTC(2026, 10, 20, 10) + i).toISOString(), challenge: i % 2 ? 'pow' : 'form', challengeSignature: null, seconds_to_submit: 10 + i,
    }, { perClient: 5, withoutProofPerDay: 1_000_000 });
    expect(r.outcome).toBe('stored');
    ids.push(id);
  }
  return ids;
}

const webRows = (db: string) => {
  const d = new Database(db, { readonly: true });
  try {
    return d.prepare("SELECT id, submission_id, status, source, batch_id, intake_signals FROM reports WHERE source = 'web' ORDER BY id").all() as { id: number; submission_id: string; status: string; source: string; batch_id: number; intake_signals: string }[];
  } finally {
    d.close();
  }
};

for (const kind of ['sqlite', 'postgres'] as const) {
  describe.skipIf(kind === 'postgres' && pgSkip !== null)(`import submissions from ${kind}`, () => {
    const serviceDb = () => (kind === 'sqlite' ? join(tmp.path, 'service.db') : PG_URL);
    const drain = async () => {
      // earlier tests' leftovers on a shared PostgreSQL database: take them into a throwaway DB first
      await runCliText(['import', 'submissions', '--db', freshDb(), '--service-db', serviceDb()]);
    };

    it('one batch of pending web reports with their signals; a second run imports nothing; moderate list shows them; undo works', async () => {
      await drain();
      const store = await openServiceStore(serviceDb());
      const ids = await submit(store, 7, 310_000, `a-${kind}`);
      await store.close();
      const db = freshDb();
      const r = await runCliText(['import', 'submissions', '--db', db, '--service-db', serviceDb()]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toMatch(/^imported 7 submissions as pending reports \(batch (\d+)\); next: physpay moderate list --db /);
      const rows = webRows(db);
      expect(rows.map((x) => x.submission_id).sort()).toEqual([...ids].sort());
      expect(new Set(rows.map((x) => x.status))).toEqual(new Set(['pending']));
      expect(JSON.parse(rows[1]!.intake_signals)).toEqual({ challenge: 'pow', seconds_to_submit: 11, client_submissions_today: 2, same_report_elsewhere: 0 });
      // taken: nothing pending, and a second run says so
      expect((await runCliText(['import', 'submissions', '--db', db, '--service-db', serviceDb()])).out).toMatch(/^no submissions are waiting in /);
      expect(webRows(db)).toHaveLength(7);
      // the moderator sees where each came from and how
      const list = JSON.parse((await runCliText(['moderate', 'list', '--db', db, '--json', '--limit', 'all', '--status', 'all'])).out);
      const web = list.rows.filter((x: { source: string }) => x.source === 'web');
      expect(web).toHaveLength(7);
      expect(web.find((x: { id: number }) => x.id === rows[1]!.id).signals).toBe('proof of work, 11 s to submit, 2nd from its client that day');
      expect(list.rows.filter((x: { source: string | null }) => x.source !== 'web').every((x: { source: string | null }) => x.source === null)).toBe(true); // the demo data: written straight into the DB
      const text = (await runCliText(['moderate', 'list', '--db', db, '--limit', 'all'])).out;
      expect(text).toContain('form without JavaScript, 10 s to submit, 1st from its client that day');
      // the batch is an ordinary batch: listed, and undone
      const batch = Number(/batch (\d+)/.exec(r.out)![1]);
      expect((await runCliText(['import', 'list', '--db', db])).out).toContain('web submissions (7)');
      const undo = await runCliText(['import', 'undo', String(batch), '--db', db, '--yes']);
      expect(undo.code, undo.err).toBe(0);
      expect(webRows(db)).toHaveLength(0);
    });

    it('stopped after the reports DB committed and before marking: the next run marks them and imports nothing twice; duplicates skipped', async () => {
      await drain();
      const store = await openServiceStore(serviceDb());
      const ids = await submit(store, 4, 320_000, `b-${kind}`);
      const db = freshDb();
      const d = openReportsDb(db);
      const first = importSubmissions(d, await store.pendingSubmissions(1000), '2026-11-21T02:00:00.000Z'); // step 1 only
      d.close();
      await store.close();
      expect(first.imported).toHaveLength(4);
      const r = await runCliText(['import', 'submissions', '--db', db, '--service-db', serviceDb()]);
      expect(r.out).toMatch(/^imported nothing new; 4 imported by an earlier run that stopped before marking them, now marked/);
      expect(webRows(db).map((x) => x.submission_id).sort()).toEqual([...ids].sort());
      expect((await runCliText(['import', 'submissions', '--db', db, '--service-db', serviceDb()])).out).toMatch(/^no submissions are waiting/);
    });

    it('killed at a random moment, then run again: every submission exactly once', async () => {
      await drain();
      const store = await openServiceStore(serviceDb());
      const ids = await submit(store, 1500, 400_000, `c-${kind}`);
      await store.close();
      const db = freshDb();
      // how long a whole run takes here (nothing to do once it is done: the kills below land at random
      // moments across a real run's length, start-up included)
      const started = performance.now();
      await runCliText(['import', 'submissions', '--db', freshDb(), '--service-db', join(tmp.path, 'empty-service.db')]);
      const span = Math.max(300, (performance.now() - started) * 2);
      let killed = 0;
      for (let attempt = 0; attempt < 5; attempt++) {
        const child = spawn(process.execPath, [BIN, 'import', 'submissions', '--db', db, '--service-db', serviceDb()], { stdio: 'ignore' });
        const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * span)));
        killed += child.kill('SIGKILL') ? 1 : 0;
        await exited;
      }
      expect(killed).toBeGreaterThan(0);
      const last = await runCliText(['import', 'submissions', '--db', db, '--service-db', serviceDb()]);
      expect(last.code, last.err).toBe(0);
      const rows = webRows(db);
      expect(rows.map((x) => x.submission_id).sort()).toEqual([...ids].sort()); // each once (the index is unique too)
      const after = await openServiceStore(serviceDb());
      expect((await after.pendingSubmissions(10_000)).filter((p) => ids.includes(p.id))).toEqual([]);
      await after.close();
    }, 60_000);
  });
}

describe('import submissions: the importer\'s rules, duplicates, --json, and the build', () => {
  const one = async (store: ServiceStore, r: IntakeReport, receivedAt: string, client: string, challenge: 'pow' | 'form' = 'form'): Promise<string> => {
    const id = randomUUID();
    const res = await store.submitReport({
      id, report: r, fingerprint: `fp-${id}`, clientHash: client, day: receivedAt.slice(0, 10), received_at: receivedAt, challenge,
      challengeSignature: null, seconds_to_submit: 12,
    }, { perClient: 5, withoutProofPerDay: 1_000_000 });
    expect(res.outcome).toBe('stored');
    return id;
  };

  it('refuses what the CSV importer refuses (left waiting, reasons on stderr); skips duplicates of the DB (demo reports too) and of each other; --json', async () => {
    const serviceDb = join(tmp.path, 'service-rules.db');
    const db = freshDb();
    // a report already in the DB (demo data, written without a fingerprint): the same values sent again (one
    // that answers none of the whole offer: a report's answers include those it gives, as its fingerprint does)
    const d = new Database(db, { readonly: true });
    const demo = d.prepare(`SELECT s.name AS specialty, r.* FROM reports r JOIN specialties s ON s.id = r.specialty_id
      WHERE r.fingerprint IS NULL AND ${OFFER_COLUMNS.map((c) => `r.${c} IS NULL`).join(' AND ')} ORDER BY r.id LIMIT 1`).get() as IntakeReport & { id: number; submitted_at: string };
    d.close();
    expect(demo).toBeDefined();
    const store = await openServiceStore(serviceDb);
    const at = '2026-11-20T10:00:00.000Z';
    const good = await one(store, report(333_000), at, 'c1', 'pow');
    const sameAsDemo = await one(store, {
      specialty: demo.specialty, state: demo.state, year: demo.year, total_compensation: demo.total_compensation, base_salary: demo.base_salary, bonus: demo.bonus,
      hours_per_week: demo.hours_per_week, years_in_practice: demo.years_in_practice, practice_setting: demo.practice_setting, employment_type: demo.employment_type, wrvus: demo.wrvus,
    }, demo.submitted_at, 'c2');
    const twinA = await one(store, report(344_000), at, 'c3');
    const twinB = await one(store, report(344_000), at, 'c4'); // the same report at the same moment from another client: one of them is kept
    const astrology = await one(store, report(355_000, { specialty: 'Astrology' }), at, 'c5');
    const badState = await one(store, report(356_000, { state: 'ZZ' }), at, 'c6');
    const tooManyHours = await one(store, report(357_000, { hours_per_week: 200 }), at, 'c7');
    const parts = await one(store, report(358_000, { base_salary: 300_000, bonus: 100_000 }), at, 'c8');
    const lateYear = await one(store, report(359_000, { year: 2027 }), at, 'c9');
    await store.close();

    const r = await runCliText(['import', 'submissions', '--db', db, '--service-db', serviceDb]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^imported 2 submissions as pending reports \(batch (\d+)\); 2 skipped: the same report is already in the DB \(listed on stderr\); 5 refused by the importer's rules, left waiting \(reasons on stderr\); next: physpay moderate list --db /);
    const lines = r.err.trim().split('\n');
    expect(lines.filter((l) => / skipped, the same report as report \d+ already in the DB/.test(l))).toHaveLength(2);
    const reasons = Object.fromEntries(lines.filter((l) => !l.includes(': skipped, ')).map((l) => { const m = /^submission (\S+): (.*)$/.exec(l)!; return [m[1], m[2]]; }));
    expect(reasons[astrology]).toBe('specialty: unknown specialty "Astrology" (physpay reference specialties lists the names and spellings)');
    expect(reasons[badState]).toMatch(/^state: must be a two-letter US state code such as NY or DC \(got "ZZ"/);
    expect(reasons[tooManyHours]).toMatch(/^hours_per_week: /);
    expect(reasons[parts]).toBe('base_salary + bonus (400000) exceed total_compensation (358000)');
    expect(reasons[lateYear]).toBe('year: compensation year 2027 is after the submission date 2026-11-20');
    expect(Object.keys(reasons)).toHaveLength(5);
    const rows = webRows(db);
    const taken = rows.map((x) => x.submission_id);
    expect(taken).toHaveLength(2);
    expect(taken).toContain(good);
    expect(taken.filter((id) => id === twinA || id === twinB)).toHaveLength(1); // the twins received at the same moment: either one
    expect(taken).not.toContain(sameAsDemo);
    // a web report takes the importer's fingerprint, so a CSV file with the same report would be skipped as a duplicate
    const check = new Database(db, { readonly: true });
    const fp = check.prepare('SELECT fingerprint FROM reports WHERE submission_id = ?').pluck().get(good) as string;
    check.close();
    expect(fp).toMatch(/^[0-9a-f]{32}$/);

    // duplicates were taken (nothing left to do for them); the refused wait, and are named again, in JSON this time
    const again = await runCliText(['import', 'submissions', '--db', db, '--service-db', serviceDb, '--json']);
    expect(again.code, again.err).toBe(0);
    const j = JSON.parse(again.out);
    expect(j).toMatchObject({ db, batch_id: null, imported: 0, already_imported: 0, duplicates: 0 });
    expect(j.refused.map((x: { id: string }) => x.id).sort()).toEqual([astrology, badState, tooManyHours, parts, lateYear].sort());
    expect(j.refused.find((x: { id: string }) => x.id === astrology).reason).toMatch(/^specialty: unknown specialty "Astrology"/);
    const left = await openServiceStore(serviceDb);
    expect((await left.pendingSubmissions(100)).map((p) => p.id).sort()).toEqual([astrology, badState, tooManyHours, parts, lateYear].sort());
    await left.close();
    expect(webRows(db)).toHaveLength(2);
  });

  it('the whole offer: stored on the report; checked by the importer\'s rules; a twin of a DB report with the same offer skipped, with another offer imported', async () => {
    const serviceDb = join(tmp.path, 'service-offer.db');
    const db = freshDb();
    // a demo report with offer values (written straight into the DB, without a fingerprint)
    const d = new Database(db, { readonly: true });
    const demo = d.prepare(`SELECT s.name AS specialty, r.* FROM reports r JOIN specialties s ON s.id = r.specialty_id
      WHERE r.fingerprint IS NULL AND r.compensation_model IS NOT NULL AND r.pto_weeks IS NOT NULL AND r.signing_bonus > 0 ORDER BY r.id LIMIT 1`).get() as Record<string, unknown> & { submitted_at: string; pto_weeks: number };
    d.close();
    expect(demo).toBeDefined();
    const answers = (over: Partial<IntakeReport> = {}): IntakeReport => ({
      ...Object.fromEntries(['specialty', 'state', 'year', 'total_compensation', 'base_salary', 'bonus', 'hours_per_week', 'years_in_practice', 'practice_setting', 'employment_type', 'wrvus']
        .map((k) => [k, demo[k]])),
      ...Object.fromEntries(OFFER_COLUMNS.filter((c) => demo[c] !== null).map((c) => [c, demo[c]])),
      ...over,
    }) as IntakeReport;
    const offer = {
      call_pay: 30_000, call_nights_per_month: 5, signing_bonus: 25_000, retention_bonus: 0, relocation: 10_000, loan_repayment: 90_000, loan_repayment_years: 3,
      cme_allowance: 3_500, pto_weeks: 5.5, compensation_model: 'production' as const, wrvu_conversion_rate: 52.5, non_compete_miles: 15, non_compete_years: 2, partnership_track_years: 0,
    };
    const store = await openServiceStore(serviceDb);
    const at = '2026-11-20T10:00:00.000Z';
    const full = await one(store, report(377_000, offer), at, 'o1', 'pow');
    const sameAsDemo = await one(store, answers(), demo.submitted_at, 'o2');
    const otherOffer = await one(store, answers({ pto_weeks: demo.pto_weeks + 1 }), demo.submitted_at, 'o3');
    const callOverTotal = await one(store, report(378_000, { call_pay: 400_000 }), at, 'o4');
    const radiusAlone = await one(store, report(379_000, { non_compete_miles: 20 }), at, 'o5');
    await store.close();

    const r = await runCliText(['import', 'submissions', '--db', db, '--service-db', serviceDb, '--json']);
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ imported: 2, duplicates: 1 });
    expect(j.duplicate_of.map((x: { id: string }) => x.id)).toEqual([sameAsDemo]);
    expect(Object.fromEntries(j.refused.map((x: { id: string; reason: string }) => [x.id, x.reason]))).toEqual({
      [callOverTotal]: 'call_pay (400000) is part of total_compensation and cannot exceed it (378000)',
      [radiusAlone]: 'non_compete_years is needed for a non-compete with a radius (non_compete_miles above 0): give its length in years',
    });
    const q = new Database(db, { readonly: true });
    const stored = (id: string) => q.prepare(`SELECT ${OFFER_COLUMNS.join(', ')} FROM reports WHERE submission_id = ?`).get(id);
    expect(stored(full)).toEqual(offer);
    expect(stored(otherOffer)).toMatchObject({ pto_weeks: demo.pto_weeks + 1, compensation_model: demo.compensation_model, signing_bonus: demo.signing_bonus });
    q.close();
  });

  it('a report already imported, sent again (only the time differs): the store refuses the repeat, and the importer skips one that got in; said in the summary, on stderr and in --json', async () => {
    const serviceDb = join(tmp.path, 'service-repeat.db');
    const db = freshDb();
    const secret = 'a store secret';
    const nine = Array.from({ length: 9 }, (_, i) => report(370_000 + i * 1000, { specialty: 'Pediatrics', state: 'OH' }));
    const send = async (store: ServiceStore, r: IntakeReport, client: string, at: string) => {
      const id = randomUUID();
      const res = await store.submitReport({
        id, report: r, fingerprint: submissionFingerprint(r), clientHash: clientHash(secret, client), day: at.slice(0, 10), received_at: at, challenge: 'pow',
        challengeSignature: null, seconds_to_submit: 20,
      }, { perClient: 20, withoutProofPerDay: 1_000_000 });
      return { id, outcome: res.outcome };
    };
    let store = await openServiceStore(serviceDb);
    const first = await Promise.all(nine.map((r, i) => send(store, r, '198.51.100.7', `2026-11-20T10:00:0${i}.000Z`)));
    expect(first.map((x) => x.outcome)).toEqual(Array(9).fill('stored'));
    await store.close();
    const nightly = await runCliText(['import', 'submissions', '--db', db, '--service-db', serviceDb]);
    expect(nightly.out).toMatch(/^imported 9 submissions as pending reports/);

    // the next day the same client sends the same nine: each a repeat, nothing stored
    store = await openServiceStore(serviceDb);
    const again = await Promise.all(nine.map((r, i) => send(store, r, '198.51.100.7', `2026-11-21T09:00:0${i}.000Z`)));
    expect(again.map((x) => x.outcome)).toEqual(Array(9).fill('repeat'));
    expect(await store.pendingSubmissions(100)).toEqual([]);
    // stored anyway (by an older physpay, which forgot the client at the import; or the same person from
    // another address): the importer skips each, as the same report as one already in the DB
    const through = await Promise.all(nine.map((r, i) => send(store, r, '203.0.113.99', `2026-11-21T09:30:0${i}.000Z`)));
    expect(through.map((x) => x.outcome)).toEqual(Array(9).fill('stored'));
    // and the same answers twice in one run, from two clients: one is kept
    const twin1 = await send(store, report(388_000, { specialty: 'Pediatrics', state: 'OH' }), '192.0.2.1', '2026-11-21T11:00:00.000Z');
    const twin2 = await send(store, report(388_000, { specialty: 'Pediatrics', state: 'OH' }), '192.0.2.2', '2026-11-21T12:00:00.000Z');
    await store.close();

    const before = webRows(db);
    // the same run twice, on copies: --json, and the text
    const [dbCopy, serviceCopy] = [join(tmp.path, 'repeat-copy.db'), join(tmp.path, 'service-repeat-copy.db')];
    copyFileSync(db, dbCopy);
    copyFileSync(serviceDb, serviceCopy);
    const json = await runCliText(['import', 'submissions', '--db', dbCopy, '--service-db', serviceCopy, '--json']);
    expect(json.code, json.err).toBe(0);
    const j = JSON.parse(json.out);
    expect(j).toMatchObject({ imported: 1, already_imported: 0, duplicates: 10, refused: [] });
    const reportOf = new Map(before.map((x) => [x.submission_id, x.id]));
    const twinReport = webRows(dbCopy).find((x) => x.submission_id === twin1.id)!.id;
    expect(j.duplicate_of).toEqual([
      ...through.map((x, i) => ({ id: x.id, report_id: reportOf.get(first[i]!.id) })),
      { id: twin2.id, report_id: twinReport },
    ]);
    const r = await runCliText(['import', 'submissions', '--db', db, '--service-db', serviceDb]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^imported 1 submission as pending reports \(batch \d+\); 10 skipped: the same report is already in the DB \(listed on stderr\); next: /);
    const rows = webRows(db);
    expect(rows).toHaveLength(10);
    expect(rows.find((x) => x.submission_id === twin1.id)!.id).toBe(twinReport);
    expect(r.err.split('\n')).toEqual([
      ...through.map((x, i) => `submission ${x.id}: skipped, the same report as report ${reportOf.get(first[i]!.id)} already in the DB (the time it was sent aside)`),
      `submission ${twin2.id}: skipped, the same report as report ${twinReport} already in the DB (the time it was sent aside)`,
    ]);
    // taken: nothing waits, and a text run says so
    const left = await openServiceStore(serviceDb);
    expect(await left.pendingSubmissions(100)).toEqual([]);
    await left.close();
  });

  it('--json on a first run; approved, a web report is counted by the next build; moderate list names csv batches', async () => {
    const serviceDb = join(tmp.path, 'service-build.db');
    const golden = goldenBuildIn(mkdirSync(join(tmp.path, 'build-golden'), { recursive: true })!, join(tmp.path, 'build-before'));
    const db = golden.db;
    const before = { dir: golden.buildDir };
    // a CSV import, for moderate list's source column
    const csv = join(tmp.path, 'one.csv');
    writeFileSync(csv, 'specialty,state,year,total_compensation,base_salary,bonus,hours_per_week,years_in_practice,practice_setting,employment_type,wrvus,submitted_at,status\nCardiology,NY,2025,512345,,,,,,,,2026-01-05,\n');
    const csvImport = await runCliText(['import', 'reports', '--db', db, csv]);
    expect(csvImport.code, csvImport.err).toBe(0);
    const csvBatch = Number(/batch (\d+)/.exec(csvImport.out)![1]);
    const store = await openServiceStore(serviceDb);
    const kept = await one(store, report(421_000, { specialty: 'Family Medicine', state: 'OH' }), '2026-11-10T08:00:00.000Z', 'k1', 'pow');
    const other = await one(store, report(422_000, { specialty: 'Family Medicine', state: 'OH' }), '2026-11-10T09:00:00.000Z', 'k2');
    await store.close();
    const r = await runCliText(['import', 'submissions', '--db', db, '--service-db', serviceDb, '--json']);
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ db, store: expect.any(String), imported: 2, already_imported: 0, duplicates: 0, refused: [] });
    expect(j.batch_id).toBeGreaterThan(csvBatch);
    const listed = JSON.parse((await runCliText(['moderate', 'list', '--db', db, '--json', '--limit', 'all'])).out);
    const byId = new Map<number, { id: number; source: string | null; signals: string | null }>(listed.rows.map((x: { id: number }) => [x.id, x]));
    const rows = webRows(db);
    const keptRow = byId.get(rows.find((x) => x.submission_id === kept)!.id)!;
    expect(keptRow).toMatchObject({ source: 'web', signals: 'proof of work, 12 s to submit, 1st from its client that day' });
    expect([...byId.values()].filter((x) => x.source === `csv batch ${csvBatch}`)).toHaveLength(1);
    expect([...byId.values()].filter((x) => x.source === 'csv batch ' + csvBatch)[0]!.signals).toBeNull();
    const approved = await runCliText(['moderate', 'approve', '--db', db, String(keptRow.id), '--moderator', 'test']);
    expect(approved.code, approved.err).toBe(0);
    const after = goldenBuild(db, join(tmp.path, 'build-after'));
    // the exact count of a specialty's reports (its private keyed columns); published counts are perturbed
    const n = (dir: string, slug: string) => (JSON.parse(readFileSync(join(dir, `private/keyed/reports/${slug}.json`), 'utf8')) as { count: number }).count;
    expect(n(after.dir, 'family-medicine')).toBe(n(before.dir, 'family-medicine') + 1); // the approved one; the other is still pending
    expect(other).not.toBe(kept);
  }, 120_000);
});
