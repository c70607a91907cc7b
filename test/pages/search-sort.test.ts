/**
 * Site search and sortable tables in headless Chromium (the system's /usr/bin/chromium, never downloaded):
 * the search box finds specialties, states (by code too) and teaching hospitals from the build's
 * search-index.json, by keyboard, with combobox/listbox roles and a live status; table headers sort by
 * data-value with aria-sort, by click and by keyboard. Without JavaScript the box is hidden and tables
 * keep their default order.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { haveBrowser, outputDir } from '../helpers/browser.ts';
import { get } from '../helpers/http.ts';
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
