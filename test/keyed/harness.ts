/**
 * Shared setup of the keyed API tests: the golden build served by an in-process server with an injected
 * clock (keys: test/helpers/keys.ts), and small assertion helpers.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { join } from 'node:path';
import { goldenBuild, goldenBuildIn, makeGoldenDb, type GoldenFiles } from '../helpers/golden-build.ts';
import { request, type HttpResponse } from '../helpers/http.ts';
import { planKeys, type PlanKeys } from '../helpers/keys.ts';
import { startTestServer } from '../helpers/server.ts';
import { makeTempDir, removeDir } from '../helpers/temp-dir.ts';
import type { RunningServer } from '../../server/main.ts';
import type { BuildOptions } from '../../build/run-build.ts';

export const API = '/api/v1';

export interface KeyedServer {
  work: string;
  db: string;
  buildDir: string;
  buildId: string;
  server: RunningServer;
  url: string;
  setNow(d: Date | string): void;
  now(): Date;
  /** close the server, and remove `work` when startKeyedServer made it */
  close(): Promise<void>;
}

/**
 * The golden build (default options: the run's shared build, copied; with `build` options: built here from
 * `db`) in `work` (default: a new temporary folder), served on a real port with a clock the test sets.
 */
export async function startKeyedServer(opts: { now: string; prefix: string; build?: Partial<BuildOptions>; work?: string; db?: string }): Promise<KeyedServer> {
  const work = opts.work ?? makeTempDir(`keyed-${opts.prefix}`);
  const dist = join(work, `dist-${opts.prefix}`);
  let golden: GoldenFiles;
  if (opts.build || opts.db) {
    const db = opts.db ?? makeGoldenDb(work);
    const built = goldenBuild(db, dist, opts.build ?? {});
    golden = { db, dist, buildId: built.id, buildDir: built.dir };
  } else {
    golden = goldenBuildIn(work, dist);
  }
  let now = new Date(opts.now);
  const server = await startTestServer(dist, join(work, `service-${opts.prefix}.db`), { clock: () => now });
  expect(server.registry.current?.id).toBe(golden.buildId);
  return {
    work, db: golden.db, buildDir: golden.buildDir, buildId: golden.buildId, server, url: server.url,
    setNow: (d) => {
      now = new Date(d);
    },
    now: () => now,
    async close() {
      await server.close();
      if (!opts.work) removeDir(work);
    },
  };
}

/**
 * For a keyed test file: beforeAll starts startKeyedServer(opts), creates one key of each plan in its store
 * and hands both to `use`; afterAll closes the server and removes its folder.
 */
export function useKeyedServer(opts: { now: string; prefix: string }, use: (ks: KeyedServer, keys: PlanKeys) => void): void {
  let ks: KeyedServer | undefined;
  beforeAll(async () => {
    ks = await startKeyedServer(opts);
    use(ks, await planKeys(ks.server.store));
  }, 60_000);
  afterAll(() => ks?.close());
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
