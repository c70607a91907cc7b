/**
 * "Check a whole offer" (build/pages/offer-check-form.ts), without a browser:
 *  - the page's port of offerCheckCore() (OFFER_CHECK_JS, the exact string inlined in the pages) gives the
 *    same answer as offerCheckCore() on random published figures and offers (fast-check), and on the figures
 *    a page embeds the same answer as evaluateOffer() on the feeds themselves;
 *  - the markup: a well-formed page, the section once with its figures, a label for every field, the form
 *    hidden and a no-JavaScript explanation, its own script; none on a withheld specialty's page.
 * The same checks through Chromium are in offer-check-browser.test.ts.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateOffer, offerCheckCore, type OfferFigures } from '../../build/compute/offer-check.ts';
import { OFFER_NUMBER_FIELDS, OfferCheckCore, type Offer } from '../../build/contract/offer-check.ts';
import type { SpecialtyFeed, SpecialtyStateFeed, WrvuFeed } from '../../build/contract/open-feeds.ts';
import { OFFER_CHECK_JS, OFFER_CHECK_SCRIPT, offerFiguresForState, offerPageFigures } from '../../build/pages/offer-check-form.ts';
import { PAY_POSITION_JS } from '../../build/pages/pay-check.ts';
import { elements, parseHtml, textOf } from '../../build/pages/parse.ts';
import { renderSpecialtyPage } from '../../build/pages/specialty.ts';
import type { SiteContext } from '../../build/pages/layout.ts';
import { GOLDEN_DIR } from '../helpers/golden-files.ts';
import { figures, figuresArb, offerArb } from '../helpers/offer-arbitraries.ts';

const site: SiteContext = {
  baseUrl: 'https://physpay.example', publisher: 'PhysPay', synthetic: true, license: 'CC BY 4.0',
  licenseUrl: 'https://creativecommons.org/licenses/by/4.0/', winsorLower: 50_000, winsorUpper: 3_000_000, blsTopCode: 239_200,
};
const feedOf = <T>(rel: string): T => JSON.parse(readFileSync(join(GOLDEN_DIR, 'public/data/api/v1', rel), 'utf8')) as T;

const pageCore = new Function(`${PAY_POSITION_JS}\n${OFFER_CHECK_JS}\nreturn offerCheckCore;`)() as (o: Offer, f: OfferFigures) => OfferCheckCore;
/** The figures as the page's script sees them: through JSON. */
const viaJson = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('the page\'s port of offerCheckCore()', () => {
  it('gives offerCheckCore()\'s answer on random figures and offers', () => {
    fc.assert(fc.property(offerArb, figuresArb, (o, f) => {
      expect(pageCore(viaJson(o), viaJson(f))).toEqual(offerCheckCore(o, f));
    }), { numRuns: 1500 });
  });

  it('and on hand-made figures reaching every branch', () => {
    const tx = { slug: 'texas', name: 'Texas', figures: null };
    const offers: Partial<Offer>[] = [
      {}, { bonus: 20_000, call_pay: 10_000, hours_per_week: 20 }, { signing_bonus: 1, retention_bonus: 2, relocation: 3, loan_repayment: 4, loan_repayment_years: 2, cme_allowance: 0 },
      { wrvus: 5000, compensation_model: 'production', wrvu_conversion_rate: 50 }, { pto_weeks: 5, call_nights_per_month: 0, non_compete_miles: 10, non_compete_years: 1, partnership_track_years: 2 },
    ];
    for (const o of offers) {
      for (const f of [figures(), figures(tx), figures({ ...tx, figures: figures().national })]) {
        const offer = { specialty: 'x', base_salary: 250_000, ...o } as Offer;
        expect(pageCore(offer, viaJson(f))).toEqual(offerCheckCore(offer, f));
      }
    }
  });

  it('on the figures a specialty page embeds, the answer of evaluateOffer() on the feeds themselves', () => {
    const fm = feedOf<SpecialtyFeed>('specialties/family-medicine.json');
    const ca = feedOf<SpecialtyStateFeed>('specialties/family-medicine/states/california.json');
    const wy = feedOf<SpecialtyStateFeed>('specialties/family-medicine/states/wyoming.json');
    const page = viaJson(offerPageFigures(fm, [ca, wy]));
    const offer = { specialty: 'family-medicine', base_salary: 240_000, bonus: 15_000, call_pay: 9_000, signing_bonus: 20_000, loan_repayment: 30_000, cme_allowance: 3_500, pto_weeks: 4, wrvus: 4_700, compensation_model: 'salary_plus_productivity', hours_per_week: 36 } as Offer;
    const core = (a: Record<string, unknown>) => Object.fromEntries(Object.keys(OfferCheckCore.shape).map((k) => [k, a[k]]));
    for (const [slug, doc] of [[null, null], ['california', ca], ['wyoming', wy]] as const) {
      const want = evaluateOffer(offer, { specialty: fm, state: doc ? { slug: doc.state.slug, name: doc.state.name, document: doc } : null });
      expect(pageCore(offer, offerFiguresForState(page, slug)), String(slug)).toEqual(core(want));
    }
  });
});

describe('the section on a specialty page', () => {
  const fm = feedOf<SpecialtyFeed>('specialties/family-medicine.json');
  const wrvu = feedOf<WrvuFeed>('wrvu/family-medicine.json');
  const states = [feedOf<SpecialtyStateFeed>('specialties/family-medicine/states/california.json'), feedOf<SpecialtyStateFeed>('specialties/family-medicine/states/wyoming.json')];

  it('is well-formed, carries the page\'s figures and a label for every field, hides the form, explains itself without JavaScript', () => {
    const html = renderSpecialtyPage(site, { feed: fm, wrvu, states });
    const { root, errors } = parseHtml(html);
    expect(errors).toEqual([]);
    const all = [...elements(root!)];
    const sections = all.filter((e) => e.attrs['data-offer-figures'] !== undefined);
    expect(sections).toHaveLength(1);
    const sec = sections[0]!;
    expect(JSON.parse(sec.attrs['data-offer-figures']!)).toEqual(viaJson(offerPageFigures(fm, states)));
    const inSec = [...elements(sec)];
    const inputs = inSec.filter((e) => e.tag === 'input' || e.tag === 'select');
    expect(inputs.map((e) => e.attrs.name).sort()).toEqual([...OFFER_NUMBER_FIELDS, 'compensation_model', 'state'].sort());
    for (const i of inputs) expect(inSec.filter((e) => e.tag === 'label' && e.attrs.for === i.attrs.id), i.attrs.id).toHaveLength(1);
    expect(inSec.find((e) => e.attrs.class === 'offer-form')!.attrs.hidden).toBe('');
    expect(textOf(inSec.find((e) => e.attrs.class === 'offer-nojs')!)).toMatch(/^With JavaScript on, a form here places each part of a Family Medicine job offer/);
    expect(textOf(inSec.find((e) => e.tag === 'select' && e.attrs.name === 'state')!)).toContain('Wyoming (national figures: too few reports)');
    const script = inSec.find((e) => e.tag === 'script')!;
    expect(textOf(script)).toBe(OFFER_CHECK_SCRIPT);
    expect(OFFER_CHECK_SCRIPT).not.toMatch(/<\/script|<!--/i);
  });

  it('is not on the page of a withheld specialty', () => {
    const mg = feedOf<SpecialtyFeed>('specialties/medical-genetics.json');
    const html = renderSpecialtyPage(site, { feed: mg, wrvu: { ...wrvu, specialty: mg.specialty }, states: [] });
    expect(html).not.toContain('data-offer-figures');
  });
});
