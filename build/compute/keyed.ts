/**
 * Figures of the keyed API (A), pure. The build computes every cell with these functions; the server
 * calls the same `keyedCell` at request time for Enterprise custom year ranges, over the per-report
 * columns the build writes (private/keyed/reports/{slug}.json).
 *
 * Method (README: Statistics and publication rules): every total is winsorized into fixed bounds (nothing dropped, n = reports
 * in scope); publishable n >= 5, sufficient n >= 15; whole dollars; sample SD; order-statistic 95% CI of
 * the median with its achieved coverage.
 */
import { EMPLOYMENT_TYPES, PRACTICE_SETTINGS } from '../contract/vocab.ts';
import {
  GEO_NATIONAL, cellKey, geoRegion, geoState,
  type BlsInfo, type BreakdownRow, type KeyedCell, type KeyedIndex, type KeyedReportsArtifact, type KeyedSpecialtyArtifact, type Methodology, type TrendRow,
} from '../contract/keyed-artifacts.ts';
import { dayToIso, type Dataset } from './dataset.ts';
import {
  COUNT_SPAN, DISCLOSURE_METHOD_VERSION, drawsFor, perturbedCount, perturbedMean, perturbedSd, COLUMN, NOISE_SPAN, QUANTILE_DECAY, QUANTILE_SPAN, RECORD_NOISE, SD_MIN_N, SQUARE_SPAN, TWO32,
  type CellKey, type CellNoise, type Column, type DrawPair,
} from './disclosure.ts';
import { publishedGrid, publishedMedianCi, TAILS_MIN_N, type PublishedCi, type PublishedGrid } from './published.ts';
import type { NationalFacts } from './national.ts';
import { cellLayout, cellParts, cellSlice, distributeSorted } from './keyed-layout.ts';
import { EXPERIENCE_BANDS, experienceBandIndex, fteNormalize, quantile, variancePct, winsorize } from './stats.ts';
import { OFFER_FIGURE_COLUMNS } from '../contract/offer-terms.ts';
import type { OfferFigureColumns } from './offer-core.ts';
import { keyedOfferPacked, offerArtifactColumns, offerColumnsFromArtifact } from './keyed-offer.ts';

export interface KeyedOptions {
  winsorLower: number;
  winsorUpper: number;
}

export const KEYED_DEFAULTS: KeyedOptions = { winsorLower: 50_000, winsorUpper: 3_000_000 };
export const MIN_SAMPLE = 5;
export const SUFFICIENT_SAMPLE = 15;

export function methodology(opts: KeyedOptions): Methodology {
  const usd = (v: number) => `$${v.toLocaleString('en-US')}`;
  return {
    min_sample: MIN_SAMPLE,
    sufficient_sample: SUFFICIENT_SAMPLE,
    winsor_lower: opts.winsorLower,
    winsor_upper: opts.winsorUpper,
    outlier_handling: `Winsorized: totals below ${usd(opts.winsorLower)} count as ${usd(opts.winsorLower)} and totals above ${usd(opts.winsorUpper)} as ${usd(opts.winsorUpper)}; no report is dropped, so n is every approved report in scope.`,
    fte_basis: '40 hours/week (2,080 hours/year): a part-time report (10 to 39 hours per week) counts as total x 40 / hours; 40 to 100 hours per week is one FTE and counts unchanged; reports without hours, or outside 10-100, are left out (fte_normalized.n says how many were used).',
    disclosure_control: `Disclosure control, method version ${DISCLOSURE_METHOD_VERSION}, so that no single report can be read off a cell or isolated by comparing cells, year ranges, interfaces or builds. First, every report's pay (total, base, bonus) is multiplied by a permanent secret factor between ${pctOf(RECORD_NOISE.min)}% and ${pctOf(RECORD_NOISE.max)}% above or below 1 before any figure is computed, so every comparison sees the same distorted value (means are divided by the factors' average and the quartiles' spread is corrected for what the factors add). Then each figure moves by a fixed amount drawn with a secret key from exactly the reports behind it (the same reports always give the same figure, through every query, interface and build): a mean's sum by at most +-${NOISE_SPAN / 2} x the cell's own mean; the sum of squared deviations by at most +-${SQUARE_SPAN / 2} x the mean squared (the standard deviation is given from ${SD_MIN_N} reports); each percentile and interval bound by a factor of at most exp(${QUANTILE_SPAN} / n^${QUANTILE_DECAY}), each with its own independent draw, then kept in order. P10 and P90 need ${TAILS_MIN_N} reports. Counts below ${MIN_SAMPLE} are never given (n is null); every count given moves by up to ${COUNT_SPAN} from its own draw (never across ${MIN_SAMPLE} or ${SUFFICIENT_SAMPLE}), so no count below the floor follows by subtracting counts.`,
    confidence_interval_method: `Distribution-free interval for the median from binomial order statistics [x(k), x(n-k+1)] of the distorted values (method "order_statistics", with the achieved coverage of that exact interval; the factors are symmetric, so the distorted values have the same median), each bound moved outward by up to the largest move of a percentile, so the interval covers the disclosure noise too. Where that interval would be [min, max] or does not exist (n < 9), it is built from the published quartiles instead: median +- (1.96 x 1.2533 x (P75 - P25) / 1.349 / sqrt(n) + the median's largest move) (method "approximate", nominal coverage 0.95).`,
  };
}

const pctOf = (x: number) => Math.round((Math.exp(x) - 1) * 1000) / 10;

/** Per-report columns of one specialty, ascending by winsorized total. NaN / -1 mean unknown. */
export interface KeyedColumns {
  count: number;
  /** compensation years from this one on are still being reported (trending rows say `partial`) */
  partialFrom: number;
  /** the two lanes of each report's secret 64-bit record key (disclosure.ts) */
  keyLo: Uint32Array;
  keyHi: Uint32Array;
  /** the key of the disclosure control's draws (disclosure.ts), 32 bytes */
  drawKey: Uint8Array;
  /** winsorized totals before the record factors, for the accuracy table only (never in an artifact) */
  exactTotal?: Float64Array;
  total: Float64Array;
  fte: Float64Array;
  base: Float64Array;
  bonus: Float64Array;
  /** annual wRVUs (NaN when not given) */
  wrvus: Float64Array;
  year: Int32Array;
  band: Int8Array;
  setting: Int8Array;
  employment: Int8Array;
  state: Int16Array;
  day: Int32Array;
  /** the whole offer as reported (money values and conversion rates distorted like pay): keyed-offer.ts */
  offer: OfferFigureColumns;
}

export function keyedColumnsFromDataset(ds: Dataset, si: number, opts: KeyedOptions, facts: NationalFacts, partialFrom: number): KeyedColumns {
  const { start, end } = ds.specialtyRange[si]!;
  const n = end - start;
  const R = ds.reports;
  const cols: KeyedColumns = {
    count: n,
    partialFrom,
    keyLo: R.keyLo.slice(start, end),
    keyHi: R.keyHi.slice(start, end),
    drawKey: ds.drawKey,
    exactTotal: new Float64Array(n),
    total: new Float64Array(n), fte: new Float64Array(n), base: new Float64Array(n), bonus: new Float64Array(n), wrvus: new Float64Array(n),
    year: new Int32Array(n), band: new Int8Array(n), setting: new Int8Array(n), employment: new Int8Array(n),
    state: new Int16Array(n), day: new Int32Array(n),
    offer: { compensation_model: R.offer.compensation_model.slice(start, end) } as OfferFigureColumns,
  };
  for (const col of OFFER_FIGURE_COLUMNS) cols.offer[col] = R.offer[col].slice(start, end);
  for (let k = 0; k < n; k++) {
    const i = start + k;
    const total = R.total[i]!;
    cols.total[k] = winsorize(total, opts.winsorLower, opts.winsorUpper);
    cols.exactTotal![k] = winsorize(ds.exactTotal[i]!, opts.winsorLower, opts.winsorUpper);
    const hours = R.hours[i]!;
    const fte = fteNormalize(total, Number.isNaN(hours) ? null : hours);
    cols.fte[k] = fte === null ? NaN : winsorize(fte, opts.winsorLower, opts.winsorUpper);
    cols.base[k] = R.base[i]!;
    cols.bonus[k] = R.bonus[i]!;
    cols.wrvus[k] = R.wrvus[i]! > 0 ? R.wrvus[i]! : NaN;
    cols.year[k] = R.year[i]!;
    cols.band[k] = experienceBandIndex(R.experience[i]! < 0 ? null : R.experience[i]!);
    cols.setting[k] = R.setting[i]!;
    cols.employment[k] = R.employment[i]!;
    cols.state[k] = R.state[i]!;
    cols.day[k] = R.submittedDay[i]!;
  }
  return cols;
}

/** 32-bit record keys travel in the private artifact as base64 of their little-endian bytes (compact). */
export function uint32ToBase64(a: Uint32Array): string {
  const b = Buffer.alloc(a.length * 4);
  for (let i = 0; i < a.length; i++) b.writeUInt32LE(a[i]!, i * 4);
  return b.toString('base64');
}

export function uint32FromBase64(s: string): Uint32Array {
  const b = Buffer.from(s, 'base64');
  const out = new Uint32Array(b.length >> 2);
  for (let i = 0; i < out.length; i++) out[i] = b.readUInt32LE(i * 4);
  return out;
}

export function keyedColumnsFromArtifact(a: KeyedReportsArtifact): KeyedColumns {
  const f = (xs: (number | null)[]) => Float64Array.from(xs, (x) => (x === null ? NaN : x));
  return {
    count: a.count,
    partialFrom: a.partial_from,
    keyLo: uint32FromBase64(a.key_lo),
    keyHi: uint32FromBase64(a.key_hi),
    drawKey: Buffer.from(a.draw_key, 'base64'),
    total: Float64Array.from(a.total), fte: f(a.fte), base: f(a.base), bonus: f(a.bonus), wrvus: f(a.wrvus),
    year: Int32Array.from(a.year), band: Int8Array.from(a.experience_band), setting: Int8Array.from(a.setting),
    employment: Int8Array.from(a.employment), state: Int16Array.from(a.state), day: Int32Array.from(a.day),
    offer: offerColumnsFromArtifact(a.offer, a.count),
  };
}

export function keyedReportsArtifact(slug: string, c: KeyedColumns): KeyedReportsArtifact {
  const nul = (xs: Float64Array) => Array.from(xs, (x) => (Number.isNaN(x) ? null : x));
  return {
    slug, count: c.count,
    partial_from: c.partialFrom, key_lo: uint32ToBase64(c.keyLo), key_hi: uint32ToBase64(c.keyHi), draw_key: Buffer.from(c.drawKey).toString('base64'),
    total: Array.from(c.total), fte: nul(c.fte), base: nul(c.base), bonus: nul(c.bonus), wrvus: nul(c.wrvus),
    year: Array.from(c.year), experience_band: Array.from(c.band), setting: Array.from(c.setting),
    employment: Array.from(c.employment), state: Array.from(c.state), day: Array.from(c.day),
    ...offerArtifactColumns(c.offer, c.count),
  };
}

const whole = Math.round;
const cents = (v: number) => Math.round(v * 100) / 100;

/**
 * A count as the keyed API publishes it, from a cell's stored count: null below MIN_SAMPLE (README: Disclosure
 * control). Stored counts from MIN_SAMPLE on are already perturbed (countOf), and stay at or above it.
 */
export const publishedCount = (n: number): number | null => (n >= MIN_SAMPLE ? n : null);

/** The count a keyed cell or row stores and publishes: perturbed from MIN_SAMPLE reports (never below it), exact below (never published). */
function countOf(c: KeyedColumns, n: number, key: CellKey): number {
  return n >= MIN_SAMPLE ? perturbedCount(n, [MIN_SAMPLE, SUFFICIENT_SAMPLE], { draws: drawsFor(c.drawKey), key }) : n;
}

function sortedOf(src: Float64Array, idx: ArrayLike<number>): Float64Array {
  const out = new Float64Array(idx.length);
  let m = 0;
  for (let k = 0; k < idx.length; k++) {
    const v = src[idx[k]!]!;
    if (!Number.isNaN(v)) out[m++] = v;
  }
  return out.subarray(0, m).sort();
}

/** Sum and cell key of a column over `idx` (NaN values skipped): the reports a figure of that column comes from. */
function sumOf(src: Float64Array, c: KeyedColumns, idx: ArrayLike<number>): { n: number; sum: number; key: CellKey } {
  let n = 0;
  let sum = 0;
  let lo = 0;
  let hi = 0;
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k]!;
    const v = src[i]!;
    if (Number.isNaN(v)) continue;
    n++;
    sum += v;
    lo += c.keyLo[i]!;
    hi += c.keyHi[i]!;
  }
  return { n, sum, key: { lo: lo % TWO32, hi: hi % TWO32 } };
}

/** The noise of a column's figures in a cell whose reports (with a known value) have cell key `key`; wRVUs are not pay. */
const noiseOf = (c: KeyedColumns, column: Column, key: CellKey): CellNoise => ({ draws: drawsFor(c.drawKey), key, column, pay: column !== COLUMN.wrvus });

/** Published P25, P50, P75 (perturbed, rounded: the middle of the cell's grid) of ascending values, or nulls below MIN_SAMPLE. */
function quartiles(sorted: Float64Array, noise: CellNoise): { p25: number | null; p50: number | null; p75: number | null } {
  if (sorted.length < MIN_SAMPLE) return { p25: null, p50: null, p75: null };
  const g = publishedGrid(sorted, noise);
  return { p25: whole(g.p25), p50: whole(g.p50), p75: whole(g.p75) };
}

/** Published P25, P50, P75, P90 (productivity; P90 from TAILS_MIN_N), or null below the publication floor. */
function upperQuartiles(sorted: Float64Array, noise: CellNoise, round: (v: number) => number): { p25: number; p50: number; p75: number; p90: number | null } | null {
  if (sorted.length < MIN_SAMPLE) return null;
  const g = publishedGrid(sorted, noise);
  return { p25: round(g.p25), p50: round(g.p50), p75: round(g.p75), p90: g.p90 === null ? null : round(g.p90) };
}

const fivePercentiles = publishedGrid;

const roundPercentiles = (p: PublishedGrid) => ({
  p10: p.p10 === null ? null : whole(p.p10), p25: whole(p.p25), p50: whole(p.p50), p75: whole(p.p75), p90: p.p90 === null ? null : whole(p.p90),
});

/** One pass over a cell: its totals (ascending), their sum, and its cell key (disclosure.ts). */
export function cellTotals(c: KeyedColumns, idx: ArrayLike<number>): { v: Float64Array; sum: number; key: CellKey } {
  const v = new Float64Array(idx.length);
  let sum = 0;
  let lo = 0;
  let hi = 0;
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k]!;
    v[k] = c.total[i]!;
    sum += v[k]!;
    lo += c.keyLo[i]!;
    hi += c.keyHi[i]!;
  }
  return { v, sum, key: { lo: lo % TWO32, hi: hi % TWO32 } };
}

/**
 * The headline order statistics of a cell as published, unrounded: P10..P90 of its totals (ascending `v`,
 * cell key `key`) and the median's interval. The disclosure accuracy table measures these same figures.
 */
export function publishedTotals(c: KeyedColumns, v: Float64Array, key: CellKey): { percentiles: PublishedGrid; ci: PublishedCi } {
  const noise = noiseOf(c, COLUMN.total, key);
  const percentiles = fivePercentiles(v, noise);
  return { percentiles, ci: publishedMedianCi(v, noise, percentiles.p25, percentiles.p50, percentiles.p75) };
}

/** {n, p25, p50, p75, mean, publishable} of the totals of `idx` (ascending), the shape of every breakdown row; n null below MIN_SAMPLE. */
export function breakdownFigures(c: KeyedColumns, idx: ArrayLike<number>): Omit<BreakdownRow, 'label'> {
  const n = idx.length;
  if (n < MIN_SAMPLE) return { n: null, p25: null, p50: null, p75: null, mean: null, publishable: false };
  const { v, sum, key } = cellTotals(c, idx);
  return { n: countOf(c, n, key), ...quartiles(v, noiseOf(c, COLUMN.total, key)), mean: whole(perturbedMean(sum, n, noiseOf(c, COLUMN.total, key))), publishable: true };
}

/** A cell's values of the columns it gives percentiles of, each ascending with unknowns left out. */
export interface SortedCellColumns {
  fte: Float64Array;
  base: Float64Array;
  bonus: Float64Array;
  wrvus: Float64Array;
  perWrvu: Float64Array;
}

/** Total per wRVU of every report (NaN without wRVUs). */
export function perWrvuColumn(c: KeyedColumns): Float64Array {
  const out = new Float64Array(c.count);
  for (let i = 0; i < c.count; i++) out[i] = c.total[i]! / c.wrvus[i]!;
  return out;
}

/** Sort a cell's columns (the server's custom year ranges; the build distributes them, keyed-layout.ts). */
export function sortedCellColumns(c: KeyedColumns, idx: ArrayLike<number>): SortedCellColumns {
  const perWrvu = new Float64Array(idx.length);
  for (let k = 0; k < idx.length; k++) perWrvu[k] = c.total[idx[k]!]! / c.wrvus[idx[k]!]!; // NaN without wRVUs
  return {
    fte: sortedOf(c.fte, idx), base: sortedOf(c.base, idx), bonus: sortedOf(c.bonus, idx), wrvus: sortedOf(c.wrvus, idx),
    perWrvu: perWrvu.filter((x) => !Number.isNaN(x)).sort(),
  };
}

/**
 * Everything the keyed API returns for one cell. `idx` lists report positions in ascending order; `sorted`,
 * when given, holds the cell's other columns already sorted (else they are sorted here). `withOffer` false
 * leaves the whole offer out (sections.offer null) for a cell whose sections nobody reads (the server's
 * computed scopes and breakdown rows; keyedCellOffer adds it when the cell turns out to be a headline).
 */
export function keyedCell(c: KeyedColumns, idx: ArrayLike<number>, bls: BlsInfo, sorted?: SortedCellColumns, withOffer = true): KeyedCell {
  const n = idx.length;
  const years = new Set<number>();
  let earliest = Infinity;
  let latest = -Infinity;
  for (let k = 0; k < n; k++) {
    const i = idx[k]!;
    years.add(c.year[i]!);
    if (c.day[i]! < earliest) earliest = c.day[i]!;
    if (c.day[i]! > latest) latest = c.day[i]!;
  }
  const base: KeyedCell = {
    n,
    years: [...years].sort((a, b) => a - b),
    data_date_range: n > 0 ? { earliest: dayToIso(earliest), latest: dayToIso(latest) } : null,
    figures: null,
    bls_variance_pct: null,
    sections: null,
  };
  if (n < MIN_SAMPLE) return base;

  const { v, sum, key } = cellTotals(c, idx);
  base.n = countOf(c, n, key);
  const exactMean = sum / n;
  let squares = 0;
  for (let k = 0; k < n; k++) squares += (v[k]! - exactMean) ** 2;
  const sd = perturbedSd(squares, sum, n, noiseOf(c, COLUMN.total, key));
  const { percentiles: pct, ci } = publishedTotals(c, v, key);
  const percentiles = roundPercentiles(pct);
  base.figures = {
    percentiles,
    mean: whole(perturbedMean(sum, n, noiseOf(c, COLUMN.total, key))),
    standard_deviation: sd === null ? null : whole(sd),
    confidence_interval_95: { lower: whole(ci.lower), upper: whole(ci.upper), coverage: Math.round(ci.coverage * 10000) / 10000, method: ci.method },
  };
  base.bls_variance_pct = bls.available && bls.median ? variancePct(percentiles.p50, bls.median) : null;

  const cols = sorted ?? sortedCellColumns(c, idx);
  const byYear = new Map<number, number[]>();
  const byBand: number[][] = EXPERIENCE_BANDS.map(() => []);
  for (let k = 0; k < n; k++) {
    const i = idx[k]!;
    let y = byYear.get(c.year[i]!);
    if (!y) byYear.set(c.year[i]!, (y = []));
    y.push(i);
    if (c.band[i]! >= 0) byBand[c.band[i]!]!.push(i);
  }
  const { fte, base: baseVals, wrvus: wrvuVals, perWrvu: perWrvuVals, bonus: bonusVals } = cols;
  const fteSum = sumOf(c.fte, c, idx);
  const wrvuKey = sumOf(c.wrvus, c, idx).key;
  const baseKey = sumOf(c.base, c, idx).key;
  const bonusKey = sumOf(c.bonus, c, idx).key;
  // the sections' draws in one cipher call: each column's own and the count column of the same reports
  const pairs: DrawPair[] = [];
  for (const [count, key, columns] of [
    [fte.length, fteSum.key, [COLUMN.fte]], [wrvuVals.length, wrvuKey, [COLUMN.wrvus, COLUMN.perWrvu]],
    [baseVals.length, baseKey, [COLUMN.base]], [bonusVals.length, bonusKey, [COLUMN.bonus]],
  ] as const) {
    if (count >= MIN_SAMPLE) for (const column of [COLUMN.total, ...columns]) pairs.push({ key, column });
  }
  drawsFor(c.drawKey).prefetch?.(pairs);
  const published = (n: number, key: CellKey) => publishedCount(countOf(c, n, key));
  const component = (vals: Float64Array, column: Column, key: CellKey) => ({ n: published(vals.length, key), ...quartiles(vals, noiseOf(c, column, key)) });
  base.sections = {
    fte_normalized: {
      n: published(fte.length, fteSum.key),
      percentiles: fte.length >= MIN_SAMPLE ? roundPercentiles(fivePercentiles(fte, noiseOf(c, COLUMN.fte, fteSum.key))) : null,
      mean: fte.length >= MIN_SAMPLE ? whole(perturbedMean(fteSum.sum, fteSum.n, noiseOf(c, COLUMN.fte, fteSum.key))) : null,
    },
    productivity: {
      n: published(wrvuVals.length, wrvuKey),
      publishable: wrvuVals.length >= MIN_SAMPLE,
      sufficient: wrvuVals.length >= SUFFICIENT_SAMPLE,
      wrvus: upperQuartiles(wrvuVals, noiseOf(c, COLUMN.wrvus, wrvuKey), whole),
      compensation_per_wrvu: upperQuartiles(perWrvuVals, noiseOf(c, COLUMN.perWrvu, wrvuKey), cents),
    },
    components: {
      base_salary: component(baseVals, COLUMN.base, baseKey),
      bonus: component(bonusVals, COLUMN.bonus, bonusKey),
    },
    offer: withOffer ? keyedOfferPacked(c, idx) : null,
    trending: [...byYear.keys()].sort((a, b) => a - b).map((year): TrendRow => ({ year, ...breakdownFigures(c, byYear.get(year)!), partial: year >= c.partialFrom })),
    by_experience: EXPERIENCE_BANDS.map((label, b) => ({ label, ...breakdownFigures(c, byBand[b]!) })),
  };
  return base;
}

export interface CellFilter {
  /** null = national */
  region: string | null;
  /** state index into the index's states, null = no state filter */
  state: number | null;
  setting: number | null;
  employment: number | null;
  yearStart: number | null;
  yearEnd: number | null;
}

/** Positions (ascending) of the reports matching a filter; `regionOf` maps a state index to its region. */
export function selectReports(c: KeyedColumns, f: CellFilter, regionOf: (state: number) => string): number[] {
  const out: number[] = [];
  for (let i = 0; i < c.count; i++) {
    if (f.state !== null && c.state[i] !== f.state) continue;
    if (f.region !== null && regionOf(c.state[i]!) !== f.region) continue;
    if (f.setting !== null && c.setting[i] !== f.setting) continue;
    if (f.employment !== null && c.employment[i] !== f.employment) continue;
    if (f.yearStart !== null && c.year[i]! < f.yearStart) continue;
    if (f.yearEnd !== null && c.year[i]! > f.yearEnd) continue;
    out.push(i);
  }
  return out;
}

export function blsInfo(ds: Dataset, si: number): BlsInfo {
  const sp = ds.specialties[si]!;
  const row = sp.soc_code ? ds.bls.get(sp.soc_code) : undefined;
  return {
    available: Boolean(row && row.annual_median !== null),
    soc_code: sp.soc_code,
    soc_title: row?.title ?? null,
    soc_match: sp.soc_match,
    median: row?.annual_median ?? null,
    year: row?.year ?? null,
    top_coded: row?.top_coded ?? false,
  };
}

/** Every cell of one specialty: geography (US, 4 regions, 51 states) x practice setting (any + 6) x employment type (any + 4). */
export function keyedSpecialty(ds: Dataset, si: number, opts: KeyedOptions, facts: NationalFacts, partialFrom: number): { artifact: KeyedSpecialtyArtifact; columns: KeyedColumns } {
  const c = keyedColumnsFromDataset(ds, si, opts, facts, partialFrom);
  const sp = ds.specialties[si]!;
  return { artifact: keyedSpecialtyFromColumns(c, sp.slug, sp.name, blsInfo(ds, si), ds.states), columns: c };
}

/** The cells of one specialty from its columns (the part a build worker runs). */
export function keyedSpecialtyFromColumns(c: KeyedColumns, slug: string, name: string, bls: BlsInfo, states: readonly { code: string; region: string }[]): KeyedSpecialtyArtifact {
  const regions = [...new Set(states.map((s) => s.region))];
  const regionOfState = Int32Array.from(states, (s) => regions.indexOf(s.region));
  const layout = cellLayout(c.count, c.state, regionOfState, regions.length, c.setting, c.employment);
  const fte = distributeSorted(layout, c.fte);
  const base = distributeSorted(layout, c.base);
  const bonus = distributeSorted(layout, c.bonus);
  const wrvus = distributeSorted(layout, c.wrvus);
  const perWrvu = distributeSorted(layout, perWrvuColumn(c));
  const geoName = (g: number) => (g === 0 ? GEO_NATIONAL : g <= regions.length ? geoRegion(regions[g - 1]!) : geoState(states[g - 1 - regions.length]!.code));
  const cells: Record<string, KeyedCell> = {};
  for (let id = 0; id < layout.cells; id++) {
    const start = layout.offsets[id]!;
    const end = layout.offsets[id + 1]!;
    if (end === start) continue;
    const p = cellParts(id);
    const key = cellKey(geoName(p.geo), p.setting === 0 ? null : PRACTICE_SETTINGS[p.setting - 1]!, p.employment === 0 ? null : EMPLOYMENT_TYPES[p.employment - 1]!);
    cells[key] = keyedCell(c, layout.members.subarray(start, end), bls, {
      fte: cellSlice(fte, layout, id), base: cellSlice(base, layout, id), bonus: cellSlice(bonus, layout, id),
      wrvus: cellSlice(wrvus, layout, id), perWrvu: cellSlice(perWrvu, layout, id),
    });
  }
  return { slug, name, bls, cells };
}

/** n, median and mean of a specialty's national cell, as its artifact gives them (pages compare them with the open figures). */
export function keyedNationalFigures(c: KeyedColumns): { n: number; median: number | null; mean: number | null } {
  const n = c.count;
  if (n < MIN_SAMPLE) return { n, median: null, mean: null };
  const all = new Int32Array(n);
  for (let i = 0; i < n; i++) all[i] = i;
  const { v, sum, key } = cellTotals(c, all);
  return { n: countOf(c, n, key), median: roundPercentiles(fivePercentiles(v, noiseOf(c, COLUMN.total, key))).p50, mean: whole(perturbedMean(sum, n, noiseOf(c, COLUMN.total, key))) };
}

/** What /specialties needs of one specialty, taken from its cells. */
export interface KeyedSpecialtySummary {
  sample_size: number;
  states_with_data: number;
  bls_available: boolean;
}

export function summarizeSpecialty(states: readonly { code: string }[], a: KeyedSpecialtyArtifact): KeyedSpecialtySummary {
  return {
    sample_size: a.cells[cellKey(GEO_NATIONAL, null, null)]?.n ?? 0,
    states_with_data: states.filter((s) => (a.cells[cellKey(geoState(s.code), null, null)]?.n ?? 0) >= MIN_SAMPLE).length,
    bls_available: a.bls.available,
  };
}

export function keyedIndex(ds: Dataset, summaries: KeyedSpecialtySummary[], opts: KeyedOptions, dataAsOf: string): KeyedIndex {
  return {
    data_as_of: dataAsOf,
    synthetic: ds.synthetic,
    methodology: methodology(opts),
    states: ds.states.map((s) => ({ code: s.code, name: s.name, slug: s.slug, region: s.region })),
    specialties: ds.specialties.map((sp, si) => {
      const { sample_size: n, states_with_data, bls_available } = summaries[si]!;
      return {
        slug: sp.slug, name: sp.name, aliases: sp.aliases, sample_size: n, states_with_data,
        publishable: n >= MIN_SAMPLE, sufficient: n >= SUFFICIENT_SAMPLE, bls_available, bls_soc_code: sp.soc_code,
      };
    }),
  };
}
