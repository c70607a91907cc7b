/**
 * Per-IP limits of the open data API over real HTTP, with an injected clock: the minute and the UTC-day
 * windows, Retry-After, refused requests left uncounted, 304s left uncounted, trust proxy and IPv6 /56
 * grouping (also checked on the key function itself).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { get, request, type HttpResponse } from '../helpers/http.ts';
import { closeAfterAll, serveApp } from '../helpers/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { BuildRegistry } from '../../server/builds/registry.ts';
import { clientIpResolver, parseTrustProxy, type TrustProxy } from '../../server/http/client-ip.ts';
import type { IpLimits } from '../../server/store/types.ts';

const FEED = '/data/api/v1/specialties/cardiology.json';
const OTHER = '/data/api/v1/states/texas.json';

const work = useTempDir('ip-limits');
const closeLater = closeAfterAll();
let registry: BuildRegistry;
let now = new Date('2026-12-01T12:00:15.250Z');
const clock = () => now;
let served = 0;

/** A server (own service store) on the shared build registry; the app's clock is the test's clock. */
async function serve(ipLimits: IpLimits, trustProxy: TrustProxy = false): Promise<string> {
  return closeLater(await serveApp(join(work.path, `service-${served++}.db`), { registry, clock, ipLimits, trustProxy })).url;
}

async function many(n: number, send: () => Promise<HttpResponse>): Promise<HttpResponse[]> {
  return Promise.all(Array.from({ length: n }, send));
}

const statuses = (rs: HttpResponse[]) => {
  const out: Record<number, number> = {};
  for (const r of rs) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
};

function expect429(r: HttpResponse, retryAfter: number) {
  expect(r.status).toBe(429);
  expect(r.headers['retry-after']).toBe(String(retryAfter));
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  expect(r.headers['access-control-allow-origin']).toBe('*');
  const body = r.json<{ error: string; retry_after: number }>();
  expect(body.error).toMatch(/rate limit/i);
  expect(body.retry_after).toBe(retryAfter);
}

beforeAll(async () => {
  registry = new BuildRegistry(goldenBuildIn(work.path).dist);
  await registry.check();
  expect(registry.current).not.toBeNull();
}, 60_000);

describe('the minute window', () => {
  it('serves 60 a minute, refuses the 61st with Retry-After to the end of the minute, serves again next minute', async () => {
    now = new Date('2026-12-01T12:00:15.250Z');
    const url = await serve({ perMinute: 60, perDay: 2000 });
    const served = await many(60, () => get(url, FEED));
    expect(statuses(served)).toEqual({ 200: 60 });
    const remaining = served.map((r) => Number(/"minute";r=(\d+);t=45,/.exec(String(r.headers.ratelimit))?.[1])).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => i)); // 59 .. 0, each exactly once
    expect(served[0]!.headers['ratelimit-policy']).toBe('"minute";q=60;w=60, "day";q=2000;w=86400');

    const refused = await get(url, FEED);
    expect429(refused, 45); // 12:00:15.250 -> 44.75 s to 12:01, rounded up
    expect(refused.headers['ratelimit-policy']).toBe('"minute";q=60;w=60, "day";q=2000;w=86400');
    expect(refused.headers.ratelimit).toBe('"minute";r=0;t=45, "day";r=1940;t=43185');
    // Every feed and HEAD share the one counter; refusals keep being refused.
    expect(statuses(await many(10, () => get(url, OTHER)))).toEqual({ 429: 10 });
    expect((await request(url, FEED, { method: 'HEAD' })).status).toBe(429);

    now = new Date('2026-12-01T12:00:59.900Z');
    expect429(await get(url, FEED), 1);

    // Next minute: served again, and the refused requests were not counted (day: 60 + 1 used).
    now = new Date('2026-12-01T12:01:00.000Z');
    const again = await get(url, FEED);
    expect(again.status).toBe(200);
    expect(again.headers.ratelimit).toBe('"minute";r=59;t=60, "day";r=1939;t=43140');
    expect(statuses(await many(59, () => get(url, OTHER)))).toEqual({ 200: 59 });
    expect429(await get(url, FEED), 60);
  });

  it('the daily limit refuses the request after the last and points Retry-After at UTC midnight', async () => {
    now = new Date('2026-12-01T20:00:00.000Z');
    const url = await serve({ perMinute: 1000, perDay: 5 });
    expect(statuses(await many(5, () => get(url, FEED)))).toEqual({ 200: 5 });
    const refused = await get(url, FEED);
    expect429(refused, 4 * 3600);
    expect(refused.json<{ error: string }>().error).toMatch(/per day/);
    expect(refused.headers.ratelimit).toBe('"minute";r=995;t=60, "day";r=0;t=14400');

    // A new minute does not help; the next UTC day does, and the refusals were not counted.
    now = new Date('2026-12-01T20:01:30.000Z');
    expect429(await get(url, FEED), 4 * 3600 - 90);
    now = new Date('2026-12-01T23:59:59.000Z');
    expect429(await get(url, FEED), 1);
    now = new Date('2026-12-02T00:00:00.000Z');
    const next = await get(url, FEED);
    expect(next.status).toBe(200);
    expect(next.headers.ratelimit).toBe('"minute";r=999;t=60, "day";r=4;t=86400');
    expect(statuses(await many(4, () => get(url, FEED)))).toEqual({ 200: 4 });
    expect429(await get(url, FEED), 86_400);
  });
});

describe('revalidation', () => {
  it('304s are not counted: many 304s, then still the full allowance of 200s', async () => {
    now = new Date('2026-12-01T12:00:15.000Z');
    const url = await serve({ perMinute: 3, perDay: 1000 }, 1);
    // Another client fetches the tag, so the tested client has used nothing.
    const etag = (await get(url, FEED, { 'x-forwarded-for': '198.51.100.1' })).headers.etag!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const client = { 'x-forwarded-for': '198.51.100.2' };
    const revalidated = await many(25, () => get(url, FEED, { ...client, 'if-none-match': etag }));
    expect(statuses(revalidated)).toEqual({ 304: 25 });
    for (const r of revalidated) expect(r.headers.ratelimit).toBeUndefined();
    const full = [await get(url, FEED, client), await get(url, FEED, client), await get(url, OTHER, client)];
    expect(statuses(full)).toEqual({ 200: 3 });
    expect(full[2]!.headers.ratelimit).toBe('"minute";r=0;t=45, "day";r=997;t=43185');
    expect429(await get(url, FEED, client), 45);
    // A client over its limit can still revalidate what it has.
    expect((await get(url, FEED, { ...client, 'if-none-match': etag })).status).toBe(304);
    // A stale tag needs the full document, which is counted (and refused here).
    expect((await get(url, FEED, { ...client, 'if-none-match': '"stale"' })).status).toBe(429);
  });
});

describe('client addresses', () => {
  it('with trust proxy 1, each X-Forwarded-For address has its own counter', async () => {
    now = new Date('2026-12-01T12:00:15.000Z');
    const url = await serve({ perMinute: 2, perDay: 1000 }, 1);
    const a = { 'x-forwarded-for': '203.0.113.7' };
    const b = { 'x-forwarded-for': '203.0.113.8' };
    expect(statuses([await get(url, FEED, a), await get(url, FEED, a)])).toEqual({ 200: 2 });
    expect429(await get(url, FEED, a), 45);
    expect((await get(url, FEED, b)).status).toBe(200);
    // The proxy's own address (the socket) is a third client; the last hop is the one believed.
    expect((await get(url, FEED)).status).toBe(200);
    expect((await get(url, FEED, { 'x-forwarded-for': '192.0.2.1, 203.0.113.7' })).status).toBe(429);
    expect((await get(url, FEED, { 'x-forwarded-for': '203.0.113.7, 192.0.2.1' })).status).toBe(200);
  });

  it('with trust proxy 1, IPv6 addresses in one /56 share a counter', async () => {
    now = new Date('2026-12-01T12:00:15.000Z');
    const url = await serve({ perMinute: 2, perDay: 1000 }, 1);
    expect((await get(url, FEED, { 'x-forwarded-for': '2001:db8:abcd:1200::1' })).status).toBe(200);
    expect((await get(url, FEED, { 'x-forwarded-for': '2001:db8:abcd:12ff:ffff:ffff:ffff:fffe' })).status).toBe(200);
    expect429(await get(url, FEED, { 'x-forwarded-for': '2001:db8:abcd:1234::99' }), 45);
    expect((await get(url, FEED, { 'x-forwarded-for': '2001:db8:abcd:1300::1' })).status).toBe(200);
  });

  it('without trust proxy, X-Forwarded-For is ignored (a client cannot forge new addresses)', async () => {
    now = new Date('2026-12-01T12:00:15.000Z');
    const url = await serve({ perMinute: 2, perDay: 1000 }, false);
    expect((await get(url, FEED, { 'x-forwarded-for': '203.0.113.1' })).status).toBe(200);
    expect((await get(url, FEED, { 'x-forwarded-for': '203.0.113.2' })).status).toBe(200);
    expect429(await get(url, FEED, { 'x-forwarded-for': '203.0.113.3' }), 45);
  });

  it('the key function groups IPv6 by /56 and keeps IPv4 addresses apart', () => {
    const req = (remoteAddress: string, xff?: string) => ({ socket: { remoteAddress }, headers: xff ? { 'x-forwarded-for': xff } : {} }) as unknown as IncomingMessage;
    const key = clientIpResolver(false);
    expect(key(req('2001:db8:abcd:1200::1'))).toBe(key(req('2001:db8:abcd:12ff:ffff:ffff:ffff:ffff')));
    expect(key(req('2001:db8:abcd:1200::1'))).toBe(key(req('2001:db8:abcd:1280:1::')));
    expect(key(req('2001:db8:abcd:1200::1'))).not.toBe(key(req('2001:db8:abcd:1300::1')));
    expect(key(req('2001:db8:abcd:1200::1'))).not.toBe(key(req('2001:db8:abce:1200::1')));
    expect(key(req('10.0.0.1'))).not.toBe(key(req('10.0.0.2')));
    expect(key(req('10.0.0.1'))).toBe('10.0.0.1');
    expect(key(req('::ffff:10.0.0.1'))).toBe(key(req('10.0.0.1'))); // IPv4-mapped = the IPv4 client
    expect(key(req('10.0.0.1', '203.0.113.5'))).toBe('10.0.0.1'); // not trusted

    const behindProxy = clientIpResolver(1);
    expect(behindProxy(req('127.0.0.1', '203.0.113.5'))).toBe('203.0.113.5');
    expect(behindProxy(req('127.0.0.1', '2001:db8::1, 2001:db8:0:ff::2'))).toBe(behindProxy(req('127.0.0.1', '2001:db8::5')));
    expect(behindProxy(req('127.0.0.1'))).toBe('127.0.0.1');

    const subnets = clientIpResolver(['loopback']);
    expect(subnets(req('127.0.0.1', '203.0.113.5'))).toBe('203.0.113.5');
    expect(subnets(req('192.0.2.10', '203.0.113.5'))).toBe('192.0.2.10'); // not a trusted proxy
  });

  it('trust proxy settings: a hop count or subnets; "true" is refused', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('loopback, 10.0.0.0/8')).toEqual(['loopback', '10.0.0.0/8']);
    expect(() => parseTrustProxy('true')).toThrow(/hop count/);
  });
});
