/**
 * Dead ends and contradictions of the public pages, in Chromium at 390 and 1280 px (one page load per check):
 * the API reference and /account carry the public pages' one navigation bar and footer, and the footer links
 * them (and /contribute); a state with published specialties but none ranked says why (the ranking's report
 * floor) instead of "no specialty has published figures"; state and specialty-in-state pages link the form
 * with their specialty and state filled in, and the form opens with them; the pay box reads 300k as $300,000. Screenshots: test-output/dead-ends/.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { haveBrowser, outputDir } from '../helpers/browser.ts';
import { useGoldenInChromium, type Served } from './helpers.ts';

const OUT = outputDir('dead-ends');
let s: Served;
let browser: Browser;
useGoldenInChromium('dead-ends', (env) => ({ s, browser } = env));

const WIDTHS = [390, 1280] as const;

/** Open a page at a width; `shot`: a screenshot's name (the whole page for short pages, else the screen). */
async function open(width: number, path: string, shot: string | null, fullPage = false): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, ...(width < 500 ? { deviceScaleFactor: 2, isMobile: true, hasTouch: true } : {}) });
  const page = await context.newPage();
  const res = await page.goto(`${s.url}${path}`);
  expect(res?.status(), path).toBe(200);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth'), `${path} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
  if (shot) await page.screenshot({ path: join(OUT, `${shot}-${width}.png`), fullPage });
  return page;
}

const navLinks = (page: Page) => page.locator('header nav[aria-label="Site"] a').evaluateAll((as) => as.map((a) => `${a.getAttribute('href')} ${a.textContent}`));
const footerHrefs = (page: Page) => page.locator('footer a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));

describe.skipIf(!haveBrowser)('no dead ends', () => {
  for (const width of WIDTHS) {
    it(`at ${width} px: a state without ranked specialties says why, links the form with the state, and the footer links the served pages`, async () => {
      const page = await open(width, '/states/texas', 'state-texas');
      await page.locator('#no-ranking').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(OUT, `state-texas-ranking-${width}.png`) });
      const why = await page.locator('#no-ranking').textContent();
      expect(why).toMatch(/^No specialty has the 15 reports in Texas needed to be ranked; \d+ have published figures \(from 3 reports\), listed below\.$/);
      expect(await page.locator('main').textContent()).not.toContain('No specialty has published figures');
      const nav = await navLinks(page);
      expect(nav.length).toBe(6);
      expect(await footerHrefs(page)).toEqual(expect.arrayContaining(['/contribute', '/docs/api/', '/account']));
      await page.click('a[href="/contribute?state=texas"]');
      await page.waitForURL(/\/contribute\?state=texas$/);
      expect(await page.locator('#f-state').inputValue()).toBe('TX');
      expect(await page.locator('#f-specialty').inputValue()).toBe('');
      await page.context().close();
    });

    it(`at ${width} px: a specialty-in-state page takes "300k" in its pay box and links the form with both filled in`, async () => {
      const page = await open(width, '/salaries/family-medicine/california', 'specialty-state');
      for (const typed of ['300k', '$300,000', '300000', '$300K']) {
        await page.locator('#pay-input').fill(typed);
        expect(await page.locator('#pay-result').getAttribute('data-state'), typed).toBe('ok');
        expect(await page.locator('#pay-result').textContent(), typed).toMatch(/^\$300,000 is /);
      }
      await page.locator('#pay-input').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(OUT, `pay-box-300k-${width}.png`) });
      await page.click('a[href="/contribute?specialty=family-medicine&state=california"]');
      await page.waitForURL(/\/contribute\?/);
      expect(await page.locator('#f-state').inputValue()).toBe('CA');
      expect(await page.locator('#f-specialty').inputValue()).toBe('Family Medicine');
      await page.screenshot({ path: join(OUT, `contribute-prefilled-${width}.png`), fullPage: false });
      await page.context().close();
    });

    it(`at ${width} px: the API reference and /account have the public pages' navigation bar and footer`, async () => {
      const pub = await open(width, '/salaries', null);
      const nav = await navLinks(pub);
      const footer = await footerHrefs(pub);
      await pub.context().close();
      for (const [path, shot] of [['/docs/api/', 'api-reference'], ['/account', 'account']] as const) {
        const page = await open(width, path, shot, true);
        expect(await navLinks(page), path).toEqual(nav);
        expect(await footerHrefs(page), path).toEqual(footer);
        await page.context().close();
      }
    });
  }
});
