/**
 * The open data's populations (pure): which reports the open feeds, pages, CSVs and the tool server count,
 * and on what basis. The keyed API (A) does not use this: it keeps the spec's meaning (every compensation
 * year unless a range is asked, pay as reported, FTE pay in its own `fte_normalized` figures).
 *
 * - The full-time basis: a report's pay counts as full-time-equivalent pay. A part-time report (10 to 39
 *   hours a week) is scaled to 40 hours (total x 40 / hours, the spec's FTE rule); 40 to 100 hours counts
 *   unchanged. A report without hours counts unchanged (physicians mostly leave hours out when they work
 *   full time) unless its employment type is Part-Time (W-2), which cannot be scaled and is left out; a
 *   report with hours outside 10-100 is left out. Base, bonus and wRVUs are scaled with the total, so a
 *   report's pay per wRVU is what it reported.
 * - The all-years population (`fte`): every such report, every compensation year. The `by_year` rows.
 * - The headline population (`headline`): the same reports of the most recent complete compensation years
 *   (`years` of them, default 3): the years before the year of the newest submission, which is still being
 *   reported. Every other open figure.
 *
 * Outliers are decided once per report, on the all-years population (national.ts: the Tukey fences of its
 * specialty's full-time-basis totals), and the decision holds in the headline population too, so a report
 * is counted or left out alike in a headline cell and in its year's row.
 */
import { EMPLOYMENT_TYPES } from '../contract/vocab.ts';
import { copyOffer, emptyReportColumns, specialtyRanges, type Dataset, type ReportColumns } from './dataset.ts';
import { nationalFacts, type NationalFacts } from './national.ts';
import { FTE_HOURS, FTE_MAX_HOURS, FTE_MIN_HOURS } from './stats.ts';

export const DEFAULT_HEADLINE_YEARS = 3;
const PART_TIME = EMPLOYMENT_TYPES.indexOf('Part-Time (W-2)');

/** The basis of every headline figure of one build. */
export interface HeadlineBasis {
  /** first and last compensation year counted (inclusive) */
  firstYear: number;
  lastYear: number;
  /** the year of the newest submission: it and later years are still being reported */
  partialFrom: number;
}

export function headlineBasis(partialFrom: number, years: number): HeadlineBasis {
  if (!Number.isInteger(years) || years < 1) throw new RangeError(`headline years must be a whole number of at least 1 (got ${years})`);
  return { firstYear: partialFrom - years, lastYear: partialFrom - 1, partialFrom };
}

export function yearsText(b: Pick<HeadlineBasis, 'firstYear' | 'lastYear'>): string {
  return b.firstYear === b.lastYear ? String(b.firstYear) : `${b.firstYear}-${b.lastYear}`;
}

/** The sentence every headline carries (feeds' `basis.description`, pages, the tool server). */
export function basisSentence(b: HeadlineBasis): string {
  const count = b.lastYear - b.firstYear + 1;
  return `Pay in compensation years ${yearsText(b)} (the ${count === 1 ? 'most recent complete year' : `${count} most recent complete years`}), on a full-time basis: part-time pay is scaled to 40 hours a week; reports without hours count as full-time unless they are part-time employment, which is left out; outliers are left out.`;
}

/**
 * The full-time-basis scale of one report: 1 (counts as reported), 40 / hours (part-time), or null (left
 * out). `hours` is NaN when not given; `employment` an index into EMPLOYMENT_TYPES (-1 unknown).
 */
export function fteScale(hours: number, employment: number): number | null {
  if (Number.isNaN(hours)) return employment === PART_TIME ? null : 1;
  if (hours < FTE_MIN_HOURS || hours > FTE_MAX_HOURS) return null;
  return hours >= FTE_HOURS ? 1 : FTE_HOURS / hours;
}

/** A pay value on the full-time basis (the same arithmetic as stats.ts fteNormalize: value x 40 / hours). */
function scaled(value: number, hours: number, scale: number): number {
  return scale === 1 ? value : (value * FTE_HOURS) / hours;
}

/** The reports `source` (indexes into ds) as a Dataset of their own, with pay scaled; re-sorted by specialty, total, then source order. */
function selectReports(ds: Dataset, source: number[], scale: (i: number) => number): { ds: Dataset; source: Int32Array } {
  const R = ds.reports;
  const total = (i: number) => scaled(R.total[i]!, R.hours[i]!, scale(i));
  const values = new Float64Array(R.count);
  for (const i of source) values[i] = total(i);
  const order = Int32Array.from(source).sort((a, b) => R.specialty[a]! - R.specialty[b]! || values[a]! - values[b]! || a - b);
  const out: ReportColumns = emptyReportColumns(order.length);
  const exactTotal = new Float64Array(order.length);
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const s = scale(i);
    const h = R.hours[i]!;
    out.specialty[k] = R.specialty[i]!;
    out.state[k] = R.state[i]!;
    out.year[k] = R.year[i]!;
    out.total[k] = values[i]!;
    out.base[k] = scaled(R.base[i]!, h, s);
    out.bonus[k] = scaled(R.bonus[i]!, h, s);
    out.hours[k] = h;
    out.experience[k] = R.experience[i]!;
    out.setting[k] = R.setting[i]!;
    out.employment[k] = R.employment[i]!;
    out.wrvus[k] = scaled(R.wrvus[i]!, h, s);
    out.submittedDay[k] = R.submittedDay[i]!;
    out.keyLo[k] = R.keyLo[i]!;
    out.keyHi[k] = R.keyHi[i]!;
    copyOffer(R.offer, i, out.offer, k);
    exactTotal[k] = scaled(ds.exactTotal[i]!, h, s);
  }
  return {
    ds: { ...ds, reports: out, exactTotal, specialtyRange: specialtyRanges(out.specialty, ds.specialties.length) },
    source: order,
  };
}

export interface OpenPopulation {
  ds: Dataset;
  facts: NationalFacts;
}

export interface OpenPopulations {
  basis: HeadlineBasis;
  /** every compensation year, full-time basis: the by_year rows */
  fte: OpenPopulation;
  /** the headline years, full-time basis: every other open figure */
  headline: OpenPopulation;
  /** reports of the input left out of both: no usable hours (by reason) */
  leftOut: { partTimeWithoutHours: number; hoursOutOfRange: number };
}

/** The open data's two populations of `ds` (see the module comment). */
export function openPopulations(ds: Dataset, basis: HeadlineBasis): OpenPopulations {
  const R = ds.reports;
  const scales = new Float64Array(R.count);
  const eligible: number[] = [];
  let partTimeWithoutHours = 0;
  let hoursOutOfRange = 0;
  for (let i = 0; i < R.count; i++) {
    const s = fteScale(R.hours[i]!, R.employment[i]!);
    if (s === null) {
      if (Number.isNaN(R.hours[i]!)) partTimeWithoutHours++;
      else hoursOutOfRange++;
      continue;
    }
    scales[i] = s;
    eligible.push(i);
  }
  const fte = selectReports(ds, eligible, (i) => scales[i]!);
  const fteFacts = nationalFacts(fte.ds);
  // the headline: the same reports (already scaled and in order), of the headline years
  const F = fte.ds.reports;
  const inYears: number[] = [];
  for (let k = 0; k < F.count; k++) if (F.year[k]! >= basis.firstYear && F.year[k]! <= basis.lastYear) inYears.push(k);
  const headline = selectReports(fte.ds, inYears, () => 1);
  const H = headline.ds.reports;
  const facts: NationalFacts = { openTotal: new Uint8Array(H.count), openRate: new Uint8Array(H.count), outliers: new Uint32Array(ds.specialties.length) };
  for (let k = 0; k < H.count; k++) {
    const from = headline.source[k]!;
    facts.openTotal[k] = fteFacts.openTotal[from]!;
    facts.openRate[k] = fteFacts.openRate[from]!;
    if (facts.openTotal[k] === 0) facts.outliers[H.specialty[k]!]!++;
  }
  return {
    basis,
    fte: { ds: fte.ds, facts: fteFacts },
    headline: { ds: headline.ds, facts },
    leftOut: { partTimeWithoutHours, hoursOutOfRange },
  };
}
