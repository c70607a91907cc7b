/**
 * Compressed answers (README: Compression): the golden build served on a later day than it was built, so
 * every dated file is re-dated. Each public file with variants is negotiated (br, gzip, identity), says
 * `Vary: Accept-Encoding`, has one strong ETag per coding and answers 304 per coding; the bytes decompress to
 * exactly the identity answer of that day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { startTestServer } from '../helpers/server.ts';
import { get, request, type HttpResponse } from '../helpers/http.ts';
import type { RunningServer } from '../../server/main.ts';

const tmp = useTempDir('compression');
let server: RunningServer;
const DAY = '2026-11-28';

beforeAll(async () => {
  const dist = goldenBuildIn(tmp.path).dist;
  server = await startTestServer(dist, join(tmp.path, 'service.db'), { clock: () => new Date(`${DAY}T12:00:00Z`) });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const decode = (r: HttpResponse): Buffer => {
  const c = r.headers['content-encoding'];
  return c === 'br' ? brotliDecompressSync(r.body) : c === 'gzip' ? gunzipSync(r.body) : r.body;
};

// dated feed, dated page, undated CSV (brotli made by the build), undated home page, release file, derived comparison
const PATHS = [
  '/data/api/v1/specialties/family-medicine.json',
  '/salaries/family-medicine',
  '/data/api/v1/specialty-states.csv',
  '/',
  '/data/api/v1/releases/2026-11-16/specialties/cardiology.json',
  '/data/api/v1/compare/cardiology/dermatology.json',
  '/compare/cardiology/dermatology',
];

describe('content negotiation', () => {
  it.each(PATHS)('%s: br, gzip and identity decode to the same bytes, with their own ETags', async (path) => {
    const plain = await get(server.url, path);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
    const etags = new Set([plain.headers.etag]);
    for (const coding of ['br', 'gzip'] as const) {
      const r = await get(server.url, path, { 'accept-encoding': coding });
      expect(r.status).toBe(200);
      expect(r.headers['content-encoding']).toBe(coding);
      expect(r.headers.vary).toMatch(/Accept-Encoding/);
      expect(Number(r.headers['content-length'])).toBe(r.body.length);
      expect(r.body.length).toBeLessThan(plain.body.length * 0.6);
      expect(decode(r).equals(plain.body)).toBe(true);
      etags.add(r.headers.etag);
    }
    expect(etags.size).toBe(3);
  });

  it('fills in the day of the answer in every coding (the build was made on 2026-11-16)', async () => {
    for (const path of ['/data/api/v1/specialties/family-medicine.json', '/salaries/family-medicine']) {
      for (const ae of ['gzip', 'br']) {
        const text = decode(await get(server.url, path, { 'accept-encoding': ae })).toString('utf8');
        expect(text).toContain(`accessed ${DAY})`);
        expect(text).not.toContain('accessed 2026-11-16)');
      }
    }
  });

  it('takes the browser\'s Accept-Encoding, q-values and x-gzip', async () => {
    const path = '/salaries/family-medicine';
    expect((await get(server.url, path, { 'accept-encoding': 'gzip, deflate, br, zstd' })).headers['content-encoding']).toBe('br');
    expect((await get(server.url, path, { 'accept-encoding': 'br;q=0.2, gzip;q=0.9' })).headers['content-encoding']).toBe('gzip');
    expect((await get(server.url, path, { 'accept-encoding': 'x-gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await get(server.url, path, { 'accept-encoding': 'gzip;q=0, br;q=0' })).headers['content-encoding']).toBeUndefined();
    expect((await get(server.url, path, { 'accept-encoding': 'deflate' })).headers['content-encoding']).toBeUndefined();
  });

  it('revalidates per coding: a gzip ETag is a 304 for gzip and a 200 for brotli', async () => {
    const path = '/data/api/v1/specialties/cardiology.json';
    const gz = await get(server.url, path, { 'accept-encoding': 'gzip' });
    const again = await get(server.url, path, { 'accept-encoding': 'gzip', 'if-none-match': String(gz.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.headers.vary).toMatch(/Accept-Encoding/);
    expect(again.headers.etag).toBe(gz.headers.etag);
    const br = await get(server.url, path, { 'accept-encoding': 'br', 'if-none-match': String(gz.headers.etag) });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    const page = await get(server.url, '/salaries/cardiology', { 'accept-encoding': 'br' });
    expect((await get(server.url, '/salaries/cardiology', { 'accept-encoding': 'br', 'if-none-match': String(page.headers.etag) })).status).toBe(304);
  });

  it('answers HEAD with the length of the coding it would send', async () => {
    const path = '/data/api/v1/specialties/cardiology.json';
    for (const ae of ['gzip', 'br']) {
      const full = await get(server.url, path, { 'accept-encoding': ae });
      const head = await request(server.url, path, { method: 'HEAD', headers: { 'accept-encoding': ae } });
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(head.headers['content-length']).toBe(String(full.body.length));
      expect(head.headers.etag).toBe(full.headers.etag);
    }
  });

  it('sends small and binary files as they are, without Vary', async () => {
    for (const path of ['/robots.txt', '/data/api/v1/physpay-open-data.tar.gz']) {
      const r = await get(server.url, path, { 'accept-encoding': 'gzip, br' });
      expect(r.status, path).toBe(200);
      expect(r.headers['content-encoding'], path).toBeUndefined();
      expect(r.headers.vary, path).toBeUndefined();
    }
  });

  it('keeps the page\'s Content-Security-Policy (hashes of its inline scripts) in every coding', async () => {
    const plain = await get(server.url, '/salaries/family-medicine');
    const br = await get(server.url, '/salaries/family-medicine', { 'accept-encoding': 'br' });
    expect(plain.headers['content-security-policy']).toMatch(/sha256-/);
    expect(br.headers['content-security-policy']).toBe(plain.headers['content-security-policy']);
  });

  it('keeps the API index\'s Vary: Accept next to Accept-Encoding', async () => {
    const r = await get(server.url, '/data/api/v1/', { 'accept-encoding': 'gzip', accept: 'text/html' });
    expect(r.status).toBe(200);
    expect(r.headers.vary).toBe('Accept, Accept-Encoding');
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(r.body).toString('utf8')).toContain('<html');
  });
});
