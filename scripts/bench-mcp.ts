/**
 * Tool server throughput: `tools/call get_specialty_pay` over stateless Streamable HTTP in both protocol
 * eras (a 2025 plain JSON POST; a 2026-07-28 POST with its envelope and Mcp-* headers), every limit on (the
 * per-IP limit checked and counted for each call), against the reference measured in the same run on the
 * same server process: a GET of the open feed that the tool's structuredContent equals
 * (/data/api/v1/specialties/cardiology.json). Measured twice: as served (plain calls answered by the direct
 * path) and with `--mcp-direct-calls off` (every request through the SDK: a server and transport per request).
 * Then with varied arguments: each request asks get_specialty_pay for another published specialty and state
 * (every pair the build publishes, in a fixed shuffled order: far more than the 512 results the direct path
 * keeps), against GETs of the same state documents in the same order.
 *
 * Needs `wrk` from Debian (apt-get install wrk); installs nothing itself. The server runs on CPU 0 and wrk
 * on CPU 1 (taskset).
 *
 *   npx tsx scripts/bench-mcp.ts [--seconds 10] [--runs 3] [--connections 32] [--json]
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { arg, demoWorkspace, flag, median, medianRange, removeSqlite, requireCommands, startPhyspay, wrk } from './bench-lib.ts';

const seconds = Number(arg('seconds', '10'));
const runs = Number(arg('runs', '3'));
const connections = Number(arg('connections', '32'));
const json = flag('json');
const FEED = '/data/api/v1/specialties/cardiology.json';
// the whole national document (detail: "full"), the same document as the feed GET it is measured against
const ARGS = { name: 'get_specialty_pay', arguments: { specialty: 'cardiology', detail: 'full' } };
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

// Varied arguments: every published specialty-in-state document, in a fixed shuffled order.
const specialtiesDir = join(data, 'current', 'public', 'data', 'api', 'v1', 'specialties');
const pairs: [string, string][] = readdirSync(specialtiesDir, { withFileTypes: true }).filter((d) => d.isDirectory()).flatMap((d) => {
  let states: string[] = [];
  try {
    states = readdirSync(join(specialtiesDir, d.name, 'states')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
  } catch { /* no state documents */ }
  return states.map((st): [string, string] => [d.name, st]);
}).sort();
let seed = 7;
for (let i = pairs.length - 1; i > 0; i--) {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  const j = seed % (i + 1);
  [pairs[i], pairs[j]] = [pairs[j]!, pairs[i]!];
}
const luaList = (items: string[]) => `{\n${items.map((x) => `  '${x}',`).join('\n')}\n}`;
const variedLua = Object.fromEntries(ERAS.map((era) => {
  const file = join(work, `tools-call-varied-${era}.lua`);
  const bodies = pairs.map(([sp, st]) => JSON.stringify({ ...CALLS[era].body, params: { ...(CALLS[era].body as { params: object }).params, arguments: { specialty: sp, state: st } } }));
  const headers = Object.entries(CALLS[era].headers).map(([k, v]) => `wrk.headers["${k}"] = "${v}"\n`).join('');
  writeFileSync(file, `wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
${headers}local bodies = ${luaList(bodies)}
local i = 0
request = function()
  i = i + 1
  return wrk.format("POST", "/mcp", nil, bodies[(i % #bodies) + 1])
end
`);
  return [era, file];
})) as Record<Era, string>;
const variedFeedLua = join(work, 'feed-varied.lua');
writeFileSync(variedFeedLua, `local paths = ${luaList(pairs.map(([sp, st]) => `/data/api/v1/specialties/${sp}/states/${st}.json`))}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
`);

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
const results = { feed: [] as number[], tool: {} as Record<Mode, Record<Era, number[]>>, variedFeed: [] as number[], varied: { '2025': [], '2026-07-28': [] } as Record<Era, number[]> };
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
    if (mode === 'direct') {
      results.feed.push(wrk(`${base}${FEED}`, { connections, seconds }));
      for (const era of ERAS) results.varied[era].push(wrk(`${base}/mcp`, { connections, seconds, script: variedLua[era] }));
      results.variedFeed.push(wrk(`${base}/data/api/v1/specialties.json`, { connections, seconds, script: variedFeedLua }));
    }
    await pp.stop();
  }
}

const ratios = Object.fromEntries(MODES.map((m) => [m, Object.fromEntries(ERAS.map((e) => [e, median(results.tool[m][e]) / median(results.feed)]))])) as Record<Mode, Record<Era, number>>;
const variedRatios = Object.fromEntries(ERAS.map((e) => [e, median(results.varied[e]) / median(results.variedFeed)])) as Record<Era, number>;
if (json) {
  console.log(JSON.stringify({ seconds, runs, connections, tool: 'get_specialty_pay', feed: FEED, varied_pairs: pairs.length, results, ratios, variedRatios }));
} else {
  console.log(`tool server: tools/call get_specialty_pay vs GET ${FEED}, one physpay process, every limit on, wrk 1 thread ${connections} connections ${seconds} s; ${runs} run(s), median [min-max] req/s`);
  console.log(`feed GET                          ${medianRange(results.feed)}`);
  for (const m of MODES) {
    for (const e of ERAS) {
      console.log(`tools/call ${e.padEnd(10)} ${(m === 'direct' ? 'as served' : 'SDK only').padEnd(10)} ${medianRange(results.tool[m][e]).padEnd(22)}  ratio ${ratios[m][e].toFixed(2)}`);
    }
  }
  console.log(`varied arguments: ${pairs.length} specialty-in-state pairs in turn (as served) vs GETs of the same ${pairs.length} state documents`);
  console.log(`feed GET, varied                  ${medianRange(results.variedFeed)}`);
  for (const e of ERAS) console.log(`tools/call ${e.padEnd(10)} varied     ${medianRange(results.varied[e]).padEnd(22)}  ratio ${variedRatios[e].toFixed(2)}`);
}
