/**
 * One canonical path (the quality bars in README: Benchmarks): every spelling of a feed or CSV path either reaches the open-data handler,
 * with its per-IP limit and RateLimit headers, or is refused (400 / 404); the pages handler never serves a
 * file under /data/. Found by an outside attack pass: `/%64ata/api/v1/...` was served by the pages handler,
 * unlimited.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { request } from '../helpers/http.ts';
import { closeAfterAll, serveApp } from '../helpers/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { BuildRegistry } from '../../server/builds/registry.ts';

/** Spellings of one path that a client may send: escapes, %2f, case, doubled slashes, dot segments. */
export function spellings(path: string): string[] {
  const parts = path.split('/').filter(Boolean); // data, api, v1, ...
  const hex = (c: string) => `%${c.charCodeAt(0).toString(16)}`;
  return [
    path,
    `/${hex(parts[0]![0]!)}${parts[0]!.slice(1)}/${parts.slice(1).join('/')}`, // /%64ata/...
    `/${parts.slice(0, 3).join('/')}%2f${parts.slice(3).join('/')}`, // /data/api/v1%2f...
    `/${parts.join('%2f')}`, // /data%2fapi%2fv1%2f...
    `/${parts.join('%2F')}`,
    `/${parts.map((p) => [...p].map(hex).join('')).join('/')}`, // every character escaped
    `//${parts.join('/')}`,
    `/${parts.join('//')}`,
    `/${parts[0]!.toUpperCase()}/${parts.slice(1).join('/')}`,
    `/${parts.join('/').toUpperCase()}`,
    `/${parts.slice(0, 3).join('/')}/./${parts.slice(3).join('/')}`,
    `/${parts.slice(0, 3).join('/')}/x/../${parts.slice(3).join('/')}`,
    `/${parts.slice(0, 3).join('/')}/%2e/${parts.slice(3).join('/')}`,
    `/${parts.slice(0, 3).join('/')}%5c${parts.slice(3).join('/')}`,
    `${path}?x=1`,
    `${path}#frag`,
  ];
}

const TARGETS = [
  '/data/api/v1/specialties/cardiology.json',
  '/data/api/v1/specialties.json',
  '/data/api/v1/specialties.csv',
  '/data/api/v1/states.csv',
  '/data/api/v1/states/texas.json',
  '/data/api/v1/wrvu/family-medicine.json',
  '/data/api/v1/residency/institutions.json',
  '/data/api/v1/specialties/family-medicine/states/california.json',
];

const work = useTempDir('canonical');
const closeLater = closeAfterAll();
let url: string;

beforeAll(async () => {
  const registry = new BuildRegistry(goldenBuildIn(work.path).dist);
  await registry.check();
  // a large enough minute budget for every spelling, counted exactly
  url = closeLater(await serveApp(join(work.path, 'service.db'), { registry, clock: () => new Date('2026-12-01T12:00:10Z'), ipLimits: { perMinute: 1_000, perDay: 100_000 } })).url;
}, 60_000);

describe('every spelling of a feed or CSV path', () => {
  it('is answered by the open-data handler (counted, with RateLimit headers; 200 or 404) or refused with 400, never served unlimited', async () => {
    let counted = 0;
    const served: string[] = [];
    for (const target of TARGETS) {
      for (const path of spellings(target)) {
        const r = await request(url, path);
        const label = `${path} -> ${r.status}`;
        expect([200, 400, 404], label).toContain(r.status);
        if (r.status === 200 || r.status === 404) {
          // served, or an unknown feed path: both answered by the open-data handler and counted
          if (r.status === 200) served.push(path);
          expect(r.headers['ratelimit-policy'], label).toBeDefined();
          expect(r.headers.ratelimit, label).toMatch(/r=\d+/);
          counted++;
        }
        if (r.status !== 200) {
          expect(r.headers['content-type'], label).toMatch(/^application\/json/);
          expect(r.json<{ error: string }>().error, label).toBeTruthy();
        }
      }
    }
    // every answered spelling was counted: the service store saw exactly as many requests
    const used = 1_000 - Number(/r=(\d+)/.exec(String((await request(url, TARGETS[0]!)).headers.ratelimit))![1]);
    expect(used).toBe(counted + 1);
    expect(served).toContain('/%64ata/api/v1/specialties/cardiology.json');
  });

  it('the pages handler serves no file under /data/, whatever the spelling', async () => {
    for (const path of ['/data/api/v1/specialties.csv', '/%64ata/api/v1/states.csv', '/data/api/v1%2fspecialties.json']) {
      const r = await request(url, path);
      expect(r.headers['x-physpay-build']).toBeDefined();
      expect(r.headers['ratelimit-policy'], path).toBeDefined(); // the open-data handler answered
    }
  });

  it('a malformed escape anywhere is a 400 JSON error', async () => {
    for (const path of ['/data/api/v1/%zz.json', '/%zzdata/api/v1/specialties.json', '/salaries/%e0%80', '/%00']) {
      const r = await request(url, path);
      expect(r.status, path).toBe(400);
      expect(r.json<{ error: string }>().error).toMatch(/malformed path/);
    }
  });
});
