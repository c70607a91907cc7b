/**
 * Every page kind at 360 px in headless Chromium (the system's /usr/bin/chromium, never downloaded): the
 * page never scrolls sideways; every number of every table can be read (inside the viewport, or inside
 * its table's scroll container and not hidden under the sticky first column when scrolled to); chart
 * text renders at 12 px or more and stays inside its chart. Screenshots at 390 and 1280 px go to
 * test-output/pages/ (git-ignored).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { CHROMIUM, haveBrowser, outputDir } from '../helpers/browser.ts';
import { useGoldenInChromium, type Served } from './helpers.ts';
import { percentileBarSvg } from '../../build/pages/chart.ts';
import { CSS } from '../../build/pages/layout.ts';

const OUT = outputDir();

let s: Served;
let browser: Browser;
useGoldenInChromium('phone-layout', (env) => ({ s, browser } = env));

const PAGES: [string, string][] = [
  ['home', '/'],
  ['specialties', '/salaries'],
  ['specialty', '/salaries/cardiology'],
  ['specialty-state', '/salaries/cardiology/texas'],
  ['states', '/states'],
  ['state', '/states/texas'],
  ['residency', '/residency'],
  ['institution', ''], // the first hospital linked from /residency
  ['residency-levels-state', '/residency/levels/texas'],
  ['methodology', '/methodology'],
  ['license', '/license'],
  ['changelog', '/changelog'],
];

/** Browser-side check of one page (a string: no DOM types in this project). Returns a list of problems. */
const CHECK = `(() => {
  const vw = document.documentElement.clientWidth;
  const problems = [];
  if (document.documentElement.scrollWidth > vw) problems.push('page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + vw);
  const label = (el) => (el.closest('table')?.querySelector('caption')?.textContent || 'table').slice(0, 50) + ': ' + el.textContent.trim();
  for (const cell of document.querySelectorAll('tbody .num')) {
    let r = cell.getBoundingClientRect();
    if (r.width === 0) { problems.push('hidden cell ' + label(cell)); continue; }
    if (r.left >= 0 && r.right <= vw + 0.5) continue;
    const wrap = cell.closest('.table-wrap');
    if (!wrap || getComputedStyle(wrap).overflowX !== 'auto') { problems.push('off-screen, no scroll container: ' + label(cell)); continue; }
    const w = wrap.getBoundingClientRect();
    if (w.left < 0 || w.right > vw + 0.5) { problems.push('scroll container wider than the screen: ' + label(cell)); continue; }
    // Scroll the container until the cell's right edge meets the container's: it must then be on top.
    wrap.scrollLeft += r.right - w.right;
    r = cell.getBoundingClientRect();
    const y = Math.min(Math.max(r.top + r.height / 2, 1), innerHeight - 1);
    cell.scrollIntoView({ block: 'center', inline: 'nearest' });
    r = cell.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(hit === cell || cell.contains(hit))) problems.push('covered when scrolled to: ' + label(cell) + ' (by ' + (hit ? hit.tagName + ' ' + hit.textContent.trim().slice(0, 30) : 'nothing') + ')');
    wrap.scrollLeft = 0;
    void y;
  }
  for (const wrap of document.querySelectorAll('.table-wrap')) {
    if (wrap.scrollWidth <= wrap.clientWidth) continue;
    const first = wrap.querySelector('tbody tr > :first-child');
    if (first && getComputedStyle(first).position !== 'sticky') problems.push('scrolling table without a fixed first column: ' + label(first));
  }
  for (const svg of document.querySelectorAll('svg.chart')) {
    const box = svg.getBoundingClientRect();
    const scale = box.width / svg.viewBox.baseVal.width;
    for (const t of svg.querySelectorAll('text')) {
      const px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (px < 12) problems.push(svg.dataset.chart + ': text "' + t.textContent + '" renders at ' + px.toFixed(1) + ' px');
      const b = t.getBoundingClientRect();
      if (b.left < box.left - 1 || b.right > box.right + 1) problems.push(svg.dataset.chart + ': text "' + t.textContent + '" leaves the chart');
    }
  }
  return problems;
})()`;

/** Browser-side: every pair of texts of one chart whose boxes overlap (half a pixel of slack), as "chart: a | b". */
const OVERLAPS = `(() => {
  const out = [];
  for (const svg of document.querySelectorAll('svg.chart')) {
    const ts = [...svg.querySelectorAll('text')].map((t) => [t.getBoundingClientRect(), t.textContent]);
    for (let i = 0; i < ts.length; i++) for (let j = i + 1; j < ts.length; j++) {
      const [a, at] = ts[i], [b, bt] = ts[j];
      if (a.width && b.width && a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) out.push(svg.dataset.chart + ': ' + at + ' | ' + bt);
    }
  }
  return out;
})()`;

/** `n` distributions of random figures (seeded), money and $/wRVU, some with a reference and some without tails. */
function randomCharts(n: number): string {
  let seed = 20261128;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const cents = i % 3 === 0;
    const scale = cents ? 20 + rnd() * 120 : 50_000 + rnd() * 900_000;
    const spread = 0.02 + rnd() * 0.5; // from nearly equal figures to a wide spread
    const median = scale;
    const fig = (k: number) => Math.max(1, cents ? Math.round(median * (1 + k * spread) * 100) / 100 : Math.round(median * (1 + k * spread)));
    const tails = rnd() < 0.8;
    const p = { p10: tails ? fig(-0.9 * rnd() - 0.35) : null, p25: fig(-0.3 * rnd() - 0.02), median, p75: fig(0.3 * rnd() + 0.02), p90: tails ? fig(0.9 * rnd() + 0.35) : null };
    const reference = rnd() < 0.3 ? { value: fig(rnd() - 0.5), label: 'National median', field: 'national_median' } : null;
    out.push(`<figure>${percentileBarSvg({ id: `c${i}`, title: 't', desc: 'd' }, p, { cents, reference })}</figure>`);
  }
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><style>${CSS}</style></head><body><main>${out.join('')}</main></body></html>`;
}

describe.skipIf(!haveBrowser)(`every page kind at 360 px in Chromium (${CHROMIUM})`, () => {
  it('no sideways page scroll, every table number readable, chart text >= 12 px inside its chart', async () => {
    const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const page = await phone.newPage();
    const found: Record<string, string[]> = {};
    for (const [kind, path0] of PAGES) {
      let path = path0;
      if (!path) {
        await page.goto(`${s.url}/residency`);
        path = (await page.locator('table tbody th a').first().getAttribute('href'))!;
      }
      const res = await page.goto(`${s.url}${path}`);
      expect(res?.status(), path).toBe(200);
      const problems = await page.evaluate<string[]>(CHECK);
      if (problems.length) found[`${kind} ${path}`] = problems.slice(0, 8);
    }
    expect(found).toEqual({});
    await phone.close();
  }, 120_000);

  it('saves screenshots at 390 and 1280 px', async () => {
    for (const [width, height, mobile] of [[390, 844, true], [1280, 900, false]] as const) {
      const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: mobile ? 2 : 1, isMobile: mobile, hasTouch: mobile });
      const page = await context.newPage();
      for (const [kind, path] of PAGES) {
        if (!path) continue;
        await page.goto(`${s.url}${path}`);
        await page.screenshot({ path: join(OUT, `layout-${kind}-${width}.png`), fullPage: true, scale: 'css' }); // CSS pixels: a quarter of the pixels to encode at 2x
      }
      await context.close();
    }
  }, 120_000);

  it('chart labels never overlap, at 390 and 1280 px: every page kind with charts, and 300 distributions of random figures', async () => {
    const found: Record<string, string[]> = {};
    for (const [width, mobile] of [[390, true], [1280, false]] as const) {
      const context = await browser.newContext({ viewport: { width, height: 844 }, isMobile: mobile, hasTouch: mobile });
      const page = await context.newPage();
      for (const [kind, path] of [...PAGES, ['specialty-other', '/salaries/family-medicine'], ['residency-level', '/residency/pgy/2']] as [string, string][]) {
        if (!path) continue;
        await page.goto(`${s.url}${path}`);
        const o = await page.evaluate<string[]>(OVERLAPS);
        if (o.length) found[`${kind} ${width}`] = o.slice(0, 5);
      }
      await page.setContent(randomCharts(300));
      const o = await page.evaluate<string[]>(OVERLAPS);
      if (o.length) found[`random figures ${width} (${o.length} pairs)`] = o.slice(0, 5);
      if (width === 390) await page.screenshot({ path: join(OUT, 'chart-labels-random-390.png'), clip: { x: 0, y: 0, width: 390, height: 1600 } });
      await context.close();
    }
    expect(found).toEqual({});
  }, 120_000);
});
