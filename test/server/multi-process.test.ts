/**
 * The per-IP limit is exact across processes: two real `physpay serve` processes share one service store
 * (SQLite file, then PostgreSQL) and one dist-data; 120 concurrent requests of one client split across
 * both give exactly 50 x 200 and 70 x 429, and the store holds exactly 50.
 */
import { describe, expect, it } from 'vitest';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { randomInt } from 'node:crypto';
import Database from 'better-sqlite3';
import { PG_URL, pgClient, pgSkipReason } from '../helpers/pg.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { request, type HttpResponse } from '../helpers/http.ts';
import { closeAfterAll } from '../helpers/server.ts';
import { spawnServe, type ServeProcess } from './serve-process.ts';

const FEEDS = ['/data/api/v1/specialties/cardiology.json', '/data/api/v1/states/texas.json', '/data/api/v1/specialties.json', '/data/api/v1/wrvu/ent.json'];

const work = useGoldenDir('multi');
const stopLater = closeAfterAll();

async function twoServers(serviceDb: string): Promise<[ServeProcess, ServeProcess]> {
  const args = ['--data', work.dist, '--service-db', serviceDb, '--port', '0', '--ip-per-minute', '50', '--ip-per-day', '100000', '--trust-proxy', 'loopback', '--poll-ms', '60000'];
  const pair = await Promise.all([spawnServe(args).then(stopLater), spawnServe(args).then(stopLater)]);
  for (const p of pair) expect(p.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(pair[0].url).not.toBe(pair[1].url);
  return pair;
}

const minuteNow = () => Math.floor(Date.now() / 60_000);

/**
 * Fire 120 concurrent requests of one client (a fresh address each attempt, via X-Forwarded-For from a
 * trusted loopback proxy) alternately at both servers. The limit is per real-clock minute: an attempt that
 * straddles a minute boundary proves nothing and is repeated with a new address.
 */
async function burst(urls: string[], readCount: (ip: string) => Promise<number | null>): Promise<{ results: HttpResponse[]; ip: string; stored: number | null }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 200 });
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
      const before = minuteNow();
      const results = await Promise.all(Array.from({ length: 120 }, (_, i) =>
        request(urls[i % urls.length]!, FEEDS[i % FEEDS.length]!, { headers: { 'x-forwarded-for': ip }, agent })));
      const stored = await readCount(ip);
      if (minuteNow() === before) return { results, ip, stored };
    }
    throw new Error('three attempts in a row straddled a minute boundary');
  } finally {
    agent.destroy();
  }
}

function expectExact(results: HttpResponse[], buildIdExpected: string) {
  const counts: Record<number, number> = {};
  for (const r of results) counts[r.status] = (counts[r.status] ?? 0) + 1;
  expect(counts).toEqual({ 200: 50, 429: 70 });
  for (const r of results) {
    if (r.status === 200) {
      expect(r.headers['x-physpay-build']).toBe(buildIdExpected);
      expect(() => r.json()).not.toThrow();
    } else {
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(r.json<{ retry_after: number }>().retry_after).toBe(Number(r.headers['retry-after']));
    }
  }
}

describe('exact per-IP limit across two processes', () => {
  it('SQLite service store: 120 concurrent requests -> exactly 50 x 200 and 70 x 429', async () => {
    const serviceDb = join(work.path, 'service.db');
    const servers = await twoServers(serviceDb);
    const readCount = async (ip: string) => {
      const db = new Database(serviceDb, { readonly: true });
      try {
        const row = db.prepare('SELECT minute_count FROM ip_counters WHERE ip = ?').get(ip) as { minute_count: number } | undefined;
        return row?.minute_count ?? null;
      } finally {
        db.close();
      }
    };
    const { results, stored } = await burst(servers.map((s) => s.url), readCount);
    expectExact(results, work.buildId);
    expect(stored).toBe(50); // refused requests are not counted
    await Promise.all(servers.map((s) => s.stop()));
  }, 60_000);

  it('PostgreSQL service store: 120 concurrent requests -> exactly 50 x 200 and 70 x 429', async (ctx) => {
    const skip = await pgSkipReason('the PostgreSQL exactness test');
    if (skip) {
      ctx.skip(skip);
      return;
    }
    const probe = await pgClient();
    try {
      const servers = await twoServers(PG_URL);
      const readCount = async (ip: string) => {
        const r = await probe.query<{ minute_count: number }>('SELECT minute_count FROM ip_counters WHERE ip = $1', [ip]);
        return r.rows[0]?.minute_count ?? null;
      };
      const { results, ip, stored } = await burst(servers.map((s) => s.url), readCount);
      expectExact(results, work.buildId);
      expect(stored).toBe(50);
      await probe.query('DELETE FROM ip_counters WHERE ip = $1', [ip]); // leave the shared database as found
      await Promise.all(servers.map((s) => s.stop()));
    } finally {
      await probe.end();
    }
  }, 60_000);
});
