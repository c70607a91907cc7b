/**
 * A feed through the edge (README: Deploying): the shipped Varnish policy in front of one physpay process,
 * beside nginx (one worker) serving the same files and physpay alone, in one run, with one request mix:
 * most requests ask for the feed as is, a share (--miss-share, default 0.05) add a unique query string,
 * which the edge has never seen (a miss that goes to physpay and is counted there).
 *
 * CPU 0 holds the server side (nginx; physpay; or varnishd and its physpay backend together), wrk runs on
 * CPU 1. The hit ratio and the requests that reached physpay come from varnishstat.
 *
 *   npx tsx scripts/bench-edge.ts [--seconds 10] [--runs 3] [--connections 64] [--miss-share 0.05] [--json]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { arg, demoWorkspace, flag, median, medianRange, pinned, removeSqlite, requireCommands, startPhyspay, waitFor200, wrk, writeNginxConfig } from './bench-lib.ts';
import { startVarnish } from '../deploy/varnish/varnishd.ts';

const seconds = Number(arg('seconds', '10'));
const runs = Number(arg('runs', '3'));
const connections = Number(arg('connections', '64'));
const missShare = Number(arg('miss-share', '0.05'));
const json = flag('json');
const FEED = '/data/api/v1/specialties/family-medicine.json';

requireCommands('bench-edge', ['nginx', 'wrk', 'taskset', 'varnishd']);
const { work, data } = demoWorkspace('serve');
const publicDir = join(data, 'current', 'public');

// The mix, as a wrk script: a unique query string on `missShare` of the requests.
const mix = join(work, 'edge-mix.lua');
writeFileSync(mix, `-- ${missShare * 100}% of requests miss the edge (a query string it has never seen)
local n = 0
math.randomseed(7)
request = function()
  n = n + 1
  if math.random() < ${missShare} then
    return wrk.format(nil, wrk.path .. "?miss=" .. n)
  end
  return wrk.format(nil, wrk.path)
end
`);

const nginxPort = 18081;
const nginxConf = writeNginxConfig(work, publicDir, nginxPort);
const load = (port: number) => wrk(`http://127.0.0.1:${port}${FEED}`, { connections, seconds, script: mix });

const results = { nginx: [] as number[], physpay: [] as number[], edge: [] as number[] };
const edgeRuns: { hit_ratio: number; requests: number; reached_physpay: number }[] = [];
for (let r = 0; r < runs; r++) {
  const [cmd, args] = pinned(0, 'nginx', ['-c', nginxConf, '-p', work]);
  const ngx: ChildProcess = spawn(cmd, args, { stdio: 'ignore' });
  await waitFor200(nginxPort, FEED);
  results.nginx.push(load(nginxPort));
  ngx.kill('SIGTERM');

  removeSqlite(join(work, 'service.db'));
  const alone = await startPhyspay(data, join(work, 'service.db'));
  await waitFor200(alone.port, FEED);
  results.physpay.push(load(alone.port));
  await alone.stop();

  removeSqlite(join(work, 'service.db'));
  const backend = await startPhyspay(data, join(work, 'service.db'), ['--trust-proxy', '1']);
  const edge = await startVarnish({ dir: join(work, 'edge'), backends: [{ host: '127.0.0.1', port: backend.port }], cpu: 0 });
  await waitFor200(edge.port, FEED);
  const before = edge.stats();
  const rps = load(edge.port);
  const after = edge.stats();
  const d = (k: string) => (after[k] ?? 0) - (before[k] ?? 0);
  results.edge.push(rps);
  edgeRuns.push({ hit_ratio: d('cache_hit') / (d('cache_hit') + d('cache_miss')), requests: d('client_req'), reached_physpay: d('backend_req') });
  await edge.stop();
  await backend.stop();
}

const hit = median(edgeRuns.map((e) => e.hit_ratio));
const out = { seconds, runs, connections, feed: FEED, miss_share: missShare, results, edge: edgeRuns, hit_ratio: hit, ratio_edge_nginx: median(results.edge) / median(results.nginx), ratio_edge_physpay: median(results.edge) / median(results.physpay) };
if (json) {
  console.log(JSON.stringify(out));
} else {
  console.log(`a feed through the edge: ${FEED}, ${(missShare * 100).toFixed(0)}% of requests with a unique query string; wrk 1 thread ${connections} connections ${seconds} s on CPU 1, servers on CPU 0; ${runs} run(s), median [min-max] req/s`);
  console.log(`nginx (1 worker)                 ${medianRange(results.nginx)}`);
  console.log(`physpay alone (1 process)        ${medianRange(results.physpay)}`);
  console.log(`Varnish -> physpay               ${medianRange(results.edge)}   hit ratio ${(hit * 100).toFixed(1)}%, reached physpay ${edgeRuns.map((e) => e.reached_physpay).join(', ')} of ${edgeRuns.map((e) => e.requests).join(', ')}`);
}
