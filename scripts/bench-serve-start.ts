/**
 * Start-up of `physpay serve` on a large build (issue 28, item 6): how long until the port accepts
 * connections, until the build is loaded (stdout `listening on URL`: ready), and until a taken port is
 * reported. `serve` listens first and then loads the build, so the first and the last no longer wait for
 * the build; before, the port was bound only after the build was read and verified, so a taken port was
 * reported only then.
 *
 * Makes (once, cached under bench/out/ by size) a demo DB of --reports reports (seed 42, the same file as
 * bench-build's) and its build, then starts `physpay serve` as a child process --runs times on a free port
 * and --runs times on a port this script holds. Times are wall times from spawning the process (Node and
 * tsx start-up included), measured here: listening = the first TCP connect that succeeds (tried every 5 ms),
 * ready = the stdout line, port taken = the process's exit with `cannot listen on ...`. Also printed: the
 * server's own `load_ms` (reading and verifying the build) from its `build loaded` log line, and what
 * `/readyz` answered at the first connect.
 *
 * --traffic N: start the server behind a busy edge: as soon as the port accepts connections, `wrk -t2 -cN
 * -d<--traffic-seconds>s` GETs a feed (limits raised so that nothing is refused); printed: whether the build
 * was loaded while wrk still ran, and how many of wrk's requests got 503 (no build yet) and 200.
 *
 *   npx tsx scripts/bench-serve-start.ts [--reports 1000000] [--runs 5] [--traffic 256 [--traffic-seconds 10]] [--compare <checkout>/bin/physpay.js [--compare-label aa34156]] [--json]
 *
 * --compare: also measure the CLI of another checkout (e.g. `git archive aa34156 | tar -x -C /tmp/old`, with
 * a node_modules link), run for run beside this one, so both see the same machine load. Without it the
 * reference printed beside today's figures is REFERENCE below: the order this replaced (load, then listen;
 * commit aa34156), measured that way with this script on the 1M build on this machine.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { connect, createServer, type Server } from 'node:net';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { createDemoDb } from '../build/demo/create.ts';
import { arg, flag, median, removeSqlite } from './bench-lib.ts';

const REPORTS = Number(arg('reports', '1000000'));
const RUNS = Number(arg('runs', '5'));
const BIN = resolve('bin/physpay.js');
const COMPARE = arg('compare', '') ? resolve(arg('compare', '')) : null;
const JSON_OUT = flag('json');
/** wrk connections while the server starts (0: none) */
const TRAFFIC = Number(arg('traffic', '0'));
const TRAFFIC_SECONDS = Number(arg('traffic-seconds', '10'));
const log = (s: string) => (JSON_OUT ? process.stderr : process.stdout).write(`${s}\n`);
const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * Measured with this script (--compare on a checkout of aa34156) on the 1M build, medians of 5 runs, on the
 * 2 vCPU benchmark VM at a load average of 2.9 (other work was running on it).
 */
const REFERENCE = { commit: 'aa34156', reports: 1_000_000, listening_s: 3.02, ready_s: 3.01, port_taken_s: 4.70, load_average: 2.9 };

// ---- the demo DB (shared with bench-build) and its build, made once per size
const out = resolve('bench/out');
const work = join(out, `serve-start-${REPORTS}`);
mkdirSync(work, { recursive: true });
const db = join(out, `demo-${REPORTS}.db`);
const data = join(work, 'dist');
if (!existsSync(db)) {
  log(`writing a demo DB of ${fmt(REPORTS)} reports to ${db}`);
  createDemoDb(`${db}.tmp`, { reports: REPORTS, seed: 42, asOf: '2026-11-15', force: true });
  spawnSync('mv', [`${db}.tmp`, db]);
}
if (!existsSync(join(data, 'current'))) {
  log(`building it into ${data}`);
  const r = spawnSync(process.execPath, [resolve('bin/physpay.js'), 'build', '--db', db, '--out', data, '--no-fsync', '--force'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`the build of ${db} failed (exit ${r.status})`);
  log(r.stdout.trim());
}
const buildDir = join(data, 'current');
let files = 0;
let bytes = 0;
const walk = (dir: string) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) walk(join(dir, e.name));
    else if (e.isFile()) {
      files++;
      bytes += statSync(join(dir, e.name)).size;
    }
  }
};
walk(buildDir);

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const tryConnect = (port: number) =>
  new Promise<boolean>((res) => {
    const c = connect(port, '127.0.0.1');
    c.once('connect', () => {
      c.destroy();
      res(true);
    });
    c.once('error', () => res(false));
  });

const readyz = (port: number) =>
  new Promise<number>((res) => {
    request({ host: '127.0.0.1', port, path: '/readyz' }, (r) => {
      r.resume();
      res(r.statusCode ?? 0);
    }).on('error', () => res(0)).end();
  });

interface StartRun {
  listening_s: number;
  ready_s: number;
  /** the server's own: reading and verifying the build, ms (null: an older physpay that does not log it) */
  load_ms: number | null;
  /** /readyz at the first successful connect */
  readyz_at_listening: number;
  /** --traffic: whether the build was loaded while wrk still ran, and wrk's counts */
  traffic: { loaded_during: boolean; requests: number; non_2xx: number } | null;
}

/** wrk's total and non-2xx counts from its report. */
function wrkCounts(text: string): { requests: number; non_2xx: number } {
  return { requests: Number(/(\d+) requests in/.exec(text)?.[1] ?? NaN), non_2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0) };
}

/** `physpay serve` of `bin` on `port` over the bench build (a fresh service DB), its stderr collected. */
function spawnServe(bin: string, port: number): { t0: number; child: ChildProcess; stderr: { text: string } } {
  const serviceDb = join(work, 'service.db');
  removeSqlite(serviceDb);
  const t0 = performance.now();
  const child = spawn(process.execPath, [bin, 'serve', '--data', data, '--service-db', serviceDb, '--port', String(port), '--host', '127.0.0.1', '--log-level', 'info',
    ...(TRAFFIC > 0 ? ['--ip-per-minute', '1000000000', '--ip-per-day', '1000000000'] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stderr = { text: '' };
  child.stderr!.on('data', (d) => (stderr.text += d));
  return { t0, child, stderr };
}

/** Start serve on a free port; time the first connect and the `listening on` line; stop it. */
async function startOnce(bin: string): Promise<StartRun> {
  const port = await freePort();
  const { t0, child, stderr } = spawnServe(bin, port);
  const exited = new Promise((r) => child.once('exit', r));
  const ready = new Promise<number>((res, rej) => {
    let outText = '';
    child.stdout!.on('data', (d) => {
      outText += d;
      if (/listening on http/.test(outText)) res(performance.now());
    });
    child.once('exit', (code) => rej(new Error(`physpay serve exited (${code}) before it was ready: ${stderr.text.slice(-1000)}`)));
  });
  ready.catch(() => {});
  let listening = 0;
  let readyzStatus = 0;
  let wrk: { child: ChildProcess; out: { text: string }; done: Promise<unknown> } | null = null;
  for (;;) {
    if (child.exitCode !== null) break;
    if (await tryConnect(port)) {
      listening = performance.now();
      readyzStatus = await readyz(port);
      if (TRAFFIC > 0) {
        const w = spawn('wrk', ['-t2', `-c${TRAFFIC}`, `-d${TRAFFIC_SECONDS}s`, `http://127.0.0.1:${port}/data/api/v1/specialties/cardiology.json`], { stdio: ['ignore', 'pipe', 'inherit'] });
        const out = { text: '' };
        w.stdout!.on('data', (d) => (out.text += d));
        wrk = { child: w, out, done: new Promise((r) => w.once('exit', r)) };
      }
      break;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const readyAt = await ready;
  const loadedDuring = wrk ? wrk.child.exitCode === null : false;
  await wrk?.done;
  // the log line is written asynchronously: give it a moment
  await new Promise((r) => setTimeout(r, 200));
  child.kill('SIGTERM');
  await exited;
  const loaded = stderr.text.split('\n').map((l) => {
    try {
      return JSON.parse(l) as { msg?: string; load_ms?: number };
    } catch {
      return {};
    }
  }).find((l) => l.msg === 'build loaded');
  return { listening_s: (listening - t0) / 1000, ready_s: (readyAt - t0) / 1000, load_ms: loaded?.load_ms ?? null, readyz_at_listening: readyzStatus,
    traffic: wrk ? { loaded_during: loadedDuring, ...wrkCounts(wrk.out.text) } : null };
}

/** Start serve on a port held here; time until it exits with the `cannot listen` sentence. */
async function portTakenOnce(bin: string): Promise<{ seconds: number; code: number | null; message: string; loaded_first: boolean }> {
  const holder: Server = createServer();
  await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
  const port = (holder.address() as { port: number }).port;
  const { t0, child, stderr } = spawnServe(bin, port);
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  const seconds = (performance.now() - t0) / 1000;
  holder.close();
  const message = stderr.text.split('\n').find((l) => l.startsWith('physpay: ')) ?? '';
  if (!/cannot listen on/.test(message)) throw new Error(`physpay serve on a taken port did not say so: exit ${code}, stderr ${stderr.text.slice(-1000)}`);
  return { seconds, code, message, loaded_first: stderr.text.includes('"build loaded"') };
}

log(`physpay serve on a build of ${fmt(REPORTS)} demo reports: ${fmt(files)} files, ${(bytes / 1e6).toFixed(0)} MB; ${RUNS} runs each${COMPARE ? `, each beside ${COMPARE}` : ''}`);
const load = loadavg()[0]!.toFixed(2);

/** Every measurement of one CLI, run for run. */
class Series {
  starts: StartRun[] = [];
  taken: Awaited<ReturnType<typeof portTakenOnce>>[] = [];
  constructor(readonly bin: string) {}
  async run(i: number, label: string): Promise<void> {
    const s = await startOnce(this.bin);
    const t = await portTakenOnce(this.bin);
    this.starts.push(s);
    this.taken.push(t);
    log(`  run ${i + 1}${label}: listening ${s.listening_s.toFixed(2)} s, ready ${s.ready_s.toFixed(2)} s (load ${s.load_ms ?? '-'} ms, /readyz ${s.readyz_at_listening} at the first connect), port taken reported after ${t.seconds.toFixed(2)} s${t.loaded_first ? ' (after loading the build)' : ''}${s.traffic ? `; under wrk -c${TRAFFIC}: loaded ${s.traffic.loaded_during ? 'while it ran' : 'after it stopped'}, ${fmt(s.traffic.non_2xx)} of ${fmt(s.traffic.requests)} requests not 200` : ''}`);
  }
  result() {
    return {
      physpay: this.bin,
      listening_s: this.starts.map((s) => s.listening_s),
      ready_s: this.starts.map((s) => s.ready_s),
      load_ms: this.starts.map((s) => s.load_ms).filter((x): x is number => x !== null),
      readyz_at_listening: this.starts.map((s) => s.readyz_at_listening),
      traffic: TRAFFIC > 0 ? { connections: TRAFFIC, seconds: TRAFFIC_SECONDS, runs: this.starts.map((s) => s.traffic) } : null,
      port_taken_s: this.taken.map((t) => t.seconds),
      port_taken_exit: this.taken[0]!.code,
      port_taken_message: this.taken[0]!.message,
      port_taken_after_load: this.taken.some((t) => t.loaded_first),
    };
  }
}
const current = new Series(BIN);
const compared = COMPARE ? new Series(COMPARE) : null;
for (let i = 0; i < RUNS; i++) {
  await current.run(i, compared ? ' (this physpay)' : '');
  await compared?.run(i, ` (${COMPARE})`);
}
rmSync(join(work, 'service.db'), { force: true });

const result = {
  reports: REPORTS,
  files,
  build_bytes: bytes,
  runs: RUNS,
  load_average_at_start: Number(load),
  ...current.result(),
  compared: compared ? { ...compared.result(), label: arg('compare-label', COMPARE!) } : null,
  reference: REFERENCE,
};

const range = (xs: number[], d = 2) => (xs.length ? `${median(xs).toFixed(d)} s (${Math.min(...xs).toFixed(d)}-${Math.max(...xs).toFixed(d)})` : '-');
if (JSON_OUT) console.log(JSON.stringify(result));
else {
  const c = result.compared;
  const ref = REFERENCE.reports === REPORTS && REFERENCE.ready_s > 0;
  const other = (key: 'listening_s' | 'ready_s' | 'port_taken_s') => (c ? range(c[key]) : ref ? `${REFERENCE[key].toFixed(2)} s` : '(measured on 1M only)');
  console.log('');
  console.log(`                              this physpay (listen, then load)      ${c ? c.label : `${REFERENCE.commit}, reference (load, then listen)`}`);
  console.log(`port accepts connections      ${range(result.listening_s).padEnd(37)} ${other('listening_s')}`);
  console.log(`build loaded (ready)          ${range(result.ready_s).padEnd(37)} ${other('ready_s')}`);
  console.log(`taken port reported           ${range(result.port_taken_s).padEnd(37)} ${other('port_taken_s')}`);
  if (result.load_ms.length) console.log(`reading and verifying (log)   ${range(result.load_ms.map((x) => x / 1000))}`);
  console.log(`/readyz at the first connect  ${result.readyz_at_listening.join(', ')}${c ? `; ${c.readyz_at_listening.join(', ')}` : ''}`);
  console.log(`taken port: exit ${result.port_taken_exit}, ${result.port_taken_message}${result.port_taken_after_load ? ' (after loading the build)' : ' (before loading the build)'}`);
  console.log(`load average (1 min) at the start: ${load}`);
}
