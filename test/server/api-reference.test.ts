/**
 * The API reference over HTTP, with no build loaded (it needs none): the index and both pages answer with
 * the public pages' caching headers and a Content-Security-Policy that allows only this origin, link only
 * files of this server, and every asset they name is served (gzip when asked for, 304 on a matching tag).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { request } from '../helpers/http.ts';
import { closeAfterAll, serveApp } from '../helpers/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { BuildRegistry } from '../../server/builds/registry.ts';
import { API_REFERENCE_CSP } from '../../server/api-reference/handler.ts';

const work = useTempDir('api-reference');
const closeLater = closeAfterAll();
let url: string;

beforeAll(async () => {
  mkdirSync(join(work.path, 'dist'));
  url = closeLater(await serveApp(join(work.path, 'service.db'), { registry: new BuildRegistry(join(work.path, 'dist')) })).url;
});

/** src and href values of an HTML page. */
const links = (html: string) => [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);

describe('the API reference pages', () => {
  it.each(['/docs/api', '/docs/api/', '/docs/api/keyed', '/docs/api/open-data/', '/Docs/API/Keyed'])('GET %s: HTML with the pages\' headers and a same-origin CSP', async (path) => {
    const r = await request(url, path);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['cache-control']).toBe('public, max-age=3600');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['content-security-policy']).toBe(API_REFERENCE_CSP);
    expect(r.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.headers.etag).toMatch(/^"[\w-]+"$/);
    // this server only, but for the licence the shared footer names (an outside page, loaded only when followed)
    for (const l of links(r.text)) expect(l, `${path} links ${l}`).toMatch(/^\/(?!\/)|^https:\/\/creativecommons\.org\/licenses\/by\/4\.0\/$/);
    for (const m of r.text.matchAll(/\ssrc="([^"]*)"/g)) expect(m[1], `${path} loads ${m[1]}`).toMatch(/^\/(?!\/)/); // everything loaded comes from this server
    expect(r.text).not.toMatch(/<script>|<style>|\sstyle=|\son\w+=/); // nothing inline: the CSP allows none
    const again = await request(url, path, { headers: { 'if-none-match': r.headers.etag as string } });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('the CSP lets the pages load and call only this origin', () => {
    expect(API_REFERENCE_CSP).toContain("default-src 'none'");
    expect(API_REFERENCE_CSP).toContain("script-src 'self'");
    expect(API_REFERENCE_CSP).toContain("connect-src 'self'");
    expect(API_REFERENCE_CSP).not.toMatch(/unsafe-|https?:|\*/);
  });

  it('each reference page names its OpenAPI document; every file a page links is served', async () => {
    const keyed = await request(url, '/docs/api/keyed');
    expect(keyed.text).toContain('data-spec="/api/v1/openapi.json"');
    const open = await request(url, '/docs/api/open-data');
    expect(open.text).toContain('data-spec="/data/api/v1/openapi.json"');
    const assets = new Set([...links(keyed.text), ...links(open.text)].filter((l) => l.startsWith('/docs/api/assets/')));
    expect([...assets].sort()).toEqual(['favicon-32x32.png', 'reference.css', 'reference.js', 'swagger-ui-bundle.js', 'swagger-ui.css'].map((f) => `/docs/api/assets/${f}`));
    for (const a of assets) {
      const r = await request(url, a);
      expect(r.status, a).toBe(200);
      expect(r.body.length, a).toBeGreaterThan(100);
      expect(r.headers['content-security-policy'], a).toBe(API_REFERENCE_CSP);
    }
    // The specs the pages load need no key and no build.
    expect((await request(url, '/api/v1/openapi.json')).status).toBe(200);
    expect((await request(url, '/data/api/v1/openapi.json')).status).toBe(200);
  });

  it('assets: types, gzip on request (its own tag), HEAD without a body, unknown names 404', async () => {
    const js = await request(url, '/docs/api/assets/swagger-ui-bundle.js');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['content-encoding']).toBeUndefined();
    expect(js.headers.vary).toBe('Accept-Encoding');
    const gz = await request(url, '/docs/api/assets/swagger-ui-bundle.js', { headers: { 'accept-encoding': 'gzip, br' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.length).toBeLessThan(js.body.length / 2);
    expect(gunzipSync(gz.body).equals(js.body)).toBe(true);
    expect(gz.headers.etag).not.toBe(js.headers.etag);
    expect((await request(url, '/docs/api/assets/swagger-ui.css')).headers['content-type']).toBe('text/css; charset=utf-8');
    expect((await request(url, '/docs/api/assets/favicon-32x32.png')).headers['content-type']).toBe('image/png');
    const head = await request(url, '/docs/api/keyed', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const path of ['/docs/api/assets/nope.js', '/docs/api/assets/', '/docs/api/assets/swagger-ui-bundle.js.map', '/docs/api/other']) {
      const r = await request(url, path);
      expect(r.status, path).toBe(404);
      expect(r.json<{ error: string }>().error).toMatch(/no such endpoint/);
    }
    expect((await request(url, '/docs/api/../../package.json')).status).toBe(400); // dot segments never reach a handler
  });
});
