/**
 * /metrics for monitoring the nightly jobs: the last `physpay build`'s outcome, duration and end time (from
 * `<data>/last-build.json`, read again when it changes), and the submissions waiting in the service store
 * for `physpay import submissions`; with `--workers 2` each is shown once, not summed over the workers.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { FIXED_NOW } from '../helpers/golden-build.ts';
import { closeAfterAll, startTestServer } from '../helpers/server.ts';
import { spawnServe } from '../server/serve-process.ts';
import { SqliteServiceStore } from '../../server/store/sqlite.ts';
import type { IntakeReport, NewSubmission } from '../../server/store/types.ts';
import { writeLastBuild } from '../../build/emit/last-build.ts';
import { scrape, serveArgs, sum, useOpsFixture, type Sample } from './ops-helpers.ts';

const f = useOpsFixture('build-metrics');
const stopLater = closeAfterAll();

const OUTCOME = 'physpay_last_build_outcome';
const outcomes = (samples: Sample[]) => Object.fromEntries(samples.filter((s) => s.name === OUTCOME).map((s) => [s.labels.outcome, s.value]));
const value = (samples: Sample[], name: string) => {
  const found = samples.filter((s) => s.name === name);
  expect(found, name).toHaveLength(1);
  return found[0]!.value;
};

const report = (total: number): IntakeReport => ({ specialty: 'Cardiology', state: 'TX', year: 2025, total_compensation: total, base_salary: null, bonus: null, hours_per_week: null, years_in_practice: null, practice_setting: null, employment_type: null, wrvus: null });
const sub = (i: number): NewSubmission => ({
  id: `00000000-0000-4000-8000-00000000000${i}`, report: report(400_000 + i), fingerprint: `fp-${i}`, clientHash: `client-${i}`, day: '2026-11-20', received_at: `2026-11-20T10:00:0${i}.000Z`,
  challenge: 'pow', challengeSignature: null, seconds_to_submit: null,
});

describe('/metrics: the last build and the intake queue', () => {
  it('no last-build.json: no outcome samples, 0 for duration and end; an empty queue is 0', async () => {
    const server = stopLater(await startTestServer(f.dist, f.serviceDb));
    const { r, samples } = await scrape(server.url);
    expect(r.text).toContain(`# TYPE ${OUTCOME} gauge`);
    expect(outcomes(samples)).toEqual({});
    expect(value(samples, 'physpay_last_build_duration_seconds')).toBe(0);
    expect(value(samples, 'physpay_last_build_finished_timestamp_seconds')).toBe(0);
    expect(value(samples, 'physpay_intake_queue_depth')).toBe(0);
  });

  it('shows the outcome of each build as it is recorded, and the submissions waiting', async () => {
    const server = stopLater(await startTestServer(f.dist, f.serviceDb));
    const later = new Date(FIXED_NOW.getTime() + 3_600_000);
    const built = await runCli(['build', '--db', f.db, '--out', f.dist, '--base-url', 'https://physpay.example', '--build-date', '2026-11-16', '--no-fsync', '--no-precompress'], { now: later });
    expect(built.code, built.err.join('\n')).toBe(0);
    let { samples } = await scrape(server.url);
    expect(outcomes(samples)).toEqual({ published: 0, unchanged: 1, pinned: 0, refused: 0, failed: 0 });
    expect(value(samples, 'physpay_last_build_finished_timestamp_seconds')).toBe(later.getTime() / 1000);
    expect(value(samples, 'physpay_last_build_duration_seconds')).toBeGreaterThan(0);

    writeLastBuild(f.dist, { outcome: 'refused', build_id: null, started_at: '2026-11-17T03:00:00.000Z', finished_at: '2026-11-17T03:00:42.500Z', duration_ms: 42_500, exit_code: 1, message: 'the new build differs too much' });
    ({ samples } = await scrape(server.url));
    expect(outcomes(samples)).toEqual({ published: 0, unchanged: 0, pinned: 0, refused: 1, failed: 0 });
    expect(value(samples, 'physpay_last_build_duration_seconds')).toBe(42.5);
    expect(value(samples, 'physpay_last_build_finished_timestamp_seconds')).toBe(Date.parse('2026-11-17T03:00:42.500Z') / 1000);

    const store = new SqliteServiceStore(f.serviceDb); // as /contribute stores them
    try {
      for (const i of [1, 2, 3]) expect(store.submitReport(sub(i), { perClient: 5, withoutProofPerDay: 100 }).outcome).toBe('stored');
      expect(value((await scrape(server.url)).samples, 'physpay_intake_queue_depth')).toBe(3);
      store.markSubmissionsTaken([sub(1).id], 1, '2026-11-20T11:00:00.000Z'); // as physpay import submissions does
      expect(value((await scrape(server.url)).samples, 'physpay_intake_queue_depth')).toBe(2);
    } finally {
      store.close();
    }
  }, 120_000);

  it('--workers 2: each figure once, not summed over the workers', async () => {
    const cluster = stopLater(await spawnServe(serveArgs(f, '--workers', '2')));
    for (let i = 0; i < 4; i++) {
      const { samples } = await scrape(cluster.url);
      expect(outcomes(samples), `scrape ${i}`).toEqual({ published: 0, unchanged: 0, pinned: 0, refused: 1, failed: 0 });
      expect(value(samples, 'physpay_last_build_duration_seconds')).toBe(42.5);
      expect(value(samples, 'physpay_intake_queue_depth')).toBe(2);
      expect(sum(samples, 'physpay_build_info')).toBe(1);
    }
  }, 60_000);
});
