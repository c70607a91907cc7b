/**
 * The tool server's protocol edges, over real HTTP on the golden build:
 * - one list of supported revisions (PROTOCOL_VERSIONS) everywhere: `server/discover`, the -32022 error of
 *   a 2026-era request naming another revision, the 400 of a 2025-era request whose MCP-Protocol-Version
 *   header names another one, the initialize negotiation, /.well-known/mcp.json and README;
 * - every answer carries the open feeds' `RateLimit-Policy`, and an answer that counted tool calls their
 *   `RateLimit` field (same limits, same counter);
 * - Accept: JSON when the client takes it (or says nothing), an SSE stream when it takes only
 *   text/event-stream, 406 with a JSON-RPC error when it takes neither.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, beforeAll } from 'vitest';
import type { RunningServer } from '../../server/main.ts';
import { PROTOCOL_VERSIONS } from '../../server/mcp/protocol-versions.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { closeAfterAll } from '../helpers/server.ts';
import { get, type HttpResponse } from '../helpers/http.ts';
import { BOTH, rawPost, rpc, rpcErrorOf, serveGolden, toolCallBody } from './mcp-helpers.ts';

const MODERN = '2026-07-28';
const work = useGoldenDir('mcp-protocol-edges');
const closeLater = closeAfterAll();
const clock = () => new Date('2026-12-01T12:00:00Z');
const LIMITS = { perMinute: 500, perDay: 5000 };
let direct: RunningServer;
let sdkOnly: RunningServer;

beforeAll(async () => {
  direct = closeLater(await serveGolden(work.path, work.dist, 'direct', clock, { ipLimits: LIMITS }));
  sdkOnly = closeLater(await serveGolden(work.path, work.dist, 'sdk', clock, { ipLimits: LIMITS, mcpDirectCalls: false }));
}, 60_000);

const envelope = (version: string) => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
});

function modernPost(url: string, method: string, params: Record<string, unknown> = {}, version = MODERN, accept = BOTH.accept): Promise<HttpResponse> {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return rawPost(url, rpc(1, method, { ...params, _meta: envelope(version) }), { ...BOTH, accept, 'mcp-protocol-version': version, 'mcp-method': method, ...name });
}

const legacyPost = (url: string, body: string, version?: string, accept = BOTH.accept) =>
  rawPost(url, body, { ...BOTH, accept, ...(version ? { 'mcp-protocol-version': version } : {}) });

describe('one list of supported revisions', () => {
  it('is the 2026-07-28 revision and the three 2025 ones, newest first', () => {
    expect(PROTOCOL_VERSIONS).toEqual(['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']);
  });

  it.each([['direct', () => direct], ['sdk', () => sdkOnly]])('server/discover names every one (%s)', async (_n, server) => {
    const r = await modernPost(server().url, 'server/discover');
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.json<{ result: { supportedVersions: string[] } }>().result.supportedVersions).toEqual(PROTOCOL_VERSIONS);
  });

  it.each(['2027-01-01', '2025-11-25', '2024-11-05'])('a 2026-era request (envelope and header) naming %s gets -32022 with the list', async (version) => {
    const r = await modernPost(direct.url, 'tools/list', {}, version);
    expect(r.status, r.text.slice(0, 300)).toBe(400);
    const body = r.json<{ error: { code: number; message: string; data: { supported: string[]; requested?: string } } }>();
    expect(body.error.code, r.text.slice(0, 300)).toBe(-32022);
    expect(body.error.data.supported).toEqual(PROTOCOL_VERSIONS);
    expect(body.error.message).toBe(`Unsupported protocol version ${version}: this server serves MCP protocol revisions ${PROTOCOL_VERSIONS.join(', ')}`);
  });

  it.each(['2024-11-05', '2024-10-07', '2026-07-28', '1999-01-01'])('a 2025-era request whose MCP-Protocol-Version is %s: 400 naming the list, or served when listed', async (version) => {
    const r = await legacyPost(direct.url, rpc(1, 'tools/list'), version);
    if (version === '2026-07-28') {
      // a 2026 header on a request without the envelope: the SDK's own refusal, which names the revision
      expect(r.status, r.text.slice(0, 300)).toBe(400);
      return;
    }
    expect(r.status, r.text.slice(0, 300)).toBe(400);
    const e = rpcErrorOf(r);
    expect(e.message).toContain(`supported versions: ${PROTOCOL_VERSIONS.join(', ')}`);
  });

  it.each(['2025-11-25', '2025-06-18', '2025-03-26'])('a 2025-era request with MCP-Protocol-Version %s is served', async (version) => {
    const r = await legacyPost(direct.url, rpc(1, 'tools/list'), version);
    expect(r.status, r.text.slice(0, 300)).toBe(200);
  });

  it.each([['2024-11-05', '2025-11-25'], ['2025-03-26', '2025-03-26'], ['2026-07-28', '2025-11-25']])('initialize asking %s gets %s (the newest 2025 revision when it asks for one not served on initialize)', async (asked, got) => {
    const r = await legacyPost(direct.url, rpc(1, 'initialize', { protocolVersion: asked, capabilities: {}, clientInfo: { name: 'old', version: '1' } }));
    expect(r.status, r.text.slice(0, 300)).toBe(200);
    expect(r.json<{ result: { protocolVersion: string } }>().result.protocolVersion).toBe(got);
  });

  it('/.well-known/mcp.json and README name the same list', async () => {
    const doc = (await get(direct.url, '/.well-known/mcp.json')).json<{ protocol_versions: string[] }>();
    expect(doc.protocol_versions).toEqual(PROTOCOL_VERSIONS);
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`Protocol revisions served: ${PROTOCOL_VERSIONS.map((v) => `\`${v}\``).join(', ')}`);
    expect(readme).toContain('The 2024 revisions (2024-11-05, 2024-10-07) are not served');
  });
});

describe('RateLimit fields, as on the open feeds', () => {
  const policy = '"minute";q=500;w=60, "day";q=5000;w=86400';

  it.each([['direct', () => direct], ['sdk', () => sdkOnly]])('a tool call carries RateLimit-Policy and RateLimit; the next call shows one fewer left (%s)', async (_n, server) => {
    const url = server().url;
    const a = await legacyPost(url, toolCallBody(1, 'get_wrvu_rate', { specialty: 'cardiology' }));
    const b = await legacyPost(url, toolCallBody(2, 'get_wrvu_rate', { specialty: 'cardiology' }));
    for (const r of [a, b]) {
      expect(r.status, r.text.slice(0, 300)).toBe(200);
      expect(r.headers['ratelimit-policy']).toBe(policy);
      expect(r.headers.ratelimit).toMatch(/^"minute";r=\d+;t=\d+, "day";r=\d+;t=\d+$/);
    }
    const left = (r: HttpResponse) => Number(/"minute";r=(\d+)/.exec(String(r.headers.ratelimit))![1]);
    expect(left(a) - left(b)).toBe(1);
    expect(String(a.headers['access-control-expose-headers'])).toMatch(/RateLimit-Policy/);
  });

  it('a request that counts nothing (tools/list, initialize, server/discover) carries the policy and no RateLimit', async () => {
    for (const r of [
      await legacyPost(direct.url, rpc(1, 'tools/list'), '2025-11-25'),
      await legacyPost(direct.url, rpc(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } })),
      await modernPost(direct.url, 'server/discover'),
    ]) {
      expect(r.status, r.text.slice(0, 300)).toBe(200);
      expect(r.headers['ratelimit-policy']).toBe(policy);
      expect(r.headers.ratelimit).toBeUndefined();
    }
  });
});

describe('Accept', () => {
  /** The one JSON-RPC message of an SSE answer. */
  function sseMessage(r: HttpResponse): unknown {
    expect(r.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = r.text.split('\n\n').filter((e) => e.trim() !== '');
    expect(events).toHaveLength(1);
    const data = events[0]!.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
    expect(events[0]).toMatch(/^event: message\n/m);
    return JSON.parse(data);
  }

  it.each([['direct', () => direct], ['sdk', () => sdkOnly]])('text/event-stream alone gets the same answer as one SSE event, both eras (%s)', async (_n, server) => {
    const url = server().url;
    const call = toolCallBody(7, 'get_wrvu_rate', { specialty: 'cardiology' });
    const json = await legacyPost(url, call, '2025-11-25');
    const sse = await legacyPost(url, call, '2025-11-25', 'text/event-stream');
    expect(sse.status, sse.text.slice(0, 300)).toBe(200);
    expect(sseMessage(sse)).toEqual(json.json());
    const mJson = await modernPost(url, 'tools/call', { name: 'get_wrvu_rate', arguments: { specialty: 'cardiology' } });
    const mSse = await modernPost(url, 'tools/call', { name: 'get_wrvu_rate', arguments: { specialty: 'cardiology' } }, MODERN, 'text/event-stream');
    expect(mSse.status, mSse.text.slice(0, 300)).toBe(200);
    expect(sseMessage(mSse)).toEqual(mJson.json());
  });

  it.each(['application/json', '*/*', 'application/*', 'application/json, text/event-stream', 'text/event-stream;q=0.5, application/json', ';;;', 'application/*;q=NaN'])('%s gets JSON (a garbled header counts as none)', async (accept) => {
    const r = await legacyPost(direct.url, rpc(1, 'tools/list'), '2025-11-25', accept);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
  });

  it('no Accept header gets JSON', async () => {
    const r = await rawPost(direct.url, rpc(1, 'tools/list'), { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
  });

  it.each(['text/html', 'text/plain, image/png', 'application/json;q=0, text/event-stream;q=0'])('%s (neither type) gets 406 and a JSON-RPC error naming both, counting nothing', async (accept) => {
    const r = await legacyPost(direct.url, toolCallBody(1, 'get_wrvu_rate', { specialty: 'cardiology' }), '2025-11-25', accept);
    expect(r.status).toBe(406);
    const e = rpcErrorOf(r);
    expect(e.message).toContain('application/json');
    expect(e.message).toContain('text/event-stream');
    expect(e.id).toBe(1);
    expect(r.headers.ratelimit).toBeUndefined();
  });
});
