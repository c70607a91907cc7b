/**
 * Tool server throughput: `tools/call get_specialty_pay` over stateless Streamable HTTP in both protocol
 * eras (a 2025 plain JSON POST; a 2026-07-28 POST with its envelope and Mcp-* headers), every limit on (the
 * per-IP limit checked and counted for each call), against the reference measured in the same run on the
 * same server process: a GET of the open feed that the tool's structuredContent equals
 * (/data/api/v1/specialties/cardiology.json). Measured twice: as served (plain calls answered by the direct
 * path) and with `--mcp-direct-calls off` (every request through the SDK: a server and transport per request).
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
const ARGS = { name: 'get_specialty_pay', arguments: { specialty: 'cardiology' } };
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
type Era = '2025' | '2026-07-28';
const ERAS: Era[] = ['2025', '2026-07-28'];
const CALLS: Record<Era, { body: object; headers: Record<string, string> }> = {
  '2025': { body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: ARGS }, headers: {} },
  '2026-07-28': {
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...ARGS, _meta: ENVELOPE } },
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': ARGS.name },
  },
};

requireCommands('bench-mcp', ['wrk', 'taskset']);
const { work, data } = demoWorkspace('mcp');

// wrk scripts: POST the tool call of each era.
const lua = Object.fromEntries(ERAS.map((era) => {
  const file = join(work, `tools-call-${era}.lua`);
  const headers = Object.entries(CALLS[era].headers).map(([k, v]) => `wrk.headers["${k}"] = "${v}"\n`).join('');
  writeFileSync(file, `wrk.method = "POST"
wrk.body = '${JSON.stringify(CALLS[era].body)}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
${headers}`);
  return [era, file];
})) as Record<Era, string>;

/** POST the tool call once and check it answers a result (not an error) before measuring. */
function checkCall(port: number, era: Era): Promise<void> {
  return new Promise((res, rej) => {
    const body = JSON.stringify(CALLS[era].body);
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...CALLS[era].headers, 'content-length': Buffer.byteLength(body) } }, (r) => {
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

type Mode = 'direct' | 'sdk';
const MODES: Mode[] = ['direct', 'sdk'];
const results = { feed: [] as number[], tool: {} as Record<Mode, Record<Era, number[]>> };
for (const mode of MODES) results.tool[mode] = { '2025': [], '2026-07-28': [] };
for (let r = 0; r < runs; r++) {
  for (const mode of MODES) {
    removeSqlite(join(work, 'service.db'));
    const pp = await startPhyspay(data, join(work, 'service.db'), mode === 'sdk' ? ['--mcp-direct-calls', 'off'] : []);
    const base = `http://127.0.0.1:${pp.port}`;
    for (const era of ERAS) {
      await checkCall(pp.port, era);
      wrk(`${base}/mcp`, { connections, seconds: 2, script: lua[era] }); // warm-up (JIT, connections), discarded
      results.tool[mode][era].push(wrk(`${base}/mcp`, { connections, seconds, script: lua[era] }));
    }
    if (mode === 'direct') results.feed.push(wrk(`${base}${FEED}`, { connections, seconds }));
    await pp.stop();
  }
}

const ratios = Object.fromEntries(MODES.map((m) => [m, Object.fromEntries(ERAS.map((e) => [e, median(results.tool[m][e]) / median(results.feed)]))])) as Record<Mode, Record<Era, number>>;
if (json) {
  console.log(JSON.stringify({ seconds, runs, connections, tool: 'get_specialty_pay', feed: FEED, results, ratios }));
} else {
  console.log(`tool server: tools/call get_specialty_pay vs GET ${FEED}, one physpay process, every limit on, wrk 1 thread ${connections} connections ${seconds} s; ${runs} run(s), median [min-max] req/s`);
  console.log(`feed GET                          ${medianRange(results.feed)}`);
  for (const m of MODES) {
    for (const e of ERAS) {
      console.log(`tools/call ${e.padEnd(10)} ${(m === 'direct' ? 'as served' : 'SDK only').padEnd(10)} ${medianRange(results.tool[m][e]).padEnd(22)}  ratio ${ratios[m][e].toFixed(2)}`);
    }
  }
}
