/**
 * Both protocol eras on one endpoint, over real HTTP on the golden build:
 * - the SDK v2 client pinned to 2026-07-28 (server/discover, no handshake) and negotiating ('auto'), the v1
 *   client (2025-11-25), and raw 2025-06-18 / 2025-03-26 sessions each list the seven tools and call every one,
 *   with the same structuredContent (the feed of the same day);
 * - the direct path (plain tool calls answered without an SDK server per request) gives exactly the answer
 *   the SDK gives, for every tool, both eras, tool errors and refused arguments included;
 * - 2026-07-28 tool calls count against the per-IP limit like 2025 ones: N concurrent calls with L left ->
 *   exactly L served; calls the SDK refuses (header and body disagree) are not counted.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from '@modelcontextprotocol/client';
import type { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningServer } from '../../server/main.ts';
import { ResultCache, decodeNameHeader, directCall, modernHeadersAgree } from '../../server/mcp/direct-call.ts';
import { BuildRegistry } from '../../server/builds/registry.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { closeAfterAll } from '../helpers/server.ts';
import { get, type HttpResponse } from '../helpers/http.ts';
import {
  BOTH, TOOL_NAMES, V1, callTool, connectClient, errorText, feed, okResult, rawPost, rpc, serveGolden,
} from './mcp-helpers.ts';

const MODERN = '2026-07-28';
const work = useGoldenDir('mcp-eras');
const closeLater = closeAfterAll();
const clock = () => new Date('2026-12-01T12:00:00Z');
let direct: RunningServer;
let sdkOnly: RunningServer;
let limited: RunningServer;
const v2: V2Client[] = [];

beforeAll(async () => {
  direct = closeLater(await serveGolden(work.path, work.dist, 'direct', clock));
  sdkOnly = closeLater(await serveGolden(work.path, work.dist, 'sdk', clock, { mcpDirectCalls: false }));
  limited = closeLater(await serveGolden(work.path, work.dist, 'limited', clock, { ipLimits: { perMinute: 7, perDay: 1000 } }));
}, 60_000);

afterAll(async () => {
  for (const c of v2) await c.close();
});

async function connectV2(url: string, mode: 'auto' | { pin: string }): Promise<V2Client> {
  const client = new V2Client({ name: 'physpay-v2-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new V2Transport(new URL(`${url}/mcp`)));
  v2.push(client);
  return client;
}

const envelope = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A 2026-07-28 request as the v2 client sends it: the envelope in params._meta and the routing headers. */
function modernPost(url: string, id: number, method: string, params: Record<string, unknown> = {}, extraHeaders: Record<string, string> = {}): Promise<HttpResponse> {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return rawPost(url, rpc(id, method, { ...params, _meta: envelope }), { ...BOTH, 'mcp-protocol-version': MODERN, 'mcp-method': method, ...name, ...extraHeaders });
}

/** A 2025 request after the handshake (stateless: no session id), with the negotiated version header. */
const legacyPost = (url: string, id: number, method: string, params: Record<string, unknown> | undefined, version = '2025-11-25') =>
  rawPost(url, rpc(id, method, params), { ...BOTH, 'mcp-protocol-version': version });

/** One argument set per tool, each answering a published document. */
const CALLS: [string, Record<string, unknown>][] = [
  ['list_specialties', {}],
  ['list_specialties', { limit: 5, offset: 40 }],
  ['get_specialty_pay', { specialty: 'Cardiology' }],
  ['get_specialty_pay', { specialty: 'Cardiology', detail: 'full' }],
  ['get_specialty_pay', { specialty: 'family-medicine', state: 'TX' }],
  ['compare_specialties', { specialty_a: 'cardiology', specialty_b: 'Pediatrics' }],
  ['get_wrvu_rate', { specialty: 'cardiology' }],
  ['get_resident_pay', { state: 'TX' }],
  ['get_resident_pay', { state: 'TX', limit: 3, offset: 3 }],
  ['evaluate_compensation', { specialty: 'cardiology', compensation: 450000 }],
  ['evaluate_offer', { specialty: 'cardiology', base_salary: 450000, bonus: 50000, cme_allowance: 3000, wrvus: 8000 }],
];

describe('every era lists and calls every tool, with the same figures', () => {
  it('the v2 client pinned to 2026-07-28 discovers (no initialize), lists and calls every tool; negotiating, it also lands on 2026-07-28', async () => {
    const pinned = await connectV2(direct.url, { pin: MODERN });
    expect(pinned.getNegotiatedProtocolVersion()).toBe(MODERN);
    const auto = await connectV2(direct.url, 'auto');
    expect(auto.getNegotiatedProtocolVersion()).toBe(MODERN);
    const { tools } = await pinned.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    const card = okResult(await callTool(pinned, 'get_specialty_pay', { specialty: 'Cardiology', detail: 'full' }));
    expect(card.doc).toEqual(await feed(direct.url, '/specialties/cardiology.json'));
    expect(card.text).toContain('self-reported');
  });

  it('2026-07-28 results carry resultType, serverInfo and list cache fields; 2025 results do not', async () => {
    const call = await modernPost(direct.url, 1, 'tools/call', { name: 'get_wrvu_rate', arguments: { specialty: 'cardiology' } });
    expect(call.status).toBe(200);
    const r = call.json<{ result: Record<string, unknown> }>().result;
    expect(r.resultType).toBe('complete');
    expect(r._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': expect.objectContaining({ name: 'physpay' }) });
    const list = (await modernPost(direct.url, 2, 'tools/list')).json<{ result: Record<string, unknown> }>().result;
    expect(list).toHaveProperty('ttlMs');
    expect(list).toHaveProperty('cacheScope');
    // JSON Schema 2020-12 is the default dialect: tools/list does not repeat `$schema` on every schema
    expect((list.tools as { inputSchema: { $schema?: string } }[])[0]!.inputSchema.$schema).toBeUndefined();
    const old = (await legacyPost(direct.url, 3, 'tools/call', { name: 'get_wrvu_rate', arguments: { specialty: 'cardiology' } })).json<{ result: Record<string, unknown> }>().result;
    expect(old).not.toHaveProperty('resultType');
    expect(old).not.toHaveProperty('_meta');
    expect(old.structuredContent).toEqual(r.structuredContent);
  });

  it('server/discover names 2026-07-28 and the tools capability', async () => {
    const d = await modernPost(direct.url, 1, 'server/discover');
    expect(d.status).toBe(200);
    const r = d.json<{ result: { supportedVersions: string[]; capabilities: Record<string, unknown> } }>().result;
    expect(r.supportedVersions).toContain(MODERN);
    expect(r.capabilities).toHaveProperty('tools');
  });

  it('the v1 client (2025-11-25) and raw 2025-06-18 and 2025-03-26 sessions get the same structuredContent as the v2 client for every call', async () => {
    const modern = await connectV2(direct.url, { pin: MODERN });
    const v1: V1Client = closeLater(await connectClient(direct.url));
    for (const version of ['2025-06-18', '2025-03-26']) {
      const init = await rawPost(direct.url, rpc(0, 'initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } }), BOTH);
      expect(init.json<{ result: { protocolVersion: string } }>().result.protocolVersion).toBe(version);
    }
    let id = 10;
    for (const [name, args] of CALLS) {
      const want = okResult(await callTool(modern, name, args)).doc;
      expect(okResult(await callTool(v1, name, args)).doc, name).toEqual(want);
      for (const version of ['2025-06-18', '2025-03-26']) {
        const r = await legacyPost(direct.url, id++, 'tools/call', { name, arguments: args }, version);
        expect(r.status).toBe(200);
        expect(r.json<{ result: { structuredContent: unknown } }>().result.structuredContent, `${name} ${version}`).toEqual(want);
      }
    }
  });
});

describe('the direct path answers exactly what the SDK answers', () => {
  /** Every specialty, and a sample of everything else, plus calls that are tool errors. */
  async function allCalls(): Promise<[string, Record<string, unknown>][]> {
    const index = await feed<{ specialties: { slug: string }[] }>(direct.url, '/specialties.json');
    const slugs = index.specialties.map((s) => s.slug);
    return [
      ...CALLS,
      ...slugs.map((s): [string, Record<string, unknown>] => ['get_specialty_pay', { specialty: s }]),
      ...slugs.map((s): [string, Record<string, unknown>] => ['evaluate_compensation', { specialty: s, compensation: 300000, state: 'California' }]),
      ['get_specialty_pay', { specialty: 'OB/GYN', state: 'new-york' }],
      ['compare_specialties', { specialty_a: 'cardiology', specialty_b: 'family medicine', state: 'TX' }],
      ['get_wrvu_rate', { specialty: 'ENT' }],
      ['get_specialty_pay', { specialty: 'astrology' }], // unknown: a tool error with close matches
      ['get_resident_pay', {}], // neither argument: a tool error
    ];
  }

  it('every call, both eras: same status, content type and JSON body; the direct path did answer them', async () => {
    const calls = await allCalls();
    expect(calls.length).toBeGreaterThan(20);
    const registry = new BuildRegistry(work.dist);
    await registry.check();
    const deps = { build: registry.current, day: '2026-12-01', limited: null };
    let id = 100;
    for (const [name, args] of calls) {
      for (const era of ['2025', MODERN]) {
        // the direct path takes this call (and answers what the server answered)
        const message = { jsonrpc: '2.0', id, method: 'tools/call', params: era === MODERN ? { name, arguments: args, _meta: envelope } : { name, arguments: args } };
        const route = era === MODERN
          ? { kind: 'modern' as const, messageKind: 'request' as const, message: message as never, classification: {} as never }
          : { kind: 'legacy' as const, reason: 'no-claim' as const };
        const answer = directCall(route, message, deps, { version: MODERN, method: 'tools/call', name, paramHeaders: false });
        expect(answer, `${era} ${name}`).not.toBeNull();
        const send = (url: string) => (era === MODERN
          ? modernPost(url, id, 'tools/call', { name, arguments: args })
          : legacyPost(url, id, 'tools/call', { name, arguments: args }));
        const [a, b] = [await send(direct.url), await send(sdkOnly.url)];
        const what = `${era} ${name} ${JSON.stringify(args)}`;
        // the same call again: answered from the direct path's result cache, with this id
        id++;
        const again = await send(direct.url);
        expect(again.json<{ id: number }>().id).toBe(id);
        expect({ ...again.json<object>(), id: 0 }, what).toEqual({ ...a.json<object>(), id: 0 });
        expect(a.status, what).toBe(b.status);
        expect(a.headers['content-type'], what).toBe(b.headers['content-type']);
        expect(a.json(), what).toEqual(b.json());
        expect(JSON.parse(answer!.body), what).toEqual(a.json());
        id++;
      }
    }
  });

  it('calls the direct path leaves to the SDK still get the SDK answer: refused arguments, a missing arguments object, an unknown tool, a progress token', async () => {
    const cases: Record<string, unknown>[] = [
      { name: 'get_wrvu_rate', arguments: { specialty: 'cardiology', state: 'TX' } },
      { name: 'get_wrvu_rate', arguments: { specialty: 42 } },
      { name: 'list_specialties' },
      { name: 'get_weather', arguments: {} },
      { name: 'get_wrvu_rate', arguments: { specialty: 'cardiology' }, _meta: { progressToken: 7 } },
    ];
    let id = 900;
    for (const params of cases) {
      const [a, b] = [await legacyPost(direct.url, id, 'tools/call', params), await legacyPost(sdkOnly.url, id, 'tools/call', params)];
      expect(a.status).toBe(b.status);
      expect(a.json(), JSON.stringify(params)).toEqual(b.json());
      id++;
    }
    const refused = (await legacyPost(direct.url, 1, 'tools/call', cases[0])).json<{ result: { isError: boolean; content: { text: string }[] } }>().result;
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toMatch(/get_wrvu_rate does not take "state"; it takes specialty/);
  });

  it('the result cache keeps the most recently used entries up to its capacity (unit)', () => {
    const cache = new ResultCache(2);
    cache.set('a', '1');
    cache.set('b', '2');
    expect(cache.get('a')).toBe('1'); // a is now the most recent
    cache.set('c', '3'); // evicts b
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.size]).toEqual(['1', '3', 2]);
  });

  it('directCall takes plain calls of either era and leaves everything else (unit)', () => {
    const deps = { build: null, day: '2026-12-01', limited: null };
    const plain = { paramHeaders: false };
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_wrvu_rate', arguments: { specialty: 'x' } } };
    expect(directCall({ kind: 'legacy', reason: 'no-claim' }, call, deps, plain)).not.toBeNull();
    expect(directCall({ kind: 'legacy', reason: 'no-claim' }, call, deps, { paramHeaders: true })).toBeNull(); // Mcp-Param-* headers
    expect(directCall({ kind: 'legacy', reason: 'batch' }, [call], deps, plain)).toBeNull();
    expect(directCall({ kind: 'legacy', reason: 'no-claim' }, { ...call, method: 'tools/list' }, deps, plain)).toBeNull();
    expect(directCall({ kind: 'legacy', reason: 'no-claim' }, { ...call, params: { ...call.params, extra: 1 } }, deps, plain)).toBeNull();
    const noBuild = directCall({ kind: 'legacy', reason: 'no-claim' }, call, deps, plain)!;
    expect(JSON.parse(noBuild.body)).toEqual({ result: { content: [{ type: 'text', text: 'No published data is loaded yet; retry shortly.' }], isError: true }, jsonrpc: '2.0', id: 1 });
  });
});

describe('2026-07-28 tool calls and the per-IP limit', () => {
  it('12 concurrent calls with 7 left: exactly 7 answered, 5 get the limit error; a call whose headers and body disagree is refused and not counted', async () => {
    const mismatch = await modernPost(limited.url, 1, 'tools/call', { name: 'get_wrvu_rate', arguments: { specialty: 'cardiology' } }, { 'mcp-name': 'list_specialties' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json<{ error: { code: number } }>().error.code).toBe(-32020);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => modernPost(limited.url, 10 + i, 'tools/call', { name: 'get_wrvu_rate', arguments: { specialty: 'cardiology' } })));
    const bodies = results.map((r) => r.json<{ result: { isError?: boolean; content: { text: string }[]; structuredContent?: unknown } }>().result);
    expect(bodies.filter((b) => !b.isError)).toHaveLength(7);
    const refused = bodies.filter((b) => b.isError);
    expect(refused).toHaveLength(5);
    for (const b of refused) expect(errorText(b as never)).toMatch(/^Rate limit exceeded for this IP address \(7 per minute, shared with the open data API\); retry in \d+ s\.$/);
    // the feed shares the counter: nothing left this minute
    expect((await get(limited.url, `${V1}/specialties/cardiology.json`)).status).toBe(429);
  });

  it('a resource read counts like a tool call (it serves a whole feed): beyond the limit it is a JSON-RPC error with Retry-After', async () => {
    const later = await serveGolden(work.path, work.dist, 'limited-reads', clock, { ipLimits: { perMinute: 2, perDay: 1000 } });
    try {
      const uri = (await feed<{ feed_url: string }>(direct.url, '/specialties/cardiology.json')).feed_url;
      const reads = await Promise.all([1, 2, 3, 4].map((i) => legacyPost(later.url, i, 'resources/read', { uri })));
      const ok = reads.filter((r) => r.json<{ result?: unknown }>().result);
      expect(ok).toHaveLength(2);
      const refused = reads.filter((r) => r.json<{ error?: unknown }>().error);
      expect(refused).toHaveLength(2);
      for (const r of refused) {
        expect(r.json<{ error: { code: number; message: string } }>().error.message).toMatch(/^Rate limit exceeded for this IP address \(2 per minute/);
        expect(r.headers['retry-after']).toMatch(/^\d+$/);
      }
      // a 2026-07-28 read whose Mcp-Name is not its URI is refused by the SDK and not counted
      const bad = await modernPost(later.url, 9, 'resources/read', { uri }, { 'mcp-name': `${uri}x` });
      expect(bad.json<{ error: { code: number } }>().error.code).toBe(-32020);
    } finally {
      await later.close();
    }
  });
});

describe('the bare entry and Express give the same answers', () => {
  /** A POST sent chunked (no Content-Length): not taken by the bare entry, served through Express. */
  function chunkedPost(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; json: unknown }> {
    const u = new URL(url);
    return new Promise((resolve, reject) => {
      const req = http.request({ host: u.hostname, port: Number(u.port), method: 'POST', path: '/mcp', headers: { ...headers, 'transfer-encoding': 'chunked' } }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 10));
      req.end(body.slice(10));
    });
  }

  it('a call, a list, a malformed body and a refused call: chunked (Express) and with a length (bare) answer alike', async () => {
    const bodies = [
      rpc(1, 'tools/call', { name: 'get_wrvu_rate', arguments: { specialty: 'cardiology' } }),
      rpc(2, 'tools/list'),
      '{"jsonrpc":"2.0","id":3,"method":',
      rpc(4, 'tools/call', { name: 'get_wrvu_rate', arguments: { state: 'TX' } }),
    ];
    for (const body of bodies) {
      const headers = { ...BOTH, 'mcp-protocol-version': '2025-11-25' };
      const [bare, viaExpress] = [await rawPost(direct.url, body, headers), await chunkedPost(direct.url, body, headers)];
      expect(viaExpress.status, body).toBe(bare.status);
      expect(viaExpress.json, body).toEqual(bare.json());
    }
  });
});

describe('resource_link blocks only where the revision defines them', () => {
  it('2026-07-28, 2025-11-25 and 2025-06-18 results link the feed (and its CSV where one is published); 2025-03-26 (or no version header) get the text alone', async () => {
    const call = { name: 'get_specialty_pay', arguments: { specialty: 'cardiology' } };
    const blocks = (r: HttpResponse) => r.json<{ result: { content: { type: string }[] } }>().result.content.map((c) => c.type);
    for (const server of [direct, sdkOnly]) {
      const withLinks = blocks(await modernPost(server.url, 1, 'tools/call', call));
      expect(withLinks[0]).toBe('text');
      expect(withLinks.slice(1).length).toBeGreaterThan(0);
      expect(new Set(withLinks.slice(1))).toEqual(new Set(['resource_link']));
      expect(blocks(await legacyPost(server.url, 2, 'tools/call', call, '2025-11-25'))).toEqual(withLinks);
      expect(blocks(await legacyPost(server.url, 3, 'tools/call', call, '2025-06-18'))).toEqual(withLinks);
      expect(blocks(await legacyPost(server.url, 4, 'tools/call', call, '2025-03-26'))).toEqual(['text']);
      expect(blocks(await rawPost(server.url, rpc(5, 'tools/call', call), BOTH))).toEqual(['text']);
    }
  });
});

describe('Mcp-Name as the SDK reads it', () => {
  it('a base64 sentinel is decoded; an invalid one, a different name or a missing header disagree', () => {
    const msg = { method: 'tools/call', params: { name: 'get_wrvu_rate' } };
    const h = (name?: string) => ({ version: MODERN, method: 'tools/call', name, paramHeaders: false });
    expect(modernHeadersAgree(h('get_wrvu_rate'), msg)).toBe(true);
    expect(modernHeadersAgree(h(`=?base64?${Buffer.from('get_wrvu_rate').toString('base64')}?=`), msg)).toBe(true);
    expect(modernHeadersAgree(h('=?base64?not base64?='), msg)).toBe(false);
    expect(modernHeadersAgree(h('list_specialties'), msg)).toBe(false);
    expect(modernHeadersAgree(h(undefined), msg)).toBe(false);
    expect(modernHeadersAgree({ ...h('get_wrvu_rate'), version: undefined }, msg)).toBe(false);
    expect(decodeNameHeader(' \tget_wrvu_rate ')).toBe('get_wrvu_rate');
  });

  it('a tool call with a base64 Mcp-Name runs and is counted (the SDK accepts it)', async () => {
    const name = `=?base64?${Buffer.from('get_wrvu_rate').toString('base64')}?=`;
    for (const server of [direct, sdkOnly]) {
      const r = await modernPost(server.url, 1, 'tools/call', { name: 'get_wrvu_rate', arguments: { specialty: 'cardiology' } }, { 'mcp-name': name });
      expect(r.status).toBe(200);
      expect(r.json<{ result: { isError?: boolean } }>().result.isError ?? false).toBe(false);
    }
  });
});
