/**
 * Content fingerprints of reports: a hash of every column a submitter gave, except the moderation status
 * (and ids, batch, moderation time). Two rows with the same fingerprint are the same report, whatever the
 * file looked like: line endings, blank lines and row order never reach it, and it is computed from the
 * validated, canonical values (specialty id, upper-case state, canonical vocabulary spellings, numbers,
 * UTC timestamps), with vocabulary letter case folded once more so that no spelling can make a row "new".
 *
 * The reports DB stores it in `reports.fingerprint` (indexed, migration v3). Rows written without one
 * (e.g. by the demo generator) are filled in by `fillMissingFingerprints` before duplicates are looked up.
 */
import * as crypto from 'node:crypto';
import type Database from 'better-sqlite3';
import { OFFER_COLUMNS, hasOfferTerms, type OfferTerms } from '../contract/offer-terms.ts';

export interface FingerprintedReport extends Partial<OfferTerms> {
  specialty_id: number;
  state: string;
  year: number;
  total_compensation: number;
  base_salary: number | null;
  bonus: number | null;
  hours_per_week: number | null;
  years_in_practice: number | null;
  practice_setting: string | null;
  employment_type: string | null;
  wrvus: number | null;
  submitted_at: string;
}

/** The columns that make up a fingerprint, in hashing order. */
export const FINGERPRINT_COLUMNS = [
  'specialty_id', 'state', 'year', 'total_compensation', 'base_salary', 'bonus', 'hours_per_week',
  'years_in_practice', 'practice_setting', 'employment_type', 'wrvus', 'submitted_at',
] as const satisfies readonly (keyof FingerprintedReport)[];

/** SHA-256 in hex: crypto.hash (one call, Node >= 20.12) where there is one, else a Hash object. */
const sha256Hex: (text: string) => string = typeof (crypto as { hash?: unknown }).hash === 'function'
  ? (text) => (crypto as unknown as { hash: (alg: string, data: string, enc: 'hex') => string }).hash('sha256', text, 'hex')
  : (text) => crypto.createHash('sha256').update(text).digest('hex');

const num = (v: number | null) => (v === null ? null : Number(v));
const folded = (v: string | null) => (v === null ? null : v.trim().toLowerCase());

/**
 * A UTC timestamp as toISOString writes it (what the importer stores), with every field in range: already
 * canonical, kept as is (parsing and writing 1,000,000 of them again cost over a second per import). Days
 * 29-31 and anything else take the long way, where Date rolls "02-30" over to "03-01" as it always did.
 */
const CANONICAL_ISO = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

export function timestamp(v: string): string {
  if (CANONICAL_ISO.test(v)) return v;
  const t = Date.parse(v);
  return Number.isNaN(t) ? v.trim() : new Date(t).toISOString();
}

/**
 * The report's own values, normalised (both fingerprints hash them in this order). The whole-offer columns
 * (migration v8) are appended only when the report gives one, so a report without them keeps the
 * fingerprint it had before they existed.
 */
function reportValues(r: Omit<FingerprintedReport, 'specialty_id' | 'submitted_at'>): (string | number | null)[] {
  const offer = hasOfferTerms(r) ? [OFFER_COLUMNS.map((c) => (c === 'compensation_model' ? (r[c] ?? null) : num(r[c] ?? null)))] : [];
  return [
    r.state.trim().toUpperCase(),
    num(r.year),
    num(r.total_compensation),
    num(r.base_salary),
    num(r.bonus),
    num(r.hours_per_week),
    num(r.years_in_practice),
    folded(r.practice_setting),
    folded(r.employment_type),
    num(r.wrvus),
    ...offer,
  ] as (string | number | null)[];
}

/** 32 hex digits (128 bits of SHA-256) over the normalised values. */
export function reportFingerprint(r: FingerprintedReport): string {
  const values = [
    num(r.specialty_id),
    ...reportValues(r),
    timestamp(r.submitted_at),
  ];
  return sha256Hex(JSON.stringify(['report v1', ...values])).slice(0, 32);
}

/** The whole-offer columns the reports table has (none before migration v8, which migration v3 runs before). */
function offerColumnsIn(db: Database.Database): readonly string[] {
  const have = new Set((db.prepare('PRAGMA table_info(reports)').all() as { name: string }[]).map((c) => c.name));
  return OFFER_COLUMNS.filter((c) => have.has(c));
}

/** Compute the fingerprint of every report that has none. Returns how many were filled. */
export function fillMissingFingerprints(db: Database.Database): number {
  const rows = db
    .prepare(`SELECT id, ${[...FINGERPRINT_COLUMNS, ...offerColumnsIn(db)].join(', ')} FROM reports WHERE fingerprint IS NULL`)
    .all() as (FingerprintedReport & { id: number })[];
  const set = db.prepare('UPDATE reports SET fingerprint = ? WHERE id = ?');
  for (const r of rows) set.run(reportFingerprint(r), r.id);
  return rows.length;
}

/**
 * The same values' fingerprint for a report not yet in a reports DB (a /contribute submission): the
 * specialty by its name instead of its row id, no submission time (each submission has its own). Two
 * submissions of the same answers have the same one; the service store finds repeats by it.
 */
export function submissionFingerprint(r: Omit<FingerprintedReport, 'specialty_id' | 'submitted_at'> & { specialty: string }): string {
  const values = [
    r.specialty.trim().toLowerCase(),
    ...reportValues(r),
  ];
  return sha256Hex(JSON.stringify(['submission v1', ...values])).slice(0, 32);
}

/**
 * A report's answers without the time it was sent (every fingerprinted column but `submitted_at`): how
 * `physpay import submissions` finds a report sent again through /contribute. The time a server received a
 * submission is not part of a report's identity; two reports with the same answers are the same report.
 */
export function answersFingerprint(r: Omit<FingerprintedReport, 'submitted_at'>): string {
  return sha256Hex(JSON.stringify(['answers v1', num(r.specialty_id), ...reportValues(r)])).slice(0, 32);
}
