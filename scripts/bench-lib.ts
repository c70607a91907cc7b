/**
 * What the bench-* scripts share: flags, the demo build they serve, starting `physpay serve` pinned to a
 * CPU, wrk runs, and medians. Nothing here installs anything.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join, resolve } from 'node:path';
import { createDemoDb } from '../build/demo/create.ts';
import { DEFAULT_BUILD_OPTIONS, runBuild } from '../build/run-build.ts';
import { CORS_HEADERS } from '../server/http/cors.ts';

const argv = process.argv.slice(2);

/** `--name value` from the command line, or the default. */
export function arg(name: string, dflt: string): string {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1]! : dflt;
}

/** `--name` present on the command line. */
export const flag = (name: string): boolean => argv.includes(`--${name}`);

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** "median [min-max]" */
export const medianRange = (xs: number[], digits = 0): string => `${median(xs).toFixed(digits)} [${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}]`;

export const hasCommand = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** Exit 2 with a message when a tool is missing: the scripts measure nothing rather than half. */
export function requireCommands(script: string, cmds: string[]): void {
  for (const cmd of cmds) {
    if (!hasCommand(cmd)) {
      console.error(`${script}: ${cmd} is not installed (apt-get install nginx wrk util-linux); nothing was measured`);
      process.exit(2);
    }
  }
}

/** bench/out/<name>/ with a published demo build of 60,000 reports (seed 42), made once and reused. */
export function demoWorkspace(name: string): { work: string; data: string } {
  const work = resolve('bench/out', name);
  mkdirSync(work, { recursive: true });
  const db = join(work, 'demo.db');
  const data = join(work, 'dist');
  if (!existsSync(join(data, 'current'))) {
    if (!existsSync(db)) createDemoDb(db, { reports: 60_000, seed: 42, asOf: '2026-11-15', force: true });
    runBuild({ ...DEFAULT_BUILD_OPTIONS, db, out: data, force: true, durable: false, now: () => new Date() });
  }
  return { work, data };
}

/**
 * nginx.conf for the reference server: one worker serving the build's public tree on 127.0.0.1:`port`,
 * feeds with the same headers as physpay (content type, one-hour caching, CORS, nosniff; nginx's own ETag).
 */
export function writeNginxConfig(work: string, publicDir: string, port: number, opts: { gzipStatic?: boolean } = {}): string {
  const file = join(work, 'nginx.conf');
  const corsLines = Object.entries(CORS_HEADERS).map(([k, v]) => `      add_header ${k} "${v}" always;`).join('\n');
  writeFileSync(file, `
worker_processes 1;
daemon off;
pid ${join(work, 'nginx.pid')};
error_log ${join(work, 'nginx-error.log')};
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path ${work}/ngx-body; proxy_temp_path ${work}/ngx-proxy; fastcgi_temp_path ${work}/ngx-fcgi; uwsgi_temp_path ${work}/ngx-uwsgi; scgi_temp_path ${work}/ngx-scgi;
  server {
    listen 127.0.0.1:${port};
    root ${publicDir};
    location /data/api/v1/ {
      default_type "application/json; charset=utf-8";
      types { }
      etag on;
      add_header Cache-Control "public, max-age=3600" always;
      add_header X-Content-Type-Options nosniff always;
${corsLines}${opts.gzipStatic ? '\n      gzip_static on;\n      gzip_vary on;\n      gzip_proxied any;' : ''}
    }
  }
}
`);
  return file;
}

/** Wait (up to 30 s) until 127.0.0.1:`port` answers `path` with 200. */
export function waitFor200(port: number, path: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  return new Promise((resolve, reject) => {
    const attempt = () =>
      httpRequest({ host: '127.0.0.1', port, path }, (r) => {
        r.resume();
        r.on('end', () => (r.statusCode === 200 ? resolve() : retry()));
      }).on('error', retry).end();
    const retry = () => (Date.now() > deadline ? reject(new Error(`nothing answers 200 for ${path} on port ${port}`)) : setTimeout(attempt, 100));
    attempt();
  });
}

/** Delete a SQLite service DB (and its WAL files) so a run starts from empty counters. */
export function removeSqlite(path: string): void {
  for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true });
}

/** `taskset -c cpu cmd args` when taskset exists, else the command itself. */
export function pinned(cpu: number, cmd: string, args: string[]): [string, string[]] {
  return hasCommand('taskset') ? ['taskset', ['-c', String(cpu), cmd, ...args]] : [cmd, args];
}

/**
 * Start `physpay serve` over `data`, with the per-IP limit on but set out of reach (every request still runs
 * the atomic check-and-count) and request log lines off (`--log-level warn`, like nginx's `access_log off` in
 * bench-serve), and wait for its `listening on` line. The whole process (its JavaScript thread and V8's and
 * libuv's helper threads) is confined to CPU 0 unless `cpu` is null.
 */
export async function startPhyspay(data: string, serviceDb: string, extra: string[] = [], cpu: number | null = 0): Promise<{ child: ChildProcess; port: number; stop(): Promise<void> }> {
  const serveArgs = ['bin/physpay.js', 'serve', '--data', data, '--service-db', serviceDb, '--port', '0', '--log-level', 'warn',
    '--ip-per-minute', '1000000000', '--ip-per-day', '1000000000', ...extra];
  const [cmd, args] = cpu === null ? [process.execPath, serveArgs] : pinned(cpu, process.execPath, serveArgs);
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  const port = await new Promise<number>((res, rej) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) res(Number(m[1]));
    });
    child.on('exit', (code) => rej(new Error(`physpay serve exited (${code})`)));
  });
  const exited = new Promise((r) => child.once('exit', r));
  return {
    child,
    port,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One wrk run (1 thread, on CPU 1) against a URL; req/s. Any non-2xx/3xx answer fails the benchmark. */
export function wrk(url: string, opts: { connections: number; seconds: number; headers?: string[]; script?: string }): number {
  const a = ['wrk', '-t', '1', '-c', String(opts.connections), '-d', `${opts.seconds}s`, ...(opts.headers ?? []).flatMap((h) => ['-H', h]), ...(opts.script ? ['-s', opts.script] : []), url];
  const [cmd, args] = pinned(1, a[0]!, a.slice(1));
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  const m = /Requests\/sec:\s+([\d.]+)/.exec(r.stdout);
  if (!m) throw new Error(`wrk failed: ${r.stdout}${r.stderr}`);
  const bad = /Non-2xx or 3xx responses: (\d+)/.exec(r.stdout);
  if (bad) throw new Error(`wrk saw ${bad[1]} non-2xx/3xx responses from ${url}`);
  return Number(m[1]);
}

export interface OpenLoopResult {
  sent: number;
  completed: number;
  errors: number;
  /** completed responses per second */
  achieved: number;
  /** latency from each request's scheduled time, ms */
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  /** how late the generator itself wrote requests (p99, ms): its own health */
  send_lag_p99_ms: number;
  statuses: Record<string, number>;
}

/** scripts/loadgen/openloop.c compiled (gcc -O2) into bench/out/, rebuilt when the source is newer. */
export function openLoopBinary(): string {
  const src = resolve('scripts/loadgen/openloop.c');
  const bin = resolve('bench/out/openloop');
  if (!existsSync(bin) || statSync(bin).mtimeMs < statSync(src).mtimeMs) {
    if (!hasCommand('gcc')) throw new Error('openloop: gcc is not installed (apt-get install gcc); nothing was measured');
    mkdirSync(resolve('bench/out'), { recursive: true });
    const r = spawnSync('gcc', ['-O2', '-Wall', '-o', bin, src], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`compiling ${src} failed: ${r.stderr}`);
  }
  return bin;
}

/**
 * One open-loop run (scripts/loadgen/openloop.c, on CPU 1): `rate` requests per second for `seconds`, cycling
 * through `requests` (path, optional X-API-Key), latency measured from each request's scheduled time.
 */
export function openLoop(port: number, requests: { path: string; key?: string }[], opts: { rate: number; seconds: number; connections?: number }): OpenLoopResult {
  const bin = openLoopBinary(); // also makes bench/out/
  const file = resolve('bench/out', `openloop-requests-${process.pid}.tsv`);
  writeFileSync(file, requests.map((r) => `${r.path}\t${r.key ?? ''}\n`).join(''));
  const [cmd, args] = pinned(1, bin, [String(port), String(opts.rate), String(opts.seconds), String(opts.connections ?? 64), file]);
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  rmSync(file, { force: true });
  if (r.status !== 0) throw new Error(`openloop failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as OpenLoopResult;
}

/** "median (min-max)", as bench-all writes every figure. */
const figure = (xs: number[], digits = 0): string => `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)})`;
const thousands = (n: number): string => n.toLocaleString('en-US');

/** What `scripts/bench-import.ts --json` prints. */
export interface ImportBench {
  rows: number;
  csv_bytes: number;
  import_seconds: number;
  rows_per_second: number;
  import_peak_rss_bytes: number;
  undo_seconds: number;
  db_bytes_after_import: number;
  db_bytes_after_undo: number;
  db_bytes_after_reclaim: number;
  reference: { rows: number; import_seconds: number; import_peak_rss_bytes: number; note: string };
}

/** The report's section for bench-import (bench-all). */
export function importSection(r: ImportBench): string[] {
  const mb = (b: number) => (b < 1e7 ? (b / 1e6).toFixed(1) : thousands(Math.round(b / 1e6)));
  const ref = r.reference;
  const same = ref.rows === r.rows;
  return [
    '## Import (README: Imports: batches, duplicates, undo)', '',
    `A reports CSV of ${thousands(r.rows)} rows (${mb(r.csv_bytes)} MB; demo generator, seed 42) imported into an empty reports DB with \`physpay import reports\`, then the batch undone and the file reclaimed (scripts/bench-import.ts, one run; peak RSS from GNU time). Reference: the ${ref.note.replace(/, same CSV$/, '')} it replaced, measured with the same script and CSV on ${thousands(ref.rows)} rows on this machine. No target is set.`, '',
    `| | streamed importer | whole-file importer (reference${same ? '' : `, ${thousands(ref.rows)} rows`}) |`, '|---|---:|---:|',
    `| rows | ${thousands(r.rows)} | ${thousands(ref.rows)} |`,
    `| seconds | ${r.import_seconds.toFixed(1)} | ${ref.import_seconds.toFixed(1)} |`,
    `| rows per second | ${thousands(r.rows_per_second)} | ${thousands(Math.round(ref.rows / ref.import_seconds))} |`,
    `| peak RSS MB | ${mb(r.import_peak_rss_bytes)} | ${mb(ref.import_peak_rss_bytes)} |`, '',
    `- DB file: ${mb(r.db_bytes_after_import)} MB after the import, ${mb(r.db_bytes_after_undo)} MB after \`physpay import undo\` (${r.undo_seconds.toFixed(1)} s), ${mb(r.db_bytes_after_reclaim)} MB after \`physpay reclaim\``, '',
  ];
}

/** What `scripts/bench-serve-start.ts --json` prints (the figures of one CLI). */
export interface ServeStartSeries {
  physpay: string;
  /** what --compare-label named it (a commit), else its path */
  label?: string;
  listening_s: number[];
  ready_s: number[];
  load_ms: number[];
  readyz_at_listening: number[];
  port_taken_s: number[];
  port_taken_exit: number | null;
  port_taken_message: string;
  port_taken_after_load: boolean;
}
export interface ServeStartBench extends ServeStartSeries {
  reports: number;
  files: number;
  build_bytes: number;
  runs: number;
  load_average_at_start: number;
  compared: ServeStartSeries | null;
  reference: { commit: string; reports: number; listening_s: number; ready_s: number; port_taken_s: number; load_average: number };
}

/** The report's section for bench-serve-start (bench-all). */
export function serveStartSection(r: ServeStartBench): string[] {
  const ref = r.reference;
  const c = r.compared;
  const refUsable = !c && ref.reports === r.reports && ref.ready_s > 0;
  const other = (key: 'listening_s' | 'ready_s' | 'port_taken_s') => (c ? figure(c[key], 2) : refUsable ? ref[key].toFixed(2) : '(measured on 1M only)');
  const otherHead = c ? `load, then listen (${c.label ?? c.physpay}, run for run beside it)` : `load, then listen (${ref.commit}, reference${refUsable ? `: medians, load average ${ref.load_average.toFixed(1)}` : ''})`;
  return [
    '## serve start-up (README: Operations, "Start-up")', '',
    `\`physpay serve\` on the build of the ${thousands(r.reports)}-report demo DB (${thousands(r.files)} files, ${thousands(Math.round(r.build_bytes / 1e6))} MB), started as a child process ${r.runs} times on a free port and ${r.runs} times on a port the script holds (scripts/bench-serve-start.ts). Seconds from the spawn (Node and tsx start-up included): the first TCP connect that succeeds, the stdout line \`listening on URL\` (the build is loaded), the exit with \`cannot listen on ...\`. Load average (1 min) at the start: ${r.load_average_at_start.toFixed(1)}. No target is set.`, '',
    `| seconds | listen, then load (this physpay) | ${otherHead} |`, '|---|---:|---:|',
    `| port accepts connections | ${figure(r.listening_s, 2)} | ${other('listening_s')} |`,
    `| build loaded (ready) | ${figure(r.ready_s, 2)} | ${other('ready_s')} |`,
    `| taken port reported (exit ${r.port_taken_exit}) | ${figure(r.port_taken_s, 2)} | ${other('port_taken_s')} |`,
    `| reading and verifying the build (the server's \`load_ms\`) | ${r.load_ms.length ? figure(r.load_ms.map((x) => x / 1000), 2) : '-'} | - |`, '',
    `- /readyz at the first connect: ${[...new Set(r.readyz_at_listening)].join(', ')} (503 \`loading build <id>\` while the build loads)${c ? `; before: ${[...new Set(c.readyz_at_listening)].join(', ')}` : ''}`,
    `- a taken port: \`${r.port_taken_message.replace(/:\d+ /, ':PORT ')}\`, ${r.port_taken_after_load ? 'after loading the build' : 'before loading the build'}`, '',
  ];
}
