/**
 * Site search and sortable tables in headless Chromium (the system's /usr/bin/chromium, never downloaded):
 * the search box finds specialties, states (by code too) and teaching hospitals from the build's
 * search-index.json, by keyboard, with combobox/listbox roles and a live status; table headers sort by
 * data-value with aria-sort, by click and by keyboard. Without JavaScript the box is hidden and tables
 * keep their default order. The queries of issue 45 at 390 and 1280 px: abbreviations, specialty + state,
 * residency words, Enter opening the first match, a visible "nothing matches" with suggestions; axe-clean.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { haveBrowser, outputDir } from '../helpers/browser.ts';
import { get } from '../helpers/http.ts';
import axe from 'axe-core';
import type { AxeResults } from 'axe-core';
import { useGoldenInChromium, type Served } from './helpers.ts';

const OUT = outputDir();
let s: Served;
let browser: Browser;
useGoldenInChromium('search-sort', (env) => ({ s, browser } = env));

const medians = (page: Page) => page.locator('table[data-sortable] tbody tr td:nth-child(4)').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-value')));

describe.skipIf(!haveBrowser)('search and sortable tables in Chromium', () => {
  it('the search index is a small static JSON file naming every specialty, state and hospital', async () => {
    const res = await get(s.url, '/search-index.json');
    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThan(60_000);
    const index = res.json<[string, string, string, string][]>();
    expect(index.find((e) => e[0] === 'Cardiology')?.[2]).toBe('/salaries/cardiology');
    expect(index.find((e) => e[0] === 'Texas')?.[3]).toBe('tx');
    expect(index.find((e) => e[0] === 'Pediatrics')?.[3]?.split('|')).toContain('peds');
    expect(index.find((e) => e[1] === 'Residency')?.[2]).toBe('/residency');
    expect(index.filter((e) => e[1] === 'State').length).toBe(51);
    expect(index.filter((e) => e[1] === 'Teaching hospital').length).toBeGreaterThan(50);
  });

  it('finds by name and state code, by keyboard, announcing the matches', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${s.url}/methodology`);
    const q = page.getByRole('combobox', { name: 'Find a specialty, state or teaching hospital' });
    expect(await q.isVisible()).toBe(true);
    await q.fill('cardio');
    const options = page.getByRole('option');
    await expect.poll(() => options.count()).toBeGreaterThan(0);
    expect(await options.allTextContents()).toContain('CardiologySpecialty');
    expect(await q.getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('#site-search-status').textContent()).toMatch(/matches/);
    await page.screenshot({ path: join(OUT, 'search-390.png') });
    await q.fill('tx');
    await expect.poll(() => options.first().textContent()).toBe('TexasState');
    await q.press('ArrowDown');
    expect(await options.first().getAttribute('aria-selected')).toBe('true');
    expect(await q.getAttribute('aria-activedescendant')).toBe('site-search-o0');
    await Promise.all([page.waitForURL(`${s.url}/states/texas`), q.press('Enter')]);
    await q.fill('zzzz');
    await expect.poll(() => page.locator('#site-search-status').textContent()).toBe('No specialty, state or teaching hospital matches.');
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const width of [390, 1280]) {
    it(`issue 45's queries at ${width} px: found, Enter opens the first, a visible no-match with suggestions, axe-clean`, async () => {
      // bypassCSP: axe is injected as an inline script, which the page's policy refuses
      const context = await browser.newContext({ viewport: { width, height: 844 }, bypassCSP: true });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${s.url}/methodology`);
      const q = page.getByRole('combobox', { name: 'Find a specialty, state or teaching hospital' });
      const options = page.getByRole('option');
      const none = page.locator('#site-search-none');
      const firstOption = async (query: string) => {
        await q.fill(query);
        await expect.poll(() => options.count(), { message: query }).toBeGreaterThan(0);
        return options.first().textContent();
      };
      expect(await firstOption('peds')).toBe('PediatricsSpecialty');
      expect(await firstOption('family medicine ohio')).toBe('Family Medicine in OhioSpecialty in state');
      expect(await firstOption('cardiology tx')).toBe('Cardiology in TexasSpecialty in state');
      expect(await firstOption('texas cardiology')).toBe('Cardiology in TexasSpecialty in state');
      for (const query of ['PGY-1', 'resident', 'residency']) expect(await firstOption(query), query).toBe('Resident pay at teaching hospitalsResidency');
      expect(await firstOption('PGY-2')).toBe('PGY-2 resident salaries by teaching hospitalResidency');
      expect(await firstOption('PGY-3 texas')).toBe('Teaching hospitals in Texas at every PGY levelResidency');
      expect(await firstOption('residents texas')).toBe('Teaching hospitals in TexasResidency');
      expect(await none.isVisible()).toBe(false);
      await page.screenshot({ path: join(OUT, `search-residents-texas-${width}.png`) });
      // no such specialty: said on screen, with links to the closest
      await q.fill('pediatric cardiology');
      await expect.poll(() => none.isVisible()).toBe(true);
      expect(await none.locator('p').textContent()).toBe('Nothing matches \u201cpediatric cardiology\u201d. Closest:');
      const suggested = await none.getByRole('link').allTextContents();
      expect(suggested.slice(0, 2).sort()).toEqual(['Cardiology', 'Pediatrics']);
      expect(await page.locator('#site-search-status').textContent()).toMatch(/^No specialty, state or teaching hospital matches\. Closest: /);
      expect(await q.getAttribute('aria-expanded')).toBe('false');
      await page.screenshot({ path: join(OUT, `search-no-match-${width}.png`) });
      await page.addScriptTag({ content: axe.source });
      const violations = async () => (await page.evaluate<AxeResults>('axe.run({ include: [".site-search"] }, { resultTypes: ["violations"] })')).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(await violations(), 'no match').toEqual([]);
      await firstOption('family medicine ohio');
      expect(await violations(), 'matches').toEqual([]);
      // Enter with no arrow key opens the first match
      await Promise.all([page.waitForURL(`${s.url}/salaries/family-medicine/ohio`), q.press('Enter')]);
      await q.fill('Residents Texas');
      await expect.poll(() => options.count()).toBeGreaterThan(0);
      await Promise.all([page.waitForURL(`${s.url}/states/texas#residency`), q.press('Enter')]);
      // a click opens an option; a suggestion is a link
      await firstOption('peds');
      await Promise.all([page.waitForURL(`${s.url}/salaries/pediatrics`), options.first().click()]);
      await q.fill('pediatric cardiology');
      await Promise.all([page.waitForURL(`${s.url}/salaries/cardiology`), none.getByRole('link', { name: 'Cardiology', exact: true }).click()]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('sorts a table by a column header: click and keyboard, numbers by data-value, aria-sort', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${s.url}/salaries`);
    const before = await medians(page);
    const header = page.locator('table[data-sortable] thead th').nth(3);
    await header.getByRole('button').click();
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    const nums = (v: (string | null)[]) => v.filter((x) => x !== 'withheld' && x !== null).map(Number);
    const asc = await medians(page);
    expect(nums(asc)).toEqual([...nums(asc)].sort((a, b) => a - b));
    expect(asc.slice(nums(asc).length).every((x) => x === 'withheld')).toBe(true); // withheld last
    await header.getByRole('button').focus();
    await page.keyboard.press('Enter');
    expect(await header.getAttribute('aria-sort')).toBe('descending');
    const desc = await medians(page);
    expect(nums(desc)).toEqual([...nums(desc)].sort((a, b) => b - a));
    expect([...desc].sort()).toEqual([...before].sort());
    await page.locator('table[data-sortable]').screenshot({ path: join(OUT, 'sorted-table-1280.png') });
    await context.close();
  });

  it('a PGY level page (/residency/pgy/3) sorts by adjusted pay and by hospital at 390 px; its level menu and state list are plain links; a state\'s page of every level sorts too', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${s.url}/residency/pgy/3`);
    expect(await page.locator('h1').textContent()).toBe('PGY-3 resident salaries by teaching hospital');
    const menu = page.getByRole('navigation', { name: 'Postgraduate year' });
    expect(await menu.getByRole('link', { name: 'PGY-1' }).getAttribute('href')).toBe('/residency');
    expect(await menu.locator('[aria-current="page"]').textContent()).toBe('PGY-3');
    const table = page.locator('table[data-sortable]');
    const col = (k: number) => table.locator(`tbody tr td:nth-child(${k}), tbody tr th:nth-child(${k})`).evaluateAll((cells) => cells.map((c) => c.getAttribute('data-value') ?? c.textContent!.trim()));
    const adjusted = table.locator('thead th').nth(5);
    await adjusted.getByRole('button').click();
    await adjusted.getByRole('button').click();
    expect(await adjusted.getAttribute('aria-sort')).toBe('descending');
    const desc = (await col(6)).filter((v) => v !== 'null').map(Number);
    expect(desc.length).toBeGreaterThan(20);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    await page.screenshot({ path: join(OUT, 'residency-level-sorted-390.png') });
    const name = table.locator('thead th').nth(1);
    await name.getByRole('button').click();
    const names = await col(2);
    expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(errors).toEqual([]);
    await Promise.all([page.waitForURL(`${s.url}/residency/levels/texas`), page.locator('#states-h ~ ul').getByRole('link', { name: 'Texas' }).click()]);
    expect(await page.locator('h1').textContent()).toBe('Resident salaries by PGY level in Texas');
    // a state's page sorts by any level; "none" (the scale ends earlier) sorts last
    const pgy5 = page.locator('table[data-sortable] thead th').nth(7);
    expect(await pgy5.textContent()).toBe('PGY-5');
    await pgy5.getByRole('button').click();
    const cells = await page.locator('table[data-sortable] tbody tr td:nth-child(8)').evaluateAll((cs) => cs.map((c) => c.querySelector('[data-value]')?.getAttribute('data-value') ?? c.textContent!.trim()));
    const figures = cells.filter((c) => c !== 'none').map(Number);
    expect(figures).toEqual([...figures].sort((a, b) => a - b));
    expect(cells.slice(figures.length).every((c) => c === 'none')).toBe(true);
    expect(cells.length).toBeGreaterThan(figures.length);
    await page.screenshot({ path: join(OUT, 'residency-levels-state-sorted-390.png') });
    await context.close();
  });

  it('without JavaScript: no search box, tables in their default order', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${s.url}/salaries`);
    expect(await page.locator('.site-search').isVisible()).toBe(false);
    expect(await page.locator('header nav a[href="/states"]').isVisible()).toBe(true);
    expect(await page.locator('th[aria-sort]').count()).toBe(0);
    await context.close();
  });
});
