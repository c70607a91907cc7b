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
export function writeNginxConfig(work: string, publicDir: string, port: number): string {
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
${corsLines}
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
