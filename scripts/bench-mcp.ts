/**
 * Tool server throughput: `tools/call get_specialty_pay` over stateless Streamable HTTP (a plain JSON
 * POST, a fresh McpServer and transport per request, the per-IP limit on and counted), against the
 * reference measured in the same run on the same server process: a GET of the open feed that the tool's
 * structuredContent equals (/data/api/v1/specialties/cardiology.json).
 *
 * Needs `wrk` from Debian (apt-get install wrk); installs nothing itself. The server runs on CPU 0 and wrk
 * on CPU 1 (taskset).
 *
 *   npx tsx scripts/bench-mcp.ts [--seconds 10] [--runs 3] [--connections 32] [--json]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join, resolve } from 'node:path';
import { createDemoDb } from '../build/demo/create.ts';
import { DEFAULT_BUILD_OPTIONS, runBuild } from '../build/run-build.ts';

const args = process.argv.slice(2);
const arg = (name: string, dflt: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : dflt;
};
const seconds = Number(arg('seconds', '10'));
const runs = Number(arg('runs', '3'));
const connections = Number(arg('connections', '32'));
const json = args.includes('--json');
const FEED = '/data/api/v1/specialties/cardiology.json';
const CALL = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_specialty_pay', arguments: { specialty: 'cardiology' } } };

for (const tool of ['wrk', 'taskset']) {
  if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
    console.error(`bench-mcp: ${tool} is not installed (apt-get install wrk util-linux); nothing was measured`);
    process.exit(2);
  }
}

const work = resolve('bench/out/mcp');
mkdirSync(work, { recursive: true });
const db = join(work, 'demo.db');
const data = join(work, 'dist');
if (!existsSync(join(data, 'current'))) {
  if (!existsSync(db)) createDemoDb(db, { reports: 60_000, seed: 42, asOf: '2026-11-15', force: true });
  runBuild({ ...DEFAULT_BUILD_OPTIONS, db, out: data, force: true, durable: false, now: () => new Date() });
}

// wrk script: POST the tool call as a plain JSON-RPC request.
const lua = join(work, 'tools-call.lua');
writeFileSync(lua, `wrk.method = "POST"
wrk.body = '${JSON.stringify(CALL)}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
`);

/** POST the tool call once and check it answers a result (not an error) before measuring. */
function checkCall(port: number): Promise<void> {
  return new Promise((res, rej) => {
    const body = JSON.stringify(CALL);
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body) } }, (r) => {
      let text = '';
      r.on('data', (c) => (text += c));
      r.on('end', () => {
        const parsed = JSON.parse(text) as { result?: { isError?: boolean; structuredContent?: unknown } };
        if (r.statusCode !== 200 || !parsed.result || parsed.result.isError || !parsed.result.structuredContent) rej(new Error(`tool call failed: ${r.statusCode} ${text.slice(0, 300)}`));
        else res();
      });
    });
    req.on('error', rej);
    req.end(body);
  });
}

function wrk(port: number, path: string, extra: string[], durationS = seconds): number {
  const r = spawnSync('taskset', ['-c', '1', 'wrk', '-t', '1', '-c', String(connections), '-d', `${durationS}s`, ...extra, `http://127.0.0.1:${port}${path}`], { encoding: 'utf8' });
  const m = /Requests\/sec:\s+([\d.]+)/.exec(r.stdout);
  if (!m) throw new Error(`wrk failed: ${r.stdout}${r.stderr}`);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(r.stdout);
  if (non2xx) throw new Error(`wrk saw ${non2xx[1]} non-2xx/3xx responses on ${path}`);
  return Number(m[1]);
}

async function startPhyspay(): Promise<{ child: ChildProcess; port: number }> {
  const service = join(work, 'service.db');
  for (const s of ['', '-wal', '-shm']) rmSync(service + s, { force: true });
  const child = spawn('taskset', ['-c', '0', process.execPath, 'bin/physpay.js', 'serve', '--data', data, '--service-db', service, '--port', '0', '--log-level', 'warn',
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
const results: Record<'feed' | 'tool', number[]> = { feed: [], tool: [] };
for (let r = 0; r < runs; r++) {
  const pp = await startPhyspay();
  await checkCall(pp.port);
  wrk(pp.port, '/mcp', ['-s', lua], 2); // warm-up (JIT, connections), discarded
  results.tool.push(wrk(pp.port, '/mcp', ['-s', lua]));
  results.feed.push(wrk(pp.port, FEED, []));
  pp.child.kill('SIGTERM');
  await new Promise((res) => pp.child.on('exit', res));
}

const ratio = median(results.tool) / median(results.feed);
if (json) {
  console.log(JSON.stringify({ seconds, runs, connections, tool: 'get_specialty_pay', feed: FEED, results, ratio }));
} else {
  const fmt = (xs: number[]) => `${median(xs).toFixed(0)} [${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)}]`;
  console.log(`tool server: tools/call get_specialty_pay (plain JSON POST) vs GET ${FEED}, one physpay process, wrk 1 thread ${connections} connections ${seconds} s; ${runs} run(s), median [min-max] req/s`);
  console.log(`tools/call   ${fmt(results.tool).padEnd(22)}  feed GET ${fmt(results.feed).padEnd(22)}  ratio ${ratio.toFixed(2)}`);
}
