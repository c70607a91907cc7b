/**
 * Keyed API latency benchmark (the quality bars in README: Benchmarks: /benchmarks p99 under 5 ms at 1,000 requests/s on one
 * process). An open-loop generator in C (scripts/loadgen/openloop.c, like wrk2) sends requests at a fixed
 * rate and measures each latency from the request's scheduled time, so a slow server cannot hide queueing;
 * it sleeps between sends (no spinning event loop, no garbage collector of its own). One server process
 * with the service store on SQLite and then on PostgreSQL; every request is authenticated and counted.
 *
 *   npx tsx scripts/bench-keyed.ts [--rate 1000] [--seconds 10] [--runs 3] [--pg postgres://postgres@127.0.0.1:5432/test] [--any-only | --cpu0-only] [--json]
 *
 * The query mix: every specialty of the build, each with a national, a regional, a state, and a filtered
 * (practice setting or employment type) query, in a fixed shuffled order (seed 42), spread over many
 * Enterprise keys (so the full response with every section is built). One long-lived server per series: a
 * warm-up, then the runs back to back on the same process, so its steady state is what is measured.
 *
 * The generator is always on CPU 1 (taskset, when available). The server is measured twice: placed by the
 * OS, as a server runs in production (the target's setting), and with the whole process (its JavaScript
 * thread and V8's and libuv's helper threads) confined to CPU 0, a stricter setting shown beside it: there
 * the garbage collector's concurrent marking competes with the JavaScript thread for the one core.
 * References, measured in the same run with the same generator and placement: GET /healthz on the same
 * process (no key, no store, no lookup), and a bare node:http server answering a fixed body of the same size
 * (the floor of Node, the kernel and the generator on this VM).
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { arg, demoWorkspace, flag, hasCommand, median, openLoop, pinned, removeSqlite, startPhyspay, type OpenLoopResult } from './bench-lib.ts';
import { EMPLOYMENT_TYPES, PRACTICE_SETTINGS, REGIONS } from '../build/contract/vocab.ts';
import type { KeyedIndex } from '../build/contract/keyed-artifacts.ts';

const rate = Number(arg('rate', '1000'));
const seconds = Number(arg('seconds', '10'));
const runs = Number(arg('runs', '3'));
const pgUrl = arg('pg', 'postgres://postgres@127.0.0.1:5432/test');
const json = flag('json');

const { work, data } = demoWorkspace('keyed');

/** A deterministic PRNG (mulberry32) for the query order. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function queryMix(): string[] {
  const index = JSON.parse(readFileSync(join(data, 'current', 'private/keyed/index.json'), 'utf8')) as KeyedIndex;
  const rand = rng(42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const q = (o: Record<string, string>) => `/api/v1/benchmarks?${new URLSearchParams(o).toString()}`;
  const out: string[] = [];
  for (const s of index.specialties.filter((x) => x.publishable)) {
    for (let k = 0; k < 4; k++) {
      out.push(q({ specialty: s.name }));
      out.push(q({ specialty: s.name, region: pick(REGIONS) }));
      out.push(q({ specialty: s.name, state: pick(index.states).name }));
      out.push(q({ specialty: s.name, state: pick(index.states).name, ...(rand() < 0.5 ? { practice_setting: pick(PRACTICE_SETTINGS) } : { employment_type: pick(EMPLOYMENT_TYPES) }) }));
    }
  }
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The label of this run's keys, so the PostgreSQL run can remove exactly its own keys afterwards. */
const BENCH_LABEL = `bench-keyed-${process.pid}`;

function createKeys(serviceDb: string, n: number): string[] {
  const keys: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = spawnSync(process.execPath, ['bin/physpay.js', 'keys', 'create', '--service-db', serviceDb, '--plan', 'enterprise', '--label', BENCH_LABEL, '--json'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`keys create failed: ${r.stderr}`);
    keys.push((JSON.parse(r.stdout) as { key: string }).key);
  }
  return keys;
}

/** Where the server runs: anywhere (the production case and the target's), or confined to CPU 0 with the generator alone on CPU 1. */
type Placement = 'any' | 'cpu0';
const cpuOf = (p: Placement): number | null => (p === 'cpu0' ? 0 : null);

/** The generator's floor: a bare node:http server answering a fixed JSON body of `bytes` bytes. */
async function bareNode(bytes: number, placement: Placement): Promise<OpenLoopResult[]> {
  const code = `const b=Buffer.alloc(${bytes},32);const s=require('node:http').createServer((q,r)=>{r.writeHead(200,{'content-type':'application/json','content-length':b.length});r.end(b)});s.listen(0,'127.0.0.1',()=>console.log(s.address().port))`;
  const cpu = cpuOf(placement);
  const [cmd, args] = cpu === null ? [process.execPath, ['-e', code]] : pinned(cpu, process.execPath, ['-e', code]);
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  const port = await new Promise<number>((res) => child.stdout!.once('data', (d) => res(Number(String(d).trim()))));
  openLoop(port, [{ path: '/' }], { rate, seconds: WARM_UP_S });
  const out: OpenLoopResult[] = [];
  for (let r = 0; r < runs; r++) out.push(openLoop(port, [{ path: '/' }], { rate, seconds }));
  child.kill();
  return out;
}

interface Series { benchmarks: OpenLoopResult[]; reference: OpenLoopResult[]; placement: Placement }

const queries = queryMix();
/** Warm-up before the measured runs (JIT, connections, the first full collections after loading the build). */
const WARM_UP_S = 5;

/**
 * One long-lived server per series, as in production: a warm-up, then `runs` consecutive runs of `seconds`
 * on the same process (so its steady state, old-generation collections included, is measured), then one
 * run of GET /healthz on the same process as the reference.
 */
async function bench(label: string, serviceDb: string, placement: Placement): Promise<Series> {
  const keys = createKeys(serviceDb, Math.ceil((rate * (WARM_UP_S + runs * seconds)) / 1800));
  const requests = queries.map((path, i) => ({ path, key: keys[i % keys.length]! }));
  const srv = await startPhyspay(data, serviceDb, [], cpuOf(placement));
  const results: OpenLoopResult[] = [];
  let reference: OpenLoopResult[];
  try {
    openLoop(srv.port, requests, { rate, seconds: WARM_UP_S });
    for (let r = 0; r < runs; r++) results.push(openLoop(srv.port, requests, { rate, seconds }));
    reference = [openLoop(srv.port, [{ path: '/healthz' }], { rate, seconds })];
  } finally {
    await srv.stop();
  }
  if (!json) {
    print(label, results);
    print('  /healthz', reference, '(reference: same process and rate)');
  }
  return { benchmarks: results, reference, placement };
}

function print(label: string, xs: OpenLoopResult[], note = ''): void {
  const med = (f: (x: OpenLoopResult) => number) => median(xs.map(f)).toFixed(2);
  const rng = (f: (x: OpenLoopResult) => number) => `[${Math.min(...xs.map(f)).toFixed(2)}-${Math.max(...xs.map(f)).toFixed(2)}]`;
  const statuses = xs.reduce<Record<string, number>>((a, x) => {
    for (const [k, v] of Object.entries(x.statuses)) a[k] = (a[k] ?? 0) + v;
    return a;
  }, {});
  console.log(`${label.padEnd(11)} p50 ${med((x) => x.p50)} ms ${rng((x) => x.p50)}   p99 ${med((x) => x.p99)} ms ${rng((x) => x.p99)}   max ${med((x) => x.max)} ms   achieved ${med((x) => x.achieved)} req/s   statuses ${JSON.stringify(statuses)}   errors ${xs.reduce((a, x) => a + x.errors, 0)}   generator lag p99 ${med((x) => x.send_lag_p99_ms)} ms ${note}`);
}

if (!json) console.log(`keyed /benchmarks at a fixed ${rate} req/s, ${runs} run(s) of ${seconds} s on one server after a ${WARM_UP_S} s warm-up, ${queries.length} distinct queries, median [min-max]; target p99 < 5 ms`);
const sqlitePath = join(work, 'service.db');
const pgOk = hasCommand('psql') && spawnSync('psql', [pgUrl, '-c', 'select 1'], { stdio: 'ignore' }).status === 0;
const out: Record<string, Series | { reference: OpenLoopResult[]; placement: Placement }> = {};
const placements: Placement[] = flag('cpu0-only') ? ['cpu0'] : flag('any-only') ? ['any'] : ['any', 'cpu0'];
try {
  for (const placement of placements) {
    const suffix = placement === 'any' ? '' : ', CPU 0';
    if (!json) console.log(placement === 'any' ? 'server placed by the OS (generator on CPU 1):' : 'whole server process confined to CPU 0 (generator on CPU 1):');
    out[`bare${suffix}`] = { reference: await bareNode(6000, placement), placement };
    if (!json) print('bare node', out[`bare${suffix}`]!.reference, '(floor: node:http fixed 6 kB body, same generator)');
    removeSqlite(sqlitePath);
    out[`sqlite${suffix}`] = await bench('SQLite', sqlitePath, placement);
    if (pgOk) out[`postgres${suffix}`] = await bench('PostgreSQL', pgUrl, placement); // fresh keys; other data is left alone
    else if (!json) console.log(`PostgreSQL  not measured: ${pgUrl} is not reachable`);
  }
} finally {
  if (pgOk) {
    const del = `DELETE FROM quota_usage WHERE key_id IN (SELECT id FROM api_keys WHERE label = '${BENCH_LABEL}'); DELETE FROM api_keys WHERE label = '${BENCH_LABEL}'`;
    spawnSync('psql', [pgUrl, '-q', '-c', del], { stdio: 'ignore' });
  }
}
if (json) console.log(JSON.stringify({ rate, seconds, runs, warm_up_s: WARM_UP_S, queries: queries.length, results: out }));
