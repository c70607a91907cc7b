/**
 * An independent reference for the keyed API's figures, written for the tests from README: Statistics and publication rules
 * only: it reads the approved reports straight from the golden reports DB (the build's input, which the
 * server never sees) and computes every figure with its own code (no import from build/compute):
 * winsorize, type-7 quantiles, sample SD, the order-statistic CI of the median from exact binomial sums
 * (BigInt), FTE normalisation, experience bands, scope_used, variance_pct.
 *
 * Means and standard deviations are published with a secret disclosure perturbation (methodology page):
 * the reference computes them exactly, and `meanWithin` / `sdWithin` / `alignMeans` check the published
 * ones against the documented bound (a sum moves by at most 0.75 x the specialty's national median of every
 * approved total; a sum of squared deviations by at most 0.25 x that median squared; no SD below 15).
 */
import Database from 'better-sqlite3';

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

/**
 * A copy of `expected` in which every `mean` (of an object that also has `n`) that is within its bound of
 * the published one is replaced by the published value, so that the rest can be compared exactly.
 */
export function alignMeans<T>(published: unknown, expected: T, refMedian: number): T {
  if (Array.isArray(expected)) return expected.map((e, i) => alignMeans((published as unknown[] | undefined)?.[i], e, refMedian)) as T;
  if (expected === null || typeof expected !== 'object' || published === null || typeof published !== 'object') return expected;
  const p = published as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(expected as Record<string, unknown>)) out[k] = alignMeans(p[k], v, refMedian);
  const e = expected as Record<string, unknown>;
  if ('mean' in e && typeof e.n === 'number' && typeof p.mean === 'number' && typeof e.mean === 'number' && meanWithin(p.mean, e.mean, e.n, refMedian)) out.mean = p.mean;
  return out as T;
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
const pct5 = (s: number[]) => ({ p10: Math.round(q7(s, 0.1)), p25: Math.round(q7(s, 0.25)), p50: Math.round(q7(s, 0.5)), p75: Math.round(q7(s, 0.75)), p90: Math.round(q7(s, 0.9)) });

export function winsorized(rs: RefReport[], b: Bounds): number[] {
  return sortNum(rs.map((r) => clamp(r.total, b.lower, b.upper)));
}

export interface RefScope {
  n: number;
  publishable: boolean;
  sufficient: boolean;
  percentiles: { p10: number; p25: number; p50: number; p75: number; p90: number } | null;
  mean: number | null;
  sd: number | null;
  ci: { lower: number; upper: number; coverage: number } | null;
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
    ci: { lower: v[r.lower - 1]!, upper: v[r.upper - 1]!, coverage: r.coverage },
  };
}

export function row(rs: RefReport[], b: Bounds) {
  const n = rs.length;
  if (n < 5) return { n, p25: null, p50: null, p75: null, mean: null, publishable: false };
  const v = winsorized(rs, b);
  return { n, p25: Math.round(q7(v, 0.25)), p50: Math.round(q7(v, 0.5)), p75: Math.round(q7(v, 0.75)), mean: Math.round(avg(v)), publishable: true };
}

function quart(xs: number[]) {
  const s = sortNum(xs);
  if (s.length < 5) return { n: s.length, p25: null, p50: null, p75: null };
  return { n: s.length, p25: Math.round(q7(s, 0.25)), p50: Math.round(q7(s, 0.5)), p75: Math.round(q7(s, 0.75)) };
}

/** The professional sections of one headline scope (headline reports `rs`, geo filter for breakdown rows). */
export function sections(ref: RefData, q: RefQuery, rs: RefReport[], geo: { state?: string; region?: string }, b: Bounds) {
  // FTE: part-time (10 <= hours < 40) scaled to 40 hours; 40 to 100 hours counts unchanged
  const fte = sortNum(rs.filter((r) => r.hours !== null && r.hours >= 10 && r.hours <= 100).map((r) => clamp(r.hours! < 40 ? (r.total * 40) / r.hours! : r.total, b.lower, b.upper)));
  const currentYear = Number(ref.reports.map((r) => r.day).sort().at(-1)!.slice(0, 4)); // still being reported
  const years = [...new Set(rs.map((r) => r.year))].sort((a, c) => a - c);
  const withWrvus = rs.filter((r) => r.wrvus !== null && r.wrvus > 0);
  const q4 = (xs: number[], round: (x: number) => number) => {
    const s = sortNum(xs);
    return { p25: round(q7(s, 0.25)), p50: round(q7(s, 0.5)), p75: round(q7(s, 0.75)), p90: round(q7(s, 0.9)) };
  };
  const cents = (x: number) => Math.round(x * 100) / 100;
  const pn = withWrvus.length;
  return {
    productivity: {
      n: pn,
      publishable: pn >= 5,
      sufficient: pn >= 15,
      wrvus: pn >= 5 ? q4(withWrvus.map((r) => r.wrvus!), Math.round) : null,
      compensation_per_wrvu: pn >= 5 ? q4(withWrvus.map((r) => clamp(r.total, b.lower, b.upper) / r.wrvus!), cents) : null,
    },
    fte_normalized: {
      n: fte.length,
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
    variancePct: bls && bls.median !== null ? round1(((h.percentiles!.p50 - bls.median) / bls.median) * 100) : null,
    sections: sections(ref, q, headline, geo, b),
  };
}
