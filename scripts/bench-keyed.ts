/**
 * Keyed API latency benchmark (DESIGN.md section 8: /benchmarks p99 under 5 ms at 1,000 requests/s on one
 * process): an open-loop load generator sends requests at a fixed rate (latency is measured from each
 * request's scheduled time, so a slow server cannot hide queueing), against one server process with the
 * service store on SQLite and then on PostgreSQL. Every request is authenticated and counted.
 *
 *   npx tsx scripts/bench-keyed.ts [--rate 1000] [--seconds 10] [--runs 3] [--pg postgres://postgres@127.0.0.1:5432/test] [--json]
 *
 * The server runs on CPU 0, this generator on CPU 1 (taskset, when available). Reference, measured in the
 * same run on the same process with the same generator: GET /healthz (no key, no store, no lookup), so the
 * cost of auth + atomic count + lookup can be read off the difference.
 */
import { spawnSync } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { arg, demoWorkspace, flag, hasCommand, median, removeSqlite, startPhyspay } from './bench-lib.ts';

const rate = Number(arg('rate', '1000'));
const seconds = Number(arg('seconds', '10'));
const runs = Number(arg('runs', '3'));
const pgUrl = arg('pg', 'postgres://postgres@127.0.0.1:5432/test');
const json = flag('json');
if (hasCommand('taskset')) spawnSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' }); // the generator on CPU 1

const { work, data } = demoWorkspace('keyed');

const QUERIES = [
  'specialty=Cardiology&state=Texas',
  'specialty=Family%20Medicine&state=Ohio&practice_setting=Hospital%20Employed',
  'specialty=Orthopedic%20Surgery&region=West',
  'specialty=Psychiatry',
  'specialty=Emergency%20Medicine&state=California&employment_type=Full-Time%20(W-2)',
  'specialty=Dermatology&state=New%20York',
  'specialty=Anesthesiology&state=Florida',
  'specialty=Pediatrics&region=Midwest&practice_setting=Academic',
];

function createKeys(serviceDb: string, n: number): string[] {
  const keys: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = spawnSync(process.execPath, ['bin/physpay.js', 'keys', 'create', '--service-db', serviceDb, '--plan', 'enterprise', '--label', 'bench', '--json'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`keys create failed: ${r.stderr}`);
    keys.push((JSON.parse(r.stdout) as { key: string }).key);
  }
  return keys;
}

interface Result { p50: number; p99: number; max: number; achieved: number; errors: number; statuses: Record<number, number> }

async function load(port: number, keys: string[], durationS: number, pathOf = (i: number) => `/api/v1/benchmarks?${QUERIES[i % QUERIES.length]}`): Promise<Result> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let errors = 0;
  let sent = 0;
  const total = Math.round(rate * durationS);
  const start = performance.now();
  await new Promise<void>((done) => {
    let finished = 0;
    const fire = (i: number) => {
      const scheduled = start + (i * 1000) / rate;
      const req = request({ host: '127.0.0.1', port, agent, path: pathOf(i), headers: { 'X-API-Key': keys[i % keys.length]! } }, (res) => {
        res.resume();
        res.on('end', () => {
          statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1;
          latencies.push(performance.now() - scheduled);
          if (++finished === total) done();
        });
      });
      req.on('error', () => {
        errors++;
        if (++finished === total) done();
      });
      req.end();
    };
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
      while (sent < due) fire(sent++);
      if (sent < total) setImmediate(tick);
    };
    tick();
  });
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
  return { p50: q(0.5), p99: q(0.99), max: latencies[latencies.length - 1]!, achieved: total / elapsed, errors, statuses };
}

async function bench(label: string, serviceDb: string, reset: () => void): Promise<{ benchmarks: Result[]; reference: Result[] }> {
  const results: Result[] = [];
  const reference: Result[] = [];
  for (let r = 0; r < runs; r++) {
    reset();
    const keys = createKeys(serviceDb, Math.ceil((rate * (seconds + 2)) / 1800));
    const srv = await startPhyspay(data, serviceDb);
    await load(srv.port, keys, 2); // warm-up (JIT, caches, connections)
    results.push(await load(srv.port, keys, seconds));
    reference.push(await load(srv.port, keys, seconds, () => '/healthz'));
    await srv.stop();
  }
  if (!json) {
    const med = (f: (x: Result) => number) => median(results.map(f));
    const rng = (f: (x: Result) => number) => `[${Math.min(...results.map(f)).toFixed(2)}-${Math.max(...results.map(f)).toFixed(2)}]`;
    console.log(`${label.padEnd(11)} p50 ${med((x) => x.p50).toFixed(2)} ms ${rng((x) => x.p50)}   p99 ${med((x) => x.p99).toFixed(2)} ms ${rng((x) => x.p99)}   max ${med((x) => x.max).toFixed(1)} ms   achieved ${med((x) => x.achieved).toFixed(0)} req/s   statuses ${JSON.stringify(results[0]!.statuses)}   errors ${results.reduce((a, x) => a + x.errors, 0)}`);
    const rmed = (f: (x: Result) => number) => median(reference.map(f));
    console.log(`${'  /healthz'.padEnd(11)} p50 ${rmed((x) => x.p50).toFixed(2)} ms   p99 ${rmed((x) => x.p99).toFixed(2)} ms   (reference, same process and rate)`);
  }
  return { benchmarks: results, reference };
}

if (!json) console.log(`keyed /benchmarks at a fixed ${rate} req/s for ${seconds} s (after 2 s warm-up), ${runs} run(s), median [min-max]; target p99 < 5 ms`);
const sqlitePath = join(work, 'service.db');
const out: Record<string, { benchmarks: Result[]; reference: Result[] }> = {};
out.sqlite = await bench('SQLite', sqlitePath, () => removeSqlite(sqlitePath));
const pgOk = spawnSync('psql', [pgUrl, '-c', 'select 1'], { stdio: 'ignore' }).status === 0;
if (pgOk) {
  out.postgres = await bench('PostgreSQL', pgUrl, () => {}); // fresh keys every run; other data is left alone
} else if (!json) console.log(`PostgreSQL  not measured: ${pgUrl} is not reachable`);
if (json) console.log(JSON.stringify({ rate, seconds, runs, results: out }));
