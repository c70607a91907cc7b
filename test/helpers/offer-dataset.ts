/**
 * Small Datasets with whole-offer values (offer-terms.ts) for the tests of the open components figures
 * (build/compute/offer-figures.ts): reports given one by one, keyed and distorted the way the build's reader
 * does it (build/source/read.ts: record keys and factor words from the secret, then infuseRecordNoise on the
 * money values), so cell keys, draws and the record factors are the real method's.
 */
import { COMPENSATION_MODEL_VALUES, NO_OFFER_TERMS, OFFER_COLUMNS, type OfferTerms } from '../../build/contract/offer-terms.ts';
import { emptyReportColumns, specialtyRanges, type Dataset } from '../../build/compute/dataset.ts';
import { drawKeyOf } from '../../build/compute/disclosure.ts';
import { infuseRecordNoise } from '../../build/compute/record-noise.ts';
import { recordKeys } from '../../build/source/record-keys.ts';

export interface OfferReport {
  /** index of its specialty (default 0) */
  specialty?: number;
  /** total compensation (default 300,000) */
  total?: number;
  /** the report's id in the reports DB: its record key and factor come from it (default its position + 1) */
  id?: number;
  offer: Partial<OfferTerms>;
}

export interface OfferDatasetOptions {
  /** the reports DB's secret (default a fixed test one) */
  secret?: Buffer;
  /** false: values as given (no record factors); keys and draws stay the real method's */
  noise?: boolean;
  specialties?: number;
}

export const TEST_SECRET = Buffer.from('offer-figures-test-secret-------');

/**
 * A Dataset of `reports` (in the order given: no sorting, so a test's indexes are its own positions).
 * Reports' record keys and factors follow their ids, so the same report (id) keeps its key and factor in
 * every Dataset it is part of, as in two nightly builds of one reports DB.
 */
export function offerDataset(reports: readonly OfferReport[], o: OfferDatasetOptions = {}): Dataset {
  const n = reports.length;
  const secret = o.secret ?? TEST_SECRET;
  const specialties = o.specialties ?? Math.max(1, ...reports.map((r) => (r.specialty ?? 0) + 1));
  const R = emptyReportColumns(n);
  const order = reports.map((r, i) => ({ r, i })).sort((a, b) => (a.r.specialty ?? 0) - (b.r.specialty ?? 0) || a.i - b.i);
  if (order.some((x, k) => x.i !== k)) throw new Error('offerDataset: give the reports ordered by specialty');
  const ids = new Float64Array(n);
  reports.forEach((r, i) => {
    R.specialty[i] = r.specialty ?? 0;
    R.year[i] = 2025;
    R.total[i] = r.total ?? 300_000;
    R.base[i] = NaN;
    R.bonus[i] = NaN;
    R.hours[i] = NaN;
    R.experience[i] = -1;
    R.setting[i] = -1;
    R.employment[i] = -1;
    R.wrvus[i] = NaN;
    R.submittedDay[i] = 20_400;
    const t: OfferTerms = { ...NO_OFFER_TERMS, ...r.offer };
    for (const c of OFFER_COLUMNS) {
      if (c === 'compensation_model') R.offer.compensation_model[i] = t.compensation_model === null ? -1 : COMPENSATION_MODEL_VALUES.indexOf(t.compensation_model);
      else R.offer[c][i] = t[c] ?? NaN;
    }
    ids[i] = r.id ?? i + 1;
  });
  const factor = new Uint32Array(n);
  recordKeys(secret, ids, { lo: R.keyLo, hi: R.keyHi, factor });
  const exactTotal = Float64Array.from(R.total);
  if (o.noise !== false) infuseRecordNoise(R, factor);
  return {
    specialties: Array.from({ length: specialties }, (_, s) => ({ slug: `s${s}`, name: `S${s}`, soc_code: null, soc_match: 'exact' as const, aliases: [] })),
    states: [], bls: new Map(), institutions: [], reports: R, specialtyRange: specialtyRanges(R.specialty, specialties), synthetic: true,
    drawKey: drawKeyOf(secret), exactTotal,
  };
}

/** 0, 1, ..., n - 1 */
export const positions = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
