/**
 * Shared setup of the keyed API tests: the golden build served by an in-process server with an injected
 * clock, API keys created in the server's own service store, and small assertion helpers.
 */
import { expect } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { goldenBuild, makeGoldenDb } from '../helpers/golden-build.ts';
import { request, type HttpResponse } from '../helpers/http.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { generateKey, hashKey, keyPrefixOf } from '../../server/keyed/keys.ts';
import type { ServiceStore } from '../../server/store/types.ts';
import type { BuildOptions } from '../../build/run-build.ts';

export const API = '/api/v1';

export interface TestKey {
  key: string;
  id: number;
  prefix: string;
}

export async function createKey(store: ServiceStore, plan: string, status = 'active', createdAt = '2026-11-01T08:30:00Z'): Promise<TestKey> {
  const key = generateKey();
  const rec = await store.createKey({ keyHash: hashKey(key), keyPrefix: keyPrefixOf(key), plan, status, label: 'test', createdAt });
  return { key, id: rec.id, prefix: rec.key_prefix };
}

export interface KeyedServer {
  work: string;
  db: string;
  buildDir: string;
  buildId: string;
  server: RunningServer;
  url: string;
  setNow(d: Date | string): void;
  now(): Date;
}

export async function startKeyedServer(opts: { now: string; prefix: string; build?: Partial<BuildOptions>; work?: string; db?: string }): Promise<KeyedServer> {
  const work = opts.work ?? mkdtempSync(join(tmpdir(), `physpay-keyed-${opts.prefix}-`));
  const db = opts.db ?? makeGoldenDb(work);
  const dist = join(work, `dist-${opts.prefix}`);
  const built = goldenBuild(db, dist, opts.build ?? {});
  let now = new Date(opts.now);
  const server = await startServer({
    dataDir: dist,
    serviceDb: join(work, `service-${opts.prefix}.db`),
    host: '127.0.0.1',
    port: 0,
    ipLimits: { perMinute: 1_000_000, perDay: 10_000_000 },
    trustProxy: false,
    pollMs: 60_000,
    clock: () => now,
  });
  expect(server.registry.current?.id).toBe(built.id);
  return {
    work, db, buildDir: built.dir, buildId: built.id, server, url: server.url,
    setNow: (d) => {
      now = new Date(d);
    },
    now: () => now,
  };
}

export function call(url: string, path: string, key?: string, headers: Record<string, string> = {}): Promise<HttpResponse> {
  return request(url, path.startsWith('/api/') ? path : `${API}${path}`, { headers: key === undefined ? headers : { 'x-api-key': key, ...headers } });
}

export const qs = (params: Record<string, string | number | undefined | null>) =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

/** Assert a JSON error answer: status, content type, and a body that is exactly {"error": string}. */
export function expectError(r: HttpResponse, status: number, pattern?: RegExp): string {
  expect(r.status, `${r.status} ${r.text.slice(0, 300)}`).toBe(status);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  const body = r.json();
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error).toBe('string');
  expect((body.error as string).length).toBeGreaterThan(0);
  if (pattern) expect(body.error).toMatch(pattern);
  return body.error as string;
}

export const RATE_HEADERS = ['x-ratelimit-limit-daily', 'x-ratelimit-remaining-daily', 'x-ratelimit-limit-monthly', 'x-ratelimit-remaining-monthly', 'x-ratelimit-reset'] as const;

export interface RateHeaders {
  limitDaily: number;
  remainingDaily: number;
  limitMonthly: number;
  remainingMonthly: number;
  reset: number;
}

/** The five X-RateLimit-* headers as integers (asserting that all five are present and integral). */
export function rateHeaders(r: HttpResponse): RateHeaders {
  for (const h of RATE_HEADERS) expect(String(r.headers[h]), `${h} on ${r.status}`).toMatch(/^\d+$/);
  const n = (h: string) => Number(r.headers[h]);
  return {
    limitDaily: n('x-ratelimit-limit-daily'),
    remainingDaily: n('x-ratelimit-remaining-daily'),
    limitMonthly: n('x-ratelimit-limit-monthly'),
    remainingMonthly: n('x-ratelimit-remaining-monthly'),
    reset: n('x-ratelimit-reset'),
  };
}

export function expectNoRateHeaders(r: HttpResponse): void {
  for (const h of [...RATE_HEADERS, 'ratelimit', 'ratelimit-policy']) expect(r.headers[h], h).toBeUndefined();
}

/** Next 00:00 UTC after `d`, in epoch seconds (computed here without the server's helpers). */
export function nextMidnight(d: Date): number {
  const t = Math.floor(d.getTime() / 86_400_000) * 86_400_000 + 86_400_000;
  return t / 1000;
}

export const PLAN_LIMITS = {
  starter: { daily: 100, monthly: 3000 },
  professional: { daily: 500, monthly: 15000 },
  enterprise: { daily: 2000, monthly: 60000 },
} as const;
