/**
 * robots.txt, sitemap.xml, the site icon and noindex (issue 19, item 3), over the golden build served by a
 * real server: every sitemap URL answers 200 and is indexable, every noindex page is left out, robots.txt
 * names the sitemap, and every page links the icon that /favicon.svg and /favicon.ico serve.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE_URL, serveGolden, type Served } from './helpers.ts';
import { request } from '../helpers/http.ts';
import { readManifest } from '../../build/emit/store.ts';
import { urlPathOf } from '../../server/builds/loaded-build.ts';

let served: Served;
let pages: { path: string; html: string }[] = [];

beforeAll(async () => {
  served = await serveGolden('sitemap');
  pages = Object.keys(readManifest(served.buildDir).files)
    .filter((f) => f.startsWith('public/') && f.endsWith('.html'))
    .map((f) => ({ path: urlPathOf(f)!, html: readFileSync(join(served.buildDir, f), 'utf8') }));
}, 240_000);

afterAll(async () => {
  await served?.close();
});

const NOINDEX = '<meta name="robots" content="noindex">';

describe('robots.txt and sitemap.xml', () => {
  it('robots.txt allows everything and names the sitemap', async () => {
    const r = await request(served.url, '/robots.txt');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(r.text).toMatch(/^User-agent: \*$/m);
    expect(r.text).toMatch(/^Allow: \/$/m);
    expect(r.text).toContain(`Sitemap: ${BASE_URL}/sitemap.xml`);
  });

  it('every sitemap URL answers 200 and is not noindex; every noindex page is absent', async () => {
    const r = await request(served.url, '/sitemap.xml');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(r.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    const locs = [...r.text.matchAll(/<url><loc>([^<]+)<\/loc>(?:<lastmod>(\d{4}-\d{2}-\d{2})<\/lastmod>)?<\/url>/g)];
    expect(locs.length).toBe((r.text.match(/<url>/g) ?? []).length);
    const inMap = new Set<string>();
    for (const [, loc] of locs) {
      expect(loc!.startsWith(`${BASE_URL}/`) || loc === BASE_URL, loc).toBe(true);
      const path = new URL(loc!).pathname;
      inMap.add(path);
      const page = await request(served.url, path);
      expect(page.status, path).toBe(200);
      expect(page.text, path).not.toContain(NOINDEX);
    }
    const noindex = pages.filter((p) => p.html.includes(NOINDEX));
    for (const p of noindex) expect(inMap.has(p.path), p.path).toBe(false);
    // every indexable page is listed
    for (const p of pages.filter((x) => !x.html.includes(NOINDEX))) expect(inMap.has(p.path), p.path).toBe(true);
    expect(inMap.has('/')).toBe(true);
    // the pages the server makes itself (issue 45, item 6)
    for (const path of ['/contribute', '/data/api/v1/', '/docs/api']) expect(inMap.has(path), path).toBe(true);
  }, 120_000);

  it('lastmod is the modified date of the page feed (when its figures last changed)', async () => {
    const r = await request(served.url, '/sitemap.xml');
    const entry = /<url><loc>https:\/\/physpay\.example\/states\/texas<\/loc><lastmod>([^<]+)<\/lastmod><\/url>/.exec(r.text);
    const feed = JSON.parse(readFileSync(join(served.buildDir, 'public/data/api/v1/states/texas.json'), 'utf8')) as { modified: string };
    expect(entry?.[1]).toBe(feed.modified);
  });
});

describe('noindex', () => {
  it('specialty-in-state pages whose figures are all withheld are noindex, published ones are not', () => {
    const cells = pages.filter((p) => /^\/salaries\/[^/]+\/[^/]+$/.test(p.path));
    const withheld = cells.filter((p) => /data-field="median" data-value="withheld"/.test(p.html));
    expect(withheld.length).toBeGreaterThan(0);
    for (const p of cells) expect(p.html.includes(NOINDEX), p.path).toBe(withheld.includes(p));
  });
});

describe('the site icon', () => {
  it('every page links /favicon.svg, which is served, and /favicon.ico answers an ICO', async () => {
    for (const p of pages) expect(p.html, p.path).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg">');
    const svg = await request(served.url, '/favicon.svg');
    expect(svg.status).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    const ico = await request(served.url, '/favicon.ico');
    expect(ico.status).toBe(200);
    expect(ico.headers['content-type']).toBe('image/x-icon');
    expect([...ico.body.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
    expect(ico.body.readUInt32LE(14) + 22).toBe(ico.body.length);
  });
});
