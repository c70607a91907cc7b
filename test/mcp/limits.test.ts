/**
 * Tool calls count against the caller IP's open-data limits (one counter with /data/api/v1), on a
 * dedicated server with low limits and an injected clock: beyond the limit a call gets a tool error that
 * says when to retry (and Retry-After on the HTTP answer); refused calls are not counted; the minute and
 * the day windows both apply; initialize and tools/list are free, and so are calls the transport refuses.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createApp } from '../../server/app.ts';
import { BuildRegistry } from '../../server/builds/registry.ts';
import { SqliteServiceStore } from '../../server/store/sqlite.ts';
import { StoreUnavailableError } from '../../server/store/types.ts';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningServer } from '../../server/main.ts';
import { get, type HttpResponse } from '../helpers/http.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { closeAfterAll, listen } from '../helpers/server.ts';
import {
  TOOL_NAMES, JSON_ONLY, V1, callTool, connectClient, errorText, initializeBody, okResult, rawPost, rpc, serveGolden, toolCallBody,
} from './mcp-helpers.ts';

const work = useGoldenDir('mcp-limits');
const closeLater = closeAfterAll();
let server: RunningServer;
let url: string;
let client: Client;
// 12:00:15.250 UTC: 45 s to the end of the minute, 43,185 s to the end of the day.
let now = new Date('2026-12-01T12:00:15.250Z');
const clock = () => now;
const PER_MINUTE = 5;
const PER_DAY = 8;
const FEED = `${V1}/specialties/cardiology.json`;

beforeAll(async () => {
  server = closeLater(await serveGolden(work.path, work.dist, 'limits', clock, { ipLimits: { perMinute: PER_MINUTE, perDay: PER_DAY } }));
  url = server.url;
  client = closeLater(await connectClient(url));
}, 60_000);

/** Remaining minute and day requests as the open data API reports them. */
function remaining(r: HttpResponse): { minute: number; day: number } {
  const m = /^"minute";r=(\d+);t=\d+, "day";r=(\d+);t=\d+$/.exec(String(r.headers.ratelimit));
  expect(m, String(r.headers.ratelimit)).not.toBeNull();
  return { minute: Number(m![1]), day: Number(m![2]) };
}

const wrvu = () => callTool(client, 'get_wrvu_rate', { specialty: 'cardiology' });

describe('one per-IP counter for feeds and tool calls', () => {
  it('connecting, tools/list, raw initialize and malformed calls do not count; tool calls and feed requests share the counter', async () => {
    await client.listTools();
    const init = await rawPost(url, initializeBody(), JSON_ONLY);
    expect(init.status).toBe(200);
    const list = await rawPost(url, rpc(2, 'tools/list'), JSON_ONLY);
    expect(list.status).toBe(200);
    // Requests refused before any tool runs (malformed JSON, a tools/call without a tool name) are not counted.
    expect((await rawPost(url, '{"jsonrpc":"2.0","id":3,"method":"tools/call",', JSON_ONLY)).status).toBe(400);
    expect((await rawPost(url, rpc(4, 'tools/call', { arguments: {} }), JSON_ONLY)).status).toBe(400);
    // So are well-formed tool calls the transport refuses: a wrong Content-Type, an unsupported protocol version.
    const call = toolCallBody(5, 'get_wrvu_rate', { specialty: 'cardiology' });
    expect((await rawPost(url, call, { ...JSON_ONLY, 'content-type': 'text/plain' })).status).toBe(415);
    expect((await rawPost(url, call, { ...JSON_ONLY, 'mcp-protocol-version': '1999-01-01' })).status).toBe(400);
    // A batch over the transport's limit of 100 messages runs nothing, so it spends nothing (it once used up
    // the whole minute); neither does a batch holding an initialize request and anything else.
    const batch = (n: number) => `[${Array.from({ length: n }, (_, i) => toolCallBody(100 + i, 'get_wrvu_rate', { specialty: 'cardiology' })).join(',')}]`;
    const big = await rawPost(url, batch(101), JSON_ONLY);
    expect(big.status).toBe(400);
    expect(big.text).toMatch(/Batch must not exceed 100/);
    const withInit = await rawPost(url, `[${initializeBody(300)},${toolCallBody(301, 'get_wrvu_rate', { specialty: 'cardiology' })}]`, JSON_ONLY);
    expect(withInit.status).toBe(400);

    const first = await get(url, FEED); // 1
    expect(first.status).toBe(200);
    expect(remaining(first)).toEqual({ minute: PER_MINUTE - 1, day: PER_DAY - 1 });

    okResult(await wrvu()); // 2
    okResult(await callTool(client, 'get_specialty_pay', { specialty: 'cardiology', state: 'TX' })); // 3
    const second = await get(url, FEED); // 4
    expect(second.status).toBe(200);
    expect(remaining(second)).toEqual({ minute: PER_MINUTE - 4, day: PER_DAY - 4 });
    // A tool error for an unknown name is still a served call.
    errorText(await callTool(client, 'get_specialty_pay', { specialty: 'nope-nope' })); // 5
  });

  it('beyond the minute limit: the feed answers 429 and a tool call gets an error saying when to retry', async () => {
    const feed = await get(url, FEED);
    expect(feed.status).toBe(429);
    expect(feed.headers['retry-after']).toBe('45');

    const text = errorText(await wrvu());
    expect(text).toMatch(/rate limit exceeded/i);
    expect(text).toContain(`${PER_MINUTE} per minute`);
    expect(text).toContain('shared with the open data API');
    expect(text).toContain('retry in 45 s');

    // Over raw HTTP: the JSON-RPC answer is a result with isError, and Retry-After is set.
    const raw = await rawPost(url, toolCallBody(7, 'list_specialties'), JSON_ONLY);
    expect(raw.status).toBe(200);
    expect(raw.headers['retry-after']).toBe('45');
    const body = raw.json<{ id: number; result: { isError: boolean; content: { text: string }[]; structuredContent?: unknown } }>();
    expect(body.id).toBe(7);
    expect(body.result.isError).toBe(true);
    expect(body.result.structuredContent).toBeUndefined();
    expect(body.result.content[0]!.text).toMatch(/retry in 45 s/);

    // Listing tools is still possible while limited.
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(TOOL_NAMES.length);

    now = new Date('2026-12-01T12:00:50.000Z');
    expect(errorText(await wrvu())).toContain('retry in 10 s');
  });

  it('refused calls were not counted: the next minute serves up to the day limit, then the day limit applies', async () => {
    now = new Date('2026-12-01T12:01:00.000Z');
    okResult(await wrvu()); // day 6
    const feed = await get(url, FEED); // day 7
    expect(feed.status).toBe(200);
    expect(remaining(feed)).toEqual({ minute: PER_MINUTE - 2, day: PER_DAY - 7 });
    okResult(await wrvu()); // day 8

    const text = errorText(await wrvu());
    const toMidnight = (Date.parse('2026-12-02T00:00:00Z') - now.getTime()) / 1000;
    expect(text).toContain(`${PER_DAY} per day`);
    expect(text).toContain(`retry in ${toMidnight} s`);
    const refused = await get(url, FEED);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(toMidnight));
  });

  it('a new UTC day serves again', async () => {
    now = new Date('2026-12-02T00:00:05.000Z');
    const { doc } = okResult<{ attribution: string }>(await wrvu());
    expect(doc.attribution).toContain('accessed 2026-12-02)');
    const feed = await get(url, FEED);
    expect(feed.status).toBe(200);
    expect(remaining(feed)).toEqual({ minute: PER_MINUTE - 2, day: PER_DAY - 2 });
  });
});

describe('the counter store unavailable', () => {
  it('a tool call answers 503 with Retry-After and a JSON-RPC error instead of serving uncounted', async () => {
    const store = new SqliteServiceStore(join(work.path, 'service-broken.db'));
    const broken = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'hitIp' || prop === 'hitIpMany') return () => { throw new StoreUnavailableError('store down'); };
        const v = Reflect.get(target, prop, receiver) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const registry = new BuildRegistry(work.dist);
    await registry.check();
    const app = createApp({ registry, store: broken, clock, ipLimits: { perMinute: 100, perDay: 1000 } });
    const http = await listen(app.listener);
    const base = http.url;
    try {
      const r = await rawPost(base, toolCallBody(1, 'list_specialties'), JSON_ONLY);
      expect(r.status).toBe(503);
      expect(r.headers['retry-after']).toBe('2');
      const body = r.json<{ jsonrpc: string; error: { code: number; message: string } }>();
      expect(body.error.code).toBe(-32000);
      expect(body.error.message).toMatch(/temporarily unavailable/);
      // Calls that are not tool calls do not touch the counter.
      expect((await rawPost(base, initializeBody(2), JSON_ONLY)).status).toBe(200);
    } finally {
      await http.close();
      store.close();
    }
  });
});
