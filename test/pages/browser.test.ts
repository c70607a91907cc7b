/**
 * A specialty page in headless Chromium (the system's /usr/bin/chromium through playwright-core; no
 * browser is ever downloaded): the distribution chart is visible with a non-zero size, the copy button
 * puts the attribution line on the clipboard, and the page fits a phone screen. Screenshots go to
 * test-output/pages/ (git-ignored).
 *
 * "Where does my pay fall?": values typed into the box of a specialty page and of a specialty-in-state page
 * with P10/P90 withheld (3 to 14 reports) give, in the page, the percentile and band of payPosition() on
 * standardGrid() of the page's feed (every grid value, its neighbours, ties, 200 random compensations),
 * highlight that band's row, and make no request.
 */
import { annualPayIssue } from '../../build/contract/annual-pay.ts';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, haveBrowser, outputDir } from '../helpers/browser.ts';
import { payPosition, standardGrid, type GridPoint } from '../../build/compute/pay-position.ts';
import { listFiles } from '../helpers/tree.ts';
import { get } from '../helpers/http.ts';
import { useGoldenInChromium, type Served } from './helpers.ts';

const OUT = outputDir();

let s: Served;
let browser: Browser;
useGoldenInChromium('pages-browser', (env) => ({ s, browser } = env));

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
    expect(clip).toMatch(/^PhysPay, "Family Medicine Salary Data \(synthetic demo data\)," https:\/\/physpay\.example\/salaries\/family-medicine \(data as of \d{4}-\d{2}-\d{2}; release \d{4}-\d{2}-\d{2}, https:\/\/physpay\.example\/data\/api\/v1\/releases\/\d{4}-\d{2}-\d{2}\/specialties\/family-medicine\.json; accessed \d{4}-\d{2}-\d{2}\)\. Licensed under CC BY 4\.0\.$/);

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

interface PercentileFeed { n: number | null; p10: number | null; p25: number | null; median: number | null; p75: number | null; p90: number | null }
const gridOfFeed = (f: PercentileFeed) => standardGrid({ p10: f.p10, p25: f.p25, p50: f.median, p75: f.p75, p90: f.p90 });

/** Seeded PRNG (mulberry32), so a failing value can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the user types, and the number it means: every grid value and its neighbours, and 200 random amounts (some with cents, "$" and ","). */
function typedValues(grid: GridPoint[], seed: number): { text: string; x: number }[] {
  const out: { text: string; x: number }[] = [];
  for (const g of grid) for (const x of [g.value, g.value - 1, g.value + 1, g.value - 0.5, g.value + 0.01]) out.push({ text: String(x), x });
  out.push({ text: '10000', x: 10_000 }); // the smallest year's pay taken (annualPayIssue)
  for (const g of grid) out.push({ text: `$${g.value / 1000}k`, x: g.value }); // thousands with k (parsePayAmount)
  const lo = grid[0]!.value * 0.6;
  const hi = grid.at(-1)!.value * 1.4;
  const r = rng(seed);
  for (let k = 0; k < 200; k++) {
    const cents = k % 4 === 3;
    const x = cents ? Math.round((lo + r() * (hi - lo)) * 100) / 100 : Math.round(lo + r() * (hi - lo));
    const text = k % 3 === 1 && !cents ? `$${String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}` : String(x);
    out.push({ text, x });
  }
  return out;
}

/** The box's state after typing (browser-side expression: no DOM types here). */
const READ_BOX = `(() => { const o = document.getElementById('pay-result'); const hits = [...document.querySelectorAll('.paycheck tr.hit')].map((t) => t.getAttribute('data-band'));
  return { state: o.getAttribute('data-state'), percentile: o.getAttribute('data-percentile'), band: o.getAttribute('data-band'), text: o.textContent, hits, invalid: document.getElementById('pay-input').getAttribute('aria-invalid') }; })()`;
interface BoxState { state: string; percentile: string | null; band: string | null; text: string; hits: string[]; invalid: string | null }

/** Types every value into the box and compares the page's answer with payPosition(); returns the number compared. */
async function checkPayBox(page: Page, grid: GridPoint[], seed: number): Promise<number> {
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  const url = page.url();
  const input = page.locator('#pay-input');
  expect(await input.isVisible()).toBe(true); // the script showed the field
  expect(await page.locator('label[for="pay-input"]').textContent()).toBe('Your total annual compensation, $');
  expect(await page.locator('#pay-result').getAttribute('aria-live')).toBe('polite');
  const mismatches: string[] = [];
  const values = typedValues(grid, seed);
  for (const { text, x } of values) {
    await input.fill(text);
    const got = await page.evaluate<BoxState>(READ_BOX);
    const want = payPosition(grid, x);
    const wantPct = want.percentile === null ? '' : String(want.percentile);
    if (got.state !== 'ok' || got.percentile !== wantPct || got.band !== want.band || got.hits.join() !== want.band) {
      mismatches.push(`${JSON.stringify(text)}: page ${got.state} ${got.percentile} ${got.band} (row ${got.hits.join()}), payPosition ${wantPct} ${want.band}`);
    }
    if (want.percentile !== null && !got.text.includes(`estimated percentile of ${want.percentile.toFixed(1)}, in the ${want.band.replace('-', '\u2013')} band`)) mismatches.push(`${text}: reads ${got.text}`);
    if (want.percentile === null && !got.text.includes(`is ${want.band} (`)) mismatches.push(`${text}: reads ${got.text}`);
  }
  expect(mismatches.slice(0, 10)).toEqual([]);
  // Empty, negative and non-numeric input: a clear message, no band, the field marked invalid (not when empty).
  const messages: [string, string, string, string | null][] = [
    ['', 'empty', 'Type an amount to see where it falls.', null],
    ['-5000', 'negative', 'Pay cannot be negative: enter an amount of $0 or more.', 'true'],
    ['abc', 'invalid', 'Enter the amount in dollars, for example 250000, 250,000 or 250k.', 'true'],
    ['250kk', 'invalid', 'Enter the amount in dollars, for example 250000, 250,000 or 250k.', 'true'],
    // not a year's pay: the tool server's and keyed API's rule (annualPayIssue), not ranked "below P10"
    ['420', 'invalid', `$420 ${annualPayIssue(420)}.`, 'true'],
    ['150.50', 'invalid', `$150.50 ${annualPayIssue(150.5)}.`, 'true'],
    ['0', 'invalid', `$0 ${annualPayIssue(0)}.`, 'true'],
    ['200,000,000', 'invalid', `$200,000,000 ${annualPayIssue(200_000_000)}.`, 'true'],
  ];
  for (const [text, state, message, invalid] of messages) {
    await input.fill(text);
    const got = await page.evaluate<BoxState>(READ_BOX);
    expect({ state: got.state, text: got.text, band: got.band, hits: got.hits, invalid: got.invalid }, text).toEqual({ state, text: message, band: '', hits: [], invalid });
  }
  await input.fill(String(grid[1]!.value + 1));
  await input.press('Enter'); // nothing to submit
  expect(page.url()).toBe(url);
  expect(requests).toEqual([]); // computed in the page: not one request while typing
  return values.length;
}

describe.skipIf(!haveBrowser)('"Where does my pay fall?" in Chromium', () => {
  it('on a specialty page: the page gives payPosition()\'s percentile and band for 230 typed values, with no request', async () => {
    const feed = (await get(s.url, '/data/api/v1/specialties/family-medicine.json')).json<PercentileFeed>();
    const grid = gridOfFeed(feed);
    expect(grid.map((g) => g.percentile)).toEqual([10, 25, 50, 75, 90]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${s.url}/salaries/family-medicine`);
    expect(await page.locator('.paycheck').getAttribute('data-pay-grid')).toBe(JSON.stringify(grid.map((g) => [g.percentile, g.value])));
    expect(await checkPayBox(page, grid, 1)).toBeGreaterThanOrEqual(225);
    await page.locator('#pay-input').fill('300000');
    await page.locator('.paycheck').screenshot({ path: join(OUT, 'pay-check-specialty-1280.png') });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('on a specialty-in-state page with P10/P90 withheld (3 to 14 reports): same answers, fits 360 and 390 px', async () => {
    // A published cell of 3 to 14 reports from the served build, preferring one whose percentiles tie.
    const dir = join(s.buildDir, 'public', 'data', 'api', 'v1', 'specialties');
    const thin = listFiles(dir)
      .filter((p) => p.includes('/states/'))
      .map((p) => ({ p, f: JSON.parse(readFileSync(join(dir, p), 'utf8')) as PercentileFeed & { citation_url: string } }))
      .filter(({ f }) => f.n !== null && f.n >= 3 && f.n <= 14 && f.median !== null);
    expect(thin.length).toBeGreaterThan(0);
    const tied = (f: PercentileFeed) => new Set(gridOfFeed(f).map((g) => g.value)).size < gridOfFeed(f).length;
    const { f: feed } = thin.find(({ f }) => tied(f)) ?? thin[0]!;
    expect(feed.p10).toBeNull();
    expect(feed.p90).toBeNull();
    const grid = gridOfFeed(feed);
    expect(grid.map((g) => g.percentile)).toEqual([25, 50, 75]);
    const path = new URL(feed.citation_url).pathname;

    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${s.url}${path}`);
    expect(await page.locator('.paycheck tr[data-band]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-band')))).toEqual(['below P25', 'P25-P50', 'P50-P75', 'above P75']);
    expect(await checkPayBox(page, grid, 2)).toBeGreaterThanOrEqual(215);
    await page.locator('#pay-input').fill(String(grid[1]!.value + 5_000));
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.locator('.paycheck').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUT, 'pay-check-state-390.png') });
    await page.setViewportSize({ width: 360, height: 740 });
    expect(await overflow()).toBeLessThanOrEqual(0);
    const box = await page.locator('.paycheck').boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(360);
    expect(errors).toEqual([]);
    await context.close();

    // The same page at 1280 px.
    const wide = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const desk = await wide.newPage();
    await desk.goto(`${s.url}${path}`);
    await desk.locator('#pay-input').fill(String(grid[0]!.value - 1_000));
    expect((await desk.evaluate<BoxState>(READ_BOX)).band).toBe(`below P25`);
    await desk.locator('.paycheck').screenshot({ path: join(OUT, 'pay-check-state-1280.png') });
    await wide.close();
  });

  it('without JavaScript the box is the table of bands, the field stays hidden', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${s.url}/salaries/family-medicine`);
    expect(await page.locator('#pay-input').isVisible()).toBe(false);
    expect(await page.locator('#pay-bands').isVisible()).toBe(true);
    expect(await page.locator('#pay-bands tbody tr').count()).toBe(6);
    await page.locator('.paycheck').screenshot({ path: join(OUT, 'pay-check-nojs-390.png') });
    await context.close();
  });
});
