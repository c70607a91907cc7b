/**
 * The keyed API's endpoints over real HTTP against the golden build: every field of /specialties,
 * /available-data, /benchmarks and /me/usage, checked against an independent computation from the golden
 * reports DB (test/keyed/reference.ts), the zod contract, the tier gating of the Professional sections, and
 * Enterprise year ranges (independent reference, the pure core called directly, and consistency with the
 * build's precomputed cells). A second build with narrow winsor bounds makes the clamp matter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  AvailabilityResponse, BenchmarkResponse, SpecialtyListResponse, UsageResponse, type BenchmarkData,
} from '../../build/contract/keyed-api.ts';
import { KeyedReportsArtifact, KeyedSpecialtyArtifact, KeyedIndex, keyedPaths } from '../../build/contract/keyed-artifacts.ts';
import { keyedColumnsFromArtifact } from '../../build/compute/keyed.ts';
import { benchmarkData, computedSource } from '../../server/keyed/benchmark.ts';
import { PLANS } from '../../server/keyed/plans.ts';
import type { HttpResponse } from '../helpers/http.ts';
import { call, createKey, expectError, nextMidnight, qs, startKeyedServer, type KeyedServer, type TestKey } from './harness.ts';
import {
  BANDS, EMPLOYMENTS, SETTINGS, alignMeans, avg, ciRanks, expectedBenchmark, loadReference, meanWithin, nationalMedian, q7, scopeFigures, sdWithin, select, winsorized,
  type Bounds, type RefData, type RefQuery,
} from './reference.ts';

const DEFAULT_BOUNDS: Bounds = { lower: 50_000, upper: 3_000_000 };
const PRO_KEYS = ['fte_normalized', 'components', 'trending', 'breakdowns', 'productivity'];

let ks: KeyedServer;
let ref: RefData;
let starter: TestKey;
let professional: TestKey;
let enterprise: TestKey;

beforeAll(async () => {
  ks = await startKeyedServer({ now: '2026-12-01T12:00:00Z', prefix: 'endpoints' });
  ref = loadReference(ks.db);
  starter = await createKey(ks.server.store, 'starter');
  professional = await createKey(ks.server.store, 'professional');
  enterprise = await createKey(ks.server.store, 'enterprise');
}, 60_000);

afterAll(async () => {
  await ks?.server.close();
  if (ks?.work) rmSync(ks.work, { recursive: true, force: true });
});

const nameOf = (slug: string) => ref.specialties.find((s) => s.slug === slug)!.name;
const stateName = (code: string) => ref.states.find((s) => s.code === code)!.name;
const nationalN = (slug: string) => ref.reports.filter((r) => r.specialty === slug).length;

function ok<T>(r: HttpResponse): T {
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  expect(r.headers['content-type']).toMatch(/^application\/json; charset=utf-8$/);
  return r.json<T>();
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
      const rs = ref.reports.filter((r) => r.specialty === sp.slug);
      const perState = new Map<string, number>();
      for (const r of rs) perState.set(r.state, (perState.get(r.state) ?? 0) + 1);
      expect(e).toEqual({
        name: sp.name,
        slug: sp.slug,
        sample_size: rs.length,
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
  const scope = (label: string, rs: { year: number }[]) => ({
    label, n: rs.length, years: [...new Set(rs.map((r) => r.year))].sort((a, b) => a - b), sufficient: rs.length >= 15, publishable: rs.length >= 5,
  });

  it('every specialty: national scope, and no state scope when no state is asked for', async () => {
    for (const sp of ref.specialties) {
      const body = AvailabilityResponse.parse(ok(await call(ks.url, `/available-data?${qs({ specialty: sp.name })}`, starter.key)));
      const bls = sp.soc ? ref.bls.get(sp.soc) : undefined;
      expect(body).toEqual({
        specialty: sp.name,
        availability: { regional: null, national: scope('National', select(ref, { specialty: sp.slug }, {})) },
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
        state: scope(st.name, select(ref, { specialty: slug }, { state: code })),
        regional: scope(st.region, select(ref, { specialty: slug }, { region: st.region })),
        national: scope('National', select(ref, { specialty: slug }, {})),
      });
    }
    const body = AvailabilityResponse.parse(ok(await call(ks.url, `/available-data?${qs({ specialty: 'Cardiology', region: 'midwest' })}`, starter.key)));
    expect(body.availability).toEqual({
      regional: scope('Midwest', select(ref, { specialty: 'cardiology' }, { region: 'Midwest' })),
      national: scope('National', select(ref, { specialty: 'cardiology' }, {})),
    });
    // a specialty without an OEWS median
    const ps = AvailabilityResponse.parse(ok(await call(ks.url, `/available-data?${qs({ specialty: 'Pediatric Surgery' })}`, starter.key)));
    expect(ps.bls_available).toBe(false);
    expect(ps.bls_soc_code).toMatch(/^\d{2}-\d{4}$/);
  });
});

/** Compare a /benchmarks `data` with the independent reference, field by field. */
function expectBenchmark(data: BenchmarkData, q: RefQuery, b: Bounds, withSections: boolean, label: string) {
  const exp = expectedBenchmark(ref, q, b)!;
  expect(exp, label).not.toBeNull();
  const h = exp.headline;
  expect(data.specialty, label).toBe(nameOf(q.specialty));
  expect(data.geography, label).toEqual({ state: q.state ? stateName(q.state) : null, region: exp.region, scope_used: exp.scopeUsed });
  expect(data.sample_size, label).toBe(h.n);
  expect(data.percentiles, label).toEqual(h.percentiles);
  const refMedian = nationalMedian(ref, q.specialty);
  expect(meanWithin(data.mean, h.mean, h.n, refMedian), `${label} mean ${data.mean} vs exact ${h.mean}`).toBe(true);
  expect(data.confidence.sufficient, label).toBe(h.n >= 15);
  expect(data.confidence.publishable, label).toBe(true);
  expect(sdWithin(data.confidence.standard_deviation, h.sd, h.n, refMedian), `${label} sd ${data.confidence.standard_deviation} vs exact ${h.sd}`).toBe(true);
  const ci = data.confidence.confidence_interval_95;
  expect({ lower: ci.lower, upper: ci.upper }, `${label} ci`).toEqual({ lower: h.ci!.lower, upper: h.ci!.upper });
  expect(ci.coverage, `${label} coverage`).toBeCloseTo(h.ci!.coverage, 4);
  expect(ci.coverage).toBeGreaterThanOrEqual(h.n > 5 ? 0.95 : 0.9);
  expect(ci.lower).toBeLessThanOrEqual(data.percentiles.p50);
  expect(ci.upper).toBeGreaterThanOrEqual(data.percentiles.p50);

  const scopeOf = (s: ReturnType<typeof scopeFigures>, lbl: string) => ({ label: lbl, n: s.n, publishable: s.publishable, sufficient: s.sufficient, percentiles: s.percentiles, mean: s.mean });
  const scopes: Record<string, unknown> = { national: scopeOf(exp.national, 'National') };
  if (exp.state) scopes.state = scopeOf(exp.state, stateName(q.state!));
  scopes.regional = exp.regional ? scopeOf(exp.regional, exp.region!) : null;
  expect(data.scopes, `${label} scopes`).toEqual(alignMeans(data.scopes, scopes, refMedian));
  expect('state' in data.scopes, label).toBe(Boolean(q.state));
  expect(data.filters, `${label} filters`).toEqual({ practice_setting: q.setting ?? null, employment_type: q.employment ?? null, year_start: q.yearStart ?? null, year_end: q.yearEnd ?? null });

  const bc = data.bls_comparison;
  expect(bc.service_median, label).toBe(h.percentiles!.p50);
  expect(bc.physpay_median, label).toBe(bc.service_median);
  if (exp.bls) {
    expect(bc.available).toBe(true);
    expect(bc.bls_data).toEqual({ soc_code: exp.bls.soc, soc_title: exp.bls.title, median: exp.bls.median, year: exp.bls.year, top_coded: exp.bls.topCoded, soc_match: exp.bls.socMatch });
    expect(bc.variance_pct, `${label} variance`).toBe(exp.variancePct);
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
  expect(data.data_as_of).toBe(ref.reports.map((r) => r.day).sort().at(-1));
  expect(data.synthetic).toBe(true);

  if (!withSections) {
    for (const k of PRO_KEYS) expect(k in data, `${label}: starter has no ${k}`).toBe(false);
    return;
  }
  const sec = exp.sections;
  expect(data.productivity, `${label} productivity`).toEqual(sec.productivity);
  const fte = data.fte_normalized!;
  expect(fte.n, `${label} fte n`).toBe(sec.fte_normalized.n);
  if (sec.fte_normalized.percentiles) {
    for (const p of ['p10', 'p25', 'p50', 'p75', 'p90'] as const) expect(Math.abs(fte.percentiles![p] - sec.fte_normalized.percentiles[p]), `${label} fte ${p}`).toBeLessThanOrEqual(1);
    expect(meanWithin(fte.mean, sec.fte_normalized.mean, fte.n, refMedian), `${label} fte mean`).toBe(true);
  } else {
    expect(fte.percentiles).toBeNull();
    expect(fte.mean).toBeNull();
  }
  expect(data.components, `${label} components`).toEqual(sec.components);
  expect(data.trending, `${label} trending`).toEqual(alignMeans(data.trending, sec.trending, refMedian));
  expect(data.breakdowns, `${label} breakdowns`).toEqual(alignMeans(data.breakdowns, sec.breakdowns, refMedian));
  expect(data.breakdowns!.by_experience.map((r) => r.label)).toEqual(BANDS);
  if (!q.setting) expect(data.breakdowns!.by_practice_setting.map((r) => r.label)).toEqual(SETTINGS);
  if (!q.employment) expect(data.breakdowns!.by_employment_type.map((r) => r.label)).toEqual(EMPLOYMENTS);
  expect(data.trending!.reduce((a, r) => a + r.n, 0)).toBe(h.n);
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
    expect(d.scopes.state!.n).toBe(select(ref, { specialty: 'family-medicine' }, { state: thin.code }).length);
    expect(d.scopes.state!.percentiles).toBeNull(); // n < 5: n and flags, no figures
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
    expect(d2.sample_size).toBe(nationalN(rare.slug));
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
    // every specialty's national interval from the ranks of its sorted values
    for (const sp of ref.specialties) {
      const rs = select(ref, { specialty: sp.slug }, {});
      if (rs.length < 5) continue;
      const d = await benchmarks(professional.key, { specialty: sp.name });
      const v = winsorized(rs, DEFAULT_BOUNDS);
      const { lower, upper } = ciRanks(v.length);
      expect(d.confidence.confidence_interval_95.lower, sp.slug).toBe(v[lower - 1]);
      expect(d.confidence.confidence_interval_95.upper, sp.slug).toBe(v[upper - 1]);
      expect(d.percentiles.p50, sp.slug).toBe(Math.round(q7(v, 0.5)));
      expect(meanWithin(d.mean, Math.round(avg(v)), v.length, nationalMedian(ref, sp.slug)), sp.slug).toBe(true);
      // variance_pct = (service - bls) / bls * 100, one decimal
      const bls = ref.bls.get(sp.soc!)!;
      expect(d.bls_comparison.variance_pct, sp.slug).toBe(Math.round(((d.bls_comparison.service_median - bls.median!) / bls.median!) * 1000) / 10);
    }
    // a small specialty: n = 5 exactly -> [min, max] with its coverage 0.9375
    const five = ref.specialties.find((sp) => nationalN(sp.slug) === 5)!;
    const d5 = await benchmarks(professional.key, { specialty: five.name });
    const v5 = winsorized(select(ref, { specialty: five.slug }, {}), DEFAULT_BOUNDS);
    expect(d5.confidence.confidence_interval_95).toEqual({ lower: v5[0], upper: v5[4], coverage: 0.9375 });
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
    for (const t of d.trending!) expect(Object.keys(t).sort()).toEqual(['mean', 'n', 'p25', 'p50', 'p75', 'partial', 'publishable', 'year']);
    expect(d.trending!.map((t) => t.year)).toEqual([...d.trending!.map((t) => t.year)].sort((a, b) => a - b));
    for (const list of Object.values(d.breakdowns!)) {
      for (const row of list) {
        expect(Object.keys(row).sort()).toEqual(['label', 'mean', 'n', 'p25', 'p50', 'p75', 'publishable']);
        expect(row.publishable).toBe(row.n >= 5);
        if (row.n < 5) expect([row.p25, row.p50, row.p75, row.mean]).toEqual([null, null, null, null]);
      }
    }
    expect(Object.keys(d.breakdowns!).sort()).toEqual(['by_employment_type', 'by_experience', 'by_practice_setting']);
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
    await ks2?.server.close();
  });

  it('figures are those of the winsorized values, nothing dropped', async () => {
    const k = await createKey(ks2.server.store, 'enterprise');
    let clamped = 0;
    for (const q of [{ specialty: 'family-medicine' }, { specialty: 'orthopedic-surgery', state: 'TX' }, { specialty: 'cardiology', region: 'South' }, { specialty: 'pediatrics', yearStart: 2023 }] as RefQuery[]) {
      const data = BenchmarkResponse.parse(ok(await call(ks2.url, `/benchmarks?${qs(paramsOf(q))}`, k.key))).data;
      expectBenchmark(data, q, bounds, true, `winsor ${JSON.stringify(q)}`);
      const raw = select(ref, q, {}).map((r) => r.total);
      clamped += raw.filter((v) => v < bounds.lower || v > bounds.upper).length;
      expect(data.scopes.national.n).toBe(raw.length); // nothing dropped
      expect(data.scopes.national.percentiles!.p10).toBeGreaterThanOrEqual(bounds.lower);
      expect(data.scopes.national.percentiles!.p90).toBeLessThanOrEqual(bounds.upper);
    }
    expect(clamped).toBeGreaterThan(50); // the bounds really bite
    // the unclamped build answers differently for the same query
    const wide = await benchmarks(enterprise.key, { specialty: 'Family Medicine' });
    const narrow = BenchmarkResponse.parse(ok(await call(ks2.url, `/benchmarks?${qs({ specialty: 'Family Medicine' })}`, k.key))).data;
    expect(narrow.percentiles.p10).not.toBe(wide.percentiles.p10);
    expect(narrow.sample_size).toBe(wide.sample_size);
  });
});
