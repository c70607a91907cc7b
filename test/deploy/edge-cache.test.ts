/**
 * The edge-cache deployment, end to end with real processes: Debian's Varnish with the shipped policy
 * (deploy/varnish/physpay.vcl) in front of two `physpay serve` processes that share one dist-data and one
 * PostgreSQL service store, run with `--trust-proxy 1`. Two clients on their own loopback addresses
 * (127.0.0.2 and 127.0.0.3) talk to the edge only; what reached physpay is read from each process's
 * /metrics and from the per-IP counters in PostgreSQL.
 *
 * A second edge with the TTL cut to 15 s shows the no-hook path (new figures when the TTL runs out);
 * the main edge, with its one-hour TTL, changes at once through `physpay build --on-publish`.
 *
 * Needs varnishd (Debian package varnish) and PostgreSQL: skipped with a message outside CI when either
 * is missing, required when CI is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from 'node:http';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type pg from 'pg';
import { PG_URL, pgClient, pgSkipReason } from '../helpers/pg.ts';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { request, waitFor, type HttpResponse } from '../helpers/http.ts';
import { BIN, spawnServe, type ServeProcess } from '../server/serve-process.ts';
import { startVarnish, type Edge } from '../../deploy/varnish/varnishd.ts';
import { createDemoDb } from '../../build/demo/create.ts';

const run = promisify(execFile);
const DAY_LIMIT = 25;
const FEED = '/data/api/v1/specialties/cardiology.json';
const PAGE = '/salaries/cardiology';
const A = '127.0.0.2';
const B = '127.0.0.3';
/** a third client, for the compression test only (its requests do not move A's and B's counts) */
const C = '127.0.0.4';
const SPOOF = `198.51.100.${randomInt(1, 255)}`;
const SHORT_TTL_S = 15;

let skip: string | null = null;
const tmp = useTempDir('edge');
let work: string;
let dist: string;
let build1: string;
let servers: ServeProcess[] = [];
let edge: Edge;
let shortEdge: Edge;
let db: pg.Client;
const agents: Record<string, Agent> = {};
const summary: Record<string, unknown> = {};

/**
 * How long the test's clients keep an idle connection to the edge: less than Varnish's timeout_idle (5 s),
 * as a client of the edge must (README: Deploying), or a request can be written on a connection as Varnish
 * closes it ("socket hang up").
 */
const CLIENT_IDLE_MS = 4_000;
const agentFor = (ip: string) => (agents[ip] ??= new Agent({ keepAlive: true, maxSockets: 256, localAddress: ip, timeout: CLIENT_IDLE_MS } as ConstructorParameters<typeof Agent>[0]));
const get = (base: string, path: string, from: string, headers: Record<string, string> = {}) => request(base, path, { agent: agentFor(from), headers });

/** Requests physpay answered on its public interfaces (not the edge's /readyz probes), both processes. */
async function reachedPhyspay(): Promise<{ open_data: number; pages: number; keyed: number; mcp: number }> {
  await new Promise((r) => setTimeout(r, 100)); // metrics are taken when a response finishes
  const total = { open_data: 0, pages: 0, keyed: 0, mcp: 0 };
  for (const s of servers) {
    const text = (await request(s.url, '/metrics')).text;
    for (const m of text.matchAll(/^physpay_http_requests_total\{interface="(\w+)",status="\d+"\} (\d+)$/gm)) {
      if (m[1]! in total) total[m[1] as keyof typeof total] += Number(m[2]);
    }
  }
  return total;
}

async function dayCount(ip: string): Promise<number | null> {
  const r = await db.query('SELECT day_count FROM ip_counters WHERE ip = $1', [ip]);
  return r.rows[0] ? Number(r.rows[0].day_count) : null;
}

const statuses = (rs: HttpResponse[]) => {
  const c: Record<number, number> = {};
  for (const r of rs) c[r.status] = (c[r.status] ?? 0) + 1;
  return c;
};

async function cli(args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 16 << 20 });
  return stdout;
}

beforeAll(async () => {
  const noVarnish = spawnSync('varnishd', ['-V']).error ? 'varnishd is not installed (apt-get install varnish)' : null;
  if (noVarnish && process.env.CI) throw new Error(`${noVarnish}: required when CI is set`);
  skip = noVarnish ?? (await pgSkipReason('the edge-cache end-to-end test'));
  if (noVarnish) console.warn(`skipping the edge-cache end-to-end test: ${noVarnish}`);
  if (skip) return;

  work = tmp.path;
  chmodSync(work, 0o755); // varnishd reads its VCL as its own user
  ({ dist, buildId: build1 } = goldenBuildIn(work));
  db = await pgClient();
  // a fresh database has no tables until the servers create them; a shared one (PHYSPAY_TEST_PG_URL) may hold an earlier run's counts
  if ((await db.query<{ t: string | null }>("SELECT to_regclass('ip_counters')::text AS t")).rows[0]!.t) await db.query('DELETE FROM ip_counters WHERE ip = ANY($1)', [[A, B, SPOOF, '127.0.0.1']]);
  const args = ['--data', dist, '--service-db', PG_URL, '--port', '0', '--trust-proxy', '1', '--ip-per-minute', '100000', '--ip-per-day', String(DAY_LIMIT), '--poll-ms', '200', '--log-level', 'warn'];
  servers = await Promise.all([spawnServe(args), spawnServe(args)]);
  const backends = servers.map((s) => ({ host: '127.0.0.1', port: Number(new URL(s.url).port) }));
  [edge, shortEdge] = await Promise.all([
    startVarnish({ dir: join(work, 'edge'), backends }),
    startVarnish({ dir: join(work, 'edge-short'), backends, extraVcl: `sub vcl_backend_response {\n    if (beresp.ttl > ${SHORT_TTL_S}s) { set beresp.ttl = ${SHORT_TTL_S}s; }\n}\n` }),
  ]);
}, 120_000);

afterAll(async () => {
  if (edge && !skip) {
    const s = edge.stats();
    summary.edge = { hits: s.cache_hit, misses: s.cache_miss, passes: s.s_pass, hit_ratio: Number((s.cache_hit! / (s.cache_hit! + s.cache_miss!)).toFixed(3)), backend_requests: s.backend_req };
    summary.reached_physpay = await reachedPhyspay().catch(() => null);
    summary.per_ip_day_counts = { [A]: await dayCount(A), [B]: await dayCount(B), [`${SPOOF} (spoofed)`]: await dayCount(SPOOF) };
    console.log(`edge-cache summary: ${JSON.stringify(summary)}`);
  }
  await Promise.all([edge?.stop(), shortEdge?.stop(), ...servers.map((s) => s.stop())]);
  for (const a of Object.values(agents)) a.destroy();
  await db?.end();
}, 60_000);

describe('Varnish in front of two physpay processes sharing PostgreSQL', () => {
  it('open feeds and pages: one miss, then hits for an hour that never reach physpay nor count; 304 from the edge with the strong ETag', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const reached0 = await reachedPhyspay();
    const first = await get(edge.url, FEED, A);
    expect(first.status).toBe(200);
    expect(first.headers['x-cache']).toBe('MISS');
    expect(first.headers['cache-control']).toBe('public, max-age=3600');
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"[^"]+"$/); // strong
    expect(first.headers['x-physpay-build']).toBe(build1);
    expect(first.headers.ratelimit).toMatch(/"day";r=24;/); // the request that filled the cache was counted

    for (const from of [A, B, A, B, A, B, A, B]) {
      const hit = await get(edge.url, FEED, from);
      expect(hit.status).toBe(200);
      expect(hit.headers['x-cache']).toBe('HIT');
      expect(Number(hit.headers.age)).toBeGreaterThanOrEqual(0);
      expect(Number(hit.headers.age)).toBeLessThan(3600);
      expect(hit.headers.etag).toBe(etag);
      expect(hit.body.equals(first.body)).toBe(true);
      expect(hit.headers.ratelimit).toBeUndefined(); // someone else's count: removed on a hit
      expect(hit.headers['access-control-allow-origin']).toBe('*');
    }
    // If-None-Match (node:http: nothing else is added to the request): 304 with the same strong ETag
    const revalidated = await get(edge.url, FEED, B, { 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.etag).toBe(etag);
    expect(revalidated.headers['cache-control']).toBe('public, max-age=3600');
    expect(revalidated.body.length).toBe(0);
    // a changed ETag gets the full body
    expect((await get(edge.url, FEED, B, { 'if-none-match': '"stale"' })).status).toBe(200);

    const page1 = await get(edge.url, PAGE, A);
    const page2 = await get(edge.url, PAGE, B);
    expect([page1.status, page1.headers['x-cache'], page2.status, page2.headers['x-cache']]).toEqual([200, 'MISS', 200, 'HIT']);
    expect(page2.headers.etag).toBe(page1.headers.etag);
    expect(page2.headers['content-type']).toMatch(/^text\/html/);

    const reached = await reachedPhyspay();
    expect(reached.open_data - reached0.open_data).toBe(1);
    expect(reached.pages - reached0.pages).toBe(1);
    expect(await dayCount(A)).toBe(1); // the one miss; 4 hits and a 304 were never counted
    expect(await dayCount(B)).toBeNull(); // B only ever got hits
    summary.caching = { requests: 14, reached_physpay: { open_data: 1, pages: 1 } };
  });

  it('compressed answers: one stored object per coding (br, gzip, none) with physpay\'s strong ETag each; 304s per coding from the edge', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const url = '/data/api/v1/specialties/dermatology.json';
    const reached0 = await reachedPhyspay();
    const plain = await get(edge.url, url, C);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const seen = new Map<string, HttpResponse>();
    // browsers' and tools' spellings, reduced by the policy to three objects
    for (const [ae, coding] of [['gzip, deflate, br, zstd', 'br'], ['br', 'br'], ['gzip', 'gzip'], ['deflate, gzip', 'gzip'], ['br;q=0, gzip', 'gzip'], ['identity', undefined], ['deflate', undefined]] as const) {
      const r = await get(edge.url, url, C, { 'accept-encoding': ae });
      expect(r.status, ae).toBe(200);
      expect(r.headers['content-encoding'], ae).toBe(coding);
      expect(r.headers.vary, ae).toMatch(/Accept-Encoding/);
      expect(r.headers.etag, ae).toMatch(/^"[^"]+"$/); // strong: the edge did not recode it
      const decoded = coding === 'br' ? brotliDecompressSync(r.body) : coding === 'gzip' ? gunzipSync(r.body) : r.body;
      expect(decoded.equals(plain.body), ae).toBe(true);
      const first = seen.get(coding ?? 'identity');
      if (first) {
        expect(r.headers['x-cache'], ae).toBe('HIT');
        expect(r.headers.etag, ae).toBe(first.headers.etag);
      } else seen.set(coding ?? 'identity', r);
    }
    expect(new Set([...seen.values()].map((r) => r.headers.etag)).size).toBe(3);
    for (const [coding, r] of seen) {
      const headers: Record<string, string> = { 'if-none-match': String(r.headers.etag) };
      if (coding !== 'identity') headers['accept-encoding'] = coding;
      const again = await get(edge.url, url, C, headers);
      expect(again.status, coding).toBe(304);
      expect(again.headers.etag, coding).toBe(r.headers.etag);
    }
    const reached = await reachedPhyspay();
    expect(reached.open_data - reached0.open_data).toBe(3); // one miss per coding
    summary.compression = { codings: [...seen.keys()], bytes: Object.fromEntries([...seen].map(([c, r]) => [c, r.body.length])) };
  });

  it('per-IP limits apply to the real client address (--trust-proxy 1): each client exactly, separately, unspoofable; hits are served to a limited client', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const usedA = (await dayCount(A)) ?? 0;
    // 35 concurrent misses (a query string per request) from A, each naming a forged address
    const burst = await Promise.all(Array.from({ length: DAY_LIMIT + 10 }, (_, i) => get(edge.url, `${FEED}?a=${i}`, A, { 'x-forwarded-for': SPOOF })));
    expect(statuses(burst)).toEqual({ 200: DAY_LIMIT - usedA, 429: 10 + usedA });
    for (const r of burst.filter((x) => x.status === 429)) {
      expect(r.headers['cache-control']).toBe('no-store');
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(await dayCount(A)).toBe(DAY_LIMIT);
    expect(await dayCount(SPOOF)).toBeNull();

    // A is limited at physpay, but the edge still serves it what it holds (hits are not counted)
    const cached = await get(edge.url, FEED, A);
    expect([cached.status, cached.headers['x-cache']]).toEqual([200, 'HIT']);
    // B is another client: its own count, untouched by A's
    const b = await get(edge.url, `${FEED}?b=1`, B, { 'x-forwarded-for': A });
    expect([b.status, b.headers['x-cache']]).toEqual([200, 'MISS']);
    expect(b.headers.ratelimit).toMatch(new RegExp(`"day";r=${DAY_LIMIT - 1};`));
    expect(await dayCount(B)).toBe(1);
    expect(await dayCount(A)).toBe(DAY_LIMIT);
    // a 429 is never stored: the URL A was refused on is served to B
    const refusedUrl = burst.findIndex((r) => r.status === 429);
    const again = await get(edge.url, `${FEED}?a=${refusedUrl}`, B);
    expect(again.status).toBe(200);
    summary.limits = { day_limit: DAY_LIMIT, burst_from_A: DAY_LIMIT + 10, served: DAY_LIMIT - usedA, refused: 10 + usedA };
  });

  it('keyed answers are never stored: two keys see only their own meta; a quota stays exact through the edge', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const create = async (plan: string) => JSON.parse(await cli(['keys', 'create', '--service-db', PG_URL, '--plan', plan, '--label', 'edge test', '--json'])) as { key: string; id: number; key_prefix: string };
    const [starter, pro] = await Promise.all([create('starter'), create('professional')]);
    const reached0 = await reachedPhyspay();
    const requestIds = new Set<string>();
    for (let i = 0; i < 3; i++) {
      for (const k of [starter, pro]) {
        const usage = await get(edge.url, '/api/v1/me/usage', A, { 'x-api-key': k.key });
        expect(usage.status).toBe(200);
        expect(usage.headers['x-cache']).toBe('PASS');
        expect(usage.json<{ key_prefix: string }>().key_prefix).toBe(k.key_prefix);
        const bench = await get(edge.url, '/api/v1/benchmarks?specialty=Cardiology', B, { 'x-api-key': k.key });
        expect(bench.status).toBe(200);
        expect(bench.headers['x-cache']).toBe('PASS');
        expect(bench.headers['cache-control']).toMatch(/^private/);
        expect(bench.headers.vary).toMatch(/X-API-Key/i);
        // its own request id and its own count: the i-th benchmark of this key leaves limit - (i + 1)
        const meta = bench.json<{ meta: { request_id: string; rate_limit: { remaining_daily: number } } }>().meta;
        const limit = k === starter ? 100 : 500;
        expect(meta.rate_limit.remaining_daily).toBe(limit - (i + 1));
        expect(requestIds.has(meta.request_id)).toBe(false);
        requestIds.add(meta.request_id);
        expect(Number(bench.headers['x-ratelimit-limit-daily'])).toBe(limit);
      }
    }
    expect((await reachedPhyspay()).keyed - reached0.keyed).toBe(12); // every one reached physpay

    // a fresh Starter key (100 a day): 110 concurrent requests through the edge -> exactly 100 served
    const fresh = await create('starter');
    const burst = await Promise.all(Array.from({ length: 110 }, (_, i) => get(edge.url, '/api/v1/benchmarks?specialty=Cardiology', i % 2 ? A : B, { 'x-api-key': fresh.key })));
    expect(statuses(burst)).toEqual({ 200: 100, 429: 10 });
    const stored = await db.query('SELECT day_count FROM quota_usage WHERE key_id = $1', [fresh.id]);
    expect(Number(stored.rows[0].day_count)).toBe(100);
    summary.quota = { plan_daily: 100, burst: 110, served: 100, refused: 10, stored: 100 };
  });

  it('the test\'s clients stop reusing a connection before the edge closes it for being idle (5 s), so none is written on as it closes', async (ctx) => {
    if (skip) return ctx.skip(skip);
    // The cause of a "socket hang up" in the quota burst above: Varnish closes a client connection idle for
    // timeout_idle (5 s); a client that keeps idle connections longer (Node's keep-alive agent, by default
    // forever) can write a request on one just as Varnish closes it. Measured with this Varnish (startVarnish)
    // in front of a plain Node backend: 8 of 360 requests on connections idle 4.99-5.01 s failed. (The race is
    // too rare to show in a test of reasonable length; what removes it is checked here.)
    const C = '127.0.0.4';
    const wave = async () => (await Promise.all(Array.from({ length: 60 }, () => get(edge.url, FEED, C).then((r) => String(r.status), (e: Error) => e.message)))).filter((o) => o !== '200');
    expect(await wave()).toEqual([]);
    const open = () => Object.values(agentFor(C).freeSockets).flat().length;
    expect(open()).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, CLIENT_IDLE_MS + 500));
    expect(open(), 'idle connections kept past the client\'s idle limit').toBe(0);
    await new Promise((r) => setTimeout(r, 5_000 - CLIENT_IDLE_MS));
    expect(await wave()).toEqual([]);
  }, 60_000);

  it('MCP POSTs pass through uncached (official client), and /metrics is not reachable through the edge', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const reached0 = await reachedPhyspay();
    const client = new Client({ name: 'edge-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${edge.url}/mcp`)));
    try {
      const a = (await client.callTool({ name: 'get_specialty_pay', arguments: { specialty: 'cardiology' } })) as CallToolResult;
      const b = (await client.callTool({ name: 'get_specialty_pay', arguments: { specialty: 'cardiology' } })) as CallToolResult;
      expect(a.isError).toBeFalsy();
      expect(b.structuredContent).toEqual(a.structuredContent);
    } finally {
      await client.close();
    }
    const reached = await reachedPhyspay();
    expect(reached.mcp - reached0.mcp).toBeGreaterThanOrEqual(3); // initialize, notification, two calls: none from a cache
    const raw = await request(edge.url, '/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } });
    expect(raw.headers['x-cache']).toBe('PASS');
    const metrics = await get(edge.url, '/metrics', A);
    expect([metrics.status, metrics.headers['cache-control']]).toEqual([404, 'no-store']);
  });

  it('/account/*, /billing/* and /contribute pass to physpay uncached (a key shown once; a form token per visitor)', async (ctx) => {
    if (skip) return ctx.skip(skip);
    // varnishd sums its workers' counters when they go idle: read them once they stop moving
    const settled = async () => {
      const key = (x: Record<string, number>) => `${x.s_pass}/${x.cache_hit}/${x.cache_miss}`;
      let prev = edge.stats();
      for (let i = 0; i < 20; i++) {
        await new Promise((r) => setTimeout(r, 500));
        const next = edge.stats();
        if (key(next) === key(prev)) return next;
        prev = next;
      }
      return prev;
    };
    const before = await settled();
    const paths = ['/account/welcome?session_id=cs_test_edge', '/account/welcome?session_id=cs_test_edge', '/ACCOUNT/welcome', '/billing/stripe/webhook', '/account', '/account', '/Account/', '/contribute', '/contribute', '/contribute/challenge'];
    for (const path of paths) {
      const r = await get(edge.url, path, A, { accept: 'text/html' });
      expect(r.headers['x-cache'], path).toBe('PASS');
      expect(r.headers['cache-control'], path).toBe('no-store');
    }
    await waitFor('the passes counted', () => edge.stats().s_pass! - before.s_pass! >= paths.length, 10_000, 100);
    const after = await settled();
    expect(after.s_pass! - before.s_pass!).toBe(paths.length);
    expect(after.cache_hit! - before.cache_hit!).toBe(0);
    expect(after.cache_miss! - before.cache_miss!).toBe(0);
  });

  it('self-service through the edge, across two processes: history never stored; a rotation revokes the old key on every process at once', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const k = JSON.parse(await cli(['keys', 'create', '--service-db', PG_URL, '--plan', 'starter', '--label', 'edge self-service', '--json'])) as { key: string; key_prefix: string };
    const history = async (key: string) => {
      const r = await get(edge.url, '/api/v1/me/usage/history?days=1', A, { 'x-api-key': key });
      expect([r.status, r.headers['x-cache'], r.headers['cache-control']]).toEqual([200, 'PASS', 'no-store']);
      return r.json<{ total: number }>().total;
    };
    expect(await history(k.key)).toBe(0);
    for (const s of servers) expect((await get(s.url, '/api/v1/specialties', A, { 'x-api-key': k.key })).status).toBe(200);
    expect(await history(k.key)).toBe(2); // both processes counted into the one store; the edge kept nothing
    const rotated = await request(edge.url, '/api/v1/me/key/rotate', { method: 'POST', headers: { 'x-api-key': k.key, 'x-forwarded-for': A } });
    expect([rotated.status, rotated.headers['x-cache'], rotated.headers['cache-control']]).toEqual([200, 'PASS', 'no-store']);
    const fresh = rotated.json<{ key: string; replaced: { key_prefix: string } }>();
    expect(fresh.replaced.key_prefix).toBe(k.key_prefix);
    for (const s of servers) {
      expect((await get(s.url, '/api/v1/specialties', A, { 'x-api-key': k.key })).status).toBe(401);
      expect((await get(s.url, '/api/v1/specialties', A, { 'x-api-key': fresh.key })).status).toBe(200);
    }
    expect(await history(fresh.key)).toBe(4); // the history moved to the new key
  });

  it('a new build: without a hook the edge changes when its TTL runs out; with --on-publish it changes at once; a rollback too', async (ctx) => {
    if (skip) return ctx.skip(skip);
    // both edges hold build 1
    const old = await get(edge.url, FEED, B);
    expect([old.headers['x-cache'], old.headers['x-physpay-build']]).toEqual(['HIT', build1]);
    const warmed = Date.now();
    await get(shortEdge.url, FEED, B);
    expect((await get(shortEdge.url, FEED, B)).headers['x-cache']).toBe('HIT');

    // new figures: a second reports DB, published by the CLI with the purge hook for the main edge only
    const db2 = join(work, 'second.db');
    createDemoDb(db2, { reports: 1500, seed: 8, asOf: '2026-11-15', force: true, now: () => new Date('2026-11-16T03:00:00Z') });
    const hook = `${join(process.cwd(), 'deploy/varnish/on-publish.sh')} -n ${edge.name} -- ${servers.map((s) => s.url).join(' ')}`;
    const out = JSON.parse(await cli(['build', '--db', db2, '--out', dist, '--base-url', 'https://physpay.example', '--build-date', '2026-11-17', '--force', '--no-fsync', '--on-publish', hook, '--json'])) as
      { status: string; build_id: string; on_publish: { ok: boolean; exit_code: number } };
    expect(out.status).toBe('published');
    expect(out.on_publish).toMatchObject({ ok: true, exit_code: 0 });
    const build2 = out.build_id;

    // main edge: the new build at once (the hook waited for both processes, then banned build 1's objects)
    const fresh = await get(edge.url, FEED, B);
    expect([fresh.headers['x-cache'], fresh.headers['x-physpay-build']]).toEqual(['MISS', build2]);
    expect(fresh.body.equals(old.body)).toBe(false);
    expect((await get(edge.url, FEED, A)).headers['x-physpay-build']).toBe(build2);

    // short-TTL edge, no hook: build 1 until the TTL (+ 10 s grace) runs out, then build 2
    const stale = await get(shortEdge.url, FEED, B);
    if (Date.now() - warmed < SHORT_TTL_S * 1000 - 1000) expect([stale.headers['x-cache'], stale.headers['x-physpay-build']]).toEqual(['HIT', build1]);
    let seen: string | undefined;
    while (Date.now() - warmed < (SHORT_TTL_S + 10 + 5) * 1000) {
      seen = (await get(shortEdge.url, FEED, B)).headers['x-physpay-build'] as string;
      if (seen === build2) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(seen).toBe(build2);
    summary.ttl_path_seconds = Number(((Date.now() - warmed) / 1000).toFixed(1));

    // rollback with the same hook: build 1 at the edge at once
    await cli(['builds', 'rollback', build1, '--out', dist, '--on-publish', hook]);
    const back = await get(edge.url, FEED, B);
    expect([back.headers['x-cache'], back.headers['x-physpay-build']]).toEqual(['MISS', build1]);
    expect(back.body.equals(old.body)).toBe(true);
  }, 90_000);
});
