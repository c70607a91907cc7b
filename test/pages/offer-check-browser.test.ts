/**
 * "Check a whole offer" on a specialty page in headless Chromium (the system's /usr/bin/chromium through
 * playwright-core), under the page's own Content-Security-Policy: offers typed into the form (national, in
 * a state with figures, in a state whose figures are withheld) give, in the page, the answer of
 * evaluateOffer() on the feeds the same server publishes, with no request; bad input is marked and said;
 * axe finds no violation in the section (any impact) at 390 and 1280 px; the page never scrolls sideways;
 * without JavaScript the form stays hidden and the explanation shows. Screenshots go to test-output/pages/.
 */
import { annualPayIssue } from '../../build/contract/annual-pay.ts';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import axe from 'axe-core';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { evaluateOffer, type OfferDocuments } from '../../build/compute/offer-check.ts';
import { OfferCheckCore, type Offer } from '../../build/contract/offer-check.ts';
import type { SpecialtyFeed, SpecialtyStateFeed } from '../../build/contract/open-feeds.ts';
import { CHROMIUM, haveBrowser, outputDir } from '../helpers/browser.ts';
import { get } from '../helpers/http.ts';
import { useGoldenInChromium, type Served } from './helpers.ts';
import type { Browser } from 'playwright-core';

const OUT = outputDir();
let s: Served;
let browser: Browser;
useGoldenInChromium('offer-check-browser', (env) => ({ s, browser } = env));

const feedOf = async <T>(path: string): Promise<T> => (await get(s.url, `/data/api/v1/${path}`)).json<T>();
const core = (a: Record<string, unknown>) => Object.fromEntries(Object.keys(OfferCheckCore.shape).map((k) => [k, a[k]]));

/** What is typed (field -> text) and the offer it means. */
interface Typed { state: string; model?: string; fields: Record<string, string>; offer: Offer }
const OFFERS: Typed[] = [
  { state: '', fields: { base_salary: '250,000' }, offer: { specialty: 'family-medicine', base_salary: 250000 } },
  {
    state: 'california', model: 'production',
    fields: { base_salary: '$240,000', bonus: '18000', call_pay: '9,500', signing_bonus: '25000', retention_bonus: '10000', relocation: '8000', loan_repayment: '60000', loan_repayment_years: '4', cme_allowance: '3500', pto_weeks: '5', call_nights_per_month: '4', contract_years: '2', hours_per_week: '36', wrvus: '4800', wrvu_conversion_rate: '51.25', non_compete_miles: '25', non_compete_years: '2', partnership_track_years: '3' },
    offer: { specialty: 'family-medicine', base_salary: 240000, bonus: 18000, call_pay: 9500, signing_bonus: 25000, retention_bonus: 10000, relocation: 8000, loan_repayment: 60000, loan_repayment_years: 4, cme_allowance: 3500, pto_weeks: 5, call_nights_per_month: 4, contract_years: 2, hours_per_week: 36, wrvus: 4800, wrvu_conversion_rate: 51.25, non_compete_miles: 25, non_compete_years: 2, partnership_track_years: 3, compensation_model: 'production' },
  },
  { state: 'wyoming', fields: { base_salary: '180000.50', bonus: '0', cme_allowance: '0', non_compete_miles: '0' }, offer: { specialty: 'family-medicine', base_salary: 180000.5, bonus: 0, cme_allowance: 0, non_compete_miles: 0 } },
  { state: '', fields: { base_salary: '400000', bonus: '120000', call_pay: '40000' }, offer: { specialty: 'family-medicine', base_salary: 400000, bonus: 120000, call_pay: 40000 } },
];

const id = (f: string) => `#offer-${f.replace(/_/g, '-')}`;
const FIELDS = ['base_salary', 'bonus', 'call_pay', 'signing_bonus', 'retention_bonus', 'relocation', 'loan_repayment', 'loan_repayment_years', 'cme_allowance', 'pto_weeks', 'call_nights_per_month', 'contract_years', 'hours_per_week', 'wrvus', 'wrvu_conversion_rate', 'non_compete_miles', 'non_compete_years', 'partnership_track_years'];

async function type(page: Page, t: Typed): Promise<void> {
  for (const f of FIELDS) await page.fill(id(f), t.fields[f] ?? '');
  await page.selectOption('#offer-compensation-model', t.model ?? '');
  await page.selectOption('#offer-state', t.state);
}

const READ = `(() => { const o = document.getElementById('offer-summary'); return { state: o.getAttribute('data-state'), answer: o.getAttribute('data-answer'), text: o.textContent, details: document.getElementById('offer-details').innerText, hidden: document.getElementById('offer-details').hidden }; })()`;
interface Read { state: string; answer: string | null; text: string; details: string; hidden: boolean }

const overflow = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

describe.skipIf(!haveBrowser)(`"Check a whole offer" in Chromium (${CHROMIUM})`, () => {
  it('gives evaluateOffer()\'s answer for typed offers, nationally and in a state, under the page\'s CSP, with no request; fits 390 and 1280 px', async () => {
    const fm = await feedOf<SpecialtyFeed>('specialties/family-medicine.json');
    const docs: Record<string, OfferDocuments> = { '': { specialty: fm } };
    for (const slug of ['california', 'wyoming']) {
      const d = await feedOf<SpecialtyStateFeed>(`specialties/family-medicine/states/${slug}.json`);
      docs[slug] = { specialty: fm, state: { slug, name: d.state.name, document: d } };
    }
    for (const width of [390, 1280]) {
      const context = await browser.newContext(width === 390 ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
      await page.goto(`${s.url}/salaries/family-medicine`);
      const requests: string[] = [];
      page.on('request', (r) => { if (!r.url().endsWith('/favicon.svg')) requests.push(r.url()); });
      expect(await page.locator('.offer-form').isVisible()).toBe(true);
      expect(await page.locator('.offer-nojs').isVisible()).toBe(false);
      expect((await page.evaluate<Read>(READ)).text).toBe('Type the base salary to check the offer.');
      for (const t of OFFERS) {
        await type(page, t);
        const got = await page.evaluate<Read>(READ);
        expect(got.state, JSON.stringify(t.fields)).toBe('ok');
        const want = evaluateOffer(t.offer, docs[t.state]!);
        expect(JSON.parse(got.answer!), `${width} ${t.state} ${JSON.stringify(t.fields)}`).toEqual(core(want));
        // what the page says is that answer
        const p = want.position!;
        expect(got.text).toContain(`Total compensation $${want.total_compensation.toLocaleString('en-US')}`);
        if (p.percentile !== null) expect(got.text).toContain(`estimated percentile of ${p.percentile.toFixed(1)}, in the ${p.band.replace('-', '\u2013')} band`);
        else expect(got.text).toContain(`is ${p.band} (`);
        expect(got.hidden).toBe(false);
        expect(got.details).toContain(`First-year value: $${want.value.first_year.toLocaleString('en-US', { maximumFractionDigits: 2, minimumFractionDigits: Number.isInteger(want.value.first_year) ? 0 : 2 })}`);
        for (const m of want.missing) expect(got.details).toContain(m.text);
        if (want.scope_note) expect(got.details).toContain(want.scope_note);
        expect(await overflow(page), `${width}: no sideways scroll`).toBeLessThanOrEqual(0);
      }
      await type(page, OFFERS[1]!);
      await page.locator('.offercheck').screenshot({ path: join(OUT, `offer-check-${width}.png`) });
      await page.locator('.offercheck .offer-fields').screenshot({ path: join(OUT, `offer-check-fields-${width}.png`) });
      await page.locator('#offer-summary').screenshot({ path: join(OUT, `offer-check-summary-${width}.png`) });
      await page.locator('#offer-details').screenshot({ path: join(OUT, `offer-check-details-${width}.png`) });
      expect(requests, 'computed in the page: not one request').toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    }
  });

  it('marks bad input and says what is wrong; an empty base salary asks for it', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${s.url}/salaries/family-medicine`);
    const cases: [Record<string, string>, string, string | null][] = [
      [{ base_salary: 'abc' }, 'Base salary: enter a number using digits, for example 25000, 25,000 or 25k.', 'base_salary'],
      [{ base_salary: '-5' }, 'Base salary cannot be negative.', 'base_salary'],
      [{ base_salary: '0' }, 'Base salary must be more than 0 and at most 100,000,000.', 'base_salary'],
      [{ base_salary: '420' }, `Base salary $420 ${annualPayIssue(420)}.`, 'base_salary'],
      [{ base_salary: '3000', bonus: '2000' }, `Base salary + bonus + call pay ($5,000) ${annualPayIssue(5000)}.`, 'base_salary'],
      [{ base_salary: '250000', contract_years: '2.5' }, 'Contract length must be a whole number.', 'contract_years'],
      [{ base_salary: '250000', hours_per_week: '5' }, 'Hours a week must be from 10 to 100.', 'hours_per_week'],
      [{ base_salary: '250000', loan_repayment_years: '3' }, 'Loan repayment years need a loan repayment amount above $0.', 'loan_repayment_years'],
      [{ base_salary: '250000', non_compete_miles: '20' }, 'Give the non-compete length in years (above 0).', 'non_compete_years'],
      [{ bonus: '1000' }, 'Type the base salary to check the offer.', null],
    ];
    for (const [fields, message, invalid] of cases) {
      await type(page, { state: '', fields, offer: {} as Offer });
      const got = await page.evaluate<Read>(READ);
      expect({ text: got.text, answer: got.answer, hidden: got.hidden }, JSON.stringify(fields)).toEqual({ text: message, answer: null, hidden: true });
      expect(got.state).toBe(message.startsWith('Type') ? 'empty' : 'invalid');
      if (invalid) {
        // the message is also right under the field it is about (on a phone the summary is screens below)
        const input = page.locator(id(invalid));
        expect(await input.getAttribute('aria-invalid')).toBe('true');
        const error = page.locator(`${id(invalid)}-error`);
        expect(await error.isVisible(), JSON.stringify(fields)).toBe(true);
        expect(await error.textContent()).toBe(message);
        expect((await input.getAttribute('aria-describedby'))?.split(' ')).toContain(`offer-${invalid.replace(/_/g, '-')}-error`);
        const [a, b] = [(await input.boundingBox())!, (await error.boundingBox())!];
        expect(b.y - (a.y + a.height), 'gap between the field and its message, px').toBeGreaterThanOrEqual(0);
        expect(b.y - (a.y + a.height), 'gap between the field and its message, px').toBeLessThan(60);
        expect(await page.locator('.offercheck [aria-invalid="true"]').count()).toBe(1);
        expect(await page.locator('.offercheck .field-error:not([hidden])').count()).toBe(1);
      } else {
        expect(await page.locator('.offercheck [aria-invalid="true"]').count()).toBe(0);
        expect(await page.locator('.offercheck .field-error:not([hidden])').count()).toBe(0);
      }
    }
    await type(page, { state: '', fields: { base_salary: 'x' }, offer: {} as Offer });
    await page.locator('.offercheck').screenshot({ path: join(OUT, 'offer-check-invalid-390.png') });
    await context.close();
  });

  it('axe finds no violation in the section, empty or filled, at 390 and 1280 px', async () => {
    for (const width of [390, 1280]) {
      // bypassCSP: axe is injected as an inline script, which the page's policy refuses
      const context = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${s.url}/salaries/family-medicine`);
      await page.addScriptTag({ content: axe.source });
      const run = () => page.evaluate<AxeResults>('axe.run({ include: [".offercheck"] }, { resultTypes: ["violations"] })');
      expect((await run()).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `${width} empty`).toEqual([]);
      await type(page, OFFERS[1]!);
      expect((await run()).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), `${width} filled`).toEqual([]);
      await type(page, { state: '', fields: { base_salary: 'x' }, offer: {} as Offer });
      expect((await run()).violations.map((v) => v.id), `${width} invalid`).toEqual([]);
      await context.close();
    }
  });

  it('without JavaScript: the explanation, no form', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${s.url}/salaries/family-medicine`);
    expect(await page.locator('.offer-form').isVisible()).toBe(false);
    expect(await page.locator('.offer-nojs').isVisible()).toBe(true);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.locator('.offercheck').screenshot({ path: join(OUT, 'offer-check-nojs-390.png') });
    await context.close();
  });
});
