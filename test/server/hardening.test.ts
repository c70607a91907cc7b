/**
 * Smaller holes found by an outside attack pass (issue 16), each with the request that showed it:
 * the discovery document reflecting the Host header with no build loaded, an absolute `current` symlink
 * never loaded, a failed build never retried, X-Forwarded-For strings used as limit keys, unknown-slug 404s
 * not limited, a keyed POST answered 400, a service DB readable by every user.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { request } from '../helpers/http.ts';
import { createKey } from '../helpers/keys.ts';
import { closeAfterAll, serveApp } from '../helpers/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { BuildRegistry } from '../../server/builds/registry.ts';
import { SqliteServiceStore } from '../../server/store/sqlite.ts';
import type { TrustProxy } from '../../server/http/client-ip.ts';
import type { IpLimits } from '../../server/store/types.ts';
import { spawnSync } from 'node:child_process';
import { logWarningsAsJson } from '../../server/observability/logger.ts';

const work = useTempDir('hardening');
const closeLater = closeAfterAll();
let dist: string;
let buildId: string;
const NOW = new Date('2026-12-01T12:00:10Z');
let served = 0;

async function serve(registry: BuildRegistry, ipLimits: IpLimits = { perMinute: 1_000, perDay: 100_000 }, trustProxy: TrustProxy = false) {
  return closeLater(await serveApp(join(work.path, `service-${served++}.db`), { registry, clock: () => NOW, ipLimits, trustProxy }));
}

beforeAll(() => {
  ({ dist, buildId } = goldenBuildIn(work.path));
}, 60_000);

describe('/.well-known/mcp.json before any build is loaded', () => {
  it('answers 503 (not a document naming whatever Host the client sent, cached for an hour)', async () => {
    const empty = join(work.path, 'empty-dist');
    mkdirSync(empty, { recursive: true });
    const { url } = await serve(new BuildRegistry(empty));
    const r = await request(url, '/.well-known/mcp.json', { headers: { host: 'evil.example' } });
    expect(r.status).toBe(503);
    expect(r.headers['retry-after']).toBeDefined();
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.text).not.toContain('evil.example');
    expect(r.json<{ error: string }>().error).toMatch(/no published build/);
  });
});

describe('the build pointer', () => {
  it('an absolute `current` symlink is followed', async () => {
    const d = join(work.path, 'abs-dist');
    mkdirSync(join(d, 'builds'), { recursive: true });
    cpSync(join(dist, 'builds', buildId), join(d, 'builds', buildId), { recursive: true });
    symlinkSync(join(d, 'builds', buildId), join(d, 'current')); // absolute link text
    const registry = new BuildRegistry(d);
    await registry.check();
    expect(registry.current?.id).toBe(buildId);
  });

  it('a build that failed to load is tried again later (not only when the link text changes)', async () => {
    const d = join(work.path, 'retry-dist');
    mkdirSync(join(d, 'builds'), { recursive: true });
    const dir = join(d, 'builds', buildId);
    cpSync(join(dist, 'builds', buildId), dir, { recursive: true });
    symlinkSync(`builds/${buildId}`, join(d, 'current'));
    const manifest = readFileSync(join(dir, 'manifest.json'));
    rmSync(join(dir, 'manifest.json')); // e.g. a copy still in progress
    const errors: string[] = [];
    const registry = new BuildRegistry(d, { onError: (m) => errors.push(m) }, { retryMs: 0 });
    await registry.check();
    expect(registry.current).toBeNull();
    expect(errors).toHaveLength(1);
    writeFileSync(join(dir, 'manifest.json'), manifest);
    await registry.check();
    expect(registry.current?.id).toBe(buildId);
  });

  it('a failed build is not retried on every poll: it waits its back-off', async () => {
    const d = join(work.path, 'backoff-dist');
    mkdirSync(join(d, 'builds', 'broken'), { recursive: true });
    symlinkSync('builds/broken', join(d, 'current'));
    const errors: string[] = [];
    const registry = new BuildRegistry(d, { onError: (m) => errors.push(m) }, { retryMs: 60_000 });
    for (let i = 0; i < 5; i++) await registry.check();
    expect(errors).toHaveLength(1);
  });
});

describe('client addresses from X-Forwarded-For', () => {
  it('a value that is not an IP address is not a limit key: the socket address is used', async () => {
    const registry = new BuildRegistry(dist);
    await registry.check();
    const { url, store } = await serve(registry, { perMinute: 3, perDay: 100 }, 1);
    const statuses: number[] = [];
    for (const xff of ['x'.repeat(5_000), 'not-an-ip', '999.1.1.1', '1.2.3.4.5', 'hello world']) {
      statuses.push((await request(url, '/data/api/v1/specialties.json', { headers: { 'x-forwarded-for': xff } })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]); // one client: the socket address
    const keys = (store.db.prepare('SELECT ip FROM ip_counters').all() as { ip: string }[]).map((r) => r.ip);
    expect(keys.every((k) => k.length <= 45)).toBe(true);
    // a valid forwarded address is still honoured
    expect((await request(url, '/data/api/v1/specialties.json', { headers: { 'x-forwarded-for': '203.0.113.9' } })).status).toBe(200);
  });
});

describe('open data 404s', () => {
  it('an unknown slug is counted like any request: the limit applies to 404s too', async () => {
    const registry = new BuildRegistry(dist);
    await registry.check();
    const { url } = await serve(registry, { perMinute: 3, perDay: 100 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await request(url, `/data/api/v1/specialties/no-such-${i}.json`)).status);
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
    expect((await request(url, '/data/api/v1/nothing-here.json')).status).toBe(429);
  });
});

describe('keyed API methods', () => {
  it('POST (or any method but GET and HEAD) is 405 with Allow and the caller\'s X-RateLimit headers, uncounted', async () => {
    const registry = new BuildRegistry(dist);
    await registry.check();
    const { url, store } = await serve(registry);
    const key = await createKey(store, 'professional');
    for (const path of ['/api/v1/benchmarks?specialty=Cardiology', '/api/v1/specialties', '/api/v1/me/usage']) {
      const r = await request(url, path, { method: 'POST', headers: { 'x-api-key': key.key } });
      expect(r.status, path).toBe(405);
      expect(r.headers.allow).toBe('GET, HEAD');
      expect(r.headers['x-ratelimit-remaining-daily']).toBe('500');
      expect(r.json<{ error: string }>().error).toMatch(/read-only/);
    }
    const usage = await request(url, '/api/v1/me/usage', { headers: { 'x-api-key': key.key } });
    expect(usage.json<{ usage: { requests_today: number } }>().usage.requests_today).toBe(0);
  });
});

describe('the service DB file', () => {
  it('is created readable by its owner only (0600), with its WAL and shared-memory files', () => {
    const path = join(work.path, 'perm', 'service.db');
    mkdirSync(join(work.path, 'perm'));
    const store = new SqliteServiceStore(path);
    try {
      store.db.prepare('SELECT 1').get();
      for (const f of readdirSync(join(work.path, 'perm'))) expect(statSync(join(work.path, 'perm', f)).mode & 0o777, f).toBe(0o600);
    } finally {
      store.close();
    }
  });
});

describe('start-up errors and warnings', () => {
  it('a service DB path that cannot be one: one sentence naming --service-db and the cause, exit 2 (the operator\'s path), no stack', () => {
    const bin = join(import.meta.dirname, '../../bin/physpay.js');
    const cases: [string, RegExp][] = [
      [join(work.path, 'no-such-folder', 'service.db'), /^physpay: --service-db .+: the folder .+ does not exist; create it first or give another path$/],
      [join(dist, 'current', 'manifest.json'), /^physpay: --service-db .+ is not a SQLite database \(it looks like a CSV or text file\); give the service DB file/],
    ];
    for (const [target, sentence] of cases) {
      const r = spawnSync(process.execPath, [bin, 'serve', '--data', dist, '--service-db', target, '--port', '0'], { encoding: 'utf8', timeout: 30_000 });
      expect(r.status, r.stderr).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(sentence);
      expect(r.stderr).not.toMatch(/^\s+at /m);
      expect(r.stderr).not.toMatch(/unexpected error/);
    }
  });

  it('process warnings become one JSON log line each, not Node\'s text on stderr', async () => {
    const lines: { obj: Record<string, unknown>; msg: string }[] = [];
    const restore = logWarningsAsJson({ warn: ((obj: Record<string, unknown>, msg: string) => lines.push({ obj, msg })) as never });
    try {
      process.emitWarning('keyed API (request r1): Error: boom\n    at somewhere (x.ts:1:1)');
      await new Promise((r) => setImmediate(r));
      expect(lines).toHaveLength(1);
      expect(lines[0]!.msg).toBe('keyed API (request r1): Error: boom');
      expect(String(lines[0]!.obj.detail)).toContain('at somewhere');
      expect(process.listeners('warning')).toHaveLength(1);
    } finally {
      restore();
    }
  });
});
