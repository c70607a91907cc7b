/**
 * POST /mcp at the HTTP level, with raw requests: plain-JSON clients (Accept: application/json only),
 * malformed and incomplete JSON-RPC, methods other than POST, oversized bodies, CORS preflight, the
 * Host/Origin allow-lists, and the /.well-known/mcp.json discovery document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/main.ts';
import { get, request, type HttpResponse } from '../helpers/http.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { closeAfterAll } from '../helpers/server.ts';
import {
  BOTH, JSON_ONLY, TOOL_NAMES, V1, connectClient, feed, initializeBody, rawPost, rpc, rpcErrorOf, serveGolden, toolCallBody,
} from './mcp-helpers.ts';

const work = useGoldenDir('mcp-transport');
const closeLater = closeAfterAll();
let server: RunningServer;
let url: string;
const clock = () => new Date('2026-12-01T12:00:15.000Z');

beforeAll(async () => {
  server = closeLater(await serveGolden(work.path, work.dist, 'transport', clock));
  url = server.url;
}, 60_000);

interface RpcResult<T = Record<string, unknown>> {
  jsonrpc: string;
  id: number | string;
  result: T;
}

function rpcResult<T = Record<string, unknown>>(r: HttpResponse, id: number | string): T {
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  const body = r.json<RpcResult<T>>();
  expect(body.jsonrpc).toBe('2.0');
  expect(body.id).toBe(id);
  expect(body.result, r.text.slice(0, 300)).toBeTypeOf('object');
  return body.result;
}

describe('plain JSON clients', () => {
  it('Accept: application/json only: initialize, tools/list and tools/call work, answered as JSON', async () => {
    const init = rpcResult<{ protocolVersion: string; serverInfo: { name: string }; capabilities: { tools?: object } }>(
      await rawPost(url, initializeBody(1), JSON_ONLY), 1);
    expect(init.protocolVersion).toBe('2025-06-18');
    expect(init.serverInfo.name).toBe('physpay');
    expect(init.capabilities.tools).toBeTruthy();

    const list = rpcResult<{ tools: { name: string }[] }>(await rawPost(url, rpc(2, 'tools/list'), JSON_ONLY), 2);
    expect(list.tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());

    const r = await rawPost(url, toolCallBody('call-3', 'get_specialty_pay', { specialty: 'Cardiology', state: 'CA' }), JSON_ONLY);
    expect(r.headers['mcp-session-id']).toBeUndefined(); // stateless
    expect(r.headers['access-control-allow-origin']).toBe('*'); // usable from a browser, like the feeds
    const call = rpcResult<{ content: { type: string; text: string }[]; structuredContent: unknown; isError?: boolean }>(r, 'call-3');
    expect(call.isError ?? false).toBe(false);
    expect(call.structuredContent).toEqual(await feed(url, '/specialties/cardiology/states/california.json'));
    expect(call.content[0]!.type).toBe('text');
    expect(call.content[0]!.text).toMatch(/^Cardiology in California: median total compensation \$/);
  });

  it('Accept with both types, with */*, or without Accept: the same JSON answer', async () => {
    const expected = await feed(url, '/wrvu/pediatrics.json');
    for (const headers of [BOTH, { 'content-type': 'application/json', accept: '*/*' }, { 'content-type': 'application/json' }]) {
      const r = await rawPost(url, toolCallBody(9, 'get_wrvu_rate', { specialty: 'pediatrics' }), headers);
      const call = rpcResult<{ structuredContent: unknown }>(r, 9);
      expect(call.structuredContent, JSON.stringify(headers)).toEqual(expected);
    }
  });

  it('tools/call without an arguments object works for a tool that takes none', async () => {
    const call = rpcResult<{ structuredContent: unknown; isError?: boolean }>(
      await rawPost(url, rpc(5, 'tools/call', { name: 'list_specialties' }), JSON_ONLY), 5);
    expect(call.isError ?? false).toBe(false);
    // the first page of the feed's list (list_specialties pages: result-size.test.ts)
    const whole = await feed<{ specialties: unknown[] }>(url, '/specialties.json');
    expect(call.structuredContent).toMatchObject({ ...whole, specialties: whole.specialties.slice(0, 10), truncated: true });
    const resident = rpcResult<{ isError: boolean; content: { text: string }[] }>(
      await rawPost(url, rpc(6, 'tools/call', { name: 'get_resident_pay' }), JSON_ONLY), 6);
    expect(resident.isError).toBe(true);
    expect(resident.content[0]!.text).toMatch(/Give `institution`/);
  });

  it('a tool error over raw JSON-RPC is a result with isError, not a protocol error', async () => {
    const call = rpcResult<{ isError: boolean; content: { text: string }[] }>(
      await rawPost(url, toolCallBody(4, 'get_specialty_pay', { specialty: 'cardiolgy' }), JSON_ONLY), 4);
    expect(call.isError).toBe(true);
    expect(call.content[0]!.text).toContain('Close matches: Cardiology (cardiology)');
  });

  it('a notification is accepted with 202 and no body', async () => {
    const r = await rawPost(url, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), JSON_ONLY);
    expect(r.status).toBe(202);
    expect(r.body.length).toBe(0);
  });

  it('a batch of two calls gets both answers, each under its own id', async () => {
    const body = `[${toolCallBody(11, 'get_wrvu_rate', { specialty: 'cardiology' })},${toolCallBody(12, 'get_wrvu_rate', { specialty: 'pediatrics' })}]`;
    const r = await rawPost(url, body, JSON_ONLY);
    expect(r.status).toBe(200);
    const answers = r.json<RpcResult<{ structuredContent: { specialty: { slug: string } } }>[]>();
    expect(answers).toHaveLength(2);
    const byId = Object.fromEntries(answers.map((a) => [a.id, a.result.structuredContent.specialty.slug]));
    expect(byId).toEqual({ 11: 'cardiology', 12: 'pediatrics' });
  });

  it('raw concurrent calls are answered each under its own id with its own figures', async () => {
    const slugs = ['cardiology', 'pediatrics', 'family-medicine', 'psychiatry', 'urology', 'neurology', 'dermatology', 'anesthesiology'];
    const expected = await Promise.all(slugs.map((s) => feed(url, `/specialties/${s}.json`)));
    const rs = await Promise.all(Array.from({ length: 40 }, (_, i) =>
      rawPost(url, toolCallBody(1000 + i, 'get_specialty_pay', { specialty: slugs[i % slugs.length]!, detail: 'full' }), JSON_ONLY)));
    rs.forEach((r, i) => {
      const call = rpcResult<{ structuredContent: unknown }>(r, 1000 + i);
      expect(call.structuredContent).toEqual(expected[i % slugs.length]);
    });
  });
});

describe('protocol errors', () => {
  it('malformed JSON: 400 with JSON-RPC parse error -32700', async () => {
    for (const body of ['{"jsonrpc":', 'not json at all', '{"jsonrpc":"2.0","id":1,"method":"tools/list",}']) {
      const r = await rawPost(url, body, JSON_ONLY);
      expect(r.status, body).toBe(400);
      const e = rpcErrorOf(r);
      expect(e.code, body).toBe(-32700);
      expect(e.id).toBeNull();
    }
  });

  it('valid JSON that is not a JSON-RPC request: 400 with -32600 invalid request', async () => {
    const cases: [string, unknown][] = [
      ['{"jsonrpc":"2.0","id":3}', 3], // no method
      ['{"id":4,"method":"tools/list"}', 4], // no jsonrpc
      ['{"jsonrpc":"1.0","id":5,"method":"tools/list"}', 5], // wrong version
      ['{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}', null], // id neither string nor number
      ['{}', null],
      ['[]', null],
      ['null', null],
      ['42', null],
      ['"tools/list"', null],
    ];
    for (const [body, id] of cases) {
      const r = await rawPost(url, body, JSON_ONLY);
      expect(r.status, body).toBe(400);
      const e = rpcErrorOf(r);
      expect(e.code, body).toBe(-32600);
      expect(e.message, body).toMatch(/invalid request/i);
      expect(e.id, body).toBe(id);
    }
  });

  it('an empty body is a JSON-RPC error, not a 5xx', async () => {
    const r = await rawPost(url, '', JSON_ONLY);
    expect(r.status).toBe(400);
    expect([-32700, -32600]).toContain(rpcErrorOf(r).code);
  });

  it('tools/call without params or without a tool name: -32602 invalid params', async () => {
    for (const [body, id] of [
      [rpc(6, 'tools/call'), 6],
      [rpc(7, 'tools/call', { arguments: { specialty: 'cardiology' } }), 7],
      [rpc(8, 'tools/call', { name: 42 }), 8],
    ] as const) {
      const r = await rawPost(url, body, JSON_ONLY);
      expect([200, 400], body).toContain(r.status);
      const e = rpcErrorOf(r);
      expect(e.code, body).toBe(-32602);
      expect(e.id, body).toBe(id);
      expect(e.message.length, body).toBeLessThan(300);
    }
  });

  it('an unknown method: -32601 with the request id', async () => {
    const e = rpcErrorOf(await rawPost(url, rpc(10, 'resources/teleport'), JSON_ONLY));
    expect(e.code).toBe(-32601);
    expect(e.id).toBe(10);
  });

  it('a wrong Content-Type or an unsupported protocol version is refused with a 4xx JSON-RPC error', async () => {
    const ct = await rawPost(url, rpc(1, 'tools/list'), { 'content-type': 'text/plain', accept: 'application/json' });
    expect(ct.status).toBe(415);
    expect(rpcErrorOf(ct).message).toMatch(/Content-Type/);
    const pv = await rawPost(url, rpc(1, 'tools/list'), { ...JSON_ONLY, 'mcp-protocol-version': '1999-01-01' });
    expect(pv.status).toBe(400);
    expect(rpcErrorOf(pv).message).toMatch(/protocol version/i);
  });

  it('GET, DELETE and PUT /mcp answer 405 with Allow: POST', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const r = await request(url, '/mcp', { method, headers: { accept: 'text/event-stream, application/json' } });
      expect(r.status, method).toBe(405);
      expect(r.headers.allow, method).toBe('POST, OPTIONS');
      expect(rpcErrorOf(r).message, method).toMatch(/POST only/);
    }
  });

  it('CORS preflight is answered', async () => {
    const r = await request(url, '/mcp', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
    expect(r.status).toBe(204);
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(String(r.headers['access-control-allow-methods'])).toContain('POST');
    expect(String(r.headers['access-control-allow-headers']).toLowerCase()).toContain('mcp-protocol-version');
  });

  it('oversized bodies are refused with 413 and a JSON-RPC error; the server keeps serving', async () => {
    for (const size of [70_000, 5_000_000]) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(size) } });
      const r = await rawPost(url, body, JSON_ONLY);
      expect(r.status, String(size)).toBe(413);
      const e = rpcErrorOf(r);
      expect(e.code).toBe(-32600);
      expect(e.message).toMatch(/too large.*64 kB/);
    }
    // Just under the limit is served.
    const fits = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { pad: 'x'.repeat(60_000) } } });
    expect((await rawPost(url, fits, JSON_ONLY)).status).toBe(200);
    const list = rpcResult<{ tools: unknown[] }>(await rawPost(url, rpc(3, 'tools/list'), JSON_ONLY), 3);
    expect(list.tools).toHaveLength(TOOL_NAMES.length);
  });
});

describe('Host and Origin allow-lists', () => {
  let guarded: RunningServer;
  beforeAll(async () => {
    guarded = await serveGolden(work.path, work.dist, 'guarded', clock, {
      mcpAllowedHosts: ['127.0.0.1', 'physpay.example', 'api.example:8443'],
      mcpAllowedOrigins: ['https://ok.example'],
    });
  });
  afterAll(async () => {
    await guarded?.close();
  });

  it('an allowed host name matches whatever the port; an entry with a port matches exactly', async () => {
    const c = await connectClient(guarded.url); // Host: 127.0.0.1:<port>
    try {
      expect((await c.listTools()).tools).toHaveLength(TOOL_NAMES.length);
    } finally {
      await c.close();
    }
    for (const host of ['physpay.example', 'physpay.example:8443', 'PhysPay.Example', 'api.example:8443']) {
      const r = await rawPost(guarded.url, rpc(1, 'tools/list'), { ...JSON_ONLY, host });
      expect(r.status, host).toBe(200);
    }
  });

  it('other hosts are refused with 403 and a JSON-RPC error', async () => {
    for (const host of ['evil.example', 'evil.example:80', 'api.example:9999', 'api.example', '127.0.0.1.evil.example']) {
      const r = await rawPost(guarded.url, toolCallBody(1, 'list_specialties'), { ...JSON_ONLY, host });
      expect(r.status, host).toBe(403);
      const e = rpcErrorOf(r);
      expect(e.code).toBe(-32000);
      expect(e.message, host).toMatch(/host .* is not allowed/);
    }
  });

  it('requests with an Origin must carry an allowed one; requests without Origin are served', async () => {
    const ok = await rawPost(guarded.url, rpc(1, 'tools/list'), { ...JSON_ONLY, origin: 'https://ok.example' });
    expect(ok.status).toBe(200);
    const none = await rawPost(guarded.url, rpc(1, 'tools/list'), JSON_ONLY);
    expect(none.status).toBe(200);
    for (const origin of ['https://evil.example', 'https://ok.example.evil.example', 'http://ok.example']) {
      const r = await rawPost(guarded.url, rpc(1, 'tools/list'), { ...JSON_ONLY, origin });
      expect(r.status, origin).toBe(403);
      expect(rpcErrorOf(r).message).toMatch(/origin .* is not allowed/);
    }
  });

  it('the unguarded server serves any Host and Origin', async () => {
    const r = await rawPost(url, rpc(1, 'tools/list'), { ...JSON_ONLY, host: 'evil.example', origin: 'https://evil.example' });
    expect(r.status).toBe(200);
  });
});

describe('/.well-known/mcp.json', () => {
  it('names the endpoint and the five tools as tools/list does', async () => {
    const r = await get(url, '/.well-known/mcp.json');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.headers['access-control-allow-origin']).toBe('*');
    const doc = r.json<{ endpoint: string; transport: string; authentication: string; license: string; tools: { name: string; title: string; description: string }[] }>();
    expect(doc.endpoint).toBe('https://physpay.example/mcp');
    expect(doc.transport).toBe('streamable-http');
    expect(doc.authentication).toBe('none');
    expect((doc as unknown as { subscriber_authorization: unknown }).subscriber_authorization).toEqual({
      scheme: 'bearer', keyed_tools: ['get_benchmark', 'get_percentile_rank', 'get_available_data', 'get_key_usage'],
      protected_resource_metadata: 'https://physpay.example/.well-known/oauth-protected-resource/mcp', signin_endpoint: 'https://physpay.example/mcp?signin',
    });
    expect(doc.license).toContain('CC BY 4.0');
    const listed = rpcResult<{ tools: { name: string; title: string; description: string }[] }>(await rawPost(url, rpc(1, 'tools/list'), JSON_ONLY), 1);
    expect(doc.tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    expect(doc.tools).toEqual(listed.tools.map((t) => ({ name: t.name, title: t.title, description: t.description })));
  });

  it('the open feeds are under the same origin as the endpoint it names', async () => {
    expect((await get(url, `${V1}/specialties.json`)).status).toBe(200);
  });
});
