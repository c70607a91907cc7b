/**
 * Open-feed serving benchmark (the quality bars in README: Benchmarks): physpay (one process, every header, per-IP limit
 * on and counted in the SQLite service store) against nginx (one worker) serving the same published
 * files with the same headers, side by side in one run, for a 200, a 304 revalidation and a 200 in gzip
 * (nginx's `gzip_static` sending the `.gz` files of `physpay export`, physpay its precompressed variant).
 * physpay's brotli answer is measured too (Debian's nginx has no brotli module to set beside it).
 *
 * Needs `nginx` and `wrk` from Debian (apt-get install nginx wrk); installs nothing itself. Each server
 * is pinned to CPU 0 and wrk to CPU 1 (taskset) so both get the same single core.
 *
 *   npx tsx scripts/bench-serve.ts [--seconds 10] [--runs 3] [--connections 64] [--json]
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { arg, demoWorkspace, flag, median, medianRange, pinned, removeSqlite, requireCommands, startPhyspay, waitFor200, wrk as wrkUrl, writeNginxConfig } from './bench-lib.ts';

const seconds = Number(arg('seconds', '10'));
const runs = Number(arg('runs', '3'));
const connections = Number(arg('connections', '64'));
const json = flag('json');
const FEED = '/data/api/v1/specialties/family-medicine.json';

requireCommands('bench-serve', ['nginx', 'wrk', 'taskset']);
const { work, data } = demoWorkspace('serve');
// nginx serves the static export of the same build: the files as physpay serves them today, each with its .gz
const publicDir = join(work, 'export');
const exported = spawnSync(process.execPath, ['bin/physpay.js', 'export', '--data', data, '--out', publicDir, '--force'], { encoding: 'utf8' });
if (exported.status !== 0) throw new Error(`physpay export failed: ${exported.stderr}`);

function getHeaders(port: number, path: string): Promise<Record<string, string | string[] | undefined>> {
  return new Promise((res, rej) => {
    request({ host: '127.0.0.1', port, path }, (r) => {
      r.resume();
      r.on('end', () => res(r.headers));
    }).on('error', rej).end();
  });
}

const wrk = (port: number, headers: string[]) => wrkUrl(`http://127.0.0.1:${port}${FEED}`, { connections, seconds, headers });

// ---- nginx with the same headers as physpay's feeds
const nginxPort = 18080;
const nginxConf = writeNginxConfig(work, publicDir, nginxPort, { gzipStatic: true });

function startNginx(): ChildProcess {
  const [cmd, args] = pinned(0, 'nginx', ['-c', nginxConf, '-p', work]);
  return spawn(cmd, args, { stdio: 'ignore' });
}

const results: Record<string, number[]> = { nginx200: [], physpay200: [], nginx304: [], physpay304: [], nginxGzip: [], physpayGzip: [], physpayBr: [] };
for (let r = 0; r < runs; r++) {
  const ngx = startNginx();
  await waitFor200(nginxPort, FEED);
  const ngxEtag = String((await getHeaders(nginxPort, FEED)).etag);
  results.nginx200!.push(wrk(nginxPort, []));
  results.nginx304!.push(wrk(nginxPort, [`If-None-Match: ${ngxEtag}`]));
  results.nginxGzip!.push(wrk(nginxPort, ['Accept-Encoding: gzip']));
  ngx.kill('SIGTERM');
  removeSqlite(join(work, 'service.db'));
  const pp = await startPhyspay(data, join(work, 'service.db'));
  await waitFor200(pp.port, FEED);
  const ppEtag = String((await getHeaders(pp.port, FEED)).etag);
  results.physpay200!.push(wrk(pp.port, []));
  results.physpay304!.push(wrk(pp.port, [`If-None-Match: ${ppEtag}`]));
  results.physpayGzip!.push(wrk(pp.port, ['Accept-Encoding: gzip']));
  results.physpayBr!.push(wrk(pp.port, ['Accept-Encoding: br']));
  await pp.stop();
}

const fmt = (xs: number[]) => medianRange(xs);
const ratio200 = median(results.physpay200!) / median(results.nginx200!);
const ratio304 = median(results.physpay304!) / median(results.nginx304!);
const ratioGzip = median(results.physpayGzip!) / median(results.nginxGzip!);
const bytes = readFileSync(join(publicDir, FEED)).length;
const gzBytes = readFileSync(join(publicDir, `${FEED}.gz`)).length;
if (json) {
  console.log(JSON.stringify({ seconds, runs, connections, feed: FEED, bytes, gzip_bytes: gzBytes, results, ratio200, ratio304, ratioGzip }));
} else {
  console.log(`open-feed serving: ${FEED} (${bytes} bytes), wrk 1 thread ${connections} connections ${seconds} s on CPU 1, server on CPU 0; ${runs} run(s), median [min-max] req/s`);
  console.log(`           nginx (1 worker)      physpay (1 process, limits on)   ratio   target`);
  console.log(`200        ${fmt(results.nginx200!).padEnd(20)}  ${fmt(results.physpay200!).padEnd(31)}  ${ratio200.toFixed(2)}    >= 0.50`);
  console.log(`304        ${fmt(results.nginx304!).padEnd(20)}  ${fmt(results.physpay304!).padEnd(31)}  ${ratio304.toFixed(2)}    >= 0.50 (and >= the 200 ratio)`);
  console.log(`200 gzip   ${fmt(results.nginxGzip!).padEnd(20)}  ${fmt(results.physpayGzip!).padEnd(31)}  ${ratioGzip.toFixed(2)}    >= 0.50 (${gzBytes} bytes; nginx gzip_static)`);
  console.log(`200 br     ${'(no brotli module)'.padEnd(20)}  ${fmt(results.physpayBr!).padEnd(31)}`);
}
