/**
 * No dead ends on the public site (issue 19, items 1 and 2): the open data API's index at /data/api/v1/,
 * redirects from aliases to canonical pages, the HTML 404 page with close matches, and 503 (not 404)
 * before any build is published.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { request } from '../helpers/http.ts';
import { closeAfterAll, serveApp } from '../helpers/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { BuildRegistry } from '../../server/builds/registry.ts';
import { FEED_INDEX } from '../../server/open-data/routes.ts';
import { parseHtml } from '../../build/pages/parse.ts';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const work = useTempDir('dead-ends');
const closeLater = closeAfterAll();
let url = '';
let emptyUrl = '';
let served = 0;

async function serve(registry: BuildRegistry): Promise<string> {
  const app = await serveApp(join(work.path, `service-${served++}.db`), { registry, clock: () => new Date('2026-12-01T12:00:10Z'), ipLimits: { perMinute: 1_000, perDay: 100_000 } });
  return closeLater(app).url;
}

beforeAll(async () => {
  const registry = new BuildRegistry(goldenBuildIn(work.path).dist);
  await registry.check();
  url = await serve(registry);
  mkdirSync(join(work.path, 'empty'), { recursive: true });
  emptyUrl = await serve(new BuildRegistry(join(work.path, 'empty')));
}, 240_000);

describe('the open data API index (/data/api/v1/)', () => {
  it('answers JSON listing every feed, with the OpenAPI document, schemas, reference and licence', async () => {
    for (const path of ['/data/api/v1/', '/data/api/v1', '/DATA/api/V1/']) {
      const r = await request(url, path, { headers: { accept: 'application/json' } });
      expect(r.status, path).toBe(200);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      const d = r.json<{ feeds: { path: string; url: string; example_url: string | null; schema_url: string | null }[]; openapi_url: string; documentation_url: string; license_url: string; schemas: unknown[] }>();
      expect(d.feeds.map((f) => f.path)).toEqual(FEED_INDEX);
      expect(d.openapi_url).toBe('https://physpay.example/data/api/v1/openapi.json');
      expect(d.documentation_url).toBe('https://physpay.example/docs/api/');
      expect(d.license_url).toMatch(/creativecommons\.org/);
      expect(d.schemas.length).toBeGreaterThan(5);
      // every example and schema it names is served
      for (const f of d.feeds) {
        for (const link of [f.example_url ?? (f.url.includes('{') ? null : f.url), f.schema_url]) {
          if (!link) continue;
          expect((await request(url, new URL(link).pathname)).status, link).toBe(200);
        }
      }
    }
  });

  it('answers an HTML page in the site look for browsers, with ETag/304, Vary and no rate limit', async () => {
    const r = await request(url, '/data/api/v1/', { headers: HTML });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers.vary).toBe('Accept, Accept-Encoding'); // HTML or JSON, each compressed or not
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(r.headers['cache-control']).toBe('public, max-age=3600');
    expect(r.headers['ratelimit-policy']).toBeUndefined();
    expect(parseHtml(r.text).errors).toEqual([]);
    for (const href of ['/data/api/v1/openapi.json', '/docs/api/', '/data/api/v1/specialties.json', '/data/api/v1/schemas/specialty.schema.json', '/license']) expect(r.text).toContain(`href="${href}"`);
    const json = await request(url, '/data/api/v1/', { headers: { accept: 'application/json' } });
    expect(json.headers.etag).not.toBe(r.headers.etag);
    const again = await request(url, '/data/api/v1/', { headers: { ...HTML, 'if-none-match': r.headers.etag! } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('the footer and home page link it', async () => {
    const home = await request(url, '/', { headers: HTML });
    expect(home.text.match(/href="\/data\/api\/v1\/"/g)?.length).toBeGreaterThanOrEqual(2);
  });
});

describe('page aliases redirect to the canonical page', () => {
  it.each([
    ['/salaries/ob-gyn', '/salaries/obstetrics-gynecology'],
    ['/salaries/OBGYN?x=1', '/salaries/obstetrics-gynecology'],
    ['/salaries/cardiology/tx', '/salaries/cardiology/texas'],
    ['/salaries/Cardio/TX/', '/salaries/cardiology/texas'],
    ['/states/tx', '/states/texas'],
    ['/States/Texas', '/states/texas'],
    ['/SALARIES', '/salaries'],
  ])('%s -> %s', async (from, to) => {
    const r = await request(url, from, { headers: HTML });
    expect(r.status).toBe(301);
    expect(r.headers.location).toBe(to);
    expect((await request(url, to, { headers: HTML })).status).toBe(200);
  });
});

describe('unknown pages', () => {
  it.each([
    ['/salaries/cardiolgy', '/salaries/cardiology'],
    ['/states/texsa', '/states/texas'],
    ['/salaries/cardiolgy/texas', '/salaries/cardiology/texas'],
    ['/cardiology', '/salaries/cardiology'],
    ['/nope', null],
    ['/constructor/prototype', null],
    ['/__proto__/x', null],
  ])('%s: an HTML 404 page (noindex) in the site look, suggesting %s', async (path, suggested) => {
    const r = await request(url, path, { headers: HTML });
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.text).toContain('<meta name="robots" content="noindex">');
    expect(r.text).toContain('Page not found');
    expect(r.text).toContain('href="/salaries"');
    expect(parseHtml(r.text).errors).toEqual([]);
    if (suggested) expect(r.text).toContain(`href="${suggested}"`);
    // every suggested page exists
    for (const m of r.text.matchAll(/href="(\/(?:salaries|states|residency)\/[^"]+)"/g)) expect((await request(url, m[1]!)).status, m[1]).toBe(200);
  });

  it('a client that does not ask for HTML keeps the JSON 404', async () => {
    const r = await request(url, '/salaries/cardiolgy', { headers: { accept: 'application/json' } });
    expect(r.status).toBe(404);
    expect(r.json<{ error: string }>().error).toMatch(/no such endpoint/);
  });
});

describe('before any build is published', () => {
  it('/ answers 503 with Retry-After: HTML for browsers, JSON otherwise', async () => {
    const page = await request(emptyUrl, '/', { headers: HTML });
    expect(page.status).toBe(503);
    expect(page.headers['retry-after']).toBeDefined();
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const json = await request(emptyUrl, '/salaries/cardiology');
    expect(json.status).toBe(503);
    expect(json.headers['retry-after']).toBeDefined();
    expect(json.json<{ error: string }>().error).toMatch(/no published build/);
  });
});
