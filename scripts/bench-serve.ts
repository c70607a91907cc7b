/**
 * Open-feed serving benchmark (DESIGN.md section 8): physpay (one process, every header, per-IP limit
 * on and counted in the SQLite service store) against nginx (one worker) serving the same published
 * files with the same headers, side by side in one run, for a 200 and for a 304 revalidation.
 *
 * Needs `nginx` and `wrk` from Debian (apt-get install nginx wrk); installs nothing itself. Each server
 * is pinned to CPU 0 and wrk to CPU 1 (taskset) so both get the same single core.
 *
 *   npx tsx scripts/bench-serve.ts [--seconds 10] [--runs 3] [--connections 64] [--json]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { createDemoDb } from '../build/demo/create.ts';
import { DEFAULT_BUILD_OPTIONS, runBuild } from '../build/run-build.ts';
import { CORS_HEADERS } from '../server/http/cors.ts';

const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : dflt;
};
const seconds = Number(arg('seconds', '10'));
const runs = Number(arg('runs', '3'));
const connections = Number(arg('connections', '64'));
const json = args.includes('--json');
const FEED = '/data/api/v1/specialties/family-medicine.json';

for (const tool of ['nginx', 'wrk', 'taskset']) {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
    console.error(`bench-serve: ${tool} is not installed (apt-get install nginx wrk util-linux); nothing was measured`);
    process.exit(2);
  }
}

const work = resolve('bench/out/serve');
mkdirSync(work, { recursive: true });
const db = join(work, 'demo.db');
const data = join(work, 'dist');
if (!existsSync(join(data, 'current'))) {
  if (!existsSync(db)) createDemoDb(db, { reports: 60_000, seed: 42, asOf: '2026-11-15', force: true });
  runBuild({ ...DEFAULT_BUILD_OPTIONS, db, out: data, force: true, durable: false, now: () => new Date() });
}
const publicDir = join(data, 'current', 'public');

function getHeaders(port: number, path: string): Promise<Record<string, string | string[] | undefined>> {
  return new Promise((res, rej) => {
    request({ host: '127.0.0.1', port, path }, (r) => {
      r.resume();
      r.on('end', () => res(r.headers));
    }).on('error', rej).end();
  });
}

async function waitFor(port: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await getHeaders(port, FEED);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`nothing answers on port ${port}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

function wrk(port: number, headers: string[]): number {
  const h = headers.flatMap((x) => ['-H', x]);
  const r = spawnSync('taskset', ['-c', '1', 'wrk', '-t', '1', '-c', String(connections), '-d', `${seconds}s`, ...h, `http://127.0.0.1:${port}${FEED}`], { encoding: 'utf8' });
  const m = /Requests\/sec:\s+([\d.]+)/.exec(r.stdout);
  if (!m) throw new Error(`wrk failed: ${r.stdout}${r.stderr}`);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(r.stdout);
  if (non2xx) throw new Error(`wrk saw ${non2xx[1]} non-2xx/3xx responses on port ${port}`);
  return Number(m[1]);
}

// ---- nginx with the same headers as physpay's feeds
const nginxPort = 18080;
const nginxConf = join(work, 'nginx.conf');
const corsLines = Object.entries(CORS_HEADERS).map(([k, v]) => `      add_header ${k} "${v}" always;`).join('\n');
writeFileSync(nginxConf, `
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
    listen 127.0.0.1:${nginxPort};
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

function startNginx(): ChildProcess {
  return spawn('taskset', ['-c', '0', 'nginx', '-c', nginxConf, '-p', work], { stdio: 'ignore' });
}

async function startPhyspay(): Promise<{ child: ChildProcess; port: number }> {
  const service = join(work, 'service.db');
  for (const s of ['', '-wal', '-shm']) rmSync(service + s, { force: true });
  const child = spawn('taskset', ['-c', '0', process.execPath, 'bin/physpay.js', 'serve', '--data', data, '--service-db', service, '--port', '0',
    '--ip-per-minute', '1000000000', '--ip-per-day', '1000000000'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const port = await new Promise<number>((res, rej) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) res(Number(m[1]));
    });
    child.on('exit', (code) => rej(new Error(`physpay serve exited (${code})`)));
  });
  return { child, port };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const results: Record<string, number[]> = { nginx200: [], physpay200: [], nginx304: [], physpay304: [] };
for (let r = 0; r < runs; r++) {
  const ngx = startNginx();
  await waitFor(nginxPort);
  const ngxEtag = String((await getHeaders(nginxPort, FEED)).etag);
  results.nginx200!.push(wrk(nginxPort, []));
  results.nginx304!.push(wrk(nginxPort, [`If-None-Match: ${ngxEtag}`]));
  ngx.kill('SIGTERM');
  const pp = await startPhyspay();
  await waitFor(pp.port);
  const ppEtag = String((await getHeaders(pp.port, FEED)).etag);
  results.physpay200!.push(wrk(pp.port, []));
  results.physpay304!.push(wrk(pp.port, [`If-None-Match: ${ppEtag}`]));
  pp.child.kill('SIGTERM');
  await new Promise((res) => pp.child.on('exit', res));
}

const fmt = (xs: number[]) => `${median(xs).toFixed(0)} [${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}]`;
const ratio200 = median(results.physpay200!) / median(results.nginx200!);
const ratio304 = median(results.physpay304!) / median(results.nginx304!);
const bytes = readFileSync(join(publicDir, FEED)).length;
if (json) {
  console.log(JSON.stringify({ seconds, runs, connections, feed: FEED, bytes, results, ratio200, ratio304 }));
} else {
  console.log(`open-feed serving: ${FEED} (${bytes} bytes), wrk 1 thread ${connections} connections ${seconds} s on CPU 1, server on CPU 0; ${runs} run(s), median [min-max] req/s`);
  console.log(`           nginx (1 worker)      physpay (1 process, limits on)   ratio   target`);
  console.log(`200        ${fmt(results.nginx200!).padEnd(20)}  ${fmt(results.physpay200!).padEnd(31)}  ${ratio200.toFixed(2)}    >= 0.50`);
  console.log(`304        ${fmt(results.nginx304!).padEnd(20)}  ${fmt(results.physpay304!).padEnd(31)}  ${ratio304.toFixed(2)}    >= 0.50 (and >= the 200 ratio)`);
}
