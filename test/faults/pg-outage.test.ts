/**
 * Outages of the PostgreSQL service store while `physpay serve` runs, seen from outside as an operator and
 * the edge cache see them: requests get 503 with Retry-After (fail closed), and also `/readyz` answers 503,
 * `physpay_store_faults_total` counts the outage, one `error` line says why and one `warn` line says when it
 * works again: the same as for the SQLite store (storage.test.ts). Before, PostgreSQL down was invisible:
 * `/readyz` stayed 200, the counter 0, nothing was logged, and Varnish kept the instance in rotation.
 *
 * The store is reached through a TCP proxy in this file, so the outage is this server's alone (the shared
 * PostgreSQL is never touched): "refused" closes the proxy's port and drops every connection (connection
 * refused); "silent" keeps the port open but answers nothing, on new connections and on the ones already
 * open (a peer that accepts and never answers, a network black hole); "forward" is a working store again.
 * Each case is run with the default timeouts (README: Operations).
 *
 * PostgreSQL is needed: outside CI the tests skip with a message when it is unreachable; in CI they must run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { Agent } from 'node:http';
import { PG_URL, pgClient, pgSkipReason } from '../helpers/pg.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { createKey } from '../helpers/keys.ts';
import { request, waitFor, type HttpResponse } from '../helpers/http.ts';
import { spawnServe, type ServeProcess } from '../server/serve-process.ts';
import { PostgresServiceStore } from '../../server/store/postgres.ts';

/** A TCP proxy to PostgreSQL that can refuse, go silent, or forward again. */
class PgProxy {
  port = 0;
  private server: net.Server | null = null;
  private mode: 'forward' | 'silent' = 'forward';
  private readonly sockets = new Set<net.Socket>();
  private readonly pairs = new Set<[net.Socket, net.Socket]>();

  constructor(private readonly upstream: { host: string; port: number }) {}

  private track(s: net.Socket): net.Socket {
    this.sockets.add(s);
    s.on('error', () => {});
    s.on('close', () => this.sockets.delete(s));
    return s;
  }

  private onConnection = (client: net.Socket) => {
    this.track(client);
    if (this.mode === 'silent') {
      client.resume(); // read and drop everything; never answer
      return;
    }
    const up = this.track(net.connect(this.upstream.port, this.upstream.host));
    const pair: [net.Socket, net.Socket] = [client, up];
    this.pairs.add(pair);
    client.pipe(up);
    up.pipe(client);
    const end = () => {
      this.pairs.delete(pair);
      client.destroy();
      up.destroy();
    };
    client.on('close', end);
    up.on('close', end);
  };

  private listen(port: number): Promise<void> {
    const server = net.createServer(this.onConnection);
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        this.port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  }

  start(): Promise<void> {
    return this.listen(0);
  }

  /** The store's URL through this proxy. */
  url(base: string): string {
    const u = new URL(base);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return String(u);
  }

  private dropAll(): void {
    for (const s of this.sockets) s.destroy();
    this.pairs.clear();
  }

  /** Connection refused: nothing listens on the port any more, and every open connection is cut. */
  async refuse(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.dropAll();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** A silent peer: connections are accepted and never answered; the open ones stop carrying anything. */
  silent(): void {
    this.mode = 'silent';
    for (const [client, up] of this.pairs) {
      client.unpipe(up);
      up.unpipe(client);
      client.resume();
      up.resume();
    }
  }

  /** A working store again (the connections of the outage are cut, as a real network would after its timeouts). */
  async forward(): Promise<void> {
    this.mode = 'forward';
    this.dropAll();
    if (!this.server) await this.listen(this.port);
  }

  async close(): Promise<void> {
    await this.refuse();
  }
}

const CARDIOLOGY = '/api/v1/benchmarks?specialty=Cardiology';
const FEED = '/data/api/v1/specialties.json';
const JSON_ONLY = { 'content-type': 'application/json', accept: 'application/json' };
const TOOL_CALL = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_wrvu_rate', arguments: { specialty: 'cardiology' } } });

const work = useGoldenDir('pg-outage');
let store: PostgresServiceStore | undefined;
const mine: number[] = [];
const running: ServeProcess[] = [];
const proxies: PgProxy[] = [];

// probe PostgreSQL once, before the suites are collected
const pgReason = await pgSkipReason('the PostgreSQL outage tests');

beforeAll(async () => {
  if (!pgReason) store = await PostgresServiceStore.open(PG_URL);
});

afterAll(async () => {
  await Promise.all(running.map((p) => p.stop()));
  await Promise.all(proxies.map((p) => p.close()));
  if (store) {
    if (mine.length) {
      await store.pool.query('DELETE FROM quota_usage WHERE key_id = ANY($1)', [mine]);
      await store.pool.query('DELETE FROM api_keys WHERE id = ANY($1)', [mine]);
    }
    await store.close();
  }
});

async function newKey(): Promise<{ key: string; id: number }> {
  const { key, id } = await createKey(store!, 'professional', 'active', '2026-11-01T00:00:00Z');
  mine.push(id);
  return { key, id };
}

async function usedToday(keyId: number): Promise<number> {
  const c = await pgClient();
  try {
    return (await c.query<{ n: number }>('SELECT coalesce(sum(day_count), 0)::int AS n FROM quota_usage WHERE key_id = $1', [keyId])).rows[0]!.n;
  } finally {
    await c.end();
  }
}

const errorLines = (p: ServeProcess) => p.stderr().split('\n').filter((l) => l.includes('"level":50') && l.includes('service store unavailable'));
const recoveryLines = (p: ServeProcess) => p.stderr().split('\n').filter((l) => l.includes('"level":40') && l.includes('service store available again'));
const faultsMetric = async (url: string) => Number(/^physpay_store_faults_total (\d+)$/m.exec((await request(url, '/metrics')).text)?.[1] ?? NaN);

/** A server on the store through a fresh proxy, with one keyed request served and counted. */
/**
 * Shorter timeouts than the defaults (connect 3 s, statement 3 s, query 5 s) for the silent peer: the same
 * bounds are checked, scaled, and the fault pass, which runs one file at a time, waits less.
 */
const SHORT_TIMEOUTS = { connect_timeout: '1', statement_timeout: '1500', query_timeout: '2000' };

async function serveThroughProxy(params: Record<string, string> = {}): Promise<{ p: ServeProcess; proxy: PgProxy; key: { key: string; id: number }; agent: Agent }> {
  const u = new URL(PG_URL);
  const proxy = new PgProxy({ host: u.hostname, port: Number(u.port || 5432) });
  proxies.push(proxy);
  await proxy.start();
  const key = await newKey();
  const url = new URL(proxy.url(PG_URL));
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const p = await spawnServe(['--data', work.dist, '--service-db', String(url), '--port', '0', '--log-level', 'warn', '--poll-ms', '60000',
    '--ip-per-minute', '1000000', '--ip-per-day', '100000000']);
  running.push(p);
  // a fresh agent per test: a request cut by a failed server must not leave a broken keep-alive socket behind
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  return { p, proxy, key, agent };
}

/** The answers while the store is down: all 503 with Retry-After and a JSON error; how long each took. */
async function expectRefusedWhileDown(url: string, key: string, agent: Agent): Promise<{ slowestMs: number }> {
  const timed = async (send: () => Promise<HttpResponse>) => {
    const t = Date.now();
    const r = await send();
    return { r, ms: Date.now() - t };
  };
  const answers = await Promise.all([
    timed(() => request(url, CARDIOLOGY, { headers: { 'x-api-key': key }, agent, timeoutMs: 20_000 })),
    timed(() => request(url, CARDIOLOGY, { headers: { 'x-api-key': key }, agent, timeoutMs: 20_000 })),
    timed(() => request(url, FEED, { agent, timeoutMs: 20_000 })),
    timed(() => post(url, TOOL_CALL, agent)),
  ]);
  for (const { r } of answers) {
    expect(r.status, r.text.slice(0, 200)).toBe(503);
    expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
  }
  return { slowestMs: Math.max(...answers.map((a) => a.ms)) };
}

function post(url: string, body: string, agent: Agent): Promise<HttpResponse> {
  return request(url, '/mcp', { method: 'POST', agent, timeoutMs: 20_000, body, headers: JSON_ONLY });
}

(pgReason ? describe.skip : describe)('PostgreSQL service store outages are visible', () => {
  it('connection refused: /readyz 503, the fault counted, one error line; then ready again with one recovery line', async () => {
    const { p, proxy, key, agent } = await serveThroughProxy();
    const keyed = () => request(p.url, CARDIOLOGY, { headers: { 'x-api-key': key.key }, agent, timeoutMs: 20_000 });
    let served = 0;
    try {
      expect((await keyed()).status).toBe(200);
      served++;
      expect((await request(p.url, '/readyz')).status).toBe(200);
      expect(await faultsMetric(p.url)).toBe(0);

      await proxy.refuse();
      const down = Date.now();
      await waitFor('/readyz to answer 503 after the store refused connections', async () => (await request(p.url, '/readyz', { agent })).status === 503, 15_000);
      const toNotReady = Date.now() - down;
      const { slowestMs } = await expectRefusedWhileDown(p.url, key.key, agent);
      const ready = await request(p.url, '/readyz', { agent });
      expect(ready.status).toBe(503);
      expect(ready.headers['retry-after']).toBeDefined();
      expect(ready.json<{ error: string }>().error).toMatch(/service store unavailable/);
      expect(await faultsMetric(p.url)).toBe(1);
      const lines = errorLines(p);
      expect(lines, p.stderr().slice(-3000)).toHaveLength(1);
      // refused, or (when a store step was on a connection at that moment) the connection cut
      expect(lines[0], p.stderr().slice(-3000)).toMatch(/ECONNREFUSED|ECONNRESET|EPIPE|terminated/i);
      expect(lines[0]).not.toMatch(/postgres:\/\/[^@\s]*:[^@\s]*@/); // no password in the log

      await proxy.forward();
      const up = Date.now();
      await waitFor('/readyz to answer 200 once the store is back', async () => (await request(p.url, '/readyz', { agent })).status === 200, 15_000);
      const toReady = Date.now() - up;
      expect((await keyed()).status).toBe(200);
      served++;
      await waitFor('the recovery log line', () => recoveryLines(p).length === 1);
      expect(errorLines(p), p.stderr().slice(-3000)).toHaveLength(1);
      expect(await faultsMetric(p.url)).toBe(1);
      console.log(`[pg-outage] refused: /readyz 503 after ${toNotReady} ms; slowest refused request ${slowestMs} ms; /readyz 200 again ${toReady} ms after the store came back; ${lines[0]}`);
    } finally {
      agent.destroy();
      await p.stop();
    }
    // fail closed and exact: only the served requests were counted
    expect(await usedToday(key.id)).toBe(served);
  }, 90_000);

  it('a silent peer (accepts, never answers): bounded 503s, /readyz 503, one error line; then ready again', async () => {
    const { p, proxy, key, agent } = await serveThroughProxy(SHORT_TIMEOUTS);
    const keyed = () => request(p.url, CARDIOLOGY, { headers: { 'x-api-key': key.key }, agent, timeoutMs: 20_000 });
    let served = 0;
    try {
      // several connections open in the pool, then they go silent under it
      const warm = await Promise.all(Array.from({ length: 6 }, () => keyed()));
      expect(warm.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      served += warm.length;
      expect((await request(p.url, '/readyz')).status).toBe(200);

      proxy.silent();
      const down = Date.now();
      const refused = expectRefusedWhileDown(p.url, key.key, agent);
      refused.catch(() => {}); // awaited below
      await waitFor('/readyz to answer 503 after the store went silent', async () => (await request(p.url, '/readyz', { agent })).status === 503, 20_000);
      const toNotReady = Date.now() - down;
      const { slowestMs } = await refused;
      // every request is answered within the configured bounds (connect 1 s, query 2 s), none hangs
      expect(slowestMs).toBeLessThan(4_000);
      const again = await expectRefusedWhileDown(p.url, key.key, agent);
      expect(await faultsMetric(p.url)).toBe(1);
      const lines = errorLines(p);
      expect(lines, p.stderr().slice(-3000)).toHaveLength(1);
      expect(lines[0], p.stderr().slice(-3000)).toMatch(/timeout/i);

      await proxy.forward();
      const up = Date.now();
      await waitFor('/readyz to answer 200 once the store answers again', async () => (await request(p.url, '/readyz', { agent })).status === 200, 20_000);
      const toReady = Date.now() - up;
      expect((await keyed()).status).toBe(200);
      served++;
      await waitFor('the recovery log line', () => recoveryLines(p).length === 1);
      // a request of the outage that times out after the recovery does not open a new outage
      await new Promise((r) => setTimeout(r, 2_500)); // past the query timeout
      expect(errorLines(p), p.stderr().slice(-3000)).toHaveLength(1);
      expect(recoveryLines(p)).toHaveLength(1);
      expect(await faultsMetric(p.url)).toBe(1);
      expect((await request(p.url, '/readyz', { agent })).status).toBe(200);
      console.log(`[pg-outage] silent: /readyz 503 after ${toNotReady} ms; slowest refused request ${slowestMs} ms (then ${again.slowestMs} ms); /readyz 200 again ${toReady} ms after the store answered; ${lines[0]}`);
    } finally {
      agent.destroy();
      await p.stop();
    }
    expect(await usedToday(key.id)).toBe(served);
  }, 120_000);
});
