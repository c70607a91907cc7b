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
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { makeGoldenDb } from '../helpers/golden-build.ts';
import { runCliText } from '../helpers/cli.ts';
import { PG_URL, pgSkipReason } from '../helpers/pg.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { BIN } from '../server/serve-process.ts';
import { openServiceStore } from '../../server/store/open.ts';
import type { IntakeReport, ServiceStore } from '../../server/store/types.ts';
import { openReportsDb } from '../../build/db/open.ts';
import { importSubmissions } from '../../build/import/submissions.ts';

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
    }, 5);
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
