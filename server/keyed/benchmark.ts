/**
 * Shaping a /benchmarks response from cells (pure). Cells come from a CellSource (below).
 */
import { EMPLOYMENT_TYPES, PRACTICE_SETTINGS, type EmploymentType, type PracticeSetting, type Region } from '../../build/contract/vocab.ts';
import { GEO_NATIONAL, cellKey, geoRegion, geoState, type BlsInfo, type KeyedCell, type KeyedIndex, type Percentiles } from '../../build/contract/keyed-artifacts.ts';
import { DATE_RANGE_BASIS, type BenchmarkData, type BenchmarkScope, type BreakdownElement } from '../../build/contract/keyed-api.ts';
import { keyedCell, publishedCount, selectReports, MIN_SAMPLE, SUFFICIENT_SAMPLE, type KeyedColumns } from '../../build/compute/keyed.ts';
import { keyedOfferPacked, unpackKeyedOffer } from '../../build/compute/keyed-offer.ts';
import { notFound } from './errors.ts';
import type { Plan } from './plans.ts';
import type { PackedSpecialty } from './packed-cells.ts';

/** What an answer needs of a cell that is not its headline (scopes, breakdown rows): size and main figures. */
export interface CellSummary {
  n: number;
  percentiles: Percentiles | null;
  mean: number | null;
}

/**
 * Where cells come from: the build's precomputed cells (packed), or cells computed now by the same core for
 * an Enterprise year range. `cell` gives the whole cell (the headline); `summary` only what scopes and
 * breakdown rows show, which the packed form answers without parsing.
 */
export interface CellSource {
  cell(geo: string, setting: string | null, employment: string | null): KeyedCell;
  summary(geo: string, setting: string | null, employment: string | null): CellSummary;
}

export const EMPTY_CELL: KeyedCell = { n: 0, years: [], data_date_range: null, figures: null, bls_variance_pct: null, sections: null };
const EMPTY_SUMMARY: CellSummary = { n: 0, percentiles: null, mean: null };

export const summaryOf = (c: KeyedCell): CellSummary => ({ n: c.n, percentiles: c.figures?.percentiles ?? null, mean: c.figures?.mean ?? null });

export function precomputedSource(a: PackedSpecialty): CellSource {
  return {
    cell: (g, s, e) => a.cell(cellKey(g, s, e)) ?? EMPTY_CELL,
    summary: (g, s, e) => a.summary(cellKey(g, s, e)) ?? EMPTY_SUMMARY,
  };
}

/**
 * Cells computed on demand over per-report columns, restricted to [yearStart, yearEnd]. Memoised. A cell asked
 * for only as a summary (a scope, a breakdown row) is computed without the whole offer, which only the
 * headline cell shows; it is added if the same cell is then asked for whole.
 */
export function computedSource(c: KeyedColumns, index: KeyedIndex, bls: BlsInfo, yearStart: number | null, yearEnd: number | null): CellSource {
  const memo = new Map<string, { cell: KeyedCell; idx: number[]; offer: boolean }>();
  const regionOf = (st: number) => index.states[st]!.region;
  const get = (g: string, s: string | null, e: string | null) => {
    const key = cellKey(g, s, e);
    let found = memo.get(key);
    if (!found) {
      const state = g.startsWith('S:') ? index.states.findIndex((x) => x.code === g.slice(2)) : null;
      const region = g.startsWith('R:') ? g.slice(2) : null;
      const idx = selectReports(c, {
        state, region,
        setting: s === null ? null : PRACTICE_SETTINGS.indexOf(s as (typeof PRACTICE_SETTINGS)[number]),
        employment: e === null ? null : EMPLOYMENT_TYPES.indexOf(e as (typeof EMPLOYMENT_TYPES)[number]),
        yearStart, yearEnd,
      }, regionOf);
      found = { cell: keyedCell(c, idx, bls, undefined, false), idx, offer: false };
      memo.set(key, found);
    }
    return found;
  };
  const cell = (g: string, s: string | null, e: string | null): KeyedCell => {
    const found = get(g, s, e);
    if (!found.offer) {
      if (found.cell.sections) found.cell.sections.offer = keyedOfferPacked(c, found.idx);
      found.offer = true;
    }
    return found.cell;
  };
  return { cell, summary: (g, s, e) => summaryOf(get(g, s, e).cell) };
}

export interface BenchmarkQuery {
  specialty: { slug: string; name: string };
  state: { code: string; name: string; region: Region } | null;
  region: Region | null;
  practiceSetting: PracticeSetting | null;
  employmentType: EmploymentType | null;
  yearStart: number | null;
  yearEnd: number | null;
}

function scopeOf(label: string, c: CellSummary): BenchmarkScope {
  return {
    label,
    n: publishedCount(c.n),
    publishable: c.n >= MIN_SAMPLE,
    sufficient: c.n >= SUFFICIENT_SAMPLE,
    percentiles: c.percentiles,
    mean: c.mean,
  };
}

function breakdownRow(label: string, c: CellSummary): BreakdownElement {
  return {
    label,
    n: publishedCount(c.n),
    p25: c.percentiles?.p25 ?? null,
    p50: c.percentiles?.p50 ?? null,
    p75: c.percentiles?.p75 ?? null,
    mean: c.mean,
    publishable: c.n >= MIN_SAMPLE,
  };
}

const usd = (v: number) => `$${Math.round(v).toLocaleString('en-US')}`;

export function blsNote(bls: BlsInfo, specialtyName: string): string {
  if (!bls.available || bls.median === null) {
    return `No BLS OEWS national median is available for ${specialtyName}${bls.soc_code ? ` (SOC ${bls.soc_code}${bls.soc_title ? `, ${bls.soc_title}` : ''})` : ''}; no comparison is made.`;
  }
  const parts = [
    `Compared with the BLS Occupational Employment and Wage Statistics (OEWS) national median annual wage for ${bls.soc_title} (SOC ${bls.soc_code}, ${bls.year}). OEWS counts wage-and-salary workers (not the self-employed) and reports wages, while this service reports total compensation; variance_pct = (service median - BLS median) / BLS median x 100.`,
  ];
  if (bls.soc_match === 'broad') parts.push(`The SOC occupation is broader than ${specialtyName}.`);
  if (bls.top_coded) parts.push(`The OEWS median is top-coded: BLS publishes only that it is at least ${usd(bls.median)}, which is used here, so the true variance is smaller than shown.`);
  return parts.join(' ');
}

export interface BenchmarkContext {
  index: KeyedIndex;
  bls: BlsInfo;
  cells: CellSource;
  plan: Plan;
}

export function benchmarkData(ctx: BenchmarkContext, q: BenchmarkQuery): BenchmarkData {
  const { cells, bls } = ctx;
  const s = q.practiceSetting;
  const e = q.employmentType;
  const region = q.state?.region ?? q.region;
  const national = cells.summary(GEO_NATIONAL, s, e);
  if (national.n < MIN_SAMPLE || !national.percentiles) {
    throw notFound(`insufficient data: fewer than ${MIN_SAMPLE} reports match this query nationally; check /api/v1/available-data first`);
  }
  const stateCell = q.state ? cells.summary(geoState(q.state.code), s, e) : null;
  const regionCell = region ? cells.summary(geoRegion(region), s, e) : null;
  let scopeUsed: 'state' | 'regional' | 'national' = 'national';
  if (stateCell && stateCell.n >= MIN_SAMPLE) scopeUsed = 'state';
  else if (regionCell && regionCell.n >= MIN_SAMPLE) scopeUsed = 'regional';
  const geoOfHeadline = scopeUsed === 'state' ? geoState(q.state!.code) : scopeUsed === 'regional' ? geoRegion(region!) : GEO_NATIONAL;
  const headline = cells.cell(geoOfHeadline, s, e);
  const f = headline.figures!;
  const m = ctx.index.methodology;
  const data: BenchmarkData = {
    specialty: q.specialty.name,
    geography: { state: q.state?.name ?? null, region: region ?? null, scope_used: scopeUsed },
    sample_size: headline.n,
    percentiles: f.percentiles,
    mean: f.mean,
    confidence: {
      sufficient: headline.n >= SUFFICIENT_SAMPLE,
      publishable: headline.n >= MIN_SAMPLE,
      standard_deviation: f.standard_deviation,
      confidence_interval_95: f.confidence_interval_95,
    },
    scopes: {
      ...(stateCell ? { state: scopeOf(q.state!.name, stateCell) } : {}),
      regional: regionCell ? scopeOf(region!, regionCell) : null,
      national: scopeOf('National', national),
    },
    filters: { practice_setting: q.practiceSetting, employment_type: q.employmentType, year_start: q.yearStart, year_end: q.yearEnd },
    bls_comparison: {
      available: bls.available,
      bls_data: bls.available && bls.median !== null
        ? { soc_code: bls.soc_code!, soc_title: bls.soc_title!, median: bls.median, year: bls.year!, top_coded: bls.top_coded, soc_match: bls.soc_match }
        : null,
      physpay_median: f.percentiles.p50,
      service_median: f.percentiles.p50,
      variance_pct: headline.bls_variance_pct,
      methodology_note: blsNote(bls, q.specialty.name),
    },
    methodology: {
      min_sample: m.min_sample,
      sufficient_sample: m.sufficient_sample,
      outlier_handling: m.outlier_handling,
      fte_basis: m.fte_basis,
      disclosure_control: m.disclosure_control,
      confidence_interval_method: m.confidence_interval_method,
      data_date_range: { ...headline.data_date_range!, basis: DATE_RANGE_BASIS },
      year_range: { start: q.yearStart, end: q.yearEnd },
    },
    // the newest submission among the reports behind the headline figures: the same rule as the open
    // feeds' as_of, so one set of figures carries one date whichever interface shows it
    data_as_of: headline.data_date_range!.latest,
    synthetic: ctx.index.synthetic,
  };
  if (ctx.plan.professionalSections && headline.sections) {
    const sec = headline.sections;
    data.fte_normalized = { percentiles: sec.fte_normalized.percentiles, mean: sec.fte_normalized.mean, n: sec.fte_normalized.n };
    // base salary and bonus, then the whole offer (packed in the cell: keyed-offer.ts)
    data.components = { ...sec.components, ...unpackKeyedOffer(sec.offer) };
    data.productivity = sec.productivity;
    data.trending = sec.trending;
    data.breakdowns = {
      by_experience: sec.by_experience,
      by_practice_setting: (s ? [s] : PRACTICE_SETTINGS).map((ps) => breakdownRow(ps, cells.summary(geoOfHeadline, ps, e))),
      by_employment_type: (e ? [e] : EMPLOYMENT_TYPES).map((et) => breakdownRow(et, cells.summary(geoOfHeadline, s, et))),
    };
  }
  return data;
}
