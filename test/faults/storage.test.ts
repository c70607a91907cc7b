/**
 * Storage faults of the SQLite service store while `physpay serve` runs (issue 16), with real processes and
 * real files: the WAL made immutable (a commit that fails), the service DB's folder deleted, and the DB,
 * WAL and shared-memory file all made immutable (which used to kill the server with SIGBUS, silently).
 * Fail closed: a request is served only when its count is durable; otherwise 503 with Retry-After, one
 * error log line per outage, the fault counted in the metrics, and /readyz not ready.
 *
 * `chattr +i` needs root on a file system that supports it: outside CI the test skips with a message when
 * it cannot; in CI it must run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { request, waitFor } from '../helpers/http.ts';
import { spawnServe, BIN, type ServeProcess } from '../server/serve-process.ts';
import { SqliteServiceStore } from '../../server/store/sqlite.ts';
import { StoreUnavailableError } from '../../server/store/types.ts';
import { generateKey, hashKey, keyPrefixOf } from '../../server/keyed/keys.ts';

const tmp = useTempDir('storage-faults');
let work: string;
let dist: string;

function chattrWorks(): boolean {
  try {
    const f = join(work, 'chattr-probe');
    writeFileSync(f, 'x');
    execFileSync('chattr', ['+i', f]);
    execFileSync('chattr', ['-i', f]);
    return true;
  } catch {
    return false;
  }
}

/** Skip outside CI (with the reason) when files cannot be made immutable here; in CI it must work. */
function needChattr(ctx: { skip(note?: string): void }): void {
  if (chattrWorks()) return;
  if (process.env.CI) throw new Error('chattr +i is needed for this test in CI');
  ctx.skip('chattr +i is not available (needs root on ext4 or similar)');
}

const immutable = (on: boolean, ...files: string[]) => execFileSync('chattr', [on ? '+i' : '-i', ...files]);

/** A service DB with one professional key, in its own folder. */
function serviceDb(name: string): { dir: string; path: string; key: string } {
  const dir = join(work, name);
  mkdirSync(dir);
  const path = join(dir, 'service.db');
  const store = new SqliteServiceStore(path);
  const key = generateKey();
  store.createKey({ keyHash: hashKey(key), keyPrefix: keyPrefixOf(key), plan: 'professional', status: 'active', label: 'faults', createdAt: '2026-11-01T00:00:00Z' });
  store.close();
  return { dir, path, key };
}

const usedToday = (path: string): number => {
  const store = new SqliteServiceStore(path);
  try {
    return (store.db.prepare('SELECT coalesce(sum(day_count), 0) AS n FROM quota_usage').get() as { n: number }).n;
  } finally {
    store.close();
  }
};

const errorLines = (p: ServeProcess) => p.stderr().split('\n').filter((l) => l.includes('"level":50') && l.includes('service store unavailable'));

beforeAll(() => {
  work = tmp.path;
  dist = goldenBuildIn(work).dist;
}, 60_000);

afterAll(() => {
  // before the folder is removed (useTempDir's afterAll runs after this one)
  if (work) {
    try {
      execFileSync('chattr', ['-R', '-i', work]);
    } catch {
      // nothing was made immutable
    }
  }
});

describe('storage faults of the SQLite service store', () => {
  it('a WAL that cannot be written: every counted request is 503 with Retry-After, nothing is served uncounted', async (ctx) => {
    needChattr(ctx);
    const s = serviceDb('wal');
    const p = await spawnServe(['--data', dist, '--service-db', s.path, '--port', '0', '--log-level', 'warn']);
    try {
      const keyed = () => request(p.url, '/api/v1/benchmarks?specialty=Cardiology', { headers: { 'x-api-key': s.key } });
      expect((await keyed()).status).toBe(200);
      immutable(true, `${s.path}-wal`);
      try {
        for (let i = 0; i < 4; i++) {
          const r = await keyed();
          expect(r.status).toBe(503);
          expect(r.headers['retry-after']).toBeDefined();
          expect(r.json<{ error: string }>().error).toMatch(/unavailable/);
        }
        const feed = await request(p.url, '/data/api/v1/specialties.json');
        expect(feed.status).toBe(503);
        expect(feed.headers['retry-after']).toBeDefined();
        expect((await request(p.url, '/readyz')).status).toBe(503);
        expect(errorLines(p)).toHaveLength(1);
      } finally {
        immutable(false, `${s.path}-wal`);
      }
      // It works again, and says so; only the requests that were served were counted.
      expect((await keyed()).status).toBe(200);
      await waitFor('the recovery log line', () => p.stderr().includes('service store available again'));
      expect((await request(p.url, '/readyz')).status).toBe(200);
      const metrics = await request(p.url, '/metrics');
      expect(metrics.text).toMatch(/^physpay_store_faults_total 1$/m);
    } finally {
      await p.stop();
    }
    expect(usedToday(s.path)).toBe(2);
  });

  it('the service DB deleted while serving: requests 503, /readyz not ready, one error line', async () => {
    const s = serviceDb('gone');
    const p = await spawnServe(['--data', dist, '--service-db', s.path, '--port', '0', '--log-level', 'warn']);
    try {
      const keyed = () => request(p.url, '/api/v1/benchmarks?specialty=Cardiology', { headers: { 'x-api-key': s.key } });
      expect((await keyed()).status).toBe(200);
      rmSync(s.dir, { recursive: true, force: true });
      await waitFor('/readyz to say not ready', async () => (await request(p.url, '/readyz')).status === 503, 5_000);
      for (let i = 0; i < 3; i++) expect((await keyed()).status).toBe(503);
      expect((await request(p.url, '/data/api/v1/specialties.json')).status).toBe(503);
      const lines = errorLines(p);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/deleted or replaced/);
    } finally {
      await p.stop();
    }
  });

  it('DB, WAL and shared memory all immutable: the server answers 503 instead of dying of SIGBUS, then recovers', async (ctx) => {
    needChattr(ctx);
    const s = serviceDb('sigbus');
    const p = await spawnServe(['--data', dist, '--service-db', s.path, '--port', '0', '--log-level', 'warn']);
    try {
      const keyed = () => request(p.url, '/api/v1/benchmarks?specialty=Cardiology', { headers: { 'x-api-key': s.key } });
      expect((await keyed()).status).toBe(200);
      const files = [s.path, `${s.path}-wal`, `${s.path}-shm`];
      immutable(true, ...files);
      try {
        for (let i = 0; i < 5; i++) expect((await keyed()).status).toBe(503);
        expect((await request(p.url, '/data/api/v1/specialties.json')).status).toBe(503);
        expect(p.child.exitCode).toBeNull();
        expect(p.child.signalCode).toBeNull();
        expect(errorLines(p)).toHaveLength(1);
      } finally {
        immutable(false, ...files);
      }
      expect((await keyed()).status).toBe(200);
    } finally {
      await p.stop();
    }
  });
});

describe('keys create on a store that cannot commit', () => {
  it('prints no key and exits 1 naming the service DB', async (ctx) => {
    needChattr(ctx);
    const s = serviceDb('keys');
    const store = new SqliteServiceStore(s.path); // keeps the WAL and its index in place while the CLI runs
    immutable(true, `${s.path}-wal`);
    let out = '';
    let code = 0;
    try {
      // the store itself: a key whose commit fails is an error, not a record (better-sqlite3's .get() on
      // INSERT ... RETURNING hid the failed commit)
      const k = generateKey();
      expect(() => store.createKey({ keyHash: hashKey(k), keyPrefix: keyPrefixOf(k), plan: 'starter', status: 'active', label: '', createdAt: '2026-11-02T00:00:00Z' }))
        .toThrow(StoreUnavailableError);
      out = execFileSync(process.execPath, [BIN, 'keys', 'create', '--plan', 'starter', '--service-db', s.path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      const e = err as { status: number; stdout: string; stderr: string };
      code = e.status;
      out = e.stdout + e.stderr;
    } finally {
      immutable(false, `${s.path}-wal`);
      store.close();
    }
    expect(code).toBe(1);
    expect(out).not.toMatch(/pcb_live_/);
    expect(out).toMatch(/service (DB|store)/);
  });
});
