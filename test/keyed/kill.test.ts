/**
 * kill -9 of a `physpay serve` process under keyed load loses no counted request: after SIGKILL, the day
 * count stored in the SQLite service DB is at least the number of counted answers the client received and
 * at most the number of requests sent (requests cut off by the kill may be counted or not). A new process
 * on the same DB reports that count in /me/usage and the headers.
 */
import { describe, expect, it } from 'vitest';
import { Agent } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { request } from '../helpers/http.ts';
import { createKeyCli } from '../helpers/keys.ts';
import { closeAfterAll } from '../helpers/server.ts';
import { spawnServe } from '../server/serve-process.ts';
import { UsageResponse } from '../../build/contract/keyed-api.ts';
import { rateHeaders } from './harness.ts';

const PATHS = ['/api/v1/benchmarks?specialty=Family%20Medicine&state=California', '/api/v1/specialties', '/api/v1/benchmarks?specialty=Medical%20Genetics', '/api/v1/available-data?specialty=Cardiology&state=Ohio', '/api/v1/benchmarks?specialty=Cardiology&state=TX'];

const work = useGoldenDir('keyed-kill');
const stopLater = closeAfterAll();

describe('kill -9 under keyed load', () => {
  it('the stored count covers every counted answer received and no more than was sent', async () => {
    const serviceDb = join(work.path, 'service.db');
    const key = await createKeyCli(serviceDb, 'enterprise');
    const args = ['--data', work.dist, '--service-db', serviceDb, '--port', '0', '--poll-ms', '60000', '--log-level', 'warn'];
    const serve = await spawnServe(args);
    stopLater(serve);
    const day = new Date().toISOString().slice(0, 10);

    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    let sent = 0;
    let counted = 0; // answers received that count: 200, 400, 404
    let highest = 0; // the highest count a received answer reported
    let failed = 0; // requests cut off by the kill
    let killed = false;
    const exited = new Promise<void>((resolve) => serve.child.once('exit', () => resolve()));
    const worker = async (w: number) => {
      for (let i = 0; !killed; i++) {
        sent++;
        try {
          const r = await request(serve.url, PATHS[(w + i) % PATHS.length]!, { headers: { 'x-api-key': key.key }, agent, timeoutMs: 10_000 });
          expect([200, 400, 404]).toContain(r.status);
          counted++;
          highest = Math.max(highest, 2000 - rateHeaders(r).remainingDaily);
          if (counted >= 300 && !killed) {
            killed = true;
            serve.child.kill('SIGKILL');
          }
        } catch (err) {
          if (!killed) throw err;
          failed++;
        }
      }
    };
    await Promise.all(Array.from({ length: 24 }, (_, w) => worker(w)));
    await exited;
    agent.destroy();
    expect(serve.child.signalCode).toBe('SIGKILL');
    expect(counted).toBeGreaterThanOrEqual(300);

    // recover the WAL (a read-write open) and read the stored count
    const db = new Database(serviceDb);
    let stored: { day: string; day_count: number; month_count: number };
    try {
      stored = db.prepare('SELECT day, day_count, month_count FROM quota_usage WHERE key_id = ?').get(key.id) as typeof stored;
    } finally {
      db.close();
    }
    if (stored.day !== day) return; // the burst straddled midnight UTC: nothing to compare
    expect(stored.day_count).toBeGreaterThanOrEqual(counted);
    expect(stored.day_count).toBeGreaterThanOrEqual(highest);
    expect(stored.day_count).toBeLessThanOrEqual(sent);
    expect(stored.month_count).toBe(stored.day_count);
    console.info(`kill -9: sent ${sent}, counted answers received ${counted}, cut off ${failed}, stored ${stored.day_count}`);

    // a new process on the same store carries on from the stored count
    const again = stopLater(await spawnServe(args));
    const u = await request(again.url, '/api/v1/me/usage', { headers: { 'x-api-key': key.key } });
    expect(UsageResponse.parse(u.json()).usage.requests_today).toBe(stored.day_count);
    const next = await request(again.url, '/api/v1/specialties', { headers: { 'x-api-key': key.key } });
    expect(next.status).toBe(200);
    expect(rateHeaders(next).remainingDaily).toBe(2000 - stored.day_count - 1);
    await again.stop();
  }, 60_000);
});
