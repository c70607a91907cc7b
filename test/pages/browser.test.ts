/**
 * A specialty page in headless Chromium (the system's /usr/bin/chromium through playwright-core; no
 * browser is ever downloaded): the distribution chart is visible with a non-zero size, the copy button
 * puts the attribution line on the clipboard, and the page fits a phone screen. Screenshots go to
 * test-output/pages/ (git-ignored).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { get } from '../helpers/http.ts';
import { serveGolden, type Served } from './helpers.ts';

const CHROMIUM = process.env.PHYSPAY_CHROMIUM ?? '/usr/bin/chromium';
const OUT = join(process.cwd(), 'test-output', 'pages');
const haveBrowser = existsSync(CHROMIUM);

let s: Served;
let browser: Browser;

beforeAll(async () => {
  if (!haveBrowser) return;
  mkdirSync(OUT, { recursive: true });
  s = await serveGolden('pages-browser');
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe.skipIf(!haveBrowser)(`a specialty page in Chromium (${CHROMIUM})`, () => {
  it('shows the chart, copies the attribution line to the clipboard, and saves a screenshot', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.url });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
    const external: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(s.url)) external.push(r.url());
    });
    const res = await page.goto(`${s.url}/salaries/family-medicine`);
    expect(res?.status()).toBe(200);

    const chart = page.locator('svg[data-chart="dist"]');
    await expect.poll(() => chart.isVisible()).toBe(true);
    const box = await chart.boundingBox();
    expect(box!.width).toBeGreaterThan(200);
    expect(box!.height).toBeGreaterThan(50);
    expect(await chart.getAttribute('role')).toBe('img');
    expect(await page.locator('#dist-title').textContent()).toContain('Family Medicine');
    // The median marker is drawn inside the box.
    const median = await page.locator('svg[data-chart="dist"] line.median').boundingBox();
    const rect = await page.locator('svg[data-chart="dist"] rect.box').boundingBox();
    expect(median!.x).toBeGreaterThan(rect!.x);
    expect(median!.x).toBeLessThan(rect!.x + rect!.width);

    const feed = (await get(s.url, '/data/api/v1/specialties/family-medicine.json')).json<{ attribution: string }>();
    await page.click('button[data-copy="attr"]');
    await expect.poll(() => page.locator('#attr-status').textContent()).toBe('Copied to the clipboard.');
    const clip = await page.evaluate<string>('navigator.clipboard.readText()'); // browser-side expression (no DOM types here)
    expect(clip).toBe(feed.attribution);
    expect(clip).toMatch(/^PhysPay, "Family Medicine Salary Data \(synthetic demo data\)," https:\/\/physpay\.example\/salaries\/family-medicine \(data as of \d{4}-\d{2}-\d{2}; accessed \d{4}-\d{2}-\d{2}\)\. Licensed under CC BY 4\.0\.$/);

    await page.screenshot({ path: join(OUT, 'specialty-desktop.png'), fullPage: true });
    expect(errors).toEqual([]);
    expect(external).toEqual([]); // no external assets
    await context.close();
  });

  it('copies with the textarea fallback when the async clipboard API is missing', async () => {
    const context = await browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.url });
    // Hide navigator.clipboard from the page's script, keeping a handle to read the result back.
    await context.addInitScript('window.__clip = navigator.clipboard; Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined });');
    const page = await context.newPage();
    await page.goto(`${s.url}/states/texas`);
    expect(await page.evaluate<boolean>('navigator.clipboard === undefined')).toBe(true);
    await page.click('button[data-copy="attr"]');
    await expect.poll(() => page.locator('#attr-status').textContent()).toBe('Copied to the clipboard.');
    const shown = await page.locator('#attr').textContent();
    expect(await page.evaluate<string>('window.__clip.readText()')).toBe(shown);
    await context.close();
  });

  it('fits a phone screen: no horizontal page scroll, the chart scales down and stays visible', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${s.url}/salaries/family-medicine`);
    const chart = page.locator('svg[data-chart="dist"]');
    expect(await chart.isVisible()).toBe(true);
    const box = await chart.boundingBox();
    expect(box!.width).toBeGreaterThan(250);
    expect(box!.width).toBeLessThanOrEqual(390);
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(OUT, 'specialty-phone.png'), fullPage: false });
    await page.goto(`${s.url}/residency`);
    expect(await page.locator('svg[data-chart="ranked"]').isVisible()).toBe(true);
    await context.close();
  });
});
