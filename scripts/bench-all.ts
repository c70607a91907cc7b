/**
 * `npm run bench`: every benchmark in one go, written to bench/REPORT.md (regenerated; never edit it by
 * hand). Each figure is the median of several runs with its min-max, beside its reference measured in the
 * same run and the target of the quality bars in README: Benchmarks.
 *
 *   npx tsx scripts/bench-all.ts [--runs 3] [--seconds 10] [--quick]
 *
 * --quick: one run each, 3-second loads, builds of 100k and 300k only, the import and serve start-up on
 * 100k (a smoke run, not for the report that is committed). Otherwise the import and the serve start-up run
 * on 1M (the serve start-up reuses bench-build's 1M demo DB and builds it once into bench/out/). Needs nginx, wrk and varnish (apt-get install nginx wrk varnish) and PostgreSQL for the keyed figures.
 */
import { spawnSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { arg, flag, importSection, median, serveStartSection, type ImportBench, type ServeStartBench } from './bench-lib.ts';

const quick = flag('quick');
const runs = quick ? 1 : Number(arg('runs', '3'));
const seconds = quick ? 3 : Number(arg('seconds', '10'));
const sizes = quick ? '100000,300000' : '100000,300000,1000000,3000000';
/** the import's rows and the serve start-up's demo reports */
const oneSize = quick ? '100000' : '1000000';

function sh(cmd: string): string {
  const r = spawnSync('sh', ['-c', cmd], { encoding: 'utf8' });
  return `${r.stdout}${r.stderr}`.trim();
}

/** Run one bench script with --json; its last stdout line is the JSON result. */
function runScript(script: string, extra: string[]): unknown {
  const t0 = Date.now();
  process.stderr.write(`bench: ${script} ${extra.join(' ')} ...\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join('scripts', script), ...extra, '--json'], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`${script} failed (exit ${r.status})`);
  process.stderr.write(`bench: ${script} done in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  const last = r.stdout.trim().split('\n').pop()!;
  return JSON.parse(last);
}

const fig = (xs: number[], digits = 0) => `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;
const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

const machine = {
  date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
  commit: sh('git rev-parse --short HEAD') + (sh('git status --porcelain') ? ' (with uncommitted changes)' : ''),
  cpu: `${cpus()[0]?.model ?? 'unknown'} x ${cpus().length}`,
  memory: `${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
  node: process.version,
  kernel: sh('uname -sr'),
  nginx: sh('nginx -v 2>&1').replace('nginx version: ', ''),
  wrk: sh('wrk -v 2>&1 | head -1').split(' [')[0] ?? '',
  varnish: sh('varnishd -V 2>&1 | head -1'),
  postgres: sh('psql --version'),
  load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
};

type BuildRow = { n: number; seconds: number[]; rss: number[]; reports: number; files: number; mb: number; stages: Record<string, number[]> };
type Reference = { n: number; rows: number; threads: number; duckdb_version: string; median_query_s: number; median_load_s: number; runs: { load_s: number; keyed_s: number; open_s: number; query_s: number }[]; ratio: number; notes: string[] };
const build = runScript('bench-build.ts', ['--sizes', sizes, '--runs', String(runs), '--reference-size', quick ? '300000' : '1000000']) as { rows: BuildRow[]; growth_exponent: number; reference: Reference | null };
type ChurnResult = { demo_reports: number; reports_used: number; added: number; specialty: string; state: string; files: number; changed: number; reused: number; by_kind: Record<string, { changed: number; total: number }>; seconds: { first: number; second: number } };
const churn = runScript('bench-churn.ts', []) as ChurnResult;
const imported = runScript('bench-import.ts', ['--rows', oneSize]) as ImportBench;
const serveStart = runScript('bench-serve-start.ts', ['--reports', oneSize, '--runs', String(Math.max(runs, 3))]) as ServeStartBench;
const serve = runScript('bench-serve.ts', ['--seconds', String(seconds), '--runs', String(runs)]) as { feed: string; bytes: number; connections: number; results: Record<string, number[]>; ratio200: number; ratio304: number; ratioGzip: number; gzip_bytes: number };
type KeyedResult = { p50: number; p99: number; p999: number; max: number; achieved: number; errors: number; send_lag_p99_ms: number; statuses: Record<string, number> };
type KeyedSeries = { benchmarks?: KeyedResult[]; reference: KeyedResult[]; placement: 'any' | 'cpu0' };
const keyed = runScript('bench-keyed.ts', ['--seconds', String(seconds), '--runs', String(runs)]) as { rate: number; queries: number; warm_up_s: number; results: Record<string, KeyedSeries> };
type EdgeResult = { feed: string; connections: number; miss_share: number; results: { nginx: number[]; physpay: number[]; edge: number[] }; edge: { hit_ratio: number; requests: number; reached_physpay: number }[]; hit_ratio: number };
const edge = runScript('bench-edge.ts', ['--seconds', String(seconds), '--runs', String(runs)]) as EdgeResult;
type McpEra = '2025' | '2026-07-28';
const mcp = runScript('bench-mcp.ts', ['--seconds', String(seconds), '--runs', String(runs)]) as {
  feed: string; connections: number; results: { feed: number[]; tool: Record<'direct' | 'sdk', Record<McpEra, number[]>> }; ratios: Record<'direct' | 'sdk', Record<McpEra, number>>;
};

const L: string[] = [];
L.push('# physpay benchmark report', '');
L.push('Generated by `npm run bench` (scripts/bench-all.ts); do not edit by hand. Each figure: median of the runs, (min-max).', '');
L.push('## Machine', '');
L.push('| | |', '|---|---|');
for (const [k, v] of Object.entries(machine)) L.push(`| ${k} | ${v} |`);
L.push(`| runs per figure | ${runs} |`, `| load duration | ${seconds} s per run |`, '');

L.push('## Build (the quality bars in README: Benchmarks: 1M reports < 60 s and < 1,500 MB peak RSS; growth no worse than N log N)', '');
L.push('| demo reports | approved used | seconds | peak RSS MB | files | MB written |', '|---:|---:|---:|---:|---:|---:|');
for (const r of build.rows) L.push(`| ${r.n.toLocaleString('en-US')} | ${r.reports.toLocaleString('en-US')} | ${fig(r.seconds, 1)} | ${fig(r.rss)} | ${r.files.toLocaleString('en-US')} | ${r.mb.toFixed(0)} |`);
L.push('');
const big = build.rows.find((r) => r.n === 1_000_000);
if (big) {
  L.push(`- 1M: ${median(big.seconds).toFixed(1)} s of 60 s (${(median(big.seconds) / 60).toFixed(2)}x the target): ${verdict(median(big.seconds) < 60)}`);
  L.push(`- 1M: ${median(big.rss).toFixed(0)} MB of 1,500 MB (${(median(big.rss) / 1500).toFixed(2)}x): ${verdict(median(big.rss) < 1500)}`);
}
L.push(`- growth exponent of time in N (least squares on log-log; 1.00 = linear, N log N over this range ~1.1): ${build.growth_exponent.toFixed(2)}: ${verdict(build.growth_exponent <= 1.15)}`);
const huge = build.rows.find((r) => r.n === 3_000_000);
if (huge) L.push(`- 3M: ${median(huge.seconds).toFixed(1)} s, ${median(huge.rss).toFixed(0)} MB peak RSS of 1,500 MB: ${verdict(median(huge.rss) < 1500)}`);
L.push('');
const stageNames = [...new Set(build.rows.flatMap((r) => Object.keys(r.stages)))];
L.push('Stage wall times (median s; the keyed artifacts are computed on a worker thread beside the open feeds and pages, so their stage is the wait for what is left of them):', '');
L.push(`| demo reports | ${stageNames.join(' | ')} |`, `|---:|${stageNames.map(() => '---:').join('|')}|`);
for (const r of build.rows) L.push(`| ${r.n.toLocaleString('en-US')} | ${stageNames.map((k) => (r.stages[k] ? median(r.stages[k]!).toFixed(1) : '')).join(' | ')} |`);
L.push('');
const ref = build.reference;
if (ref) {
  const row = build.rows.find((r) => r.n === ref.n)!;
  L.push(`### Against DuckDB (the quality bars in README: Benchmarks: the whole build within 10x DuckDB's time for the same cells)`, '');
  L.push(`DuckDB ${ref.duckdb_version}, in memory, ${ref.threads} threads, the same ${ref.rows.toLocaleString('en-US')} approved rows of the ${ref.n.toLocaleString('en-US')} demo DB as the build reads them (scripts/bench-duckdb.ts), the same cells with GROUPING SETS: keyed cells (specialty x geography x setting x employment, with their trending and experience rows) and open cells. Loading the rows into DuckDB is timed apart and not counted; physpay's time is the whole build (reading SQLite, every cell, every page, validation, writing 5,000+ files).`, '');
  L.push('| | seconds |', '|---|---:|');
  L.push(`| DuckDB: keyed cells | ${fig(ref.runs.map((r) => r.keyed_s), 2)} |`);
  L.push(`| DuckDB: open cells | ${fig(ref.runs.map((r) => r.open_s), 2)} |`);
  L.push(`| DuckDB: all cells (the reference) | ${fig(ref.runs.map((r) => r.query_s), 2)} |`);
  L.push(`| DuckDB: loading the rows (not counted) | ${fig(ref.runs.map((r) => r.load_s), 2)} |`);
  L.push(`| physpay: the whole build | ${fig(row.seconds, 1)} |`, '');
  L.push(`- ratio: ${ref.ratio.toFixed(1)}x DuckDB's time (target <= 10x): ${verdict(ref.ratio <= 10)}`);
  for (const n of ref.notes) L.push(`- ${n}`);
  L.push('');
}

L.push('## Nightly churn (README: The build, "What a nightly build rewrites")', '');
L.push(`The demo DB (${churn.demo_reports.toLocaleString('en-US')} reports, ${churn.reports_used.toLocaleString('en-US')} approved) is built, ${churn.added} approved ${churn.specialty} reports in ${churn.state} are added, and the next night's build goes into the same folder (scripts/bench-churn.ts, one run: the counts do not vary). Changed: content hash differs (the access date does not count); reused: a hard link to the previous build's file, same bytes and ETag. No target is set; every changed file holds a figure or date the new reports moved (test/build/churn.test.ts).`, '');
L.push('| files | changed | of all | reused |', '|---|---:|---:|---:|');
L.push(`| all | ${churn.changed.toLocaleString('en-US')} of ${churn.files.toLocaleString('en-US')} | ${((100 * churn.changed) / churn.files).toFixed(1)}% | ${churn.reused.toLocaleString('en-US')} |`);
for (const [k, v] of Object.entries(churn.by_kind)) L.push(`| ${k} | ${v.changed.toLocaleString('en-US')} of ${v.total.toLocaleString('en-US')} | ${((100 * v.changed) / v.total).toFixed(1)}% | ${(v.total - v.changed).toLocaleString('en-US')} |`);
L.push('');

L.push(...importSection(imported));
L.push(...serveStartSection(serveStart));

L.push(`## Open feeds vs nginx (the quality bars in README: Benchmarks: physpay >= 0.5x nginx; 304 at least as fast)`, '');
L.push(`Feed \`${serve.feed}\` (${serve.bytes.toLocaleString('en-US')} bytes); wrk 1 thread, ${serve.connections} connections on CPU 1; each server alone on CPU 0; physpay with every header and the per-IP limit counted in SQLite.`, '');
L.push('| | nginx (1 worker) req/s | physpay (1 process) req/s | ratio | target |', '|---|---:|---:|---:|---|');
L.push(`| 200 | ${fig(serve.results.nginx200!)} | ${fig(serve.results.physpay200!)} | ${serve.ratio200.toFixed(2)} | >= 0.50: ${verdict(serve.ratio200 >= 0.5)} |`);
L.push(`| 304 | ${fig(serve.results.nginx304!)} | ${fig(serve.results.physpay304!)} | ${serve.ratio304.toFixed(2)} | >= 0.50 and >= the 200 figure: ${verdict(serve.ratio304 >= 0.5 && median(serve.results.physpay304!) >= median(serve.results.physpay200!))} |`);
L.push(`| 200 gzip (${serve.gzip_bytes} bytes; nginx gzip_static) | ${fig(serve.results.nginxGzip!)} | ${fig(serve.results.physpayGzip!)} | ${serve.ratioGzip.toFixed(2)} | >= 0.50: ${verdict(serve.ratioGzip >= 0.5)} |`);
L.push(`| 200 br (physpay only) | - | ${fig(serve.results.physpayBr!)} | - | - |`);
L.push('');

L.push(`## Keyed /benchmarks at a fixed ${keyed.rate.toLocaleString('en-US')} req/s, one process (the quality bars in README: Benchmarks: p99 < 5 ms)`, '');
L.push(`Open-loop generator in C (scripts/loadgen/openloop.c) on CPU 1, latency from each request's scheduled time; ${keyed.queries} distinct queries over every specialty (national, regional, state, filtered), Enterprise keys (every section built); every request authenticated and counted. One long-lived server per row: a ${keyed.warm_up_s} s warm-up, then the runs back to back on the same process. The server is measured placed by the OS (as in production; the target's setting) and, as a stricter setting, with the whole process confined to CPU 0. References in the same run with the same generator and placement: GET /healthz on the same process (one run), and a bare node:http server sending a fixed 6 kB body (the floor of Node, the kernel and the generator here).`, '');
L.push('| server | placement | p50 ms | p99 ms | p99.9 ms | max ms | achieved req/s | errors | generator send lag p99 ms | p99 target |', '|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
const placementLabel = { any: 'placed by the OS', cpu0: 'whole process on CPU 0' } as const;
const keyedRow = (label: string, placement: 'any' | 'cpu0', xs: KeyedResult[], target: boolean) =>
  L.push(`| ${label} | ${placementLabel[placement]} | ${fig(xs.map((x) => x.p50), 2)} | ${fig(xs.map((x) => x.p99), 2)} | ${fig(xs.map((x) => x.p999), 1)} | ${fig(xs.map((x) => x.max), 1)} | ${fig(xs.map((x) => x.achieved))} | ${xs.reduce((n, x) => n + x.errors + Object.entries(x.statuses).filter(([s]) => s !== '200').reduce((m, [, v]) => m + v, 0), 0)} | ${fig(xs.map((x) => x.send_lag_p99_ms), 2)} | ${target ? `< 5: ${verdict(median(xs.map((x) => x.p99)) < 5)}` : 'reference'} |`);
for (const [name, r] of Object.entries(keyed.results)) {
  const store = name.split(',')[0]!;
  if (r.benchmarks) {
    keyedRow(`physpay /benchmarks, ${store}`, r.placement, r.benchmarks, true);
    keyedRow(`physpay /healthz, ${store} run`, r.placement, r.reference, false);
  } else keyedRow('bare node:http (floor)', r.placement, r.reference, false);
}
if (!keyed.results.postgres) L.push('', 'PostgreSQL was not reachable: not measured.');
L.push('');

L.push('## A feed through the edge cache (README: Deploying)', '');
L.push(`Feed \`${edge.feed}\`, one request mix for all three: ${(edge.miss_share * 100).toFixed(0)}% of requests add a unique query string (at the edge, a miss that goes to physpay and is counted there), the rest ask for the feed as is. wrk 1 thread, ${edge.connections} connections on CPU 1; the server side on CPU 0 (for the edge: varnishd with the shipped policy and its one physpay process together). No target is set: the edge runs on its own machines in production.`, '');
L.push('| | nginx (1 worker) | physpay alone (1 process) | Varnish -> physpay |', '|---|---:|---:|---:|');
L.push(`| req/s | ${fig(edge.results.nginx)} | ${fig(edge.results.physpay)} | ${fig(edge.results.edge)} |`);
L.push(`| hit ratio at the edge | | | ${fig(edge.edge.map((e) => e.hit_ratio * 100), 1)} % |`);
L.push(`| requests that reached physpay (of all through the edge) | | | ${edge.edge.map((e) => `${e.reached_physpay.toLocaleString('en-US')} of ${e.requests.toLocaleString('en-US')}`).join('; ')} |`, '');

L.push('## Tool server (MCP)', '');
L.push(`\`tools/call get_specialty_pay\` in each protocol era (2025: a plain JSON-RPC POST; 2026-07-28: the per-request envelope and Mcp-* headers), every limit on (the per-IP limit checked and counted per call), vs GET \`${mcp.feed}\` (the document its structuredContent equals) on the same process; wrk 1 thread, ${mcp.connections} connections. "As served": plain calls take the direct path; "SDK only" (\`--mcp-direct-calls off\`): a server and transport per request. Target: tool calls at least 0.25x feed GETs.`, '');
L.push(`Feed GETs/s (reference): ${fig(mcp.results.feed)}`, '');
L.push('| era | path | tool calls/s | ratio to feed GETs |', '|---|---|---:|---:|');
for (const mode of ['direct', 'sdk'] as const) {
  for (const era of ['2025', '2026-07-28'] as const) L.push(`| ${era} | ${mode === 'direct' ? 'as served' : 'SDK only'} | ${fig(mcp.results.tool[mode][era])} | ${mcp.ratios[mode][era].toFixed(2)} |`);
}
L.push('');

// The hand-written analysis of missed targets (what bounds them, what was changed), kept beside the report.
const analysis = join('bench', 'ANALYSIS.md');
if (existsSync(analysis)) L.push(readFileSync(analysis, 'utf8').trimEnd(), '');

mkdirSync('bench', { recursive: true });
const file = quick ? join('bench', 'out', 'REPORT-quick.md') : join('bench', 'REPORT.md');
mkdirSync(join('bench', 'out'), { recursive: true });
writeFileSync(file, `${L.join('\n')}\n`);
console.log(`wrote ${file}`);
console.log(L.join('\n'));
