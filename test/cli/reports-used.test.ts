/**
 * "Reports used" is one number everywhere: the reports behind the published national figures (the n of
 * specialties.json: the headline compensation years on a full-time basis, outliers left out). The build
 * line, `physpay build --json`, build.json, `physpay builds list`, releases.json and the home page show it;
 * every approved report the build read is a second number with its own name, "approved" (`approved_reports`).
 * The sanity diff's count check compares approved reports, also with a build.json written before
 * approved_reports was recorded (there `reports_used` held the approved count).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { compareBuilds, DEFAULT_THRESHOLDS } from '../../build/compute/diff.ts';
import { BuildSummary, summaryCounts } from '../../build/contract/manifest.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const NOW = new Date('2026-11-16T03:00:00.000Z');
const tmp = useTempDir('reports-used');
let db: string;
let out: string;
let built: Record<string, unknown>;
let line: string;

beforeAll(async () => {
  db = join(tmp.path, 'reports.db');
  out = join(tmp.path, 'dist');
  expect((await runCli(['demo', '--db', db, '--reports', '400', '--as-of', '2026-11-15'], { now: NOW })).code).toBe(0);
  const r = await runCli(['build', '--db', db, '--out', out, '--no-fsync', '--no-precompress', '--build-date', '2026-11-16', '--json'], { now: NOW });
  expect(r.code, r.err.join('\n')).toBe(0);
  built = JSON.parse(r.out[0]!) as Record<string, unknown>;
  line = built.message as string;
});

const feed = <T>(path: string) => JSON.parse(readFileSync(join(out, 'current', 'public', 'data', 'api', 'v1', path), 'utf8')) as T;

describe('reports used: one number, and approved reports: another, each named', () => {
  it('build --json, build.json, releases.json and the home page give the same reports used', () => {
    const approved = (new Database(db, { readonly: true }).prepare("SELECT count(*) AS n FROM reports WHERE status = 'approved'").get() as { n: number }).n;
    const n = feed<{ n: number }>('specialties.json').n;
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(approved); // three compensation years on a full-time basis, outliers left out
    expect(built).toMatchObject({ reports_used: n, approved_reports: approved });
    const summary = BuildSummary.parse(JSON.parse(readFileSync(join(out, 'current', 'build.json'), 'utf8')));
    expect(summary).toMatchObject({ reports_used: n, approved_reports: approved });
    expect(feed<{ releases: { reports_used: number }[] }>('releases.json').releases[0]!.reports_used).toBe(n);
    const home = readFileSync(join(out, 'current', 'public', 'index.html'), 'utf8');
    expect(home).toMatch(new RegExp(`<dt>Reports used \\(n\\)</dt><dd><span data-field="n" data-value="${n}">`));
  });

  it('the build line and builds list name both numbers', async () => {
    const fmt = (v: unknown) => (v as number).toLocaleString('en-US');
    expect(line).toMatch(new RegExp(`^built \\S+: ${fmt(built.reports_used)} reports used of ${fmt(built.approved_reports)} approved, `));
    const list = await runCli(['builds', 'list', '--out', out], { now: NOW });
    expect(list.out[0]).toContain(`${fmt(built.reports_used)} reports used of ${fmt(built.approved_reports)} approved`);
  });

  it('a build.json written before approved_reports was recorded: its reports_used counted approved reports', () => {
    const old = { reports_used: 1431, medians: {}, counts: {} };
    expect(summaryCounts(old)).toEqual({ approved: 1431, used: null });
    expect(summaryCounts({ ...old, reports_used: 1102, approved_reports: 1431 })).toEqual({ approved: 1431, used: 1102 });
    // the first build after the upgrade compares approved with approved: no drop from 1,431 to 1,102
    expect(compareBuilds(old, { ...old, reports_used: 1102, approved_reports: 1431 }, DEFAULT_THRESHOLDS)).toEqual([]);
    expect(compareBuilds(old, { ...old, reports_used: 1102, approved_reports: 1000 }, DEFAULT_THRESHOLDS)).toEqual(['approved reports fell from 1,431 to 1,000 (-30.1%, limit 20%)']);
  });
});
