/**
 * An independent reference for the keyed API's figures, written for the tests from README: Statistics and publication rules
 * only: it reads the approved reports straight from the golden reports DB (the build's input, which the
 * server never sees) and computes every figure with its own code (no import from build/compute):
 * winsorize, type-7 quantiles, sample SD, the order-statistic CI of the median from exact binomial sums
 * (BigInt), FTE normalisation, experience bands, scope_used, variance_pct.
 *
 * Every published figure carries a secret disclosure perturbation (README: Disclosure control), so the
 * reference computes the EXACT figures and checks the published ones against the documented bounds:
 * - a mean's sum moves by at most 0.75 x the specialty's national median of every approved total
 *   (`meanWithin`); a sum of squared deviations by at most 0.25 x that median squared, no SD below 15
 *   (`sdWithin`);
 * - a percentile (and a bound of the median's 95% interval) moves by at most 2.5 x spread / n^0.75, where
 *   n is the number of values it is computed from and spread the specialty's national interquartile range
 *   of that column, then is rounded (`withinBound`, `expectWithinBound`, `alignPublished`). The exact
 *   percentiles here are therefore left unrounded;
 * - P10 and P90 only from 15 values; no count below 5 (null), and no years below 5.
 */
import Database from 'better-sqlite3';
import { expect } from 'vitest';

export interface RefReport {
  specialty: string; // slug
  state: string; // two-letter code
  region: string;
  year: number;
  total: number; // raw
  base: number | null;
  bonus: number | null;
  hours: number | null;
  experience: number | null;
  setting: string | null;
  employment: string | null;
  wrvus: number | null;
  day: string; // YYYY-MM-DD of submitted_at (UTC)
}

export interface RefData {
  reports: RefReport[];
  specialties: { slug: string; name: string; soc: string | null; socMatch: string }[];
  states: { code: string; name: string; region: string }[];
  bls: Map<string, { title: string; median: number | null; year: number; topCoded: boolean }>;
}

export function loadReference(dbPath: string): RefData {
  const db = new Database(dbPath, { readonly: true });
  try {
    const states = db.prepare('SELECT code, name, region FROM states ORDER BY code').all() as RefData['states'];
    const regionOf = new Map(states.map((s) => [s.code, s.region]));
    const rows = db
      .prepare(`SELECT s.slug, r.state, r.year, r.total_compensation AS total, r.base_salary AS base, r.bonus, r.hours_per_week AS hours,
          r.years_in_practice AS experience, r.practice_setting AS setting, r.employment_type AS employment, r.wrvus, r.submitted_at
        FROM reports r JOIN specialties s ON s.id = r.specialty_id WHERE r.status = 'approved'`)
      .all() as { slug: string; state: string; year: number; total: number; base: number | null; bonus: number | null; hours: number | null; experience: number | null; setting: string | null; employment: string | null; wrvus: number | null; submitted_at: string }[];
    const reports = rows.map((r) => ({
      specialty: r.slug, state: r.state, region: regionOf.get(r.state)!, year: r.year, total: r.total, base: r.base, bonus: r.bonus,
      hours: r.hours, experience: r.experience, setting: r.setting || null, employment: r.employment || null, wrvus: r.wrvus,
      day: new Date(r.submitted_at).toISOString().slice(0, 10),
    }));
    const specialties = db.prepare('SELECT slug, name, soc_code AS soc, soc_match AS socMatch FROM specialties ORDER BY slug').all() as RefData['specialties'];
    const bls = new Map(
      (db.prepare('SELECT soc_code, title, annual_median, year, top_coded FROM bls_wages').all() as { soc_code: string; title: string; annual_median: number | null; year: number; top_coded: number }[])
        .map((b) => [b.soc_code, { title: b.title, median: b.annual_median, year: b.year, topCoded: b.top_coded === 1 }]),
    );
    return { reports, specialties, states, bls };
  } finally {
    db.close();
  }
}

// ------------------------------------------------------------------ disclosure bounds (documented rule)

export const MEAN_HALF_SPAN = 0.75;
export const SQUARE_HALF_SPAN = 0.25;
export const SD_MIN_N = 15;

/** The specialty's national median of every approved (raw) total: the size of its perturbation. */
export function nationalMedian(ref: RefData, slug: string): number {
  return q7(sortNum(ref.reports.filter((r) => r.specialty === slug).map((r) => r.total)), 0.5);
}

/** A published whole-dollar mean of n reports is within the bound of the exact (rounded) one. */
export function meanWithin(published: number | null, exact: number | null, n: number, refMedian: number): boolean {
  if (published === null || exact === null) return published === exact;
  return Math.abs(published - exact) <= (MEAN_HALF_SPAN * refMedian) / n + 1;
}

/** A published SD: null below 15 reports, else its sum of squares within the bound of the exact one. */
export function sdWithin(published: number | null, exact: number | null, n: number, refMedian: number): boolean {
  if (n < SD_MIN_N || exact === null) return published === null;
  if (published === null) return false;
  const rounding = (n - 1) * (2 * Math.max(published, exact) + 1); // both are rounded to whole dollars
  return Math.abs((n - 1) * (published * published - exact * exact)) <= SQUARE_HALF_SPAN * refMedian * refMedian + rounding;
}

/** The documented largest move of a percentile of n values (README: Disclosure control): 2.5 x spread / n^0.75. */
export const quantileBound = (n: number, spread: number) => (2.5 * spread) / n ** 0.75;

/** Interquartile range of ascending values (a tenth of the median when 0): the documented spread. */
export const spreadOf = (sorted: number[]) => (sorted.length ? (q7(sorted, 0.75) - q7(sorted, 0.25)) || Math.abs(q7(sorted, 0.5)) / 10 : 0);

export interface Spreads { total: number; fte: number; base: number; bonus: number; wrvus: number; perWrvu: number }

/** A specialty's national spreads of each column, recomputed from the reports DB (winsorized like the API). */
export function spreadsOf(ref: RefData, slug: string, b: Bounds): Spreads {
  const rs = ref.reports.filter((r) => r.specialty === slug);
  const w = (r: RefReport) => clamp(r.total, b.lower, b.upper);
  const fte = rs.filter((r) => r.hours !== null && r.hours >= 10 && r.hours <= 100).map((r) => clamp(r.hours! < 40 ? (r.total * 40) / r.hours! : r.total, b.lower, b.upper));
  const withW = rs.filter((r) => r.wrvus !== null && r.wrvus > 0);
  return {
    total: spreadOf(sortNum(rs.map(w))), fte: spreadOf(sortNum(fte)),
    base: spreadOf(sortNum(rs.filter((r) => r.base !== null).map((r) => r.base!))), bonus: spreadOf(sortNum(rs.filter((r) => r.bonus !== null).map((r) => r.bonus!))),
    wrvus: spreadOf(sortNum(withW.map((r) => r.wrvus!))), perWrvu: spreadOf(sortNum(withW.map((r) => w(r) / r.wrvus!))),
  };
}

/** Rounding units of the published figures: whole dollars (and wRVUs), $/wRVU in cents. */
export const DOLLAR = 1;
export const CENT = 0.01;

/**
 * Counters of the published percentiles and interval bounds checked against their exact values: `moved`
 * counts those further from the exact figure than rounding alone explains (the perturbation is real).
 */
export const moves = { compared: 0, moved: 0 };

/** How far `published` is allowed to be from `exact`: the documented move, half the rounding unit, 1e-6 for floating point. */
export const allowedMove = (n: number, spread: number, unit: number) => quantileBound(n, spread) + unit / 2 + 1e-6;

/**
 * The documented check of one published percentile or interval bound against its exact (unrounded) value:
 * |published - exact| <= 2.5 x spread / n^0.75 + unit / 2 (+ 1e-6), `unit` the rounding unit of the figure.
 * Counts the comparison in `moves`.
 */
export function withinBound(published: number, exact: number, n: number, spread: number, unit: number): boolean {
  const off = Math.abs(published - exact);
  moves.compared++;
  if (off > unit / 2 + 1e-6) moves.moved++;
  return off <= allowedMove(n, spread, unit);
}

/** `withinBound` as an assertion, with a message that names both values and the bound. */
export function expectWithinBound(published: number | null | undefined, exact: number, n: number, spread: number, unit: number, label = ''): void {
  expect(typeof published, `${label}: published figure missing (exact ${exact})`).toBe('number');
  const ok = withinBound(published!, exact, n, spread, unit);
  expect(ok, `${label}: published ${published} vs exact ${exact}: off by ${Math.abs(published! - exact)}, allowed ${allowedMove(n, spread, unit)} (n ${n}, spread ${spread})`).toBe(true);
}

const QUANTILE_KEYS = new Set(['p10', 'p25', 'p50', 'p75', 'p90']);
const COLUMN_OF: Record<string, keyof Spreads> = { fte_normalized: 'fte', base_salary: 'base', bonus: 'bonus', wrvus: 'wrvus', compensation_per_wrvu: 'perWrvu' };

/**
 * A copy of `expected` (exact figures, percentiles unrounded) in which every published percentile that lies
 * within its documented bound of the exact one (`withinBound`) is replaced by the published value, every
 * `mean` within its bound likewise, so that the rest can be compared exactly: a figure out of its bound
 * stays exact and fails the comparison that follows, and so does a null on one side only (P10/P90 below 15,
 * figures below 5). `n` (the count the bound uses) is taken from the nearest object that has an `exact_n` or
 * an `n`; the column (total, FTE, base, bonus, wRVUs, $/wRVU) from the path. `exact_n` keys are the test's
 * own and are left out of the copy.
 */
export function alignPublished<T>(published: unknown, expected: T, refMedian: number, spreads: Spreads, n: number | null = null, column: keyof Spreads = 'total'): T {
  if (Array.isArray(expected)) return expected.map((e, i) => alignPublished((published as unknown[] | undefined)?.[i], e, refMedian, spreads, n, column)) as T;
  if (expected === null || typeof expected !== 'object') return expected;
  const e = expected as Record<string, unknown>;
  if (published === null || typeof published !== 'object') return withoutExactN(e) as T;
  const p = published as Record<string, unknown>;
  const exactN = typeof e.exact_n === 'number' ? e.exact_n : typeof e.n === 'number' ? e.n : n;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) {
    if (k === 'exact_n') continue;
    if (QUANTILE_KEYS.has(k) && typeof v === 'number' && typeof p[k] === 'number' && exactN !== null) {
      out[k] = withinBound(p[k] as number, v, exactN, spreads[column], column === 'perWrvu' ? CENT : DOLLAR) ? p[k] : v;
    } else out[k] = alignPublished(p[k], v, refMedian, spreads, exactN, COLUMN_OF[k] ?? column);
  }
  if ('mean' in e && typeof exactN === 'number' && typeof p.mean === 'number' && typeof e.mean === 'number' && meanWithin(p.mean, e.mean, exactN, refMedian)) out.mean = p.mean;
  return out as T;
}

/** `x` without the test's own `exact_n` keys, at any depth. */
export function withoutExactN<T>(x: T): T {
  if (Array.isArray(x)) return x.map(withoutExactN) as T;
  if (x === null || typeof x !== 'object') return x;
  return Object.fromEntries(Object.entries(x).filter(([k]) => k !== 'exact_n').map(([k, v]) => [k, withoutExactN(v)])) as T;
}

// ------------------------------------------------------------------ statistics, written out by hand

export const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Hyndman-Fan type 7 on an ascending array: h = (n - 1) p, interpolate between x[floor h] and x[floor h + 1]. */
export function q7(sorted: number[], p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

export const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export function sd(xs: number[]): number {
  const m = avg(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
}

/**
 * Ranks (k, n-k+1) of the 95% interval of the median, exactly: the largest k with
 * P(Bin(n, 1/2) <= k - 1) <= 1/40, i.e. 40 * sum_{i<k} C(n, i) <= 2^n. k = 1 when none exists (n <= 5).
 * Coverage 1 - 2 P(B <= k - 1).
 */
export function ciRanks(n: number): { lower: number; upper: number; coverage: number } {
  const total = 1n << BigInt(n);
  let c = 1n; // C(n, 0)
  let cum = 0n;
  let k = 1;
  let tail = 0n;
  for (let i = 0; i <= n; i++) {
    if (i > 0) c = (c * BigInt(n - i + 1)) / BigInt(i);
    if ((cum + c) * 40n > total) break;
    cum += c;
    k = i + 1; // P(B <= k - 1) = P(B <= i) <= 1/40
    tail = cum;
  }
  if (k === 1 && tail === 0n) tail = 1n; // no 95% interval: [min, max], coverage 1 - 2 P(B <= 0)
  const coverage = 1 - (2 * Number((tail * 1_000_000_000n) / total)) / 1e9;
  return { lower: k, upper: n - k + 1, coverage };
}

export function expBand(years: number | null): string | null {
  if (years === null || years < 0) return null;
  if (years <= 2) return '0-2 years';
  if (years <= 5) return '3-5 years';
  if (years <= 10) return '6-10 years';
  if (years <= 20) return '11-20 years';
  return '21+ years';
}
export const BANDS = ['0-2 years', '3-5 years', '6-10 years', '11-20 years', '21+ years'];
export const SETTINGS = ['Hospital Employed', 'Private Practice', 'Academic', 'Multispecialty Group', 'Government', 'Other'];
export const EMPLOYMENTS = ['Full-Time (W-2)', 'Part-Time (W-2)', 'Independent Contractor (1099)', 'Partner/Owner'];

/** round to one decimal, halves away from zero */
export const round1 = (x: number) => (x < 0 ? -Math.round(-x * 10) : Math.round(x * 10)) / 10;

// ------------------------------------------------------------------ figures of a scope

export interface RefQuery {
  specialty: string;
  state?: string | null; // code
  region?: string | null;
  setting?: string | null;
  employment?: string | null;
  yearStart?: number | null;
  yearEnd?: number | null;
}

export interface Bounds {
  lower: number;
  upper: number;
}

export function select(ref: RefData, q: RefQuery, geo: { state?: string; region?: string }): RefReport[] {
  return ref.reports.filter((r) =>
    r.specialty === q.specialty &&
    (geo.state === undefined || r.state === geo.state) &&
    (geo.region === undefined || r.region === geo.region) &&
    (!q.setting || r.setting === q.setting) &&
    (!q.employment || r.employment === q.employment) &&
    (q.yearStart == null || r.year >= q.yearStart) &&
    (q.yearEnd == null || r.year <= q.yearEnd));
}

const sortNum = (xs: number[]) => [...xs].sort((a, b) => a - b);
/** Exact percentiles (unrounded) as the API shapes them: P10 and P90 only from 15 values. */
const pct5 = (s: number[]) => ({
  p10: s.length >= 15 ? q7(s, 0.1) : null, p25: q7(s, 0.25), p50: q7(s, 0.5), p75: q7(s, 0.75), p90: s.length >= 15 ? q7(s, 0.9) : null,
});
/** A count as published: exact from 5, null below. */
export const published = (n: number) => (n >= 5 ? n : null);

export function winsorized(rs: RefReport[], b: Bounds): number[] {
  return sortNum(rs.map((r) => clamp(r.total, b.lower, b.upper)));
}

export interface RefScope {
  n: number;
  publishable: boolean;
  sufficient: boolean;
  percentiles: { p10: number | null; p25: number; p50: number; p75: number; p90: number | null } | null;
  mean: number | null;
  sd: number | null;
  /** exact bounds x(k), x(n-k+1) (the published interval is built from the quartiles instead when k = 1) */
  ci: { lower: number; upper: number; coverage: number; method: 'order_statistics' | 'approximate' } | null;
  years: number[];
  dateRange: { earliest: string; latest: string } | null;
}

export function scopeFigures(rs: RefReport[], b: Bounds): RefScope {
  const n = rs.length;
  const v = winsorized(rs, b);
  const days = rs.map((r) => r.day).sort();
  const base = {
    n, publishable: n >= 5, sufficient: n >= 15,
    years: [...new Set(rs.map((r) => r.year))].sort((a, c) => a - c),
    dateRange: n ? { earliest: days[0]!, latest: days[n - 1]! } : null,
  };
  if (n < 5) return { ...base, percentiles: null, mean: null, sd: null, ci: null };
  const r = ciRanks(n);
  return {
    ...base,
    percentiles: pct5(v),
    mean: Math.round(avg(v)),
    sd: Math.round(sd(v)),
    ci: { lower: v[r.lower - 1]!, upper: v[r.upper - 1]!, coverage: r.coverage, method: r.lower >= 2 ? 'order_statistics' : 'approximate' },
  };
}

/** A trending or breakdown row as published: no count below 5 (`exact_n` is the test's own, for the bounds). */
export function row(rs: RefReport[], b: Bounds) {
  const n = rs.length;
  if (n < 5) return { n: null, p25: null, p50: null, p75: null, mean: null, publishable: false };
  const v = winsorized(rs, b);
  return { exact_n: n, n, p25: q7(v, 0.25), p50: q7(v, 0.5), p75: q7(v, 0.75), mean: Math.round(avg(v)), publishable: true };
}

function quart(xs: number[]) {
  const s = sortNum(xs);
  if (s.length < 5) return { n: null, p25: null, p50: null, p75: null };
  return { exact_n: s.length, n: s.length, p25: q7(s, 0.25), p50: q7(s, 0.5), p75: q7(s, 0.75) };
}

/** The professional sections of one headline scope (headline reports `rs`, geo filter for breakdown rows). */
export function sections(ref: RefData, q: RefQuery, rs: RefReport[], geo: { state?: string; region?: string }, b: Bounds) {
  // FTE: part-time (10 <= hours < 40) scaled to 40 hours; 40 to 100 hours counts unchanged
  const fte = sortNum(rs.filter((r) => r.hours !== null && r.hours >= 10 && r.hours <= 100).map((r) => clamp(r.hours! < 40 ? (r.total * 40) / r.hours! : r.total, b.lower, b.upper)));
  const currentYear = Number(ref.reports.map((r) => r.day).sort().at(-1)!.slice(0, 4)); // still being reported
  const years = [...new Set(rs.map((r) => r.year))].sort((a, c) => a - c);
  const withWrvus = rs.filter((r) => r.wrvus !== null && r.wrvus > 0);
  const q4 = (xs: number[]) => {
    const s = sortNum(xs);
    return { p25: q7(s, 0.25), p50: q7(s, 0.5), p75: q7(s, 0.75), p90: s.length >= 15 ? q7(s, 0.9) : null };
  };
  const pn = withWrvus.length;
  return {
    productivity: {
      exact_n: pn,
      n: published(pn),
      publishable: pn >= 5,
      sufficient: pn >= 15,
      wrvus: pn >= 5 ? q4(withWrvus.map((r) => r.wrvus!)) : null,
      compensation_per_wrvu: pn >= 5 ? q4(withWrvus.map((r) => clamp(r.total, b.lower, b.upper) / r.wrvus!)) : null,
    },
    fte_normalized: {
      exact_n: fte.length,
      n: published(fte.length),
      percentiles: fte.length >= 5 ? pct5(fte) : null,
      mean: fte.length >= 5 ? Math.round(avg(fte)) : null,
    },
    components: {
      base_salary: quart(rs.filter((r) => r.base !== null).map((r) => r.base!)),
      bonus: quart(rs.filter((r) => r.bonus !== null).map((r) => r.bonus!)),
    },
    trending: years.map((year) => ({ year, ...row(rs.filter((r) => r.year === year), b), partial: year >= currentYear })),
    breakdowns: {
      by_experience: BANDS.map((label) => ({ label, ...row(rs.filter((r) => expBand(r.experience) === label), b) })),
      by_practice_setting: (q.setting ? [q.setting] : SETTINGS).map((label) => ({ label, ...row(select(ref, { ...q, setting: label }, geo), b) })),
      by_employment_type: (q.employment ? [q.employment] : EMPLOYMENTS).map((label) => ({ label, ...row(select(ref, { ...q, employment: label }, geo), b) })),
    },
  };
}

/** Everything /benchmarks should answer for `q` (null when national n < 5: a 404). */
export function expectedBenchmark(ref: RefData, q: RefQuery, b: Bounds) {
  const national = select(ref, q, {});
  if (national.length < 5) return null;
  const region = q.state ? ref.states.find((s) => s.code === q.state)!.region : q.region ?? null;
  const stateRs = q.state ? select(ref, q, { state: q.state }) : null;
  const regionRs = region ? select(ref, q, { region }) : null;
  let scopeUsed: 'state' | 'regional' | 'national' = 'national';
  let headline = national;
  let geo: { state?: string; region?: string } = {};
  if (stateRs && stateRs.length >= 5) {
    scopeUsed = 'state';
    headline = stateRs;
    geo = { state: q.state! };
  } else if (regionRs && regionRs.length >= 5) {
    scopeUsed = 'regional';
    headline = regionRs;
    geo = { region: region! };
  }
  const sp = ref.specialties.find((s) => s.slug === q.specialty)!;
  const bls = sp.soc ? ref.bls.get(sp.soc) : undefined;
  const h = scopeFigures(headline, b);
  return {
    scopeUsed,
    region,
    headline: h,
    state: stateRs ? scopeFigures(stateRs, b) : null,
    regional: regionRs ? scopeFigures(regionRs, b) : null,
    national: scopeFigures(national, b),
    bls: bls && bls.median !== null ? { soc: sp.soc!, title: bls.title, median: bls.median, year: bls.year, topCoded: bls.topCoded, socMatch: sp.socMatch } : null,
    sections: sections(ref, q, headline, geo, b),
  };
}
