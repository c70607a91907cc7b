/**
 * /contribute in Debian Chromium against a real server (injected clock): with JavaScript the page solves the
 * proof of work under its own CSP and the report is received with where its pay falls; without JavaScript
 * the same form is accepted on its token; a wrong value comes back with its message by the field; a
 * specialty page's link opens the form with the specialty filled in; nothing is requested from elsewhere;
 * axe finds no violation at 390 and 1280 px. Then the operator's path: `physpay import submissions` takes both
 * into the reports DB, a moderator approves them, and the next build counts them. Screenshots:
 * test-output/contribute/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import axe from 'axe-core';
import type { AxeResults } from 'axe-core';
import type { Browser, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { goldenBuild, goldenBuildIn, makeGoldenDb } from '../helpers/golden-build.ts';
import { runCliText } from '../helpers/cli.ts';
import { haveBrowser, launchChromium, outputDir } from '../helpers/browser.ts';
import { closeAfterAll, startTestServer } from '../helpers/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import type { RunningServer } from '../../server/main.ts';

const later = closeAfterAll();
const tmp = useTempDir('contribute-browser');
let now = new Date('2026-11-20T12:00:00Z');
let s: RunningServer;

beforeAll(async () => {
  const { dist } = goldenBuildIn(tmp.path, join(tmp.path, 'dist'));
  s = later(await startTestServer(dist, join(tmp.path, 'service.db'), { clock: () => now }));
}, 60_000);

describe.skipIf(!haveBrowser)('/contribute in Chromium', () => {
  let browser: Browser;
  const shots = outputDir('contribute');
  const outside: string[] = [];
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(width: number, opts: { js?: boolean; bypassCSP?: boolean } = {}): Promise<{ page: Page; errors: string[] }> {
    const ctx = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: opts.js ?? true, bypassCSP: opts.bypassCSP ?? false });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('request', (r) => void (r.url().startsWith(s.url) || outside.push(r.url())));
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => void (m.type() === 'error' && !/status of (403|422)/.test(m.text()) && errors.push(m.text())));
    return { page, errors };
  }

  async function fill(page: Page, total: string) {
    await page.selectOption('#f-state', 'TX');
    await page.fill('#f-year', '2025');
    await page.fill('#f-total_compensation', total);
    await page.fill('#f-hours_per_week', '50');
    await page.selectOption('#f-practice_setting', 'Academic');
    now = new Date(now.getTime() + 20_000); // the person takes 20 s
  }

  it('with JavaScript: the proof of work is solved in the page and the report is received; the specialty link fills the form', async () => {
    const { page, errors } = await open(1280);
    const res = await page.goto(`${s.url}/contribute?specialty=cardiology`);
    expect(res?.status()).toBe(200);
    expect(await page.inputValue('#f-specialty')).toBe('Cardiology');
    await fill(page, '480,000');
    await page.screenshot({ path: join(shots, 'form-1280.png'), fullPage: true });
    await Promise.all([page.waitForURL(`${s.url}/contribute`), page.click('form.intake button[type=submit]')]);
    await page.locator('h1', { hasText: 'your report was received' }).waitFor();
    expect(await page.locator('#pay-check').textContent()).toMatch(/Cardiology (in Texas|\(United States\)): a total compensation of \$480,000 falls/);
    await page.screenshot({ path: join(shots, 'thanks-1280.png'), fullPage: true });
    const stored = (await s.store.pendingSubmissions(100)).find((p) => p.report.total_compensation === 480000)!;
    expect(stored.signals).toMatchObject({ challenge: 'pow', seconds_to_submit: 20 });
    expect(stored.report).toMatchObject({ specialty: 'Cardiology', state: 'TX', practice_setting: 'Academic' });
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  });

  it('without JavaScript: the same form is accepted on its token; a wrong value comes back by its field', async () => {
    const { page } = await open(390, { js: false });
    await page.goto(`${s.url}/contribute`);
    await page.fill('#f-specialty', 'family medicine');
    await fill(page, 'lots');
    await Promise.all([page.waitForLoadState('load'), page.click('form.intake button[type=submit]')]);
    expect(await page.locator('#f-total_compensation-error').textContent()).toMatch(/must be an amount in US dollars/);
    expect(await page.inputValue('#f-specialty')).toBe('family medicine'); // the answers are kept
    await page.screenshot({ path: join(shots, 'form-error-390.png'), fullPage: true });
    await page.fill('#f-total_compensation', '262000');
    now = new Date(now.getTime() + 10_000);
    await Promise.all([page.waitForLoadState('load'), page.click('form.intake button[type=submit]')]);
    await page.locator('h1', { hasText: 'your report was received' }).waitFor();
    await page.screenshot({ path: join(shots, 'thanks-nojs-390.png'), fullPage: true });
    const stored = (await s.store.pendingSubmissions(100)).find((p) => p.report.total_compensation === 262000)!;
    expect(stored.signals.challenge).toBe('form');
    expect(outside).toEqual([]);
  });

  it('the operator imports both, a moderator approves them, the next build counts them', async () => {
    const golden = goldenBuildIn(tmp.path, join(tmp.path, 'before'));
    const db = golden.db;
    const before = { dir: golden.buildDir };
    const imported = await runCliText(['import', 'submissions', '--db', db, '--service-db', join(tmp.path, 'service.db')]);
    expect(imported.code, imported.err).toBe(0);
    expect(imported.out).toMatch(/^imported 2 submissions as pending reports \(batch \d+\)/);
    const listed = JSON.parse((await runCliText(['moderate', 'list', '--db', db, '--json'])).out);
    const web = listed.rows.filter((r: { source: string }) => r.source === 'web');
    expect(web.map((r: { specialty: string; signals: string }) => [r.specialty, r.signals.split(',')[0]]).sort()).toEqual([['cardiology', 'proof of work'], ['family-medicine', 'form without JavaScript']]);
    const approved = await runCliText(['moderate', 'approve', '--db', db, ...web.map((r: { id: number }) => String(r.id)), '--moderator', 'test']);
    expect(approved.code, approved.err).toBe(0);
    const after = goldenBuild(db, join(tmp.path, 'after'));
    // the exact count of a specialty's reports (its private keyed columns); published counts are perturbed
    const n = (dir: string, slug: string) => (JSON.parse(readFileSync(join(dir, `private/keyed/reports/${slug}.json`), 'utf8')) as { count: number }).count;
    for (const slug of ['cardiology', 'family-medicine']) expect(n(after.dir, slug), slug).toBe(n(before.dir, slug) + 1);
  }, 120_000);

  it('axe: no violation on the form (with messages) and the answer page, at 390 and 1280 px; nothing wider than a phone', async () => {
    for (const width of [390, 1280]) {
      const { page } = await open(width, { bypassCSP: true, js: true });
      await page.goto(`${s.url}/contribute`);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
      if (width === 390) await page.screenshot({ path: join(shots, 'form-390.png'), fullPage: true });
      const violations: string[] = [];
      const check = async (what: string) => {
        await page.addScriptTag({ content: axe.source });
        const r = await page.evaluate<AxeResults>('axe.run(document, { resultTypes: ["violations"] })');
        violations.push(...r.violations.map((v) => `${what}: ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`));
      };
      await check('form');
      await page.fill('#f-specialty', 'Cardiolgy');
      await page.fill('#f-total_compensation', '1');
      await page.evaluate('document.querySelector("form.intake").submit()'); // straight to the server: the messages page
      await page.locator('#problem').waitFor();
      await check('messages');
      expect(violations, `${width} px`).toEqual([]);
      await page.context().close();
    }
  });

  // after the operator's import above, which counts the reports sent before it
  it('the rest of the offer: folded at first, opened and filled at 390 and 1280 px, received with its values; axe passes with it open', async () => {
    const offerShots = outputDir('contribute-offer');
    for (const width of [390, 1280]) {
      const { page, errors } = await open(width, { bypassCSP: true });
      await page.goto(`${s.url}/contribute`);
      const details = page.locator('details.offer');
      expect(await details.getAttribute('open')).toBeNull(); // folded
      expect(await page.locator('#f-call_pay').isVisible()).toBe(false);
      const folded = await page.evaluate<number>('document.documentElement.scrollHeight');
      await page.click('details.offer > summary');
      expect(await page.locator('#f-call_pay').isVisible()).toBe(true);
      expect(await page.evaluate<number>('document.documentElement.scrollHeight')).toBeGreaterThan(folded + 600);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
      expect(await page.getAttribute('#f-call_pay', 'inputmode')).toBe('numeric');
      expect(await page.getAttribute('#f-pto_weeks', 'inputmode')).toBe('decimal');
      await page.addScriptTag({ content: axe.source });
      const r = await page.evaluate<AxeResults>('axe.run(document, { resultTypes: ["violations"] })');
      expect(r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `${width} px`).toEqual([]);
      await page.fill('#f-specialty', 'Cardiology');
      await fill(page, String(470_000 + width));
      await page.fill('#f-call_pay', '$30,000');
      await page.fill('#f-call_nights_per_month', '6');
      await page.fill('#f-signing_bonus', 'none');
      await page.fill('#f-pto_weeks', '5');
      await page.selectOption('#f-compensation_model', 'production');
      await page.fill('#f-wrvu_conversion_rate', '55.25');
      await page.fill('#f-non_compete_miles', 'none');
      await page.fill('#f-partnership_track_years', '2');
      await page.screenshot({ path: join(offerShots, `offer-open-${width}.png`), fullPage: true });
      await Promise.all([page.waitForURL(`${s.url}/contribute`), page.click('form.intake button[type=submit]')]);
      await page.locator('h1', { hasText: 'your report was received' }).waitFor();
      const stored = (await s.store.pendingSubmissions(100)).find((p) => p.report.total_compensation === 470_000 + width)!;
      expect(stored.report).toMatchObject({
        call_pay: 30_000, call_nights_per_month: 6, signing_bonus: 0, pto_weeks: 5, compensation_model: 'production', wrvu_conversion_rate: 55.25,
        non_compete_miles: 0, partnership_track_years: 2,
      });
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('a wrong offer value comes back by its field, the group open, the other answers kept (390 px, without JavaScript)', async () => {
    const { page } = await open(390, { js: false });
    await page.goto(`${s.url}/contribute`);
    await page.fill('#f-specialty', 'family medicine');
    await fill(page, '281,000');
    await page.click('details.offer > summary');
    await page.fill('#f-pto_weeks', '30');
    await page.fill('#f-non_compete_miles', '20');
    await page.fill('#f-cme_allowance', '$4,000');
    await Promise.all([page.waitForLoadState('load'), page.click('form.intake button[type=submit]')]);
    expect(await page.locator('details.offer').getAttribute('open')).toBe(''); // unfolded by the server
    expect(await page.locator('#f-pto_weeks-error').textContent()).toBe('Paid time off must be between 0 and 26 (got 30)');
    expect(await page.inputValue('#f-cme_allowance')).toBe('$4,000');
    await page.locator('#f-pto_weeks').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(outputDir('contribute-offer'), 'offer-error-390.png'), fullPage: true });
    await page.fill('#f-pto_weeks', '4');
    await page.fill('#f-non_compete_years', '1');
    now = new Date(now.getTime() + 10_000);
    await Promise.all([page.waitForLoadState('load'), page.click('form.intake button[type=submit]')]);
    await page.locator('h1', { hasText: 'your report was received' }).waitFor();
    const stored = (await s.store.pendingSubmissions(100)).find((p) => p.report.total_compensation === 281_000)!;
    expect(stored.report).toMatchObject({ pto_weeks: 4, non_compete_miles: 20, non_compete_years: 1, cme_allowance: 4_000 });
    await page.context().close();
  });
});
