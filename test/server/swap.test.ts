/**
 * Health and hot swap, with real processes: a `physpay serve` started before any build is published
 * answers /readyz and every data endpoint with 503 + Retry-After, becomes ready when the first build is
 * published, and then keeps answering 200 to a steady concurrent load while new builds (and a rollback)
 * are switched in by separate `physpay build` processes: zero failed requests, every body consistent with
 * the build named in its X-PhysPay-Build header, and every switched-in build actually served.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Agent } from 'node:http';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { goldenBuildIn, makeGoldenDb } from '../helpers/golden-build.ts';
import { get, request, waitFor, type HttpResponse } from '../helpers/http.ts';
import { closeAfterAll } from '../helpers/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { readManifest, switchCurrent } from '../../build/emit/store.ts';
import { sha256 } from '../../build/contract/validate.ts';
import { accessDateToken } from '../../build/contract/manifest.ts';
import { BIN, spawnServe, type ServeProcess } from './serve-process.ts';

const run = promisify(execFile);
const FEEDS = [
  '/data/api/v1/specialties.json',
  '/data/api/v1/specialties/cardiology.json',
  '/data/api/v1/states/texas.json',
  '/data/api/v1/wrvu/family-medicine.json',
  '/data/api/v1/specialties/ob-gyn.json', // an alias: resolved on the build the request started on
];

const work = useTempDir('swap');
const stopLater = closeAfterAll();
let db: string;
let dist: string;
let serve: ServeProcess;

/** Publish a build with `physpay build` in its own process; returns the new build id. */
async function publish(baseUrl: string): Promise<string> {
  const { stdout } = await run(process.execPath, [BIN, 'build', '--db', db, '--out', dist, '--base-url', baseUrl, '--build-date', '2026-11-16', '--no-fsync', '--no-precompress', '--keep', '10'], { env: { ...process.env, NO_COLOR: '1' } });
  const m = /^built (\S+):/m.exec(stdout);
  if (!m) throw new Error(`unexpected build output: ${stdout}`);
  return m[1]!;
}

beforeAll(async () => {
  db = makeGoldenDb(work.path);
  dist = join(work.path, 'dist');
  serve = stopLater(await spawnServe(['--data', dist, '--service-db', join(work.path, 'service.db'), '--port', '0', '--poll-ms', '50', '--ip-per-minute', '1000000', '--ip-per-day', '100000000']));
}, 60_000);

describe('before the first build', () => {
  it('/healthz is 200 but /readyz and every data endpoint answer 503 with Retry-After', async () => {
    const health = await get(serve.url, '/healthz');
    expect(health.status).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    for (const path of ['/readyz', '/data/api/v1/specialties.json', '/data/api/v1/states/texas.json']) {
      const r = await get(serve.url, path);
      expect(r.status, path).toBe(503);
      expect(Number(r.headers['retry-after']), path).toBeGreaterThan(0);
      expect(typeof r.json().error, path).toBe('string');
    }
  });
});

describe('hot swap under load', () => {
  it('becomes ready on the first build, then swaps builds and rolls back with zero failed requests', async () => {
    // the first build: the run's shared golden build, put in place as `physpay build` does (its folder
    // first, then the `current` pointer switched); the swap under load below is a real build process
    mkdirSync(join(work.path, 'golden'));
    const golden = goldenBuildIn(join(work.path, 'golden'));
    mkdirSync(join(dist, 'builds'), { recursive: true });
    cpSync(golden.buildDir, join(dist, 'builds', golden.buildId), { recursive: true });
    switchCurrent(dist, golden.buildId);
    const first = golden.buildId;
    const ready = await waitFor('readyz 200', async () => {
      const r = await get(serve.url, '/readyz');
      return r.status === 200 ? r : null;
    });
    expect(ready.json()).toMatchObject({ status: 'ready', build_id: first });

    // Expected bodies per build: the manifest's hash of each file with the build date's access date.
    const manifests = new Map<string, ReturnType<typeof readManifest>>();
    const expectedHash = (buildId: string, urlPath: string) => {
      if (!manifests.has(buildId)) manifests.set(buildId, readManifest(join(dist, 'builds', buildId)));
      return manifests.get(buildId)!.files[`public${urlPath}`]?.sha256;
    };

    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const results: { path: string; r: HttpResponse }[] = [];
    const failures: string[] = [];
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const path = FEEDS[(w + i) % FEEDS.length]!;
        try {
          const r = await request(serve.url, path, { agent });
          results.push({ path, r });
          if (r.status !== 200) failures.push(`${path}: ${r.status} ${r.text.slice(0, 200)}`);
        } catch (err) {
          failures.push(`${path}: ${(err as Error).message}`);
        }
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, (_, w) => worker(w)));
    try {
      const second = await publish('https://two.physpay.example');
      await waitFor('second build served', () => results.some(({ r }) => r.headers['x-physpay-build'] === second));
      const { stdout } = await run(process.execPath, [BIN, 'builds', 'rollback', first, '--out', dist]);
      expect(stdout).toContain(first);
      const mark = results.length;
      await waitFor('rollback served', () => results.slice(mark).some(({ r }) => r.headers['x-physpay-build'] === first));
      await new Promise((r) => setTimeout(r, 200));
      stop = true;
      await load;

      expect(failures).toEqual([]);
      expect(results.length).toBeGreaterThan(100);
      const seen = new Set(results.map(({ r }) => r.headers['x-physpay-build']));
      expect([...seen].sort()).toEqual([first, second].sort());
      expect(results.slice(mark).at(-1)!.r.headers['x-physpay-build']).toBe(first); // the rollback stays
      // Each body is exactly its build's file (the access date is today's; put the build date back).
      const today = new Date().toISOString().slice(0, 10);
      for (const { path, r } of results) {
        const id = String(r.headers['x-physpay-build']);
        const canonical = path.replace('/ob-gyn.json', '/obstetrics-gynecology.json');
        const bytes = Buffer.from(r.text.split(accessDateToken(today)).join(accessDateToken('2026-11-16')));
        expect(sha256(bytes), `${path} on ${id}`).toBe(expectedHash(id, canonical));
      }
    } finally {
      stop = true;
      await load;
      agent.destroy();
    }
  }, 120_000);
});
