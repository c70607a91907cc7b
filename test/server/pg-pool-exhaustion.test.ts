/**
 * PostgreSQL connection pool exhausted: more concurrent requests than the pool has connections, for longer
 * than a request may wait for one. Each such request is answered 503 with Retry-After (the keyed API, the
 * open data API and the tool server alike), never 500, and counting stays exact: a request refused with
 * 503 is not counted, and every 200 was counted exactly once. Before, the pool's wait timeout ("timeout
 * exceeded when trying to connect") was not recognised as the store being unavailable: 800 concurrent keyed
 * requests over two processes got 127-188 x 500 `{"error":"internal error"}` without Retry-After, tool calls
 * 500 / -32603, feeds 500.
 *
 * One `physpay serve` on PostgreSQL with a small pool (`pool_max=2`) and a short wait for a connection
 * (`connect_timeout=0.5`), both set in the --service-db URL. First the store is made slow (another session
 * holds the rows these requests count into for 2.5 s, as a long transaction or a lock would), so the pool
 * is certainly full and requests certainly wait too long; then a plain burst of 800 concurrent requests.
 *
 * PostgreSQL is needed: outside CI the test skips with a message when it is unreachable; in CI it must run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from 'node:http';
import { randomInt } from 'node:crypto';
import { PG_URL, pgClient, pgSkipReason } from '../helpers/pg.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { request, type HttpResponse } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { spawnServe, type ServeProcess } from './serve-process.ts';
import { PostgresServiceStore } from '../../server/store/postgres.ts';

const KEYED = '/api/v1/benchmarks?specialty=Cardiology';
const FEEDS = ['/data/api/v1/specialties/cardiology.json', '/data/api/v1/states/texas.json', '/data/api/v1/specialties.json'];
const TOOL_CALL = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_wrvu_rate', arguments: { specialty: 'cardiology' } } });

type Kind = 'keyed' | 'feed' | 'mcp';
interface Answer {
  kind: Kind;
  r: HttpResponse;
}

const work = useGoldenDir('pg-pool');
let store: PostgresServiceStore | undefined;
let serve: ServeProcess | undefined;
let keyId: number | undefined;
const ips = { feed: `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`, mcp: `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` };

const pgReason = await pgSkipReason('the PostgreSQL pool exhaustion test');

beforeAll(async () => {
  if (!pgReason) store = await PostgresServiceStore.open(PG_URL);
});

afterAll(async () => {
  await serve?.stop();
  if (store) {
    if (keyId !== undefined) {
      await store.pool.query('DELETE FROM quota_usage WHERE key_id = $1', [keyId]);
      await store.pool.query('DELETE FROM api_keys WHERE id = $1', [keyId]);
    }
    await store.pool.query('DELETE FROM ip_counters WHERE ip = ANY($1)', [[ips.feed, ips.mcp]]);
    await store.close();
  }
});

function postMcp(url: string, ip: string, agent: Agent): Promise<HttpResponse> {
  return request(url, '/mcp', {
    method: 'POST', agent, timeoutMs: 30_000, body: TOOL_CALL,
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-forwarded-for': ip },
  });
}

/** `n` concurrent requests of each kind, interleaved. */
function burst(url: string, key: string, agent: Agent, n: Record<Kind, number>): Promise<Answer[]> {
  const all: Promise<Answer>[] = [];
  const most = Math.max(n.keyed, n.feed, n.mcp);
  for (let i = 0; i < most; i++) {
    if (i < n.keyed) all.push(request(url, KEYED, { headers: { 'x-api-key': key }, agent, timeoutMs: 30_000 }).then((r) => ({ kind: 'keyed' as const, r })));
    if (i < n.feed) all.push(request(url, FEEDS[i % FEEDS.length]!, { headers: { 'x-forwarded-for': ips.feed }, agent, timeoutMs: 30_000 }).then((r) => ({ kind: 'feed' as const, r })));
    if (i < n.mcp) all.push(postMcp(url, ips.mcp, agent).then((r) => ({ kind: 'mcp' as const, r })));
  }
  return Promise.all(all);
}

/** A served answer: 200, and for a tool call a result that is not an error. */
function served(a: Answer): boolean {
  if (a.r.status !== 200) return false;
  if (a.kind !== 'mcp') return true;
  const body = a.r.json<{ result?: { isError?: boolean } }>();
  return body.result !== undefined && body.result.isError !== true;
}

function tally(answers: Answer[]): Record<Kind, Record<number, number>> {
  const t: Record<Kind, Record<number, number>> = { keyed: {}, feed: {}, mcp: {} };
  for (const a of answers) t[a.kind][a.r.status] = (t[a.kind][a.r.status] ?? 0) + 1;
  return t;
}

/** Every answer is 200, 503 with Retry-After and a JSON error, or (keyed, quota used up) 429. */
function badAnswers(answers: Answer[]): string[] {
  const bad: string[] = [];
  for (const { kind, r } of answers) {
    if (r.status === 200) {
      if (kind === 'mcp' && !served({ kind, r })) bad.push(`mcp 200 with an error result: ${r.text.slice(0, 200)}`);
      continue;
    }
    if (r.status === 429 && kind === 'keyed') continue;
    if (r.status !== 503) {
      bad.push(`${kind} ${r.status}: ${r.text.slice(0, 200)} (retry-after: ${String(r.headers['retry-after'])})`);
      continue;
    }
    if (!(Number(r.headers['retry-after']) >= 1)) bad.push(`${kind} 503 without Retry-After`);
    let body: { error?: unknown };
    try {
      body = r.json();
    } catch {
      bad.push(`${kind} 503 without a JSON body: ${r.text.slice(0, 200)}`);
      continue;
    }
    if (body.error === undefined) bad.push(`${kind} 503 without an error: ${r.text.slice(0, 200)}`);
  }
  return bad;
}

(pgReason ? describe.skip : describe)('PostgreSQL pool exhausted', () => {
  it('keyed, open data and tool calls: 503 with Retry-After (never 500), counts equal the 200s', async () => {
    const { key, id } = await createKey(store!, 'starter', 'active', '2026-11-01T00:00:00Z');
    keyId = id;
    const u = new URL(PG_URL);
    u.searchParams.set('pool_max', '2');
    u.searchParams.set('connect_timeout', '0.5');
    u.searchParams.set('statement_timeout', '10000');
    serve = await spawnServe(['--data', work.dist, '--service-db', String(u), '--port', '0', '--log-level', 'warn', '--poll-ms', '60000',
      '--trust-proxy', 'loopback', '--ip-per-minute', '1000000', '--ip-per-day', '100000000']);
    const agent = new Agent({ keepAlive: true, maxSockets: 1000 });
    const answers: Answer[] = [];
    try {
      // one of each first, so the rows they count into exist
      answers.push(...(await burst(serve.url, key, agent, { keyed: 1, feed: 1, mcp: 1 })));
      expect(answers.map((a) => a.r.status)).toEqual([200, 200, 200]);

      // The store is slow: another session holds the rows these requests count into for 2.5 s.
      const locker = await pgClient();
      let slow: Answer[];
      try {
        await locker.query('BEGIN');
        await locker.query('SELECT 1 FROM quota_usage WHERE key_id = $1 FOR UPDATE', [keyId]);
        await locker.query('SELECT 1 FROM ip_counters WHERE ip = ANY($1) FOR UPDATE', [[ips.feed, ips.mcp]]);
        const pending = burst(serve.url, key, agent, { keyed: 120, feed: 120, mcp: 60 });
        await new Promise((r) => setTimeout(r, 2_500));
        await locker.query('ROLLBACK');
        slow = await pending;
      } finally {
        await locker.end();
      }
      answers.push(...slow);
      const slowTally = tally(slow);
      console.log(`[pg-pool] store slow: ${JSON.stringify(slowTally)}`);
      expect(badAnswers(slow).slice(0, 3)).toEqual([]);
      // the pool was full and requests waited too long: some certainly got 503
      expect(slow.filter((a) => a.r.status === 503).length).toBeGreaterThan(0);

      // A plain burst: 800 concurrent requests on two connections.
      const t = Date.now();
      const plain = await burst(serve.url, key, agent, { keyed: 300, feed: 300, mcp: 200 });
      const plainMs = Date.now() - t;
      answers.push(...plain);
      console.log(`[pg-pool] plain burst of 800 in ${plainMs} ms: ${JSON.stringify(tally(plain))}`);
      // a full pool is load, not an outage: the instance stays ready, no fault is counted or logged
      expect((await request(serve.url, '/readyz', { agent })).status).toBe(200);
      expect((await request(serve.url, '/metrics', { agent })).text).toMatch(/^physpay_store_faults_total 0$/m);
      expect(serve.stderr()).not.toMatch(/service store unavailable/);
    } finally {
      agent.destroy();
    }

    expect(badAnswers(answers)).toEqual([]);
    expect(answers.every((a) => a.r.status !== 500)).toBe(true);
    // exact counts: the store holds every 200, and nothing refused
    const c = await pgClient();
    try {
      const quota = (await c.query<{ day_count: number }>('SELECT day_count FROM quota_usage WHERE key_id = $1', [keyId])).rows[0]?.day_count ?? 0;
      const ip = async (addr: string) => (await c.query<{ day_count: number }>('SELECT day_count FROM ip_counters WHERE ip = $1', [addr])).rows[0]?.day_count ?? 0;
      expect(quota).toBe(answers.filter((a) => a.kind === 'keyed' && served(a)).length);
      expect(await ip(ips.feed)).toBe(answers.filter((a) => a.kind === 'feed' && served(a)).length);
      expect(await ip(ips.mcp)).toBe(answers.filter((a) => a.kind === 'mcp' && served(a)).length);
      expect(quota).toBeLessThanOrEqual(100); // the Starter plan's day
    } finally {
      await c.end();
    }
  }, 120_000);
});
