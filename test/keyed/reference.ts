/**
 * An independent reference for the keyed API's figures, written for the tests from README: Statistics and publication rules
 * only: it reads the approved reports straight from the golden reports DB (the build's input, which the
 * server never sees) and computes every figure with its own code (no import from build/compute):
 * winsorize, type-7 quantiles, sample SD, the order-statistic CI of the median from exact binomial sums
 * (BigInt), FTE normalisation, experience bands, scope_used, variance_pct.
 *
 * Every published figure carries the disclosure control (README: Disclosure control, method 3): each report's pay
 * is multiplied by a permanent secret factor before any statistic, then each figure moves by its own draw
 * relative to the cell's own figure. `distortedReference` recomputes the factors from the reports DB's secret
 * with this file's own code (the documented derivation; only the constants come from disclosure.ts), so the
 * reference's exact statistics run over the pay as the build reads it, and published figures are checked
 * against the documented bounds (`withinFactor`, `meanWithin`, `sdWithin`, `expectCi`, `alignPublished`):
 * - a percentile (and a bound of the median's interval) lies within exp(+-0.75 / n^0.75) of the exact one
 *   brought towards the median by the spread correction; interval bounds only move outward;
 * - a mean within 0.75 / n of the distorted mean / E[factor]; an SD within its moment-corrected range, none below 15;
 * - P10 and P90 only from 15 values; no count below 5 (null), and no years below 5.
 */
import { harrellDavis } from '../../build/compute/stats.ts';
import Database from 'better-sqlite3';
import { createCipheriv, createHmac } from 'node:crypto';
import { expect } from 'vitest';
import {
  DISCLOSURE_METHOD_VERSION, LOG_FACTOR_VARIANCE, MEAN_FACTOR, NOISE_SPAN, QUANTILE_DECAY, QUANTILE_SPAN, RECORD_NOISE, SQUARE_FACTOR, SQUARE_SPAN,
} from '../../build/compute/disclosure.ts';

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
  /** the two lanes of its record key (set by distortedReference) */
  lo?: number;
  hi?: number;
  /** the whole offer (null = unknown, 0 = none); in the distorted reference, money values and the rate times the factor */
  offer: RefOffer;
}

/** The whole-offer values of a report as the reports DB holds them (README: The whole offer). */
export interface RefOffer {
  call_pay: number | null;
  signing_bonus: number | null;
  retention_bonus: number | null;
  relocation: number | null;
  loan_repayment: number | null;
  cme_allowance: number | null;
  pto_weeks: number | null;
  call_nights_per_month: number | null;
  compensation_model: string | null;
  wrvu_conversion_rate: number | null;
  non_compete_miles: number | null;
  non_compete_years: number | null;
  partnership_track_years: number | null;
}

/** The money components, in the API's order; the pay models, in theirs (README: Keyed benchmark API). */
export const OFFER_MONEY = ['call_pay', 'signing_bonus', 'retention_bonus', 'relocation', 'loan_repayment', 'cme_allowance'] as const;
export const PAY_MODELS = ['salary', 'salary_plus_productivity', 'production', 'collections', 'shift'] as const;
const OFFER_SQL = 'r.call_pay, r.signing_bonus, r.retention_bonus, r.relocation, r.loan_repayment, r.cme_allowance, r.pto_weeks, r.call_nights_per_month, r.compensation_model, r.wrvu_conversion_rate, r.non_compete_miles, r.non_compete_years, r.partnership_track_years';
const offerOf = (r: RefOffer): RefOffer => ({
  call_pay: r.call_pay, signing_bonus: r.signing_bonus, retention_bonus: r.retention_bonus, relocation: r.relocation, loan_repayment: r.loan_repayment,
  cme_allowance: r.cme_allowance, pto_weeks: r.pto_weeks, call_nights_per_month: r.call_nights_per_month, compensation_model: r.compensation_model || null,
  wrvu_conversion_rate: r.wrvu_conversion_rate, non_compete_miles: r.non_compete_miles, non_compete_years: r.non_compete_years, partnership_track_years: r.partnership_track_years,
});

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
          r.years_in_practice AS experience, r.practice_setting AS setting, r.employment_type AS employment, r.wrvus, r.submitted_at, ${OFFER_SQL}
        FROM reports r JOIN specialties s ON s.id = r.specialty_id WHERE r.status = 'approved'`)
      .all() as ({ slug: string; state: string; year: number; total: number; base: number | null; bonus: number | null; hours: number | null; experience: number | null; setting: string | null; employment: string | null; wrvus: number | null; submitted_at: string } & RefOffer)[];
    const reports = rows.map((r) => ({
      specialty: r.slug, state: r.state, region: regionOf.get(r.state)!, year: r.year, total: r.total, base: r.base, bonus: r.bonus,
      hours: r.hours, experience: r.experience, setting: r.setting || null, employment: r.employment || null, wrvus: r.wrvus,
      day: new Date(r.submitted_at).toISOString().slice(0, 10), offer: offerOf(r),
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

/** Rounding units of the published figures: whole dollars (and wRVUs), $/wRVU in cents. */
export const DOLLAR = 1;
export const CENT = 0.01;

/**
 * Counters of the published percentiles and interval bounds checked against their exact values: `moved`
 * counts those further from the exact figure than rounding alone explains (the perturbation is real).
 */
export const moves = { compared: 0, moved: 0 };

export const SD_MIN_N = 15;

// ------------------------------------------------------------------ disclosure control, method 3 (documented rule, written out here)

/**
 * Each approved report's record key and factor, from the documented derivation (build/source/record-keys.ts): the
 * report id as one 16-byte block (two little-endian 32-bit words), AES-256-ECB under HMAC-SHA256(secret,
 * "physpay record keys v<method>"); bytes 0-3 and 4-7 are the two lanes of its record key, bytes 8-11 its factor
 * word: the low bit the sign, the other 31 bits delta uniform in [RECORD_NOISE.min, RECORD_NOISE.max]; each pay
 * value becomes round(value x exp(+-delta)).
 */
export function distortedReference(dbPath: string, base: RefData): { dref: RefData; secret: Buffer; lanesOf: Map<string, { lo: number[]; hi: number[] }>; factors: number[] } {
  const db = new Database(dbPath, { readonly: true });
  try {
    const { secret: sec } = db.prepare('SELECT secret FROM record_key_secret WHERE id = 1').get() as { secret: Buffer };
    const regionOf = new Map(base.states.map((s) => [s.code, s.region]));
    const rows = db
      .prepare(`SELECT r.id, s.slug, r.state, r.year, r.total_compensation AS total, r.base_salary AS base, r.bonus, r.hours_per_week AS hours,
          r.years_in_practice AS experience, r.practice_setting AS setting, r.employment_type AS employment, r.wrvus, r.submitted_at, ${OFFER_SQL}
        FROM reports r JOIN specialties s ON s.id = r.specialty_id WHERE r.status = 'approved' ORDER BY r.id`)
      .all() as ({ id: number; slug: string; state: string; year: number; total: number; base: number | null; bonus: number | null; hours: number | null; experience: number | null; setting: string | null; employment: string | null; wrvus: number | null; submitted_at: string } & RefOffer)[];
    const key = createHmac('sha256', sec).update(`physpay record keys v${DISCLOSURE_METHOD_VERSION}`).digest();
    const aes = createCipheriv('aes-256-ecb', key, null);
    aes.setAutoPadding(false);
    const blocks = Buffer.alloc(rows.length * 16);
    rows.forEach((r, i) => {
      blocks.writeUInt32LE(r.id % 2 ** 32, i * 16);
      blocks.writeUInt32LE(Math.floor(r.id / 2 ** 32), i * 16 + 4);
    });
    const enc = Buffer.concat([aes.update(blocks), aes.final()]);
    const lanes = new Map<string, { lo: number[]; hi: number[] }>();
    const fs: number[] = [];
    const reports: RefReport[] = rows.map((r, i) => {
      const word = enc.readUInt32LE(i * 16 + 8);
      const delta = RECORD_NOISE.min + (RECORD_NOISE.max - RECORD_NOISE.min) * ((word >>> 1) / 2 ** 31);
      const f = Math.exp((word & 1) === 1 ? delta : -delta);
      fs.push(f);
      const l = lanes.get(r.slug) ?? { lo: [], hi: [] };
      l.lo.push(enc.readUInt32LE(i * 16));
      l.hi.push(enc.readUInt32LE(i * 16 + 4));
      lanes.set(r.slug, l);
      return {
        lo: enc.readUInt32LE(i * 16), hi: enc.readUInt32LE(i * 16 + 4),
        specialty: r.slug, state: r.state, region: regionOf.get(r.state)!, year: r.year,
        total: Math.round(r.total * f), base: r.base === null ? null : Math.round(r.base * f), bonus: r.bonus === null ? null : Math.round(r.bonus * f),
        hours: r.hours, experience: r.experience, setting: r.setting || null, employment: r.employment || null, wrvus: r.wrvus,
        day: new Date(r.submitted_at).toISOString().slice(0, 10),
        // the whole offer's money values and the contract's $/wRVU take the same factor (the rate kept to cents)
        offer: {
          ...offerOf(r),
          ...Object.fromEntries(OFFER_MONEY.map((c) => [c, r[c] === null ? null : Math.round(r[c] * f)])),
          wrvu_conversion_rate: r.wrvu_conversion_rate === null ? null : Math.round(r.wrvu_conversion_rate * f * 100) / 100,
        },
      };
    });
    countDrawKey = createHmac('sha256', sec).update(`physpay cell draws v${DISCLOSURE_METHOD_VERSION}`).digest();
    return { dref: { ...base, reports }, secret: sec, lanesOf: lanes, factors: fs };
  } finally {
    db.close();
  }
}

/** Largest |log move| of a published percentile (or interval bound) of n values: QUANTILE_SPAN / n^QUANTILE_DECAY. */
export const quantileBound = (n: number) => QUANTILE_SPAN / n ** QUANTILE_DECAY;

/**
 * What a published percentile of pay is moved from: the exact quantile of the distorted values brought towards
 * their median by sqrt(max(1/4, 1 - Var(log factor) / sd^2)), sd = ln(P75 / P25) / 1.349, in log terms (the
 * factors widen the spread; 1 for wRVUs, which are not distorted, and when P25 <= 0 or P75 <= P25).
 */
export function spreadCorrected(q: number, e: { p25: number; p50: number; p75: number }, pay: boolean): number {
  const r = pay && e.p25 > 0 && e.p75 > e.p25 ? Math.sqrt(Math.max(0.25, 1 - LOG_FACTOR_VARIANCE / (Math.log(e.p75 / e.p25) / 1.349) ** 2)) : 1;
  return r === 1 || q === e.p50 || !(q > 0) || !(e.p50 > 0) ? q : e.p50 * (q / e.p50) ** r;
}

/**
 * The documented check of one published percentile or interval bound against the value it is moved from:
 * within the factor exp(+-quantileBound(n)), plus half the rounding unit (+ floating point). Counts the
 * comparison in `moves` (moved: further than rounding alone explains).
 */
export function withinFactor(published: number, target: number, n: number, unit: number, span = 1): boolean {
  const b = Math.exp(span * quantileBound(n));
  const tol = unit / 2 + 1e-6 + 1e-9 * Math.abs(target);
  moves.compared++;
  if (Math.abs(published - target) > unit / 2 + 1e-6) moves.moved++;
  return published >= target / b - tol && published <= target * b + tol;
}

export function expectWithinFactor(published: number | null | undefined, target: number, n: number, unit: number, label = ''): void {
  expect(typeof published, `${label}: published figure missing (target ${target})`).toBe('number');
  const b = quantileBound(n);
  expect(withinFactor(published!, target, n, unit), `${label}: published ${published} vs ${target} x exp(+-${b}) (n ${n})`).toBe(true);
}

/** A published whole-dollar mean of pay: the distorted values' mean (`exact`, whole dollars) / the factors' mean, moved by at most meanMoveShare(n) of itself. */
export function meanWithin(published: number | null, exact: number | null, n: number): boolean {
  if (published === null || exact === null) return published === exact;
  const t = exact / MEAN_FACTOR;
  return Math.abs(published - t) <= (NOISE_SPAN / 2 / n) * t + 1;
}

/**
 * A published SD of pay: null below 15 reports; else from the distorted values' sum of squared deviations moved
 * by at most +-SQUARE_SPAN/2 x mean^2, with the factors' variance taken out ((Var + m^2) / E[f^2] - m^2 / E[f]^2).
 */
export function sdWithin(published: number | null, values: number[]): boolean {
  const n = values.length;
  if (n < SD_MIN_N) return published === null;
  if (published === null) return false;
  const m = avg(values);
  const ss = values.reduce((a, v) => a + (v - m) ** 2, 0);
  const sd = (vy: number) => Math.sqrt(Math.max(0, (vy + m * m) / SQUARE_FACTOR - (m * m) / (MEAN_FACTOR * MEAN_FACTOR)));
  const lo = sd(Math.max(0, ss - (SQUARE_SPAN / 2) * m * m) / (n - 1));
  const hi = sd((ss + (SQUARE_SPAN / 2) * m * m) / (n - 1));
  return published >= lo - 0.5 - 1e-6 && published <= hi + 0.5 + 1e-6;
}

/**
 * A published order-statistic interval of n values: each bound x(k), x(n-k+1) of the distorted values moved
 * OUTWARD by at most the largest move, then widened to hold the published median (whole dollars).
 */
export function expectCi(ci: { lower: number; upper: number }, xLower: number, xUpper: number, n: number, p50: number, label: string): void {
  const b = Math.exp(quantileBound(n));
  for (const [got, x] of [[ci.lower, xLower], [ci.upper, xUpper]] as const) {
    moves.compared++;
    if (Math.abs(got - x) > 0.5 + 1e-6) moves.moved++;
  }
  expect(ci.lower, `${label} ci lower ${ci.lower} vs x(k) ${xLower}`).toBeLessThanOrEqual(xLower + 0.5);
  expect(ci.lower, `${label} ci lower ${ci.lower} vs x(k) ${xLower}`).toBeGreaterThanOrEqual(Math.min(xLower / b, p50) - 1);
  expect(ci.upper, `${label} ci upper ${ci.upper} vs x(n-k+1) ${xUpper}`).toBeGreaterThanOrEqual(xUpper - 0.5);
  expect(ci.upper, `${label} ci upper ${ci.upper} vs x(n-k+1) ${xUpper}`).toBeLessThanOrEqual(Math.max(xUpper * b, p50) + 1);
}

const QUANTILE_KEYS = new Set(['p10', 'p25', 'p50', 'p75', 'p90']);
/**
 * What a figure measures: pay columns (distorted by the record factors: their quartiles are spread-corrected)
 * and the rest; `money` is a whole-offer money component, `rate` a $/wRVU conversion rate, `half` weeks, nights or
 * years (to half units), `miles` a non-compete's radius.
 */
export type Column = 'total' | 'fte' | 'base' | 'bonus' | 'wrvus' | 'perWrvu' | 'money' | 'rate' | 'half' | 'miles';
const COLUMN_OF: Record<string, Column> = {
  fte_normalized: 'fte', base_salary: 'base', bonus: 'bonus', wrvus: 'wrvus', compensation_per_wrvu: 'perWrvu',
  ...Object.fromEntries(OFFER_MONEY.map((c) => [c, 'money'])), pto_weeks: 'half', call_nights_per_month: 'half', conversion_rate: 'rate',
};
const NOT_PAY = new Set<Column>(['wrvus', 'half', 'miles']);
const unitOf = (c: Column) => (c === 'perWrvu' || c === 'rate' ? CENT : c === 'half' ? 0.5 : DOLLAR);
/** Medians published on their own (contract terms): their column and the key of their exact count in the expected object. */
const MEDIAN_KEYS: Record<string, { column: Column; n: string }> = { median_miles: { column: 'miles', n: 'exact_n_miles' }, median_years: { column: 'half', n: 'exact_n_years' } };
const isExactN = (k: string) => k.startsWith('exact_n');

/**
 * A copy of `expected` (exact figures of the distorted values, percentiles unrounded) in which every published
 * percentile within its documented bound of its spread-corrected exact value (`withinFactor`) is replaced by the
 * published value, every `mean` within its bound likewise, so that the rest can be compared exactly: a figure out
 * of its bound stays exact and fails the comparison that follows, and so does a null on one side only. `n` (the
 * count the bound uses) comes from the nearest object with an `exact_n` or an `n`; the column (and so whether it
 * is pay) from the path. `exact_n` keys are the test's own and are left out of the copy.
 */
export function alignPublished<T>(published: unknown, expected: T, n: number | null = null, column: Column = 'total'): T {
  if (Array.isArray(expected)) return expected.map((e, i) => alignPublished((published as unknown[] | undefined)?.[i], e, n, column)) as T;
  if (expected === null || typeof expected !== 'object') return expected;
  const e = expected as Record<string, unknown>;
  if (published === null || typeof published !== 'object') return withoutExactN(e) as T;
  const p = published as Record<string, unknown>;
  const exactN = typeof e.exact_n === 'number' ? e.exact_n : typeof e.n === 'number' ? e.n : n;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) {
    if (isExactN(k)) continue;
    const median = MEDIAN_KEYS[k];
    if (QUANTILE_KEYS.has(k) && typeof v === 'number' && typeof p[k] === 'number' && exactN !== null) {
      const t = spreadCorrected(v, e as { p25: number; p50: number; p75: number }, !NOT_PAY.has(column));
      out[k] = withinFactor(p[k] as number, t, exactN, unitOf(column), offerSpan(column, exactN)) ? p[k] : v;
    } else if (median && typeof v === 'number' && typeof p[k] === 'number' && typeof e[median.n] === 'number') {
      // a median alone: no spread to correct; within the factor of its own count
      out[k] = withinFactor(p[k] as number, v, e[median.n] as number, unitOf(median.column)) ? p[k] : v;
    } else out[k] = alignPublished(p[k], v, exactN, COLUMN_OF[k] ?? column);
  }
  if ('mean' in e && typeof exactN === 'number' && typeof p.mean === 'number' && typeof e.mean === 'number' && meanWithin(p.mean, e.mean, exactN)) out.mean = p.mean;
  return out as T;
}


/** `x` without the test's own `exact_n...` keys, at any depth. */
export function withoutExactN<T>(x: T): T {
  if (Array.isArray(x)) return x.map(withoutExactN) as T;
  if (x === null || typeof x !== 'object') return x;
  return Object.fromEntries(Object.entries(x).filter(([k]) => !isExactN(k)).map(([k, v]) => [k, withoutExactN(v)])) as T;
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
/** A count as published when nothing moves it (tests of other rules): exact from 5, null below. */
export const published = (n: number) => (n >= 5 ? n : null);

/** The draw key of the count draws (set by distortedReference from the DB's secret). */
let countDrawKey: Buffer | null = null;

/**
 * A count of these reports as the keyed API publishes it (README: Disclosure control, counts), written out:
 * null below 5; else n + round(4 u), u the count draw of the reports' cell key (lane sums modulo 2^32) --
 * AES-256-ECB under HMAC-SHA256(secret, "physpay cell draws v3") of the block (lo, hi, 2, 3), bytes 4-7, as
 * w / 2^32 - 1/2 (column 0, slot 9 of the 32-block draw set) -- kept in its class [5, 14] or 15 and up.
 */
export function publishedOf(rs: RefReport[], thresholds: readonly number[] = [5, 15]): number | null {
  const n = rs.length;
  if (n < thresholds[0]!) return null;
  if (!countDrawKey) throw new Error('publishedOf needs distortedReference first (the count draws need the secret)');
  let lo = 0;
  let hi = 0;
  for (const r of rs) {
    lo += r.lo!;
    hi += r.hi!;
  }
  const block = Buffer.alloc(16);
  block.writeUInt32LE(lo % 2 ** 32, 0);
  block.writeUInt32LE(hi % 2 ** 32, 4);
  block.writeUInt32LE(2, 8);
  block.writeUInt32LE(DISCLOSURE_METHOD_VERSION, 12);
  const aes = createCipheriv('aes-256-ecb', countDrawKey, null);
  aes.setAutoPadding(false);
  const u = aes.update(block).readUInt32LE(4) / 2 ** 32 - 0.5;
  const e = Math.round(4 * u);
  let min = thresholds[0]!;
  let max = Infinity;
  for (const t of thresholds) {
    if (t <= n) min = t;
    else {
      max = t - 1;
      break;
    }
  }
  return Math.min(max, Math.max(min, n + e));
}

export function winsorized(rs: RefReport[], b: Bounds): number[] {
  return sortNum(rs.map((r) => clamp(r.total, b.lower, b.upper)));
}

export interface RefScope {
  n: number;
  /** the count as published (publishedOf) */
  publishedN: number | null;
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
    n, publishedN: publishedOf(rs), publishable: n >= 5, sufficient: n >= 15,
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
  return { exact_n: n, n: publishedOf(rs), p25: q7(v, 0.25), p50: q7(v, 0.5), p75: q7(v, 0.75), mean: Math.round(avg(v)), publishable: true };
}

function quart(rs: RefReport[], value: (r: RefReport) => number | null) {
  const with_ = rs.filter((r) => value(r) !== null);
  const s = sortNum(with_.map((r) => value(r)!));
  if (s.length < 5) return { n: null, p25: null, p50: null, p75: null };
  return { exact_n: s.length, n: publishedOf(with_), p25: q7(s, 0.25), p50: q7(s, 0.5), p75: q7(s, 0.75) };
}

/** A count as it enters a share (README: Keyed benchmark API, components): the published count, or 2.5 below 5. */
const shareCount = (rs: RefReport[]) => publishedOf(rs) ?? 2.5;

/** Percent of `part` among `parts`, from their share counts, one decimal; null when fewer than 5 reports are in `parts`. */
function refShare(part: RefReport[], parts: RefReport[][]): number | null {
  if (parts.reduce((a, p) => a + p.length, 0) < 5) return null;
  const total = parts.reduce((a, p) => a + shareCount(p), 0);
  return round1((100 * shareCount(part)) / total);
}

/**
 * Exact quartiles (unrounded) of `values` with their exact count; null figures below 5. Amounts (money, $/wRVU)
 * of 24 reports or fewer: Harrell-Davis quartiles (the whole offer's small-cell method), moved by up to twice
 * the headline's bound (offerSpan).
 */
function offerQuartiles(values: number[], pay = true) {
  const s = sortNum(values);
  const q = (p: number) => (pay && s.length <= 24 ? harrellDavis(s, p) : q7(s, p));
  return s.length < 5 ? { p25: null, p50: null, p75: null } : { p25: q(0.25), p50: q(0.5), p75: q(0.75) };
}

/** How many times the headline's bound a whole-offer quartile may move: twice for amounts of 24 reports or fewer. */
const offerSpan = (column: Column, n: number) => ((column === 'money' || column === 'rate') && n <= 24 ? 2 : 1);

/** A has-it-or-not question of the reports `rs`: who answered, who has it (above 0), who has not (0). */
function hasIt(rs: RefReport[], value: (o: RefOffer) => number | null) {
  const answered = rs.filter((r) => value(r.offer) !== null);
  const withIt = answered.filter((r) => value(r.offer)! > 0);
  const without = answered.filter((r) => value(r.offer) === 0);
  return { answered, withIt, without, figures: { answered: publishedOf(answered), share_with_pct: refShare(withIt, [withIt, without]), n_with: publishedOf(withIt) } };
}

/**
 * The whole offer of the reports `rs` as /benchmarks should give it beside base_salary and bonus (exact
 * figures; `exact_n...` keys are the test's own, for the bounds): counts perturbed (null below 5), shares from
 * the perturbed counts with a count below 5 as 2.5, quartiles and medians among the reports that have the item
 * (null below 5 of them).
 */
export function offerComponents(rs: RefReport[]) {
  const money = Object.fromEntries(OFFER_MONEY.map((c) => {
    const h = hasIt(rs, (o) => o[c]);
    return [c, { exact_n: h.withIt.length, ...h.figures, ...offerQuartiles(h.withIt.map((r) => r.offer[c]!)) }];
  }));
  const quantity = (sub: RefReport[], value: (o: RefOffer) => number) => ({ exact_n: sub.length, n: publishedOf(sub), ...offerQuartiles(sub.map((r) => value(r.offer)), false) });
  const byModel = PAY_MODELS.map((m) => rs.filter((r) => r.offer.compensation_model === m));
  const nc = hasIt(rs, (o) => o.non_compete_miles);
  const ncYears = nc.withIt.filter((r) => r.offer.non_compete_years !== null);
  const pt = hasIt(rs, (o) => o.partnership_track_years);
  const median = (xs: number[]) => (xs.length < 5 ? null : q7(sortNum(xs), 0.5));
  return {
    ...money,
    pto_weeks: quantity(rs.filter((r) => r.offer.pto_weeks !== null), (o) => o.pto_weeks!),
    call_nights_per_month: quantity(rs.filter((r) => r.offer.call_nights_per_month !== null && r.offer.call_nights_per_month > 0), (o) => o.call_nights_per_month!),
    compensation_models: {
      answered: publishedOf(byModel.flat()),
      models: PAY_MODELS.map((model, k) => {
        const rated = byModel[k]!.filter((r) => r.offer.wrvu_conversion_rate !== null);
        return { model, share_pct: refShare(byModel[k]!, byModel), conversion_rate: { exact_n: rated.length, n: publishedOf(rated), p50: offerQuartiles(rated.map((r) => r.offer.wrvu_conversion_rate!)).p50 } };
      }),
    },
    non_compete: {
      exact_n_miles: nc.withIt.length, exact_n_years: ncYears.length, ...nc.figures,
      median_miles: median(nc.withIt.map((r) => r.offer.non_compete_miles!)), median_years: median(ncYears.map((r) => r.offer.non_compete_years!)),
    },
    partnership_track: { exact_n_years: pt.withIt.length, ...pt.figures, median_years: median(pt.withIt.map((r) => r.offer.partnership_track_years!)) },
  };
}

/** The professional sections of one headline scope (headline reports `rs`, geo filter for breakdown rows). */
export function sections(ref: RefData, q: RefQuery, rs: RefReport[], geo: { state?: string; region?: string }, b: Bounds) {
  // FTE: part-time (10 <= hours < 40) scaled to 40 hours; 40 to 100 hours counts unchanged
  const withFte = rs.filter((r) => r.hours !== null && r.hours >= 10 && r.hours <= 100);
  const fte = sortNum(withFte.map((r) => clamp(r.hours! < 40 ? (r.total * 40) / r.hours! : r.total, b.lower, b.upper)));
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
      n: publishedOf(withWrvus),
      publishable: pn >= 5,
      sufficient: pn >= 15,
      wrvus: pn >= 5 ? q4(withWrvus.map((r) => r.wrvus!)) : null,
      compensation_per_wrvu: pn >= 5 ? q4(withWrvus.map((r) => clamp(r.total, b.lower, b.upper) / r.wrvus!)) : null,
    },
    fte_normalized: {
      exact_n: fte.length,
      n: publishedOf(withFte),
      percentiles: fte.length >= 5 ? pct5(fte) : null,
      mean: fte.length >= 5 ? Math.round(avg(fte)) : null,
    },
    components: {
      base_salary: quart(rs, (r) => r.base),
      bonus: quart(rs, (r) => r.bonus),
      ...offerComponents(rs),
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

/**
 * A published count against the exact one (README: Disclosure control, counts): within +-2, and within the
 * exact count's class between `thresholds` (ascending, the first the floor; keyed API [5, 15], open cells
 * [floor, 15, 25]); null exactly when the exact count is below the floor.
 */
export function countWithin(published: number | null | undefined, exact: number, thresholds: readonly number[]): boolean {
  if (exact < thresholds[0]!) return published === null;
  if (typeof published !== 'number' || !Number.isInteger(published) || Math.abs(published - exact) > 2) return false;
  const classOf = (n: number) => thresholds.filter((t) => t <= n).length;
  return classOf(published) === classOf(exact);
}
