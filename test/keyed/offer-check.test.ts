/**
 * /api/v1/offer-check over real HTTP against the golden build: the answer equals evaluateOffer() of the open
 * documents the same server publishes (fetched here from /data/api/v1 on the same day), for every plan,
 * counted once like /percentile-rank; and every error path with the keyed API's one error shape (400 for
 * bad numbers, unknown specialty, state or pay model, contradictions and unknown or repeated parameters;
 * 404 for a withheld specialty; 401 without a key).
 */
import { describe, expect, it } from 'vitest';
import { OfferCheckResponse, type OfferCheckResponse as Resp } from '../../build/contract/keyed-api.ts';
import { evaluateOffer, type OfferDocuments } from '../../build/compute/offer-check.ts';
import type { Offer } from '../../build/contract/offer-check.ts';
import type { SpecialtyFeed, SpecialtyStateFeed } from '../../build/contract/open-feeds.ts';
import { get } from '../helpers/http.ts';
import type { PlanKeys } from '../helpers/keys.ts';
import { call, expectError, qs, rateHeaders, useKeyedServer, type KeyedServer } from './harness.ts';

let ks: KeyedServer;
let keys: PlanKeys;
useKeyedServer({ now: '2026-12-01T12:00:00Z', prefix: 'offer' }, (k, pk) => {
  ks = k;
  keys = pk;
});

async function openDoc<T>(path: string): Promise<T> {
  const r = await get(ks.url, `/data/api/v1/${path}`);
  expect(r.status, path).toBe(200);
  return r.json<T>();
}

async function docsOf(slug: string, state?: { slug: string; name: string }): Promise<OfferDocuments> {
  return {
    specialty: await openDoc<SpecialtyFeed>(`specialties/${slug}.json`),
    state: state ? { ...state, document: await openDoc<SpecialtyStateFeed>(`specialties/${slug}/states/${state.slug}.json`) } : null,
  };
}

async function check(key: string, params: Record<string, string | number | undefined>): Promise<Resp> {
  const r = await call(ks.url, `/offer-check?${qs(params)}`, key);
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  expect(r.headers['cache-control']).toBe('private, max-age=3600');
  const body = OfferCheckResponse.parse(r.json());
  expect(body.meta.request_id).toBe(r.headers['x-request-id']);
  return body;
}

describe('/offer-check', () => {
  it('answers with evaluateOffer() of the published documents, on every plan, counted once', async () => {
    const fm = await docsOf('family-medicine');
    const ca = await docsOf('family-medicine', { slug: 'california', name: 'California' });
    const wy = await docsOf('family-medicine', { slug: 'wyoming', name: 'Wyoming' });
    const cases: [Record<string, string | number>, Offer, OfferDocuments][] = [
      [{ specialty: 'Family Medicine', base_salary: 250000 }, { specialty: 'family-medicine', base_salary: 250000 }, fm],
      [
        { specialty: 'family medicine', state: 'California', base_salary: '245000.50', bonus: 20000, call_pay: 12000, signing_bonus: 25000, relocation: 10000, cme_allowance: 0, contract_years: 2, pto_weeks: 5, call_nights_per_month: 4 },
        { specialty: 'family-medicine', state: 'California', base_salary: 245000.5, bonus: 20000, call_pay: 12000, signing_bonus: 25000, relocation: 10000, cme_allowance: 0, contract_years: 2, pto_weeks: 5, call_nights_per_month: 4 },
        ca,
      ],
      [
        { specialty: 'Family Medicine', state: 'Wyoming', base_salary: 230000, hours_per_week: 32, wrvus: 4800, compensation_model: 'Salary + productivity', wrvu_conversion_rate: 51.5, loan_repayment: 60000, loan_repayment_years: 5, retention_bonus: 15000, non_compete_miles: 25, non_compete_years: 2, partnership_track_years: 0 },
        { specialty: 'family-medicine', state: 'Wyoming', base_salary: 230000, hours_per_week: 32, wrvus: 4800, compensation_model: 'salary_plus_productivity', wrvu_conversion_rate: 51.5, loan_repayment: 60000, loan_repayment_years: 5, retention_bonus: 15000, non_compete_miles: 25, non_compete_years: 2, partnership_track_years: 0 },
        wy,
      ],
    ];
    for (const plan of ['starter', 'professional', 'enterprise'] as const) {
      for (const [params, offer, docs] of cases) {
        const before = rateHeaders(await call(ks.url, '/me/usage', keys[plan].key)).remainingDaily;
        const { data } = await check(keys[plan].key, params);
        expect(rateHeaders(await call(ks.url, '/me/usage', keys[plan].key)).remainingDaily, 'counted once').toBe(before - 1);
        expect(data, `${plan} ${JSON.stringify(params)}`).toEqual(evaluateOffer(offer, docs));
      }
    }
    // the cases reach the branches they are meant to
    const inCa = (await check(keys.starter.key, cases[1]![0])).data;
    expect([inCa.scope_used, inCa.state_source?.feed_url, inCa.scope_note]).toEqual(['state', ca.state!.document!.feed_url, null]);
    expect(inCa.value).toMatchObject({ contract_years: 2, contract_years_assumed: false });
    const inWy = (await check(keys.starter.key, cases[2]![0])).data;
    expect(inWy.scope_used).toBe('national');
    expect(inWy.scope_note).toMatch(/^The figures for Family Medicine in Wyoming are withheld \(fewer than 3 reports\): the national figures are used\.$/);
    expect(inWy.position).toMatchObject({ scope: 'national', compared: 'fte_total_compensation', value: 287500 });
    expect(inWy.productivity.compensation_model?.model).toBe('salary_plus_productivity');
    expect(inWy.productivity.implied_per_wrvu).toBe(47.92);
    expect(inWy.attribution).toContain('accessed 2026-12-01)');
    const plain = (await check(keys.starter.key, cases[0]![0])).data;
    expect(plain.missing.map((m) => m.component)).toContain('cme_allowance'); // 75.6% of Family Medicine reports have one
  });

  it('refuses bad numbers, unknown names and contradictions with a 400 that says what is valid', async () => {
    const base = { specialty: 'Cardiology', base_salary: '400000' };
    const bad: [Record<string, string>, RegExp][] = [
      [{ specialty: 'Cardiology' }, /parameter base_salary is required/],
      [{ ...base, base_salary: '400,000' }, /base_salary must be a number of dollars such as 25000 or 25000\.50, without commas or a currency sign \(got "400,000"\)/],
      [{ ...base, base_salary: '$400000' }, /without commas or a currency sign/],
      [{ ...base, base_salary: 'lots' }, /base_salary must be a number/],
      [{ ...base, base_salary: '-5' }, /base_salary must be a number/],
      [{ ...base, base_salary: '0' }, /base_salary must be more than 0 and at most 100,000,000 \(got 0\)/],
      [{ ...base, base_salary: '100000000.01' }, /at most 100,000,000/],
      [{ ...base, base_salary: '420' }, /^base_salary 420 is under \$10,000, too little for a year's total pay: .*give 420000$/],
      [{ ...base, base_salary: '6000', bonus: '3000' }, /^base_salary \+ bonus \+ call_pay \(9000\) is under \$10,000/],
      [{ ...base, bonus: '1.005' }, /bonus is in dollars and cents: at most two decimals/],
      [{ ...base, relocation: '250001' }, /relocation must be at least 0 and at most 250,000/],
      [{ ...base, contract_years: '2.5' }, /contract_years must be a whole number \(got 2\.5\)/],
      [{ ...base, contract_years: '11' }, /contract_years must be at least 1 and at most 10/],
      [{ ...base, hours_per_week: '8' }, /hours_per_week must be at least 10 and at most 100/],
      [{ ...base, pto_weeks: 'five' }, /pto_weeks must be a number such as 5 or 2\.5, without commas \(got "five"\)/],
      [{ ...base, wrvus: '0' }, /wrvus must be at least 1/],
      [{ ...base, compensation_model: 'piecework' }, /compensation_model must be one of: salary, salary_plus_productivity, production, collections, shift \(got "piecework"\)/],
      [{ ...base, loan_repayment_years: '4' }, /loan_repayment_years needs a loan_repayment amount above 0/],
      [{ ...base, non_compete_miles: '20' }, /non_compete_years is needed for a non-compete with a radius/],
      [{ ...base, salary: '1' }, /unknown parameter\(s\): salary; allowed: specialty, state, base_salary, bonus, call_pay, .*compensation_model/],
      [{ ...base, bonus: '' }, /parameter bonus is empty/],
      [{ ...base, specialty: 'Cardiologee' }, /unknown specialty "Cardiologee"; did you mean: Cardiology/],
      [{ ...base, state: 'TX' }, /state must be a full US state name such as "Texas", not a two-letter code/],
      [{ ...base, state: 'Texass' }, /unknown state "Texass": give a full US state name or District of Columbia; did you mean: Texas/],
    ];
    for (const [params, msg] of bad) expectError(await call(ks.url, `/offer-check?${qs(params)}`, keys.enterprise.key), 400, msg);
    expectError(await call(ks.url, '/offer-check?specialty=Cardiology&base_salary=1&base_salary=2', keys.enterprise.key), 400, /parameter base_salary must be given once/);
  });

  it('404 for a specialty whose figures are withheld; 401 without a key', async () => {
    expectError(await call(ks.url, `/offer-check?${qs({ specialty: 'Medical Genetics', base_salary: 300000 })}`, keys.starter.key), 404, /insufficient data: the published figures of Medical Genetics are withheld \(fewer than 5 approved reports nationally\)/);
    expectError(await call(ks.url, `/offer-check?${qs({ specialty: 'Cardiology', base_salary: 300000 })}`), 401);
  });
});
