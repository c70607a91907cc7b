/**
 * Browser protections of the HTML pages (issue 27, item 7; server/http/page-security.ts): every page,
 * the site's 404 and the data index answer with a Content-Security-Policy that allows only the page's own
 * inline script and style by hash, no framing, nosniff and a Referrer-Policy; JSON feeds are unchanged; and
 * in Chromium the pages run under that policy with no violation (charts, search, sorting, pay check, map).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { haveBrowser, launchChromium } from '../helpers/browser.ts';
import { get, request } from '../helpers/http.ts';
import { serveGolden, type Served } from './helpers.ts';

const PAGES = ['/', '/salaries', '/salaries/family-medicine', '/salaries/family-medicine/california', '/states', '/states/texas', '/residency', '/methodology', '/license', '/changelog', '/compare/cardiology/family-medicine'];

let s: Served;
let browser: Browser | undefined;
beforeAll(async () => {
  s = await serveGolden('page-security');
  if (haveBrowser) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

const inlineHashes = (html: string, tag: 'script' | 'style') =>
  [...html.matchAll(new RegExp(`<${tag}(\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'g'))]
    .filter((m) => !/application\/(ld\+)?json/.test(m[1] ?? ''))
    .map((m) => `'sha256-${createHash('sha256').update(m[2]!).digest('base64')}'`);

describe('security headers of HTML pages', () => {
  it.each(PAGES)('%s: CSP by hash, no framing, nosniff, referrer policy', async (path) => {
    const r = await get(s.url, path);
    expect(r.status).toBe(200);
    const csp = r.headers['content-security-policy'] as string;
    expect(csp, path).toBeTruthy();
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    for (const h of inlineHashes(r.text, 'script')) expect(csp).toContain(h);
    for (const h of inlineHashes(r.text, 'style')) expect(csp).toContain(h);
    expect(r.headers['x-frame-options']).toBe('DENY');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('the site 404 and the open data index (HTML) carry them too; JSON feeds do not need them', async () => {
    const nf = await get(s.url, '/salaries/no-such-specialty', { accept: 'text/html' });
    expect(nf.status).toBe(404);
    expect(nf.headers['content-security-policy']).toContain("default-src 'none'");
    const idx = await get(s.url, '/data/api/v1/', { accept: 'text/html' });
    expect(idx.status).toBe(200);
    expect(String(idx.headers['content-type'])).toContain('text/html');
    expect(idx.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const feed = await get(s.url, '/data/api/v1/specialties.json');
    expect(feed.headers['content-security-policy']).toBeUndefined();
    expect(feed.headers['x-content-type-options']).toBe('nosniff');
  });

  it('every HTML answer, whatever its status: the API reference pages and the 405 of /account', async () => {
    const answers = [
      await get(s.url, '/docs/api/', { accept: 'text/html' }),
      await get(s.url, '/docs/api/keyed', { accept: 'text/html' }),
      await request(s.url, '/account', { method: 'POST', headers: { accept: 'text/html' } }),
      await request(s.url, '/account', { method: 'PUT', headers: { accept: 'text/html' } }),
    ];
    for (const r of answers) {
      if (!String(r.headers['content-type']).startsWith('text/html')) continue;
      expect(r.headers['x-frame-options'], `${r.status}`).toBe('DENY');
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['referrer-policy']).toBeTruthy();
      expect(String(r.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    }
    expect(answers.filter((r) => String(r.headers['content-type']).startsWith('text/html')).length).toBeGreaterThanOrEqual(3);
  });
});

describe.skipIf(!haveBrowser)('pages under their CSP in Chromium', () => {
  it('no policy violation and no script error on any page; the pay check and search still work', async () => {
    const context = await browser!.newContext({ viewport: { width: 1100, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`${page.url()}: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`${page.url()}: ${m.text()}`); });
    // (a string: this file is type-checked without the DOM library)
    await page.addInitScript("document.addEventListener('securitypolicyviolation', function (e) { console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI); });");
    for (const path of PAGES) {
      const res = await page.goto(`${s.url}${path}`);
      expect(res?.status(), path).toBe(200);
      await page.waitForLoadState('load');
    }
    // the pay check computes in the page (its script ran under the policy)
    await page.goto(`${s.url}/salaries/family-medicine`);
    const input = page.locator('#pay-input');
    await input.fill('250000');
    
    await expect.poll(async () => (await page.locator('.pay-result').first().textContent()) ?? '').toMatch(/\d/);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
