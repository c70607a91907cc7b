/**
 * Keyed tools on /mcp: a subscriber's assistant sends `Authorization: Bearer <API key>` and gets, besides the
 * open tools, get_benchmark, get_percentile_rank, get_available_data and get_key_usage, whose
 * structuredContent is the keyed API's answer for the same parameters, counted on the same counters, with
 * the same plan gating and messages. Both eras (v1 client 2025-11-25, v2 client pinned to 2026-07-28), over
 * real HTTP on the golden build; an invalid or revoked key is a 401 with WWW-Authenticate; N concurrent
 * calls with k requests left serve exactly k.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RunningServer } from '../../server/main.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { request, type HttpResponse } from '../helpers/http.ts';
import { createKey, type TestKey } from '../helpers/keys.ts';
import { closeAfterAll } from '../helpers/server.ts';
import { BOTH, TOOL_NAMES, errorText, rawPost, rpc, rpcErrorOf, serveGolden } from './mcp-helpers.ts';

const MODERN = '2026-07-28';
const KEYED_TOOLS = ['get_benchmark', 'get_percentile_rank', 'get_available_data', 'get_key_usage'];
const work = useGoldenDir('mcp-keyed');
const closeLater = closeAfterAll();
const NOW = '2026-12-01T12:00:00Z';
let srv: RunningServer;
const clients: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  srv = closeLater(await serveGolden(work.path, work.dist, 'keyed', () => new Date(NOW), { ipLimits: { perMinute: 100_000, perDay: 1_000_000 } }));
}, 60_000);

afterAll(async () => {
  for (const c of clients) await c.close();
});

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function v1(key?: string): Promise<V1Client> {
  const c = new V1Client({ name: 'keyed-v1', version: '1.0.0' });
  await c.connect(new V1Transport(new URL(`${srv.url}/mcp`), key ? { requestInit: { headers: bearer(key) } } : undefined));
  clients.push(c);
  return c;
}

async function v2(key?: string): Promise<V2Client> {
  const c = new V2Client({ name: 'keyed-v2', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
  await c.connect(new V2Transport(new URL(`${srv.url}/mcp`), key ? { requestInit: { headers: bearer(key) } } : undefined));
  clients.push(c);
  expect(c.getNegotiatedProtocolVersion()).toBe(MODERN);
  return c;
}

type Caller = { callTool(p: { name: string; arguments?: Record<string, unknown> }): Promise<unknown> };
const call = async (c: Caller, name: string, args: Record<string, unknown> = {}) => (await c.callTool({ name, arguments: args })) as CallToolResult;

/** The keyed API's answer to the same question. */
function api(path: string, key: string): Promise<HttpResponse> {
  return request(srv.url, `/api/v1${path}`, { headers: { 'x-api-key': key } });
}

interface Counted { data: unknown; meta: { request_id: string; rate_limit: { remaining_daily: number; remaining_monthly: number; reset: number } } }

/** A legacy (2025-11-25) raw tools/call with a bearer key. */
const rawCall = (key: string, id: number, name: string, args: Record<string, unknown>) =>
  rawPost(srv.url, rpc(id, 'tools/call', { name, arguments: args }), { ...BOTH, 'mcp-protocol-version': '2025-11-25', ...bearer(key) });

let keys: Record<'starter' | 'professional' | 'enterprise', TestKey>;
beforeAll(async () => {
  keys = {
    starter: await createKey(srv.store, 'starter'),
    professional: await createKey(srv.store, 'professional'),
    enterprise: await createKey(srv.store, 'enterprise'),
  };
});

describe('listing', () => {
  it('without a key: the open tools only (unchanged); with a key, in both eras: the open tools and the keyed tools', async () => {
    expect((await (await v1()).listTools()).tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    expect((await (await v2()).listTools()).tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    expect((await (await v1(keys.starter.key)).listTools()).tools.map((t) => t.name)).toEqual([...TOOL_NAMES, ...KEYED_TOOLS]);
    const listed = (await (await v2(keys.starter.key)).listTools()).tools;
    expect(listed.map((t) => t.name)).toEqual([...TOOL_NAMES, ...KEYED_TOOLS]);
    for (const t of listed.filter((t) => KEYED_TOOLS.includes(t.name))) {
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
      expect(t.outputSchema, t.name).toBeTypeOf('object');
    }
  });

  it('a keyed tool called without a key is the unknown-tool error and counts nothing', async () => {
    const r = await rawPost(srv.url, rpc(1, 'tools/call', { name: 'get_benchmark', arguments: { specialty: 'Cardiology' } }), { ...BOTH, 'mcp-protocol-version': '2025-11-25' });
    const unknown = await rawPost(srv.url, rpc(1, 'tools/call', { name: 'no_such_tool', arguments: {} }), { ...BOTH, 'mcp-protocol-version': '2025-11-25' });
    // the answer for a tool the server does not have, with the name changed
    expect(r.status).toBe(unknown.status);
    const e = rpcErrorOf(r);
    expect(e).toEqual({ ...rpcErrorOf(unknown), message: rpcErrorOf(unknown).message.replace('no_such_tool', 'get_benchmark') });
    expect(e.message).toContain('get_benchmark');
  });
});

describe('the keyed API\'s answers, counted on the same counters', () => {
  it('get_benchmark (v1 client and v2 client) is /benchmarks for the same parameters; each call counts one request, as an API request does', async () => {
    const k = await createKey(srv.store, 'professional');
    const first = (await api('/benchmarks?specialty=Cardiology&state=Texas', k.key)).json<Counted>();
    expect(first.meta.rate_limit.remaining_daily).toBe(499);
    const a = await call(await v1(k.key), 'get_benchmark', { specialty: 'Cardiology', state: 'Texas' });
    expect(a.isError ?? false, JSON.stringify(a.content)).toBe(false);
    const da = a.structuredContent as unknown as Counted;
    expect(da.data).toEqual(first.data);
    expect(da.meta.rate_limit.remaining_daily).toBe(498);
    expect(da.meta.request_id).not.toBe(first.meta.request_id);
    // the text block is the same answer serialized (hosts that pass only content see the figures)
    expect(JSON.parse((a.content[0] as { text: string }).text)).toEqual(da);
    const b = (await call(await v2(k.key), 'get_benchmark', { specialty: 'Cardiology', state: 'Texas' })).structuredContent as unknown as Counted;
    expect(b.data).toEqual(first.data);
    expect(b.meta.rate_limit.remaining_daily).toBe(497);
    const usage = (await api('/me/usage', k.key)).json<{ usage: { requests_today: number } }>();
    expect(usage.usage.requests_today).toBe(3);
  });

  it('get_percentile_rank and get_available_data are /percentile-rank and /available-data; get_key_usage is /me/usage and is never counted', async () => {
    const k = await createKey(srv.store, 'enterprise');
    const c = await v1(k.key);
    const rank = (await call(c, 'get_percentile_rank', { specialty: 'Cardiology', compensation: 450000, region: 'South', fte: true })).structuredContent as unknown as Counted;
    expect(rank.data).toEqual((await api('/percentile-rank?specialty=Cardiology&compensation=450000&region=South&fte=true', k.key)).json<Counted>().data);
    const avail = (await call(c, 'get_available_data', { specialty: 'Pediatrics', state: 'Ohio', year_start: 2024, year_end: 2026 })).structuredContent;
    expect(avail).toEqual((await api('/available-data?specialty=Pediatrics&state=Ohio&year_start=2024&year_end=2026', k.key)).json());
    const before = (await call(c, 'get_key_usage')).structuredContent;
    const after = (await call(c, 'get_key_usage')).structuredContent;
    expect(before).toEqual(after);
    expect(after).toEqual((await api('/me/usage', k.key)).json());
    expect((after as { usage: { requests_today: number } }).usage.requests_today).toBe(4);
  });

  it('open tools called with a key answer as without one (the same structuredContent) and do not touch the key\'s quota', async () => {
    const k = await createKey(srv.store, 'starter');
    const withKey = await call(await v1(k.key), 'get_specialty_pay', { specialty: 'Cardiology' });
    const without = await call(await v1(), 'get_specialty_pay', { specialty: 'Cardiology' });
    expect(withKey.structuredContent).toEqual(without.structuredContent);
    expect((await api('/me/usage', k.key)).json<{ usage: { requests_today: number } }>().usage.requests_today).toBe(0);
  });

  it('keyed results are never cached across calls: two identical calls give two request ids and two counts', async () => {
    const k = await createKey(srv.store, 'starter');
    const args = { specialty: 'Cardiology' };
    const r1 = (await rawCall(k.key, 1, 'get_benchmark', args)).json<{ result: CallToolResult }>().result.structuredContent as unknown as Counted;
    const r2 = (await rawCall(k.key, 1, 'get_benchmark', args)).json<{ result: CallToolResult }>().result.structuredContent as unknown as Counted;
    expect(r1.meta.request_id).not.toBe(r2.meta.request_id);
    expect([r1.meta.rate_limit.remaining_daily, r2.meta.rate_limit.remaining_daily]).toEqual([99, 98]);
    // a Professional key asking the same gets its plan's sections, a Starter key never does
    const pro = (await rawCall(keys.professional.key, 2, 'get_benchmark', args)).json<{ result: CallToolResult }>().result.structuredContent as unknown as Counted;
    expect(pro.data).toHaveProperty('fte_normalized');
    expect(r2.data).not.toHaveProperty('fte_normalized');
    expect(r2.data).toEqual((await api('/benchmarks?specialty=Cardiology', k.key)).json<Counted>().data);
  });
});

describe('the direct path answers keyed calls exactly as the SDK does', () => {
  it('every keyed tool, successes and refusals, both eras: the same status, headers and JSON-RPC answer (request ids aside) as a server without the direct path', async () => {
    const sdkOnly = closeLater(await serveGolden(work.path, work.dist, 'keyed-sdk', () => new Date(NOW), { mcpDirectCalls: false, ipLimits: { perMinute: 100_000, perDay: 1_000_000 } }));
    const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const CALLS: [string, Record<string, unknown>][] = [
      ['get_benchmark', { specialty: 'Cardiology', state: 'Texas' }],
      ['get_benchmark', { specialty: 'Cardiology', year_start: 2024 }],
      ['get_benchmark', { specialty: 'Nope' }],
      ['get_percentile_rank', { specialty: 'Pediatrics', compensation: 250000, fte: true }],
      ['get_available_data', { specialty: 'Pediatrics', region: 'West' }],
      ['get_key_usage', {}],
    ];
    // one fresh Starter key per server, used in the same order: the counts agree, only request ids differ
    const [a, b] = [await createKey(srv.store, 'starter'), await createKey(sdkOnly.store, 'starter')];
    const post = (url: string, key: string, id: number, name: string, args: Record<string, unknown>, modern: boolean) => (modern
      ? rawPost(url, rpc(id, 'tools/call', { name, arguments: args, _meta: envelope }), { ...BOTH, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name, ...bearer(key) })
      : rawPost(url, rpc(id, 'tools/call', { name, arguments: args }), { ...BOTH, 'mcp-protocol-version': '2025-11-25', ...bearer(key) }));
    const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
    let id = 1;
    for (const modern of [false, true]) {
      for (const [name, args] of CALLS) {
        const d = await post(srv.url, a.key, id, name, args, modern);
        const r = await post(sdkOnly.url, b.key, id++, name, args, modern);
        const what = `${name} ${JSON.stringify(args)} ${modern ? MODERN : '2025-11-25'}`;
        expect(d.status, what).toBe(r.status);
        expect(d.headers['content-type'], what).toBe(r.headers['content-type']);
        for (const h of ['x-ratelimit-remaining-daily', 'x-ratelimit-remaining-monthly', 'x-ratelimit-reset', 'ratelimit', 'retry-after']) expect(d.headers[h], `${what} ${h}`).toBe(r.headers[h]);
        const norm = (t: string) => JSON.parse(t.replace(uuid, 'ID').replaceAll(a.key.slice(0, 12), 'PREFIX').replaceAll(b.key.slice(0, 12), 'PREFIX'));
        expect(norm(d.text), what).toEqual(norm(r.text));
      }
    }
  });
});

describe('batches', () => {
  it('a batch of three keyed calls counts three, each result with its own count; the answer carries no rate-limit headers', async () => {
    const k = await createKey(srv.store, 'starter');
    const batch = JSON.stringify([1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_benchmark', arguments: { specialty: 'Cardiology' } } })));
    const r = await rawPost(srv.url, batch, { ...BOTH, 'mcp-protocol-version': '2025-11-25', ...bearer(k.key) });
    expect(r.status).toBe(200);
    const left = r.json<{ result: CallToolResult }[]>().map((m) => (m.result.structuredContent as unknown as Counted).meta.rate_limit.remaining_daily);
    expect(left.sort()).toEqual([97, 98, 99]);
    expect(r.headers['x-ratelimit-remaining-daily']).toBeUndefined();
    expect((await api('/me/usage', k.key)).json<{ usage: { requests_today: number } }>().usage.requests_today).toBe(3);
  });
});

describe('plan gating and refusals: the keyed API\'s messages as tool errors', () => {
  it('a Starter key asking for a year range or FTE ranks gets the 403 message; a bad state the 400 message; all as /api/v1 says them', async () => {
    const c = await v2(keys.starter.key);
    const cases: [string, Record<string, unknown>, string][] = [
      ['get_benchmark', { specialty: 'Cardiology', year_start: 2024 }, '/benchmarks?specialty=Cardiology&year_start=2024'],
      ['get_percentile_rank', { specialty: 'Cardiology', compensation: 400000, fte: true }, '/percentile-rank?specialty=Cardiology&compensation=400000&fte=true'],
      ['get_benchmark', { specialty: 'Cardiology', state: 'TX' }, '/benchmarks?specialty=Cardiology&state=TX'],
      ['get_benchmark', { specialty: 'Nope' }, '/benchmarks?specialty=Nope'],
    ];
    for (const [name, args, path] of cases) {
      const text = errorText(await call(c, name, args));
      const want = (await api(path, keys.starter.key)).json<{ error: string }>().error;
      expect(text, name).toBe(want);
    }
  });

  it('a key whose subscription is not active is identified (no 401) and every keyed call gets the 403 message, uncounted', async () => {
    const k = await createKey(srv.store, 'professional', 'past_due');
    const c = await v1(k.key);
    const text = errorText(await call(c, 'get_benchmark', { specialty: 'Cardiology' }));
    expect(text).toBe((await api('/benchmarks?specialty=Cardiology', k.key)).json<{ error: string }>().error);
    expect(text).toMatch(/past_due/);
    expect((await call(c, 'get_key_usage')).structuredContent).toMatchObject({ usage: { requests_today: 0 } });
  });

  it('an invalid, unknown or revoked key and a malformed Authorization header are 401 with WWW-Authenticate and a JSON-RPC error', async () => {
    const revoked = await createKey(srv.store, 'starter');
    await srv.store.updateKey(String(revoked.id), { revokedAt: '2026-11-30T00:00:00Z' });
    const list = rpc(7, 'tools/list');
    const cases: [Record<string, string>, string][] = [
      [{ authorization: 'Bearer pcb_live_not-a-key' }, 'invalid_token'],
      [{ authorization: `Bearer pcb_live_${'A'.repeat(32)}` }, 'invalid_token'],
      [{ authorization: `Bearer ${revoked.key}` }, 'invalid_token'],
      [{ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, 'invalid_request'],
      [{ authorization: 'Bearer ' }, 'invalid_request'],
    ];
    for (const [h, error] of cases) {
      const r = await rawPost(srv.url, list, { ...BOTH, 'mcp-protocol-version': '2025-11-25', ...h });
      expect(r.status, h.authorization).toBe(401);
      expect(String(r.headers['www-authenticate'])).toMatch(new RegExp(`^Bearer error="${error}"`));
      const e = rpcErrorOf(r);
      expect(e.id).toBe(7);
      expect(e.message).toMatch(/^unauthorized/);
      expect(r.text).not.toContain(revoked.key);
    }
    // the SDK clients surface the 401, in both eras
    await expect(v1(revoked.key)).rejects.toThrow();
    await expect(v2(revoked.key)).rejects.toThrow();
  });
});

describe('quota accuracy', () => {
  it('a 2026-07-28 request with one keyed call carries that call\'s rate-limit headers, as a keyed API answer does', async () => {
    const k = await createKey(srv.store, 'professional');
    const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const r = await rawPost(srv.url, rpc(1, 'tools/call', { name: 'get_benchmark', arguments: { specialty: 'Pediatrics' }, _meta: envelope }),
      { ...BOTH, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'get_benchmark', ...bearer(k.key) });
    expect(r.status).toBe(200);
    const doc = r.json<{ result: CallToolResult }>().result.structuredContent as unknown as Counted;
    expect(doc.meta.rate_limit.remaining_daily).toBe(499);
    const apiAnswer = await api('/benchmarks?specialty=Pediatrics', k.key);
    expect(doc.data).toEqual(apiAnswer.json<Counted>().data);
    expect(r.headers['x-ratelimit-remaining-daily']).toBe('499');
    for (const h of ['x-ratelimit-limit-daily', 'x-ratelimit-limit-monthly', 'x-ratelimit-reset', 'ratelimit-policy']) expect(r.headers[h], h).toBe(apiAnswer.headers[h]);
    expect(r.headers['x-ratelimit-remaining-monthly']).toBe('14999');
  });

  it('40 concurrent keyed calls with 6 requests left: exactly 6 served, 34 refused with the daily-quota message; a single call carries the rate-limit headers', async () => {
    const k = await createKey(srv.store, 'starter');
    const day = NOW.slice(0, 10);
    for (let i = 0; i < 94; i++) await srv.store.hitQuota(k.id, { day, month: day.slice(0, 7) }, { daily: 1e9, monthly: 1e9 });
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) =>
      rawCall(k.key, i, i % 2 ? 'get_benchmark' : 'get_percentile_rank', i % 2 ? { specialty: 'Cardiology' } : { specialty: 'Cardiology', compensation: 400000 })));
    const served = results.filter((r) => !r.json<{ result: CallToolResult }>().result.isError);
    const refused = results.filter((r) => r.json<{ result: CallToolResult }>().result.isError);
    expect(served).toHaveLength(6);
    expect(refused).toHaveLength(34);
    // each remaining count 5..0 handed out exactly once, and in the headers of the same answer
    const remaining = served.map((r) => (r.json<{ result: CallToolResult }>().result.structuredContent as unknown as Counted).meta.rate_limit.remaining_daily);
    expect(remaining.sort()).toEqual([0, 1, 2, 3, 4, 5]);
    for (const r of served) expect(Number(r.headers['x-ratelimit-remaining-daily'])).toBe((r.json<{ result: CallToolResult }>().result.structuredContent as unknown as Counted).meta.rate_limit.remaining_daily);
    const refusedApi = await api('/benchmarks?specialty=Cardiology', k.key);
    expect(refusedApi.status).toBe(429);
    for (const r of refused) {
      expect(r.status).toBe(200);
      expect(errorText(r.json<{ result: CallToolResult }>().result)).toBe(refusedApi.json<{ error: string }>().error);
      expect(r.headers['x-ratelimit-remaining-daily']).toBe('0');
      expect(r.headers['retry-after']).toBe(refusedApi.headers['retry-after']);
    }
    expect(await srv.store.readQuota(k.id, { day, month: day.slice(0, 7), at: NOW })).toEqual({ dayCount: 100, monthCount: 100 });
  });
});
