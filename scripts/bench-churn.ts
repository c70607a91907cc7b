/**
 * Nightly churn (README: The build, "What a nightly build rewrites"): how many files a build changes after a
 * few new reports. Makes the demo DB (60,000 reports, seed 42; cached under bench/out/churn/), builds it,
 * adds `--reports` approved reports of one specialty in one state (submitted the next day, near the
 * specialty's national median, with wRVUs), builds again into the same out dir the next night, and prints
 * the files changed (content hash: the access date does not count) and reused (hard links), by kind.
 *
 *   npx tsx scripts/bench-churn.ts [--reports 40] [--specialty cardiology] [--state CA] [--demo-reports 60000] [--seed 42] [--keep] [--json]
 *
 * --demo-reports 1500 --seed 7: the golden DB's sparse data (most cells withheld). --keep: leave both builds
 * under bench/out/churn/dist for a look.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createDemoDb } from '../build/demo/create.ts';
import { openReportsDb } from '../build/db/open.ts';
import { DEFAULT_BUILD_OPTIONS, runBuild, type BuildResult } from '../build/run-build.ts';
import { readManifest } from '../build/emit/store.ts';
import { arg, flag } from './bench-lib.ts';

const added = Number(arg('reports', '40'));
const specialty = arg('specialty', 'cardiology');
const state = arg('state', 'CA');
const json = flag('json');
const DEMO = { reports: Number(arg('demo-reports', '60000')), seed: Number(arg('seed', '42')), asOf: '2026-11-15' };
const keep = flag('keep');

const work = resolve('bench/out/churn');
mkdirSync(work, { recursive: true });
const cached = join(work, `demo-${DEMO.reports}-${DEMO.seed}.db`);
if (!existsSync(cached)) createDemoDb(cached, { ...DEMO, force: true });
const db = join(work, 'night.db');
for (const ext of ['', '-wal', '-shm']) rmSync(`${db}${ext}`, { force: true });
copyFileSync(cached, db);
const out = join(work, 'dist');
rmSync(out, { recursive: true, force: true });

const night = (day: number) => new Date(Date.UTC(2026, 10, 16 + day, 3));
// force: a small specialty's median may move past the sanity diff (the files written are the same either way)
const build = (day: number): BuildResult =>
  runBuild({ ...DEFAULT_BUILD_OPTIONS, db, out, durable: false, force: true, buildDate: night(day).toISOString().slice(0, 10), now: () => night(day) });

const first = build(0);

// The new reports: around the specialty's national median and $/wRVU (so they are not outliers), one state.
const d = openReportsDb(db);
try {
  const sp = d.prepare('SELECT id FROM specialties WHERE slug = ?').get(specialty) as { id: number } | undefined;
  if (!sp) throw new Error(`bench-churn: no specialty ${specialty}`);
  const totals = (d.prepare("SELECT total_compensation t, wrvus w FROM reports WHERE specialty_id = ? AND status = 'approved' ORDER BY t").all(sp.id) as { t: number; w: number | null }[]);
  const mid = totals[Math.floor(totals.length / 2)]!.t;
  const rates = totals.filter((r) => r.w).map((r) => r.t / r.w!).sort((a, b) => a - b);
  const rate = rates[Math.floor(rates.length / 2)] ?? 60;
  const ins = d.prepare(`INSERT INTO reports (specialty_id, state, year, total_compensation, base_salary, bonus, hours_per_week,
    years_in_practice, practice_setting, employment_type, wrvus, submitted_at, status, moderated_at)
    VALUES (?, ?, 2026, ?, NULL, NULL, 55, ?, 'hospital', 'employed', ?, ?, 'approved', ?)`);
  d.transaction(() => {
    for (let k = 0; k < added; k++) {
      const total = Math.round((mid * (0.85 + (0.3 * k) / Math.max(1, added - 1))) / 100) * 100;
      const at = `2026-11-16T${String(8 + (k % 12)).padStart(2, '0')}:00:00.000Z`;
      ins.run(sp.id, state, total, 3 + (k % 25), Math.round(total / rate), at, at);
    }
  })();
} finally {
  d.close();
}

const second = build(1);
const a = readManifest(first.dir);
const b = readManifest(second.dir);
const kindOf = (p: string) =>
  p.startsWith('private/') ? 'keyed (private)'
  : p.endsWith('.html') ? 'pages'
  : p.endsWith('.csv') ? 'CSV'
  : p.startsWith('public/data/') ? 'feeds'
  : 'other public';
const byKind: Record<string, { changed: number; total: number }> = {};
for (const [p, f] of Object.entries(b.files)) {
  const k = (byKind[kindOf(p)] ??= { changed: 0, total: 0 });
  k.total++;
  if (a.files[p]?.content_hash !== f.content_hash) k.changed++;
}
const result = {
  demo_reports: DEMO.reports,
  reports_used: first.summary.approved_reports ?? first.summary.reports_used, // approved reports (the name the bench report reads)
  added,
  specialty,
  state,
  files: second.summary.files,
  changed: second.filesChanged,
  reused: second.filesReused,
  by_kind: byKind,
  seconds: { first: first.seconds, second: second.seconds },
};
if (!keep) {
  rmSync(out, { recursive: true, force: true });
  for (const ext of ['', '-wal', '-shm']) rmSync(`${db}${ext}`, { force: true });
}

if (json) console.log(JSON.stringify(result));
else {
  console.log(`physpay nightly churn: demo DB of ${DEMO.reports.toLocaleString('en-US')} (${result.reports_used.toLocaleString('en-US')} approved), then ${added} ${specialty} reports in ${state}`);
  console.log(`files changed: ${result.changed.toLocaleString('en-US')} of ${result.files.toLocaleString('en-US')} (${((100 * result.changed) / result.files).toFixed(1)}%); reused: ${result.reused.toLocaleString('en-US')}`);
  for (const [k, v] of Object.entries(byKind)) console.log(`  ${k.padEnd(16)} ${String(v.changed).padStart(6)} of ${String(v.total).padStart(6)}`);
  console.log(`build seconds: first ${first.seconds.toFixed(1)}, second ${second.seconds.toFixed(1)}`);
}
