/**
 * The build's in-memory input: reference data plus every approved report, column by column.
 * Produced by build/source/read.ts (the only code that reads the reports DB); consumed by the pure
 * compute modules. Reports are ordered by specialty, then total compensation, then id, so every subset
 * taken in index order is already sorted by total compensation.
 */
import type { Region } from './../contract/vocab.ts';
import { OFFER_COLUMNS, type OfferColumn } from '../contract/offer-terms.ts';

export interface SpecialtyRow {
  slug: string;
  name: string;
  soc_code: string | null;
  soc_match: 'exact' | 'broad';
  /** normalised spellings (slug, name and aliases) */
  aliases: string[];
}

export interface StateRow {
  code: string;
  slug: string;
  name: string;
  region: Region;
  col_index: number | null;
  col_source: string | null;
  col_year: number | null;
}

export interface BlsRow {
  soc_code: string;
  title: string;
  annual_median: number | null;
  top_coded: boolean;
  year: number;
}

export interface InstitutionRow {
  slug: string;
  name: string;
  city: string;
  state: string;
  academic_year: string;
  checked_at: string;
  source_url: string;
  /** index 0 = PGY-1 */
  pay: number[];
}

/**
 * Approved reports, column-wise. NaN means unknown for floats, -1 for small integers. Pay values (total,
 * base, bonus) are as distorted by each report's permanent noise factor (disclosure.ts).
 */
export interface ReportColumns {
  count: number;
  specialty: Uint16Array; // index into Dataset.specialties
  state: Uint8Array; // index into Dataset.states
  year: Uint16Array;
  total: Float64Array;
  base: Float64Array;
  bonus: Float64Array;
  hours: Float64Array;
  experience: Int16Array; // years in practice
  setting: Int8Array; // index into PRACTICE_SETTINGS
  employment: Int8Array; // index into EMPLOYMENT_TYPES
  wrvus: Float64Array;
  submittedDay: Int32Array; // days since 1970-01-01 (UTC)
  /** the two 32-bit lanes of each report's secret 64-bit record key (disclosure.ts) */
  keyLo: Uint32Array;
  keyHi: Uint32Array;
  /** the whole offer (offer-terms.ts), as reported: never scaled to full time; money values distorted like pay */
  offer: OfferColumns;
}

/** The numeric whole-offer columns. */
export type OfferNumericColumn = Exclude<OfferColumn, 'compensation_model'>;
export const OFFER_NUMERIC_COLUMNS = OFFER_COLUMNS.filter((c): c is OfferNumericColumn => c !== 'compensation_model');

/** Whole-offer values by report: NaN unknown; compensation_model an index into COMPENSATION_MODELS, -1 unknown. */
export type OfferColumns = Record<OfferNumericColumn, Float64Array> & { compensation_model: Int8Array };

export function emptyOfferColumns(count: number): OfferColumns {
  const out = { compensation_model: new Int8Array(count).fill(-1) } as OfferColumns;
  for (const c of OFFER_NUMERIC_COLUMNS) out[c] = new Float64Array(count).fill(NaN);
  return out;
}

/** Copy report `from` of `src` into position `to` of `dst`. */
export function copyOffer(src: OfferColumns, from: number, dst: OfferColumns, to: number): void {
  for (const c of OFFER_NUMERIC_COLUMNS) dst[c][to] = src[c][from]!;
  dst.compensation_model[to] = src.compensation_model[from]!;
}

export interface Dataset {
  specialties: SpecialtyRow[]; // ordered by slug
  states: StateRow[]; // ordered by code
  bls: Map<string, BlsRow>;
  institutions: InstitutionRow[]; // ordered by slug
  reports: ReportColumns;
  /** [start, end) range of each specialty's reports */
  specialtyRange: { start: number; end: number }[];
  synthetic: boolean;
  /** the key of the disclosure control's draws (disclosure.ts: drawKeyOf), 32 bytes; never published */
  drawKey: Uint8Array;
  /**
   * each report's total before its noise factor (same order as `reports`): only the disclosure accuracy
   * table reads it, to measure what the method costs; no figure is computed from it
   */
  exactTotal: Float64Array;
}

export function dayToIso(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

export function isoToDay(iso: string): number {
  return Math.floor(Date.parse(iso) / 86_400_000);
}

export function emptyReportColumns(count: number): ReportColumns {
  return {
    count,
    specialty: new Uint16Array(count),
    state: new Uint8Array(count),
    year: new Uint16Array(count),
    total: new Float64Array(count),
    base: new Float64Array(count),
    bonus: new Float64Array(count),
    hours: new Float64Array(count),
    experience: new Int16Array(count),
    setting: new Int8Array(count),
    employment: new Int8Array(count),
    wrvus: new Float64Array(count),
    submittedDay: new Int32Array(count),
    keyLo: new Uint32Array(count),
    keyHi: new Uint32Array(count),
    offer: emptyOfferColumns(count),
  };
}

/** Compute each specialty's [start, end) from the sorted specialty column. */
export function specialtyRanges(specialty: Uint16Array, specialtyCount: number): { start: number; end: number }[] {
  const ranges = Array.from({ length: specialtyCount }, () => ({ start: 0, end: 0 }));
  let i = 0;
  for (let s = 0; s < specialtyCount; s++) {
    const start = i;
    while (i < specialty.length && specialty[i] === s) i++;
    ranges[s] = { start, end: i };
  }
  if (i !== specialty.length) throw new Error('reports are not ordered by specialty');
  return ranges;
}
