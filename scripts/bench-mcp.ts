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
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { arg, demoWorkspace, flag, median, medianRange, removeSqlite, requireCommands, startPhyspay, wrk } from './bench-lib.ts';

const seconds = Number(arg('seconds', '10'));
const runs = Number(arg('runs', '3'));
const connections = Number(arg('connections', '32'));
const json = flag('json');
const FEED = '/data/api/v1/specialties/cardiology.json';
const CALL = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_specialty_pay', arguments: { specialty: 'cardiology' } } };

requireCommands('bench-mcp', ['wrk', 'taskset']);
const { work, data } = demoWorkspace('mcp');

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

const results: Record<'feed' | 'tool', number[]> = { feed: [], tool: [] };
for (let r = 0; r < runs; r++) {
  removeSqlite(join(work, 'service.db'));
  const pp = await startPhyspay(data, join(work, 'service.db'));
  const base = `http://127.0.0.1:${pp.port}`;
  await checkCall(pp.port);
  wrk(`${base}/mcp`, { connections, seconds: 2, script: lua }); // warm-up (JIT, connections), discarded
  results.tool.push(wrk(`${base}/mcp`, { connections, seconds, script: lua }));
  results.feed.push(wrk(`${base}${FEED}`, { connections, seconds }));
  await pp.stop();
}

const ratio = median(results.tool) / median(results.feed);
if (json) {
  console.log(JSON.stringify({ seconds, runs, connections, tool: 'get_specialty_pay', feed: FEED, results, ratio }));
} else {
  console.log(`tool server: tools/call get_specialty_pay (plain JSON POST) vs GET ${FEED}, one physpay process, wrk 1 thread ${connections} connections ${seconds} s; ${runs} run(s), median [min-max] req/s`);
  console.log(`tools/call   ${medianRange(results.tool).padEnd(22)}  feed GET ${medianRange(results.feed).padEnd(22)}  ratio ${ratio.toFixed(2)}`);
}
