/**
 * The keyed API's endpoints over real HTTP against the golden build: every field of /specialties,
 * /available-data, /benchmarks and /me/usage, checked against an independent computation from the golden
 * reports DB (test/keyed/reference.ts), the zod contract, the tier gating of the Professional sections, and
 * Enterprise year ranges (independent reference, the pure core called directly, and consistency with the
 * build's precomputed cells). A second build with narrow winsor bounds makes the clamp matter.
 *
 * The disclosure control is method 3 (build/compute/disclosure.ts): every report's pay is multiplied by a
 * permanent secret factor when the build reads the DB, and each figure then moves by its own draw relative to
 * the cell's own figure. This file recomputes the factors from the reports DB's secret with its own code (the
 * documented derivation: AES-256 of the report id under HMAC-SHA256(secret, "physpay record keys v3")), runs
 * the reference's exact statistics over the reports as the build reads them (`dref`), and checks each published
 * figure against the documented bounds of the draws (`withinFactor`, `meanWithin`, `sdWithin`, `expectCi`,
 * `alignPublished`, all in test/keyed/reference.ts, which open-reference.test.ts shares).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AvailabilityResponse, BenchmarkResponse, SpecialtyListResponse, UsageResponse, type BenchmarkData,
} from '../../build/contract/keyed-api.ts';
import { KeyedReportsArtifact, KeyedSpecialtyArtifact, KeyedIndex, keyedPaths } from '../../build/contract/keyed-artifacts.ts';
import { keyedColumnsFromArtifact } from '../../build/compute/keyed.ts';
import { DISCLOSURE_METHOD_VERSION, MEAN_FACTOR, RECORD_NOISE } from '../../build/compute/disclosure.ts';
import { benchmarkData, computedSource } from '../../server/keyed/benchmark.ts';
import { PLANS } from '../../server/keyed/plans.ts';
import type { HttpResponse } from '../helpers/http.ts';
import { createKey, type TestKey } from '../helpers/keys.ts';
import { call, expectError, nextMidnight, qs, startKeyedServer, useKeyedServer, type KeyedServer } from './harness.ts';
import {
  BANDS, CENT, DOLLAR, EMPLOYMENTS, SETTINGS, alignPublished, countWithin, avg, ciRanks, distortedReference, expectCi, expectWithinFactor, expectedBenchmark, loadReference,
  meanWithin, moves, offerComponents, OFFER_MONEY, PAY_MODELS, published, publishedOf, q7, quantileBound, round1, sdWithin,
  scopeFigures, select, winsorized, withoutExactN,
  type Bounds, type RefData, type RefQuery, type RefReport,
} from './reference.ts';

const DEFAULT_BOUNDS: Bounds = { lower: 50_000, upper: 3_000_000 };
const PRO_KEYS = ['fte_normalized', 'components', 'trending', 'breakdowns', 'productivity'];
/** The whole offer's keys of `components`, after base_salary and bonus. */
const OFFER_KEYS = [...OFFER_MONEY, 'pto_weeks', 'call_nights_per_month', 'compensation_models', 'non_compete', 'partnership_track'] as const;

let ks: KeyedServer;
let ref: RefData;
/** the same reports with their pay (total, base, bonus) as the build reads it: times each report's secret factor */
let dref: RefData;
/** the reports DB's disclosure-control secret, and per specialty its reports' record-key lanes (recomputed here) */
let secret: Buffer;
let lanesOf: Map<string, { lo: number[]; hi: number[] }>;
/** each approved report's factor (recomputed here) */
let factors: number[];
let starter: TestKey;
let professional: TestKey;
let enterprise: TestKey;

useKeyedServer({ now: '2026-12-01T12:00:00Z', prefix: 'endpoints' }, (k, keys) => {
  ks = k;
  ref = loadReference(ks.db);
  ({ dref, secret, lanesOf, factors } = distortedReference(ks.db, ref));
  ({ starter, professional, enterprise } = keys);
});

const nameOf = (slug: string) => ref.specialties.find((s) => s.slug === slug)!.name;
const stateName = (code: string) => ref.states.find((s) => s.code === code)!.name;
const nationalN = (slug: string) => ref.reports.filter((r) => r.specialty === slug).length;

function ok<T>(r: HttpResponse): T {
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  expect(r.headers['content-type']).toMatch(/^application\/json; charset=utf-8$/);
  return r.json<T>();
}

/** The headline reports of a query as the reference picks them (state from 5, else region from 5, else national). */
function headlineReports(r: RefData, q: RefQuery, scopeUsed: 'state' | 'regional' | 'national', region: string | null): RefReport[] {
  return select(r, q, scopeUsed === 'state' ? { state: q.state! } : scopeUsed === 'regional' ? { region: region! } : {});
}

describe('/specialties', () => {
  it('lists every specialty with sample size, states with data and flags from the approved reports', async () => {
    const body = SpecialtyListResponse.parse(ok(await call(ks.url, '/specialties', starter.key)));
    expect(body.count).toBe(ref.specialties.length);
    expect(body.specialties).toHaveLength(ref.specialties.length);
    expect(body.count).toBeGreaterThan(40);
    for (const sp of ref.specialties) {
      const e = body.specialties.find((x) => x.slug === sp.slug);
      expect(e, sp.slug).toBeDefined();
      const rs = dref.reports.filter((r) => r.specialty === sp.slug);
      const perState = new Map<string, number>();
      for (const r of rs) perState.set(r.state, (perState.get(r.state) ?? 0) + 1);
      expect(e).toEqual({
        name: sp.name,
        slug: sp.slug,
        sample_size: publishedOf(rs), // perturbed; no count below 5
        states_with_data: [...perState.values()].filter((n) => n >= 5).length,
        states_with_data_min_n: 5,
        publishable: rs.length >= 5,
        sufficient: rs.length >= 15,
      });
    }
    // the golden data has every quality class
    expect(body.specialties.some((s) => !s.publishable)).toBe(true);
    expect(body.specialties.some((s) => s.publishable && !s.sufficient)).toBe(true);
    expect(body.specialties.some((s) => s.sufficient && s.states_with_data > 0)).toBe(true);
  });
});

describe('/available-data', () => {
  // below 5 reports neither the count nor the years are given
  const scope = (label: string, rs: RefReport[]) => ({
    label, n: publishedOf(rs), years: rs.length >= 5 ? [...new Set(rs.map((r) => r.year))].sort((a, b) => a - b) : [], sufficient: rs.length >= 15, publishable: rs.length >= 5,
  });

  it('every specialty: national scope, and no state scope when no state is asked for', async () => {
    for (const sp of ref.specialties) {
      const body = AvailabilityResponse.parse(ok(await call(ks.url, `/available-data?${qs({ specialty: sp.name })}`, starter.key)));
      const bls = sp.soc ? ref.bls.get(sp.soc) : undefined;
      expect(body).toEqual({
        specialty: sp.name,
        availability: { regional: null, national: scope('National', select(dref, { specialty: sp.slug }, {})) },
        filters: { practice_setting: null, employment_type: null, year_start: null, year_end: null },
        bls_available: Boolean(bls && bls.median !== null),
        bls_soc_code: sp.soc,
      });
      expect('state' in body.availability).toBe(false);
      expect(body.availability.regional).toBeNull(); // always present: null when neither a state nor a region is named
    }
  });

  it('with a state: state, its region and national scopes; with a region only: no state scope', async () => {
    const cases: [string, string][] = [['family-medicine', 'CA'], ['family-medicine', 'WY'], ['cardiology', 'TX'], ['neurosurgery', 'NY'], ['pediatrics', 'DC']];
    for (const [slug, code] of cases) {
      const st = ref.states.find((s) => s.code === code)!;
      const body = AvailabilityResponse.parse(ok(await call(ks.url, `/available-data?${qs({ specialty: nameOf(slug), state: st.name.toUpperCase() })}`, starter.key)));
      expect(body.availability, `${slug} ${code}`).toEqual({
        state: scope(st.name, select(dref, { specialty: slug }, { state: code })),
        regional: scope(st.region, select(dref, { specialty: slug }, { region: st.region })),
        national: scope('National', select(dref, { specialty: slug }, {})),
      });
    }
    const body = AvailabilityResponse.parse(ok(await call(ks.url, `/available-data?${qs({ specialty: 'Cardiology', region: 'midwest' })}`, starter.key)));
    expect(body.availability).toEqual({
      regional: scope('Midwest', select(dref, { specialty: 'cardiology' }, { region: 'Midwest' })),
      national: scope('National', select(dref, { specialty: 'cardiology' }, {})),
    });
    // a specialty without an OEWS median
    const ps = AvailabilityResponse.parse(ok(await call(ks.url, `/available-data?${qs({ specialty: 'Pediatric Surgery' })}`, starter.key)));
    expect(ps.bls_available).toBe(false);
    expect(ps.bls_soc_code).toMatch(/^\d{2}-\d{4}$/);
  });
});

/** Compare a /benchmarks `data` with the independent reference, field by field. */
function expectBenchmark(data: BenchmarkData, q: RefQuery, b: Bounds, withSections: boolean, label: string) {
  // exact figures of the reports as the build reads them (pay times each report's factor): what the draws move
  const exp = expectedBenchmark(dref, q, b)!;
  expect(exp, label).not.toBeNull();
  const h = exp.headline;
  expect(data.specialty, label).toBe(nameOf(q.specialty));
  expect(data.geography, label).toEqual({ state: q.state ? stateName(q.state) : null, region: exp.region, scope_used: exp.scopeUsed });
  expect(data.sample_size, label).toBe(h.publishedN);
  // every percentile within its documented bound of its spread-corrected exact value; P10/P90 only from 15
  expect(data.percentiles, label).toEqual(alignPublished(data.percentiles, h.percentiles, h.n));
  if (h.n < 15) expect([data.percentiles.p10, data.percentiles.p90], `${label}: no P10/P90 below 15`).toEqual([null, null]);
  const grid = [data.percentiles.p10, data.percentiles.p25, data.percentiles.p50, data.percentiles.p75, data.percentiles.p90].filter((x) => x !== null);
  expect(grid, `${label}: published percentiles in order`).toEqual([...grid].sort((x, y) => x - y));
  expect(meanWithin(data.mean, h.mean, h.n), `${label} mean ${data.mean} vs exact ${h.mean} / ${MEAN_FACTOR}`).toBe(true);
  expect(data.confidence.sufficient, label).toBe(h.n >= 15);
  expect(data.confidence.publishable, label).toBe(true);
  const values = winsorized(headlineReports(dref, q, exp.scopeUsed, exp.region), b);
  expect(values.length, label).toBe(h.n);
  expect(sdWithin(data.confidence.standard_deviation, values), `${label} sd ${data.confidence.standard_deviation} vs exact ${h.sd}`).toBe(true);
  const ci = data.confidence.confidence_interval_95;
  expect(ci.method, `${label} ci method`).toBe(h.ci!.method);
  if (h.ci!.method === 'order_statistics') {
    // from 9 reports: [x(k), x(n-k+1)] of the distorted values, each bound moved outward by at most its
    // documented move (and widened to hold the published median)
    expect(h.n, label).toBeGreaterThanOrEqual(9);
    expectCi(ci, h.ci!.lower, h.ci!.upper, h.n, data.percentiles.p50, label);
    expect(ci.coverage, `${label} coverage`).toBeCloseTo(h.ci!.coverage, 4);
    expect(ci.coverage, `${label} coverage`).toBeGreaterThanOrEqual(0.95);
  } else {
    // below 9 the interval would be [min, max]: built from the published quartiles and the median's largest
    // move, nominal coverage
    expect(h.n, label).toBeLessThanOrEqual(8);
    expect(ci.coverage, `${label} coverage`).toBe(0.95);
    const half = (1.959964 * 1.2533 * (data.percentiles.p75 - data.percentiles.p25)) / 1.349 / Math.sqrt(h.n) + data.percentiles.p50 * (Math.exp(quantileBound(h.n)) - 1);
    expect(Math.abs(ci.lower - Math.max(0, data.percentiles.p50 - half)), `${label} approximate lower`).toBeLessThanOrEqual(3);
    expect(Math.abs(ci.upper - (data.percentiles.p50 + half)), `${label} approximate upper`).toBeLessThanOrEqual(3);
  }
  expect(ci.lower, label).toBeLessThanOrEqual(data.percentiles.p50);
  expect(ci.upper, label).toBeGreaterThanOrEqual(data.percentiles.p50);

  const scopeOf = (s: ReturnType<typeof scopeFigures>, lbl: string) => ({ label: lbl, exact_n: s.n, n: s.publishedN, publishable: s.publishable, sufficient: s.sufficient, percentiles: s.percentiles, mean: s.mean });
  const scopes: Record<string, unknown> = { national: scopeOf(exp.national, 'National') };
  if (exp.state) scopes.state = scopeOf(exp.state, stateName(q.state!));
  scopes.regional = exp.regional ? scopeOf(exp.regional, exp.region!) : null;
  expect(data.scopes, `${label} scopes`).toEqual(alignPublished(data.scopes, scopes));
  expect('state' in data.scopes, label).toBe(Boolean(q.state));
  expect(data.filters, `${label} filters`).toEqual({ practice_setting: q.setting ?? null, employment_type: q.employment ?? null, year_start: q.yearStart ?? null, year_end: q.yearEnd ?? null });

  const bc = data.bls_comparison;
  expect(bc.service_median, label).toBe(data.percentiles.p50);
  expect(bc.physpay_median, label).toBe(bc.service_median);
  if (exp.bls) {
    expect(bc.available).toBe(true);
    expect(bc.bls_data).toEqual({ soc_code: exp.bls.soc, soc_title: exp.bls.title, median: exp.bls.median, year: exp.bls.year, top_coded: exp.bls.topCoded, soc_match: exp.bls.socMatch });
    expect(bc.variance_pct, `${label} variance`).toBe(round1(((data.percentiles.p50 - exp.bls.median) / exp.bls.median) * 100));
    expect(bc.methodology_note).toContain(`SOC ${exp.bls.soc}`);
    if (exp.bls.topCoded) expect(bc.methodology_note).toMatch(/top-coded.*true variance is smaller/);
    else expect(bc.methodology_note).not.toMatch(/top-coded/);
  } else {
    expect(bc.available).toBe(false);
    expect(bc.bls_data).toBeNull();
    expect(bc.variance_pct).toBeNull();
  }

  const m = data.methodology;
  expect(m.min_sample).toBe(5);
  expect(m.sufficient_sample).toBe(15);
  expect(m.outlier_handling).toContain(`$${b.lower.toLocaleString('en-US')}`);
  expect(m.outlier_handling).toContain(`$${b.upper.toLocaleString('en-US')}`);
  expect(m.outlier_handling).toMatch(/[Ww]insoriz/);
  expect(m.fte_basis).toMatch(/40 hours\/week/);
  expect(m.fte_basis).toMatch(/2,080 hours\/year/);
  expect(m.data_date_range, `${label} dates`).toEqual({ ...h.dateRange, basis: 'submission dates of the reports' });
  expect(m.year_range).toEqual({ start: q.yearStart ?? null, end: q.yearEnd ?? null });
  expect(data.data_as_of, `${label} data_as_of`).toBe(h.dateRange!.latest); // the headline's newest submission
  expect(data.synthetic).toBe(true);

  if (!withSections) {
    for (const k of PRO_KEYS) expect(k in data, `${label}: starter has no ${k}`).toBe(false);
    return;
  }
  const sec = exp.sections;
  // each section's percentiles within the bound of their own column and count ($/wRVU in cents); counts
  // null below 5; P90 of productivity and P10/P90 of FTE only from 15
  expect(data.productivity, `${label} productivity`).toEqual(alignPublished(data.productivity, sec.productivity));
  expect(data.fte_normalized, `${label} fte`).toEqual(alignPublished(data.fte_normalized, sec.fte_normalized, null, 'fte'));
  expect(data.components, `${label} components`).toEqual(alignPublished(data.components, sec.components));
  expect(data.trending, `${label} trending`).toEqual(alignPublished(data.trending, sec.trending));
  expect(data.breakdowns, `${label} breakdowns`).toEqual(alignPublished(data.breakdowns, sec.breakdowns));
  expect(data.breakdowns!.by_experience.map((r) => r.label)).toEqual(BANDS);
  if (!q.setting) expect(data.breakdowns!.by_practice_setting.map((r) => r.label)).toEqual(SETTINGS);
  if (!q.employment) expect(data.breakdowns!.by_employment_type.map((r) => r.label)).toEqual(EMPLOYMENTS);
  // counts below 5 are hidden: every year has a row, so the exact counts fall short of the headline by 1 to 4
  // reports per hidden row; each published count moves by up to 2 (README: Disclosure control, counts), so the
  // published shortfall only brackets it: no hidden row's count follows by subtraction
  const hiddenRows = data.trending!.filter((r) => r.n === null).length;
  const shown = data.trending!.filter((r) => r.n !== null).length;
  const shortfall = data.sample_size - data.trending!.reduce((a, r) => a + (r.n ?? 0), 0);
  expect(shortfall, label).toBeGreaterThanOrEqual(hiddenRows - 2 * (shown + 1));
  expect(shortfall, label).toBeLessThanOrEqual(4 * hiddenRows + 2 * (shown + 1));
}

async function benchmarks(key: string, params: Record<string, string | number | undefined | null>): Promise<BenchmarkData> {
  const r = await call(ks.url, `/benchmarks?${qs(params)}`, key);
  const body = BenchmarkResponse.parse(ok(r));
  expect(body.meta.request_id).toBe(r.headers['x-request-id']);
  return body.data;
}

const paramsOf = (q: RefQuery) => ({
  specialty: nameOf(q.specialty), state: q.state ? stateName(q.state) : undefined, region: q.region ?? undefined,
  practice_setting: q.setting ?? undefined, employment_type: q.employment ?? undefined, year_start: q.yearStart ?? undefined, year_end: q.yearEnd ?? undefined,
});

describe('/benchmarks against an independent computation', () => {
  it('every publishable specialty, nationally, for a state, a region, and with filters', async () => {
    const used = new Set<string>();
    let checked = 0;
    for (const sp of ref.specialties) {
      if (nationalN(sp.slug) < 5) continue;
      const queries: RefQuery[] = [
        { specialty: sp.slug },
        { specialty: sp.slug, state: 'CA' },
        { specialty: sp.slug, state: 'TX' },
        { specialty: sp.slug, state: 'VT' },
        { specialty: sp.slug, region: 'Northeast' },
        { specialty: sp.slug, setting: 'Hospital Employed' },
        { specialty: sp.slug, state: 'NY', employment: 'Full-Time (W-2)' },
      ];
      for (const q of queries) {
        const exp = expectedBenchmark(ref, q, DEFAULT_BOUNDS);
        const r = await call(ks.url, `/benchmarks?${qs(paramsOf(q))}`, enterprise.key);
        if (!exp) {
          expectError(r, 404, /insufficient data/);
          used.add('404');
          continue;
        }
        const data = BenchmarkResponse.parse(ok(r)).data;
        expectBenchmark(data, q, DEFAULT_BOUNDS, true, JSON.stringify(q));
        used.add(exp.scopeUsed);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(150);
    // every branch of scope_used (and the 404) occurred
    expect([...used].sort()).toEqual(['404', 'national', 'regional', 'state']);
  });

  it('scope_used: state when its n >= 5, else regional, else national; region only -> regional; neither -> national', async () => {
    // Family Medicine in California has a publishable state scope
    const fmCa = select(ref, { specialty: 'family-medicine' }, { state: 'CA' }).length;
    expect(fmCa).toBeGreaterThanOrEqual(5);
    expect((await benchmarks(professional.key, { specialty: 'Family Medicine', state: 'California' })).geography).toEqual({ state: 'California', region: 'West', scope_used: 'state' });
    // a state with fewer than 5 reports falls back to its region
    const thin = ref.states.find((s) => {
      const n = select(ref, { specialty: 'family-medicine' }, { state: s.code }).length;
      return n > 0 && n < 5 && select(ref, { specialty: 'family-medicine' }, { region: s.region }).length >= 5;
    })!;
    const d = await benchmarks(professional.key, { specialty: 'Family Medicine', state: thin.name });
    expect(d.geography).toEqual({ state: thin.name, region: thin.region, scope_used: 'regional' });
    expect(d.scopes.state!.n).toBeNull(); // n < 5: flags only, no figures and no exact count
    expect(d.scopes.state!.percentiles).toBeNull();
    expect(d.scopes.state!.mean).toBeNull();
    expect(d.scopes.state!.publishable).toBe(false);
    expect(d.sample_size).toBe(d.scopes.regional!.n);
    expect(d.percentiles).toEqual(d.scopes.regional!.percentiles);
    // region and state both thin -> national
    const rare = ref.specialties.find((sp) => {
      const n = nationalN(sp.slug);
      return n >= 5 && ['Northeast', 'Midwest', 'South', 'West'].some((rg) => select(ref, { specialty: sp.slug }, { region: rg }).length < 5);
    })!;
    const rg = ['Northeast', 'Midwest', 'South', 'West'].find((x) => select(ref, { specialty: rare.slug }, { region: x }).length < 5)!;
    const d2 = await benchmarks(professional.key, { specialty: rare.name, region: rg });
    expect(d2.geography).toEqual({ state: null, region: rg, scope_used: 'national' });
    expect(countWithin(d2.sample_size, nationalN(rare.slug), [5, 15])).toBe(true);
    // region only, publishable
    const d3 = await benchmarks(professional.key, { specialty: 'Internal Medicine', region: 'South' });
    expect(d3.geography).toEqual({ state: null, region: 'South', scope_used: 'regional' });
    expect(Object.keys(d3.scopes).sort()).toEqual(['national', 'regional']);
    // neither
    const d4 = await benchmarks(professional.key, { specialty: 'Internal Medicine' });
    expect(d4.geography).toEqual({ state: null, region: null, scope_used: 'national' });
    expect(Object.keys(d4.scopes).sort()).toEqual(['national', 'regional']);
    expect(d4.scopes.regional).toBeNull();
  });

  it('figures: percentiles are type-7 quantiles of the (winsorized) values; CI ranks follow Bin(n, 1/2)', async () => {
    // known ranks (STACK-NOTES): n=10 -> (2, 9), n=20 -> (6, 15), n=100 -> (40, 61); n <= 5: [min, max]
    expect(ciRanks(10)).toMatchObject({ lower: 2, upper: 9 });
    expect(ciRanks(20)).toMatchObject({ lower: 6, upper: 15 });
    expect(ciRanks(100)).toMatchObject({ lower: 40, upper: 61 });
    expect(ciRanks(5)).toMatchObject({ lower: 1, upper: 5 });
    expect(ciRanks(5).coverage).toBeCloseTo(1 - 2 / 32, 10);
    expect(ciRanks(6)).toMatchObject({ lower: 1, upper: 6 });
    // the first n whose interval is not [min, max]: 9 (below, the published interval is approximate)
    expect(ciRanks(8)).toMatchObject({ lower: 1, upper: 8 });
    expect(ciRanks(9)).toMatchObject({ lower: 2, upper: 8 });
    // every specialty's national interval from the ranks of its sorted (distorted) values, each bound moved
    // outward by at most the documented move, and the median within its move (a factor exp(+-0.75 / n^0.75),
    // then whole dollars; the spread correction leaves the median where it is)
    for (const sp of ref.specialties) {
      const rs = select(dref, { specialty: sp.slug }, {});
      if (rs.length < 5) continue;
      const d = await benchmarks(professional.key, { specialty: sp.name });
      const v = winsorized(rs, DEFAULT_BOUNDS);
      const { lower, upper } = ciRanks(v.length);
      const ci = d.confidence.confidence_interval_95;
      expect(ci.method, sp.slug).toBe(v.length >= 9 ? 'order_statistics' : 'approximate');
      if (v.length >= 9) expectCi(ci, v[lower - 1]!, v[upper - 1]!, v.length, d.percentiles.p50, sp.slug);
      expectWithinFactor(d.percentiles.p50, q7(v, 0.5), v.length, DOLLAR, `${sp.slug} p50`);
      expect(meanWithin(d.mean, Math.round(avg(v)), v.length), sp.slug).toBe(true);
      // variance_pct = (service - bls) / bls * 100, one decimal
      const bls = ref.bls.get(sp.soc!)!;
      expect(d.bls_comparison.variance_pct, sp.slug).toBe(Math.round(((d.bls_comparison.service_median - bls.median!) / bls.median!) * 1000) / 10);
    }
    // a small specialty: n = 5 exactly -> never [min, max]: built from the published quartiles, no P10/P90
    const five = ref.specialties.find((sp) => nationalN(sp.slug) === 5)!;
    const d5 = await benchmarks(professional.key, { specialty: five.name });
    const v5 = winsorized(select(dref, { specialty: five.slug }, {}), DEFAULT_BOUNDS);
    const ci5 = d5.confidence.confidence_interval_95;
    expect(ci5.method).toBe('approximate');
    expect(ci5.coverage).toBe(0.95);
    expect([ci5.lower, ci5.upper]).not.toEqual([v5[0], v5[4]]);
    expect([d5.percentiles.p10, d5.percentiles.p90]).toEqual([null, null]);
    expect(d5.confidence.sufficient).toBe(false);
    expect(d5.confidence.publishable).toBe(true);
  });

  it('names match case-insensitively; aliases resolve; filters match any letter case', async () => {
    const a = await benchmarks(professional.key, { specialty: 'Family Medicine', state: 'California', practice_setting: 'Hospital Employed', employment_type: 'Full-Time (W-2)' });
    const b = await benchmarks(professional.key, { specialty: 'family medicine', state: 'CALIFORNIA', practice_setting: 'hospital employed', employment_type: 'full-time (w-2)' });
    expect(b).toEqual(a);
    expectBenchmark(a, { specialty: 'family-medicine', state: 'CA', setting: 'Hospital Employed', employment: 'Full-Time (W-2)' }, DEFAULT_BOUNDS, true, 'filtered');
    const dc = await benchmarks(professional.key, { specialty: 'Pediatrics', state: 'district of columbia' });
    expect(dc.geography.state).toBe('District of Columbia');
    expect(dc.geography.region).toBe('South');
    const alias = await benchmarks(professional.key, { specialty: 'allergist' });
    expect(alias.specialty).toBe('Allergy and Immunology');
  });
});

describe('tier gating', () => {
  it('starter omits fte_normalized, components, trending, breakdowns entirely; otherwise the same data', async () => {
    for (const params of [{ specialty: 'Cardiology' }, { specialty: 'Family Medicine', state: 'Texas' }, { specialty: 'Psychiatry', region: 'West', practice_setting: 'Academic' }]) {
      const rs = await call(ks.url, `/benchmarks?${qs(params)}`, starter.key);
      const s = BenchmarkResponse.parse(ok(rs)).data;
      for (const k of PRO_KEYS) {
        expect(k in s, k).toBe(false);
        expect(rs.text).not.toContain(`"${k}"`);
      }
      const p = await benchmarks(professional.key, params);
      const e = await benchmarks(enterprise.key, params);
      expect(e).toEqual(p);
      for (const k of PRO_KEYS) expect(p[k as keyof BenchmarkData], k).toBeDefined();
      const { fte_normalized: _f, components: _c, trending: _t, breakdowns: _b, productivity: _p, ...rest } = p;
      expect(s).toEqual(rest);
    }
  });

  it('professional and enterprise sections have the documented shapes', async () => {
    const d = await benchmarks(professional.key, { specialty: 'Internal Medicine', state: 'New York' });
    expect(Object.keys(d.fte_normalized!).sort()).toEqual(['mean', 'n', 'percentiles']);
    expect(Object.keys(d.fte_normalized!.percentiles!).sort()).toEqual(['p10', 'p25', 'p50', 'p75', 'p90']);
    for (const c of [d.components!.base_salary, d.components!.bonus]) expect(Object.keys(c).sort()).toEqual(['n', 'p25', 'p50', 'p75']);
    const comp = d.components!;
    for (const m of OFFER_MONEY) expect(Object.keys(comp[m]).sort(), m).toEqual(['answered', 'n_with', 'p25', 'p50', 'p75', 'share_with_pct']);
    for (const c of [comp.pto_weeks, comp.call_nights_per_month]) expect(Object.keys(c).sort()).toEqual(['n', 'p25', 'p50', 'p75']);
    expect(Object.keys(comp.compensation_models).sort()).toEqual(['answered', 'models']);
    expect(comp.compensation_models.models.map((m) => m.model)).toEqual([...PAY_MODELS]);
    for (const m of comp.compensation_models.models) {
      expect(Object.keys(m).sort()).toEqual(['conversion_rate', 'model', 'share_pct']);
      expect(Object.keys(m.conversion_rate).sort()).toEqual(['n', 'p50']);
    }
    expect(Object.keys(comp.non_compete).sort()).toEqual(['answered', 'median_miles', 'median_years', 'n_with', 'share_with_pct']);
    expect(Object.keys(comp.partnership_track).sort()).toEqual(['answered', 'median_years', 'n_with', 'share_with_pct']);
    // units: whole dollars, $/wRVU in cents, weeks and nights to halves; counts null or from 5
    for (const m of OFFER_MONEY) for (const v of [comp[m].p25, comp[m].p50, comp[m].p75]) if (v !== null) expect(Number.isInteger(v), m).toBe(true);
    for (const v of [comp.pto_weeks.p25, comp.pto_weeks.p50, comp.pto_weeks.p75, comp.call_nights_per_month.p50]) if (v !== null) expect(Number.isInteger(v * 2)).toBe(true);
    for (const m of comp.compensation_models.models) if (m.conversion_rate.p50 !== null) expect(Math.round(m.conversion_rate.p50 * 100) / 100).toBe(m.conversion_rate.p50);
    for (const n of [...OFFER_MONEY.flatMap((m) => [comp[m].answered, comp[m].n_with]), comp.pto_weeks.n, comp.non_compete.n_with]) if (n !== null) expect(n).toBeGreaterThanOrEqual(5);
    for (const t of d.trending!) expect(Object.keys(t).sort()).toEqual(['mean', 'n', 'p25', 'p50', 'p75', 'partial', 'publishable', 'year']);
    expect(d.trending!.map((t) => t.year)).toEqual([...d.trending!.map((t) => t.year)].sort((a, b) => a - b));
    for (const list of Object.values(d.breakdowns!)) {
      for (const row of list) {
        expect(Object.keys(row).sort()).toEqual(['label', 'mean', 'n', 'p25', 'p50', 'p75', 'publishable']);
        expect(row.publishable).toBe(row.n !== null);
        if (row.n === null) expect([row.p25, row.p50, row.p75, row.mean]).toEqual([null, null, null, null]);
        else expect(row.n).toBeGreaterThanOrEqual(5);
      }
    }
    expect(Object.keys(d.breakdowns!).sort()).toEqual(['by_employment_type', 'by_experience', 'by_practice_setting']);
  });

  it('the whole offer: Professional and Enterprise get it at state, regional and national scope, from the headline scope\'s reports; Starter does not', async () => {
    // a state scope, a state too thin for its own (its region's), and no geography (national)
    const thin = ref.states.find((st) => {
      const n = select(ref, { specialty: 'family-medicine' }, { state: st.code }).length;
      return n > 0 && n < 5 && select(ref, { specialty: 'family-medicine' }, { region: st.region }).length >= 5;
    })!;
    const cases: [RefQuery, 'state' | 'regional' | 'national'][] = [
      [{ specialty: 'family-medicine', state: 'CA' }, 'state'],
      [{ specialty: 'family-medicine', state: thin.code }, 'regional'],
      [{ specialty: 'family-medicine' }, 'national'],
      [{ specialty: 'internal-medicine', region: 'South', setting: 'Hospital Employed' }, 'regional'],
    ];
    for (const [q, scope] of cases) {
      const label = `${JSON.stringify(q)} (${scope})`;
      const s = await call(ks.url, `/benchmarks?${qs(paramsOf(q))}`, starter.key);
      expect(BenchmarkResponse.parse(ok(s)).data.geography.scope_used, label).toBe(scope);
      for (const k of ['components', ...OFFER_KEYS, 'share_with_pct', 'conversion_rate']) expect(s.text, `${label}: starter has no ${k}`).not.toContain(`"${k}"`);
      const p = await benchmarks(professional.key, paramsOf(q));
      expect(await benchmarks(enterprise.key, paramsOf(q)), label).toEqual(p);
      expect(p.geography.scope_used, label).toBe(scope);
      // base salary and bonus first, as before, then the whole offer
      expect(Object.keys(p.components!), label).toEqual(['base_salary', 'bonus', ...OFFER_KEYS]);
      // the figures of exactly the headline scope's reports (independent reference; each within its bound)
      const exp = expectedBenchmark(dref, q, DEFAULT_BOUNDS)!;
      const headline = headlineReports(dref, q, scope, exp.region);
      const expected = offerComponents(headline);
      expect(p.components, label).toEqual(alignPublished(p.components, { ...exp.sections.components, ...expected }));
      // and they are real figures: the demo's reports answer the questions
      expect(p.components!.call_pay.answered, label).not.toBeNull();
      expect(p.components!.pto_weeks.p50, label).not.toBeNull();
    }
  });

  it('/me/usage features follow the plan', async () => {
    for (const [k, tier] of [[starter, 'starter'], [professional, 'professional'], [enterprise, 'enterprise']] as const) {
      const u = UsageResponse.parse(ok(await call(ks.url, '/me/usage', k.key)));
      const pro = tier !== 'starter';
      expect(u.features, tier).toEqual({ trending: pro, fte_normalized: pro, breakdowns: pro, components: pro, custom_date_ranges: tier === 'enterprise' });
      expect(u.plan_tier).toBe(tier);
    }
  });
});

describe('Enterprise year ranges', () => {
  const ranges: [number | null, number | null][] = [[2022, 2024], [2025, null], [null, 2021], [2024, 2024]];

  it('answers from the same core: independent reference, and the pure core called directly', async () => {
    const index = KeyedIndex.parse(JSON.parse(readFileSync(join(ks.buildDir, keyedPaths.index()), 'utf8')));
    const regions = new Set<string>();
    for (const slug of ['family-medicine', 'cardiology', 'internal-medicine']) {
      const artifact = KeyedSpecialtyArtifact.parse(JSON.parse(readFileSync(join(ks.buildDir, keyedPaths.specialty(slug)), 'utf8')));
      const columns = keyedColumnsFromArtifact(KeyedReportsArtifact.parse(JSON.parse(readFileSync(join(ks.buildDir, keyedPaths.reports(slug)), 'utf8'))));
      // the per-report columns the build stored are the documented ones: each report's total times its secret
      // factor, winsorized (the reported values never leave the build), its record-key lanes, and the draw key
      // derived from the secret (HMAC-SHA256(secret, "physpay cell draws v<method>"))
      const stored = Array.from(columns.total).sort((x, y) => x - y);
      expect(stored, `${slug} stored totals`).toEqual(winsorized(select(dref, { specialty: slug }, {}), DEFAULT_BOUNDS));
      expect(stored, `${slug} stored totals are not the reported ones`).not.toEqual(winsorized(select(ref, { specialty: slug }, {}), DEFAULT_BOUNDS));
      const lanes = lanesOf.get(slug)!;
      const pairs = (lo: ArrayLike<number>, hi: ArrayLike<number>) => Array.from(lo, (x, i) => `${x}:${hi[i]}`).sort();
      expect(pairs(columns.keyLo, columns.keyHi), `${slug} record keys`).toEqual(pairs(lanes.lo, lanes.hi));
      expect(Buffer.from(columns.drawKey).toString('hex')).toBe(createHmac('sha256', secret).update(`physpay cell draws v${DISCLOSURE_METHOD_VERSION}`).digest('hex'));
      for (const [ys, ye] of ranges) {
        for (const geo of [{}, { state: 'CA' }, { region: 'South' }, { state: 'TX', setting: 'Private Practice' }, { region: 'West', employment: 'Full-Time (W-2)' }]) {
          const q: RefQuery = { specialty: slug, yearStart: ys, yearEnd: ye, ...geo };
          const exp = expectedBenchmark(ref, q, DEFAULT_BOUNDS);
          const r = await call(ks.url, `/benchmarks?${qs(paramsOf(q))}`, enterprise.key);
          if (!exp) {
            expectError(r, 404, /insufficient data/);
            continue;
          }
          const data = BenchmarkResponse.parse(ok(r)).data;
          expectBenchmark(data, q, DEFAULT_BOUNDS, true, `${slug} ${ys}-${ye} ${JSON.stringify(geo)}`);
          regions.add(data.geography.scope_used);
          // the pure core, called directly over the build's per-report columns
          const st = q.state ? index.states.find((s) => s.code === q.state)! : null;
          const direct = benchmarkData(
            { index, bls: artifact.bls, cells: computedSource(columns, index, artifact.bls, ys, ye), plan: PLANS.enterprise },
            {
              specialty: { slug, name: nameOf(slug) }, state: st ? { code: st.code, name: st.name, region: st.region } : null,
              region: (q.region as 'South' | undefined) ?? null, practiceSetting: (q.setting ?? null) as never, employmentType: (q.employment ?? null) as never, yearStart: ys, yearEnd: ye,
            },
          );
          expect(data).toEqual(JSON.parse(JSON.stringify(direct)));
        }
      }
    }
    expect(regions.size).toBeGreaterThanOrEqual(2);
  });

  it('a year range gives the whole offer of that range\'s reports', async () => {
    let differs = 0;
    for (const [ys, ye] of [[2024, 2024], [2025, null], [null, 2023]] as [number | null, number | null][]) {
      for (const geo of [{}, { state: 'CA' }, { region: 'South' }]) {
        const q: RefQuery = { specialty: 'family-medicine', yearStart: ys, yearEnd: ye, ...geo };
        const label = JSON.stringify(q);
        const data = await benchmarks(enterprise.key, paramsOf(q));
        const exp = expectedBenchmark(dref, q, DEFAULT_BOUNDS)!;
        const expected = offerComponents(headlineReports(dref, q, exp.scopeUsed, exp.region));
        expect(Object.keys(data.components!), label).toEqual(['base_salary', 'bonus', ...OFFER_KEYS]);
        expect(data.components, label).toEqual(alignPublished(data.components, { ...exp.sections.components, ...expected }));
        if (exp.scopeUsed === 'national') expect(data.components!.signing_bonus.answered, label).not.toBeNull();
        // not the all-years figures: other reports, other figures
        const allYears = await benchmarks(enterprise.key, paramsOf({ ...q, yearStart: null, yearEnd: null }));
        const offerOnly = (d: BenchmarkData) => OFFER_KEYS.map((k) => d.components![k]);
        if (JSON.stringify(offerOnly(data)) !== JSON.stringify(offerOnly(allYears))) differs++;
      }
    }
    expect(differs).toBe(9);
  });

  it('a range covering every year equals the precomputed answer (apart from year_range)', async () => {
    for (const params of [{ specialty: 'Family Medicine' }, { specialty: 'Family Medicine', state: 'California', practice_setting: 'Academic' }, { specialty: 'Pediatrics', region: 'West' }]) {
      const pre = await benchmarks(enterprise.key, params);
      const all = await benchmarks(enterprise.key, { ...params, year_start: 2000, year_end: 2099 });
      expect(all.methodology.year_range).toEqual({ start: 2000, end: 2099 });
      expect(all.filters).toMatchObject({ year_start: 2000, year_end: 2099 });
      const noRange = (d: BenchmarkData) => ({ ...d, methodology: { ...d.methodology, year_range: null }, filters: { ...d.filters, year_start: null, year_end: null } });
      expect(noRange(all)).toEqual(noRange(pre));
      // and the same query again is answered identically (cached for the life of the build)
      expect(await benchmarks(enterprise.key, { ...params, year_start: 2000, year_end: 2099 })).toEqual(all);
    }
  });

  it('a year range with fewer than 5 reports nationally is a 404', async () => {
    const slug = 'neurosurgery';
    const years = [...new Set(select(ref, { specialty: slug }, {}).map((r) => r.year))];
    const y = years.find((yy) => select(ref, { specialty: slug, yearStart: yy, yearEnd: yy }, {}).length < 5)!;
    expect(y).toBeDefined();
    expectError(await call(ks.url, `/benchmarks?${qs({ specialty: 'Neurosurgery', year_start: y, year_end: y })}`, enterprise.key), 404, /insufficient data/);
    expectError(await call(ks.url, `/benchmarks?${qs({ specialty: 'Neurosurgery', year_start: 2099 })}`, enterprise.key), 404, /insufficient data/);
  });
});

describe('/me/usage', () => {
  it('every field: plan, status, prefix, created_at, counts, limits, resets, features', async () => {
    const k = await createKey(ks.server.store, 'professional', 'active', '2026-10-05T07:08:09Z');
    await call(ks.url, '/specialties', k.key);
    await call(ks.url, '/benchmarks?specialty=Cardiology', k.key);
    await call(ks.url, '/benchmarks?specialty=Nope', k.key); // a 400 counts too
    const r = await call(ks.url, '/me/usage', k.key);
    const u = UsageResponse.parse(ok(r));
    const now = ks.now();
    expect(u).toEqual({
      plan_tier: 'professional',
      subscription_status: 'active',
      key_prefix: k.key.slice(0, 12),
      created_at: '2026-10-05T07:08:09Z',
      usage: {
        requests_today: 3, requests_this_month: 3, daily_limit: 500, monthly_limit: 15000,
        remaining_daily: 497, remaining_monthly: 14997,
        daily_reset: nextMidnight(now),
        monthly_reset: Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) / 1000,
      },
      features: { trending: true, fte_normalized: true, breakdowns: true, components: true, custom_date_ranges: false },
    });
    expect(u.key_prefix).toMatch(/^pcb_live_[0-9A-Za-z]{3}$/);
    expect(r.text).not.toContain(k.key);
  });
});

describe('narrow winsor bounds (the clamp changes the figures)', () => {
  let ks2: KeyedServer;
  const bounds: Bounds = { lower: 200_000, upper: 400_000 };
  beforeAll(async () => {
    ks2 = await startKeyedServer({ now: '2026-12-01T12:00:00Z', prefix: 'winsor', work: ks.work, db: ks.db, build: { keyed: { winsorLower: bounds.lower, winsorUpper: bounds.upper } } });
  }, 60_000);
  afterAll(async () => {
    await ks2?.close();
  });

  it('figures are those of the winsorized values, nothing dropped', async () => {
    const k = await createKey(ks2.server.store, 'enterprise');
    let clamped = 0;
    for (const q of [{ specialty: 'family-medicine' }, { specialty: 'orthopedic-surgery', state: 'TX' }, { specialty: 'cardiology', region: 'South' }, { specialty: 'pediatrics', yearStart: 2023 }] as RefQuery[]) {
      const data = BenchmarkResponse.parse(ok(await call(ks2.url, `/benchmarks?${qs(paramsOf(q))}`, k.key))).data;
      expectBenchmark(data, q, bounds, true, `winsor ${JSON.stringify(q)}`);
      const raw = select(ref, q, {}).map((r) => r.total);
      clamped += raw.filter((v) => v < bounds.lower || v > bounds.upper).length;
      expect(countWithin(data.scopes.national.n, raw.length, [5, 15]), `${data.scopes.national.n} of ${raw.length}`).toBe(true); // nothing dropped (the count moves by up to 2)
      // percentiles of winsorized values (the spread correction keeps them between the bounds), moved by at
      // most their disclosure factor (so a P90 at the upper bound may be published a little above it)
      const move = Math.exp(quantileBound(raw.length));
      expect(data.scopes.national.percentiles!.p10!).toBeGreaterThanOrEqual(bounds.lower / move - DOLLAR / 2);
      expect(data.scopes.national.percentiles!.p90!).toBeLessThanOrEqual(bounds.upper * move + DOLLAR / 2);
    }
    expect(clamped).toBeGreaterThan(50); // the bounds really bite
    // the unclamped build answers differently for the same query
    const wide = await benchmarks(enterprise.key, { specialty: 'Family Medicine' });
    const narrow = BenchmarkResponse.parse(ok(await call(ks2.url, `/benchmarks?${qs({ specialty: 'Family Medicine' })}`, k.key))).data;
    expect(narrow.percentiles.p10).not.toBe(wide.percentiles.p10);
    expect(narrow.sample_size).toBe(wide.sample_size);
  });
});

describe('disclosure control: order statistics perturbed, small counts hidden', () => {
  it('the record factors are real: every report\'s pay is 5.5% to 15% off, up or down alike', () => {
    expect(factors.length).toBe(ref.reports.length);
    for (const f of factors) {
      expect(Math.abs(Math.log(f))).toBeGreaterThanOrEqual(RECORD_NOISE.min - 1e-12);
      expect(Math.abs(Math.log(f))).toBeLessThanOrEqual(RECORD_NOISE.max + 1e-12);
    }
    const up = factors.filter((f) => f > 1).length / factors.length;
    expect(Math.abs(up - 0.5)).toBeLessThan(0.1);
  });

  it('the draws are real: most published percentiles and interval bounds are not the values they are moved from (all within their bound)', async () => {
    // counted afresh here (the file's other tests add to the same counters)
    moves.compared = 0;
    moves.moved = 0;
    let ciMoved = 0;
    let checked = 0;
    for (const sp of ref.specialties) {
      const rs = select(dref, { specialty: sp.slug }, {});
      if (rs.length < 5) continue;
      const q: RefQuery = { specialty: sp.slug };
      const data = await benchmarks(enterprise.key, paramsOf(q));
      expectBenchmark(data, q, DEFAULT_BOUNDS, true, `national ${sp.slug}`);
      // the order statistics of the values the build reads, before their draws
      const exact = scopeFigures(rs, DEFAULT_BOUNDS).ci!;
      const ci = data.confidence.confidence_interval_95;
      if (exact.method === 'order_statistics' && (ci.lower !== Math.round(exact.lower) || ci.upper !== Math.round(exact.upper))) ciMoved++;
      checked++;
    }
    expect(checked).toBeGreaterThan(30);
    expect(moves.compared, 'percentiles and interval bounds checked').toBeGreaterThan(1_000);
    expect(moves.moved / moves.compared, `${moves.moved} of ${moves.compared} moved beyond rounding`).toBeGreaterThan(0.5);
    expect(ciMoved / checked).toBeGreaterThan(0.5);
  });

  it('small cells: no P10/P90 below 15, an approximate interval below 9, no count and no years below 5', async () => {
    const fm = (code: string) => select(ref, { specialty: 'family-medicine' }, { state: code });
    const pick = (lo: number, hi: number) => ref.states.find((s) => fm(s.code).length >= lo && fm(s.code).length <= hi);
    const seen: string[] = [];
    // 9 to 14 reports: P25..P75 only, the order-statistic interval
    // 5 to 8 reports: P25..P75 only, the approximate interval (never [min, max])
    for (const [lo, hi, method] of [[9, 14, 'order_statistics'], [5, 8, 'approximate']] as const) {
      const st = pick(lo, hi);
      if (!st) continue;
      const q: RefQuery = { specialty: 'family-medicine', state: st.code };
      const d = await benchmarks(enterprise.key, paramsOf(q));
      expectBenchmark(d, q, DEFAULT_BOUNDS, true, `small cell ${st.code}`);
      expect(d.geography.scope_used).toBe('state');
      expect(countWithin(d.sample_size, fm(st.code).length, [5, 15])).toBe(true);
      expect([d.percentiles.p10, d.percentiles.p90]).toEqual([null, null]);
      expect(d.confidence.confidence_interval_95.method).toBe(method);
      expect(d.confidence.standard_deviation).toBeNull(); // no SD below 15
      const v = winsorized(fm(st.code), DEFAULT_BOUNDS);
      expect([d.confidence.confidence_interval_95.lower, d.confidence.confidence_interval_95.upper]).not.toEqual([v[0], v.at(-1)]);
      seen.push(method);
    }
    expect(seen, 'the golden data has both kinds of small state cell').toEqual(['order_statistics', 'approximate']);
    // 1 to 4 reports: flags only, in /available-data and /benchmarks' scopes
    const thin = pick(1, 4)!;
    expect(thin).toBeDefined();
    const a = AvailabilityResponse.parse(ok(await call(ks.url, `/available-data?${qs({ specialty: 'Family Medicine', state: thin.name })}`, starter.key)));
    expect(fm(thin.code).length).toBeGreaterThan(0);
    expect(a.availability.state).toEqual({ label: thin.name, n: null, years: [], sufficient: false, publishable: false });
    const b = await benchmarks(professional.key, { specialty: 'Family Medicine', state: thin.name });
    expect(b.scopes.state).toEqual({ label: thin.name, n: null, publishable: false, sufficient: false, percentiles: null, mean: null });
    // a specialty with 1 to 4 reports: /specialties gives no sample size
    const tiny = ref.specialties.find((sp) => nationalN(sp.slug) > 0 && nationalN(sp.slug) < 5)!;
    expect(tiny).toBeDefined();
    const list = SpecialtyListResponse.parse(ok(await call(ks.url, '/specialties', starter.key)));
    expect(list.specialties.find((x) => x.slug === tiny.slug)).toMatchObject({ sample_size: null, publishable: false, sufficient: false });
    // section rows of 1 to 4 reports: n null with their figures (trending years, breakdown rows)
    const big = await benchmarks(professional.key, { specialty: 'Family Medicine', state: 'California' });
    const ca = fm('CA');
    const smallYears = [...new Set(ca.map((r) => r.year))].filter((y) => ca.filter((r) => r.year === y).length < 5);
    expect(smallYears.length, 'some years of the cell have 1 to 4 reports').toBeGreaterThan(0);
    for (const y of smallYears) expect(big.trending!.find((r) => r.year === y), String(y)).toMatchObject({ n: null, p25: null, p50: null, p75: null, mean: null, publishable: false });
    const smallSettings = SETTINGS.filter((x) => { const n = ca.filter((r) => r.setting === x).length; return n > 0 && n < 5; });
    expect(smallSettings.length, 'some practice settings of the cell have 1 to 4 reports').toBeGreaterThan(0);
    for (const x of smallSettings) expect(big.breakdowns!.by_practice_setting.find((r) => r.label === x), x).toMatchObject({ n: null, p25: null, p50: null, p75: null, mean: null, publishable: false });
    const rows = [...big.trending!, ...Object.values(big.breakdowns!).flat()];
    for (const r of rows) {
      if (r.n === null) expect([r.p25, r.p50, r.p75, r.mean, r.publishable]).toEqual([null, null, null, null, false]);
      else expect(r.n).toBeGreaterThanOrEqual(5);
    }
  });
});
