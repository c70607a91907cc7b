/**
 * Build benchmark (the quality bars in README: Benchmarks: 1,000,000 reports in under 60 s and 1.5 GB, cost no worse than
 * N log N, and within 10x DuckDB's time for the same cells). Makes demo DBs of 100k, 300k, 1M and 3M reports
 * (cached under bench/out/), runs each build in a fresh process several times, and prints seconds, each
 * stage's seconds and peak RSS side by side with the targets, plus the growth exponent of time in N (1.0 =
 * linear; N log N over this range is about 1.1). Then, in the same run, the DuckDB reference
 * (scripts/bench-duckdb.ts) computes the same cells from the same rows of the 1M DB, and the report gives
 * the ratio of physpay's whole build to DuckDB's queries.
 *
 *   npx tsx scripts/bench-build.ts [--sizes 100000,300000,1000000,3000000] [--runs 3] [--reference-size 1000000] [--json]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createDemoDb } from '../build/demo/create.ts';
import { arg, flag, median } from './bench-lib.ts';
import type { DuckdbReference } from './bench-duckdb.ts';

const sizes = arg('sizes', '100000,300000,1000000,3000000').split(',').map(Number);
const referenceSize = Number(arg('reference-size', '1000000'));
const runs = Number(arg('runs', '3'));
const json = flag('json');
const outDir = join(process.cwd(), 'bench', 'out');
mkdirSync(outDir, { recursive: true });

/** Child mode: run one build and print {seconds, maxRssMb}. */
if (process.env.PHYSPAY_BENCH_CHILD) {
  const { runBuild, DEFAULT_BUILD_OPTIONS } = await import('../build/run-build.ts');
  const [db, out] = [process.env.PHYSPAY_BENCH_DB!, process.env.PHYSPAY_BENCH_OUT!];
  const t0 = performance.now();
  // each stage's wall time, as `physpay build` reports it on a terminal
  const stages: Record<string, number> = {};
  let stage: { name: string; at: number } | null = null;
  const close = () => {
    if (stage) stages[stage.name] = (stages[stage.name] ?? 0) + (performance.now() - stage.at) / 1000;
  };
  const progress = { stage: (name: string) => { close(); stage = { name, at: performance.now() }; }, done: () => { close(); stage = null; } };
  const r = runBuild({ ...DEFAULT_BUILD_OPTIONS, db, out, force: true, buildDate: '2026-11-16', now: () => new Date(), progress });
  const seconds = (performance.now() - t0) / 1000;
  process.stdout.write(JSON.stringify({ seconds, stages, maxRssMb: process.resourceUsage().maxRSS / 1024, files: r.summary.files, bytes: r.summary.bytes, reports: r.summary.approved_reports ?? r.summary.reports_used }));
  process.exit(0);
}

const rows: { n: number; seconds: number[]; rss: number[]; reports: number; files: number; mb: number; stages: Record<string, number[]> }[] = [];
for (const n of sizes) {
  const db = join(outDir, `demo-${n}.db`);
  if (!existsSync(db)) createDemoDb(db, { reports: n, seed: 42, asOf: '2026-11-15', force: true });
  const seconds: number[] = [];
  const rss: number[] = [];
  const stages: Record<string, number[]> = {};
  let last = { files: 0, bytes: 0, reports: 0 };
  for (let r = 0; r < runs; r++) {
    const out = join(outDir, `dist-${n}`);
    rmSync(out, { recursive: true, force: true });
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench-build.ts'], {
      env: { ...process.env, PHYSPAY_BENCH_CHILD: '1', PHYSPAY_BENCH_DB: db, PHYSPAY_BENCH_OUT: out },
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    });
    if (child.status !== 0) throw new Error(`build of ${n} failed: ${child.stderr}`);
    const res = JSON.parse(child.stdout) as { seconds: number; stages: Record<string, number>; maxRssMb: number; files: number; bytes: number; reports: number };
    seconds.push(res.seconds);
    for (const [k, v] of Object.entries(res.stages)) (stages[k] ??= []).push(v);
    rss.push(res.maxRssMb);
    last = res;
    rmSync(out, { recursive: true, force: true });
  }
  rows.push({ n, seconds, rss, reports: last.reports, files: last.files, mb: last.bytes / 1e6, stages });
}

// Least-squares slope of log(time) against log(N).
const xs = rows.map((r) => Math.log(r.n));
const ys = rows.map((r) => Math.log(median(r.seconds)));
const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
const my = ys.reduce((a, b) => a + b, 0) / ys.length;
const slope = xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0) / xs.reduce((a, x) => a + (x - mx) ** 2, 0);

// The reference: DuckDB computes the same cells from the same rows (in memory), 2 threads like our 2 cores.
const refRow = rows.find((r) => r.n === referenceSize);
let reference: (DuckdbReference & { ratio: number; n: number }) | null = null;
if (refRow) {
  const { duckdbReference } = await import('./bench-duckdb.ts');
  const ref = await duckdbReference(join(outDir, `demo-${referenceSize}.db`), { runs, threads: 2 });
  reference = { ...ref, n: referenceSize, ratio: median(refRow.seconds) / ref.median_query_s };
}

if (json) {
  console.log(JSON.stringify({ runs, rows, growth_exponent: slope, reference }));
} else {
  console.log(`physpay build benchmark: ${runs} run(s) per size, median [min-max]; targets at 1M: < 60 s, < 1,500 MB`);
  console.log('reports (approved)      seconds                   peak RSS MB              files   MB written');
  for (const r of rows) {
    const s = `${median(r.seconds).toFixed(1)} [${Math.min(...r.seconds).toFixed(1)}-${Math.max(...r.seconds).toFixed(1)}]`;
    const m = `${median(r.rss).toFixed(0)} [${Math.min(...r.rss).toFixed(0)}-${Math.max(...r.rss).toFixed(0)}]`;
    console.log(`${r.n.toLocaleString('en-US').padStart(9)} (${r.reports.toLocaleString('en-US').padStart(9)})  ${s.padEnd(24)}  ${m.padEnd(22)}  ${String(r.files).padStart(6)}  ${r.mb.toFixed(0).padStart(6)}`);
  }
  const big = rows.find((r) => r.n === 1_000_000);
  if (big) console.log(`1M vs target: ${median(big.seconds).toFixed(1)} s / 60 s (${(median(big.seconds) / 60).toFixed(2)}x), ${median(big.rss).toFixed(0)} MB / 1,500 MB (${(median(big.rss) / 1500).toFixed(2)}x)`);
  console.log(`growth exponent of time in N: ${slope.toFixed(2)} (1.00 = linear; N log N here ~1.1)`);
  for (const r of rows) console.log(`stages at ${r.n.toLocaleString('en-US')}: ${Object.entries(r.stages).map(([k, v]) => `${k} ${median(v).toFixed(1)} s`).join('; ')}`);
  if (reference) {
    console.log(`DuckDB ${reference.duckdb_version} (${reference.threads} threads), the same cells from the same ${reference.rows.toLocaleString('en-US')} rows in memory: queries ${reference.median_query_s.toFixed(2)} s (load ${reference.median_load_s.toFixed(2)} s, not counted)`);
    console.log(`physpay's whole build / DuckDB's queries at ${referenceSize.toLocaleString('en-US')}: ${reference.ratio.toFixed(1)}x (target <= 10x)`);
  }
}
