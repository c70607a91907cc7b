/**
 * Moderation of reports: list, approve, reject, delete, by id or in bulk. Only `approved` reports are ever
 * used by the build. Moves allowed: pending -> approved | rejected, and an operator may reverse a decision
 * (approved <-> rejected). Every change stamps `moderated_at`, `moderated_by` and `moderation_reason` on the
 * report and appends one row per report to `moderation_log` (a deleted report's row is kept there as JSON).
 *
 * Outlier flags use the build's own rule (build/compute/national.ts): a total outside the Tukey fences of its
 * specialty's approved totals, from FENCES_MIN_APPROVED approved reports of the specialty. Beside it, whatever
 * the number of approved reports, a report is checked against the specialty's reference level: the BLS median
 * of its occupation, else the built-in national level (build/compute/plausibility.ts), so that an absurd total
 * is never just an ordinary outlier. The whole offer's values are flagged too, when a report gives them
 * (build/compute/offer-plausibility.ts): the conversion rate against the specialty's $/wRVU (specialtyRates).
 */
import type { Db } from './open.ts';
import type { ReportStatus } from '../contract/vocab.ts';
import { normalizeName } from '../contract/names.ts';
import { outsideFences, specialtyTotalFences } from '../compute/national.ts';
import { FENCES_MIN_APPROVED, implausibleAgainst, implausibleText, type Implausible, type PayFields, type ReferenceLevel } from '../compute/plausibility.ts';
import { NATIONAL_LEVELS } from './reference/national-levels.ts';
import { OFFER_COLUMNS, type OfferTerms } from '../contract/offer-terms.ts';
import { offerFlags, type OfferFields, type OfferFlag, type SpecialtyRate } from '../compute/offer-plausibility.ts';
import { quantile } from '../compute/stats.ts';

export interface ReportFilter {
  /** undefined: every status */
  status?: ReportStatus;
  /** slug, name or alias */
  specialty?: string;
  /** two-letter code */
  state?: string;
  /** only reports submitted before this ISO date/timestamp */
  submittedBefore?: string;
}

/** A report as the moderation queue lists it: every column a moderator needs, the whole offer included. */
export interface ListedReport extends OfferTerms {
  id: number;
  specialty: string;
  state: string;
  year: number;
  total_compensation: number;
  base_salary: number | null;
  bonus: number | null;
  hours_per_week: number | null;
  wrvus: number | null;
  years_in_practice: number | null;
  practice_setting: string | null;
  employment_type: string | null;
  submitted_at: string;
  status: ReportStatus;
  moderated_at: string | null;
  moderated_by: string | null;
  moderation_reason: string | null;
  /** 'web': sent through /contribute (physpay import submissions); null: a CSV import */
  source: string | null;
  batch_id: number | null;
  /** how a web report arrived (JSON; build/import/submissions.ts) */
  intake_signals: string | null;
}

export type Outlier = 'low' | 'high' | null;

export interface SpecialtyFences {
  /** approved reports of the specialty (the distribution the fences come from) */
  approved: number;
  lower: number;
  upper: number;
}

export class ModerationError extends Error {}
/** A bad filter value (unknown specialty or state, a date that is not one): a usage error. */
export class FilterError extends ModerationError {}
/** --expect-count did not match: nothing changed. */
export class CountMismatchError extends ModerationError {
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`--expect-count is ${expected} but ${actual} ${actual === 1 ? 'report matches' : 'reports match'}; nothing changed`);
  }
}

const SPECIALTY_EXAMPLES = 'e.g. cardiology, "Family Medicine", ob-gyn';

function where(db: Db, f: ReportFilter): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (f.status) {
    clauses.push('r.status = ?');
    params.push(f.status);
  }
  if (f.specialty !== undefined) {
    const hit = db.prepare('SELECT specialty_id FROM specialty_aliases WHERE alias = ?').get(normalizeName(f.specialty)) as
      | { specialty_id: number }
      | undefined;
    if (!hit) throw new FilterError(`--specialty must be a specialty's slug, name or common spelling, ${SPECIALTY_EXAMPLES} (got "${f.specialty}")`);
    clauses.push('r.specialty_id = ?');
    params.push(hit.specialty_id);
  }
  if (f.state !== undefined) {
    const code = f.state.toUpperCase();
    if (!db.prepare('SELECT 1 FROM states WHERE code = ?').get(code)) {
      const byName = db.prepare('SELECT code FROM states WHERE lower(name) = lower(?)').get(f.state.trim()) as { code: string } | undefined;
      throw new FilterError(`--state must be a two-letter state code (50 states and DC) (got "${f.state}"${byName ? `; did you mean ${byName.code}?` : ''})`);
    }
    clauses.push('r.state = ?');
    params.push(code);
  }
  if (f.submittedBefore !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}/.test(f.submittedBefore) || Number.isNaN(Date.parse(f.submittedBefore))) {
      throw new FilterError(`--submitted-before must be a date YYYY-MM-DD or an ISO 8601 timestamp (got "${f.submittedBefore}")`);
    }
    clauses.push('r.submitted_at < ?');
    params.push(new Date(Date.parse(f.submittedBefore)).toISOString());
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export function countReports(db: Db, filter: ReportFilter): number {
  const w = where(db, filter);
  return (db.prepare(`SELECT count(*) AS n FROM reports r ${w.sql}`).get(...w.params) as { n: number }).n;
}

const LISTED_COLUMNS = `r.id, s.slug AS specialty, r.state, r.year, r.total_compensation, r.base_salary, r.bonus, r.hours_per_week,
  r.wrvus, r.years_in_practice, r.practice_setting, r.employment_type, r.submitted_at, r.status,
  r.moderated_at, r.moderated_by, r.moderation_reason, r.source, r.batch_id, r.intake_signals,
  ${OFFER_COLUMNS.map((c) => `r.${c}`).join(', ')}`;

/** Matching reports, oldest submission first, one at a time (an export of every pending report stays small). */
export function iterateReports(db: Db, filter: ReportFilter, limit: number | null = 50): IterableIterator<ListedReport> {
  const w = where(db, filter);
  return db
    .prepare(
      `SELECT ${LISTED_COLUMNS}
       FROM reports r JOIN specialties s ON s.id = r.specialty_id ${w.sql}
       ORDER BY r.submitted_at, r.id LIMIT ?`,
    )
    .iterate(...w.params, limit ?? -1) as IterableIterator<ListedReport>;
}

/** Matching reports, oldest submission first, up to `limit` (null: all). */
export function listReports(db: Db, filter: ReportFilter, limit: number | null = 50): ListedReport[] {
  return [...iterateReports(db, filter, limit)];
}

/**
 * Each specialty's Tukey fences of its approved totals (the build's outlier rule), for the given slugs (all
 * when omitted), leaving out the reports of `excludeBatch`. Specialties without an approved report have no
 * fences and are left out.
 */
export function specialtyFences(db: Db, slugs?: readonly string[], options: { excludeBatch?: number } = {}): Map<string, SpecialtyFences> {
  const totals = new Map<string, number[]>();
  const only = slugs ? 'AND s.slug IN (SELECT value FROM json_each(?))' : '';
  // an import judges its rows against the approved reports before it, not against its own
  const notBatch = options.excludeBatch !== undefined ? 'AND r.batch_id IS NOT ?' : '';
  const params = [...(slugs ? [JSON.stringify(slugs)] : []), ...(options.excludeBatch !== undefined ? [options.excludeBatch] : [])];
  const rows = db
    .prepare(`SELECT s.slug, r.total_compensation FROM reports r JOIN specialties s ON s.id = r.specialty_id WHERE r.status = 'approved' ${only} ${notBatch}`)
    .raw(true)
    .iterate(...params) as IterableIterator<[string, number]>;
  for (const [slug, total] of rows) {
    const list = totals.get(slug);
    if (list) list.push(total);
    else totals.set(slug, [total]);
  }
  const out = new Map<string, SpecialtyFences>();
  for (const slug of [...totals.keys()].sort()) {
    const sorted = Float64Array.from(totals.get(slug)!).sort();
    out.set(slug, { approved: sorted.length, ...specialtyTotalFences(sorted) });
  }
  return out;
}

/** 'high' or 'low' when the report's total lies outside its specialty's fences; null inside or without fences. */
export function outlierOf(report: Pick<ListedReport, 'specialty' | 'total_compensation'>, fences: Map<string, SpecialtyFences>): Outlier {
  const f = fences.get(report.specialty);
  return f ? outsideFences(report.total_compensation, f) : null;
}

/**
 * Each specialty's $/wRVU: the median of total compensation / wRVUs over its approved reports that give wRVUs
 * (what the build publishes as the specialty's pay per wRVU, before its disclosure noise), from
 * FENCES_MIN_APPROVED such reports (the national publication floor: below it nothing is published), for the
 * given slugs (all when omitted), leaving out the reports of `excludeBatch`. The conversion rate of a report's
 * offer is judged against it (offer-plausibility.ts).
 */
export function specialtyRates(db: Db, slugs?: readonly string[], options: { excludeBatch?: number } = {}): Map<string, SpecialtyRate> {
  const only = slugs ? 'AND s.slug IN (SELECT value FROM json_each(?))' : '';
  const notBatch = options.excludeBatch !== undefined ? 'AND r.batch_id IS NOT ?' : '';
  const params = [...(slugs ? [JSON.stringify(slugs)] : []), ...(options.excludeBatch !== undefined ? [options.excludeBatch] : [])];
  const rates = new Map<string, number[]>();
  const rows = db
    .prepare(`SELECT s.slug, r.total_compensation / r.wrvus FROM reports r JOIN specialties s ON s.id = r.specialty_id
      WHERE r.status = 'approved' AND r.wrvus > 0 ${only} ${notBatch}`)
    .raw(true)
    .iterate(...params) as IterableIterator<[string, number]>;
  for (const [slug, rate] of rows) {
    const list = rates.get(slug);
    if (list) list.push(rate);
    else rates.set(slug, [rate]);
  }
  const out = new Map<string, SpecialtyRate>();
  for (const [slug, list] of rates) {
    if (list.length < FENCES_MIN_APPROVED) continue;
    out.set(slug, { rate: quantile(Float64Array.from(list).sort(), 0.5), reports: list.length });
  }
  return out;
}

/**
 * Each specialty's reference level, for the given slugs (all when omitted): the BLS median of its SOC
 * occupation when that occupation is the specialty itself (soc_match 'exact') and the median is known and not
 * top-coded (a top-coded median only says "at least"); otherwise the built-in national level.
 */
export function specialtyReferences(db: Db, slugs?: readonly string[]): Map<string, ReferenceLevel> {
  const only = slugs ? 'WHERE s.slug IN (SELECT value FROM json_each(?))' : '';
  const rows = db
    .prepare(
      `SELECT s.slug, s.soc_match, b.annual_median, b.top_coded FROM specialties s LEFT JOIN bls_wages b ON b.soc_code = s.soc_code ${only} ORDER BY s.slug`,
    )
    .all(...(slugs ? [JSON.stringify(slugs)] : [])) as { slug: string; soc_match: string; annual_median: number | null; top_coded: number | null }[];
  const out = new Map<string, ReferenceLevel>();
  for (const r of rows) {
    if (r.soc_match === 'exact' && r.annual_median !== null && r.annual_median > 0 && r.top_coded === 0) {
      out.set(r.slug, { level: r.annual_median, source: 'bls' });
    } else if (NATIONAL_LEVELS[r.slug] !== undefined) {
      out.set(r.slug, { level: NATIONAL_LEVELS[r.slug]!, source: 'national' });
    }
  }
  return out;
}

/**
 * A report's flags in `physpay moderate`: outside its specialty's Tukey fences (`fences`, from
 * FENCES_MIN_APPROVED approved reports), implausible against its reference level (`implausible`, always
 * checked), and its whole offer's flags (`offer`: offer-plausibility.ts). moderationFlags returns null when
 * there is none of them.
 */
export interface ModerationFlags {
  fences: { outlier: 'high' | 'low'; /** the fence the total is outside */ fence: number } | null;
  implausible: Implausible | null;
  offer: OfferFlag[];
}

export function moderationFlags(
  report: Pick<ListedReport, 'specialty'> & PayFields & OfferFields,
  fences: Map<string, SpecialtyFences>,
  references: Map<string, ReferenceLevel>,
  rates: Map<string, SpecialtyRate> = new Map(),
): ModerationFlags | null {
  return flagsAgainst(report, fences.get(report.specialty), references.get(report.specialty), rates.get(report.specialty));
}

/** moderationFlags against one specialty's fences, reference level and $/wRVU (any may be unknown). */
export function flagsAgainst(
  report: PayFields & OfferFields,
  f: SpecialtyFences | undefined,
  reference: ReferenceLevel | undefined,
  rate?: SpecialtyRate,
): ModerationFlags | null {
  const outlier = f && f.approved >= FENCES_MIN_APPROVED ? outsideFences(report.total_compensation, f) : null;
  const implausible = reference ? implausibleAgainst(reference, report) : null;
  const offer = offerFlags(report, rate);
  if (!outlier && !implausible && offer.length === 0) return null;
  return { fences: outlier ? { outlier, fence: outlier === 'high' ? f!.upper : f!.lower } : null, implausible, offer };
}

/**
 * The flags as `moderate list` shows them: `high` or `low` (fences), `implausible: 6.4x the national level
 * ($470,000)`, or both, `low; implausible: 0.7% of the national level ($470,000)`; then the offer's, e.g.
 * `call pay $225,000 is 45% of the total (above 40%)`.
 */
export function flagText(flags: ModerationFlags | null): string | null {
  if (!flags) return null;
  return [flags.fences?.outlier, flags.implausible ? implausibleText(flags.implausible) : undefined, ...flags.offer.map((o) => o.text)].filter(Boolean).join('; ');
}

const dollars = (v: number) => `$${Math.round(v).toLocaleString('en-US')}`;

/**
 * The flags as an approval names them, with the fence a total is outside:
 * `low (below the lower Tukey fence, $210,000); implausible: 4.7% of the national level ($255,000)`.
 */
export function flagDetails(flags: ModerationFlags): string {
  const f = flags.fences;
  const fence = f ? (f.outlier === 'high' ? `high (above the upper Tukey fence, ${dollars(f.fence)})` : `low (below the lower Tukey fence, ${dollars(f.fence)})`) : undefined;
  return [fence, flags.implausible ? implausibleText(flags.implausible) : undefined, ...flags.offer.map((o) => o.text)].filter(Boolean).join('; ');
}

/** How many flags (for "its flag" / "its flags"). */
export const flagCount = (flags: ModerationFlags): number => (flags.fences ? 1 : 0) + (flags.implausible ? 1 : 0) + flags.offer.length;

export interface FlaggedReports {
  /** the first `keep` flagged reports, by id */
  first: { report: ListedReport; flags: ModerationFlags }[];
  /** how many are flagged in all */
  count: number;
}

/**
 * The flagged reports among the given ids, or among the reports matching a filter, by id, with their flags
 * against the approved reports as they are now (call it before approving them): the first `keep` of them and
 * how many in all.
 */
export function flaggedReports(db: Db, sel: { ids: number[] } | { filter: ReportFilter }, keep = Infinity): FlaggedReports {
  const w = 'ids' in sel ? { sql: 'WHERE r.id IN (SELECT value FROM json_each(?))', params: [JSON.stringify(sel.ids)] } : where(db, sel.filter);
  const fences = specialtyFences(db);
  const references = specialtyReferences(db);
  const rates = specialtyRates(db);
  const out: FlaggedReports = { first: [], count: 0 };
  const rows = db
    .prepare(`SELECT ${LISTED_COLUMNS} FROM reports r JOIN specialties s ON s.id = r.specialty_id ${w.sql} ORDER BY r.id`)
    .iterate(...w.params) as IterableIterator<ListedReport>;
  for (const report of rows) {
    const flags = moderationFlags(report, fences, references, rates);
    if (!flags) continue;
    if (out.count < keep) out.first.push({ report, flags });
    out.count++;
  }
  return out;
}

/** The rows with their outlier flag by the build's rule alone (fences read once for the specialties present). */
export function withOutliers(db: Db, rows: ListedReport[], fences?: Map<string, SpecialtyFences>): (ListedReport & { outlier: Outlier })[] {
  const f = fences ?? specialtyFences(db, [...new Set(rows.map((r) => r.specialty))]);
  return rows.map((r) => ({ ...r, outlier: outlierOf(r, f) }));
}

/** Who decided and why; `expectCount`: change nothing unless exactly this many reports would change. */
export interface DecisionRecord {
  moderator?: string | null;
  reason?: string | null;
  expectCount?: number;
}

export interface ModerationResult {
  changed: number;
  /** ids that already had the target status */
  unchanged: number[];
}

type Action = 'approve' | 'reject';
const TARGET: Record<Action, ReportStatus> = { approve: 'approved', reject: 'rejected' };

function checkCount(expected: number | undefined, actual: number): void {
  if (expected !== undefined && expected !== actual) throw new CountMismatchError(expected, actual);
}

/** What an id-based decision would do: ids it changes, ids already in the target status, unknown ids. */
export function planIds(db: Db, action: Action | 'delete', ids: number[]): { change: number[]; unchanged: number[]; missing: number[] } {
  const get = db.prepare('SELECT status FROM reports WHERE id = ?');
  const plan = { change: [] as number[], unchanged: [] as number[], missing: [] as number[] };
  for (const id of new Set(ids)) {
    const row = get.get(id) as { status: ReportStatus } | undefined;
    if (!row) plan.missing.push(id);
    else if (action !== 'delete' && row.status === TARGET[action]) plan.unchanged.push(id);
    else plan.change.push(id);
  }
  return plan;
}

const LOG_INSERT = `INSERT INTO moderation_log (report_id, action, from_status, to_status, moderator, reason, at, report)`;

/** Approve or reject the given report ids. Unknown ids refuse the whole batch (nothing changes). */
export function moderateIds(db: Db, action: Action, ids: number[], now: Date, record: DecisionRecord = {}): ModerationResult {
  const target = TARGET[action];
  const at = now.toISOString();
  return db
    .transaction((): ModerationResult => {
      const plan = planIds(db, action, ids);
      if (plan.missing.length) throw new ModerationError(`no report with id ${plan.missing.join(', ')}; nothing changed`);
      checkCount(record.expectCount, plan.change.length);
      const log = db.prepare(`${LOG_INSERT} SELECT id, ?, status, ?, ?, ?, ?, NULL FROM reports WHERE id = ?`);
      const upd = db.prepare('UPDATE reports SET status = ?, moderated_at = ?, moderated_by = ?, moderation_reason = ? WHERE id = ?');
      for (const id of plan.change) {
        log.run(action, target, record.moderator ?? null, record.reason ?? null, at, id);
        upd.run(target, at, record.moderator ?? null, record.reason ?? null, id);
      }
      return { changed: plan.change.length, unchanged: plan.unchanged };
    })
    .immediate();
}

/** Approve or reject every pending report matching the filter (bulk moderation). */
export function moderatePending(
  db: Db,
  action: Action,
  filter: Omit<ReportFilter, 'status'>,
  now: Date,
  record: DecisionRecord = {},
): ModerationResult {
  const w = where(db, { ...filter, status: 'pending' });
  const at = now.toISOString();
  const who = [record.moderator ?? null, record.reason ?? null, at] as const;
  return db
    .transaction((): ModerationResult => {
      checkCount(record.expectCount, (db.prepare(`SELECT count(*) AS n FROM reports r ${w.sql}`).get(...w.params) as { n: number }).n);
      db.prepare(`${LOG_INSERT} SELECT r.id, ?, r.status, ?, ?, ?, ?, NULL FROM reports r ${w.sql} ORDER BY r.id`).run(action, TARGET[action], ...who, ...w.params);
      const info = db
        .prepare(`UPDATE reports AS r SET status = ?, moderated_by = ?, moderation_reason = ?, moderated_at = ? ${w.sql}`)
        .run(TARGET[action], ...who, ...w.params);
      return { changed: info.changes, unchanged: [] };
    })
    .immediate();
}

/** Delete reports by id; each is kept in moderation_log (as JSON) with who, why and when. */
export function deleteReports(db: Db, ids: number[], now: Date, record: DecisionRecord): { deleted: number } {
  const at = now.toISOString();
  return db
    .transaction(() => {
      const plan = planIds(db, 'delete', ids);
      if (plan.missing.length) throw new ModerationError(`no report with id ${plan.missing.join(', ')}; nothing changed`);
      checkCount(record.expectCount, plan.change.length);
      const get = db.prepare('SELECT * FROM reports WHERE id = ?');
      const log = db.prepare(`${LOG_INSERT} VALUES (?, 'delete', ?, NULL, ?, ?, ?, ?)`);
      const del = db.prepare('DELETE FROM reports WHERE id = ?');
      for (const id of plan.change) {
        const row = get.get(id) as { status: ReportStatus };
        log.run(id, row.status, record.moderator ?? null, record.reason ?? null, at, JSON.stringify(row));
        del.run(id);
      }
      return { deleted: plan.change.length };
    })
    .immediate();
}

/** What a bulk or id-based action would touch: how many, by specialty (most first), and the first ids. */
export function describeSelection(db: Db, sel: { filter: ReportFilter } | { ids: number[] }, firstIds = 20): {
  count: number;
  bySpecialty: [string, number][];
  ids: number[];
} {
  const w = 'ids' in sel ? { sql: 'WHERE r.id IN (SELECT value FROM json_each(?))', params: [JSON.stringify(sel.ids)] } : where(db, sel.filter);
  const bySpecialty = (
    db
      .prepare(`SELECT s.slug, count(*) AS n FROM reports r JOIN specialties s ON s.id = r.specialty_id ${w.sql} GROUP BY s.slug ORDER BY n DESC, s.slug`)
      .raw(true)
      .all(...w.params) as [string, number][]
  );
  const ids = (db.prepare(`SELECT r.id FROM reports r ${w.sql} ORDER BY r.id LIMIT ?`).raw(true).all(...w.params, firstIds) as [number][]).map((r) => r[0]);
  return { count: bySpecialty.reduce((a, [, n]) => a + n, 0), bySpecialty, ids };
}

export interface LogEntry {
  id: number;
  report_id: number;
  action: 'approve' | 'reject' | 'delete';
  from_status: ReportStatus;
  to_status: ReportStatus | null;
  moderator: string | null;
  reason: string | null;
  at: string;
  /** a deleted report's row, as JSON */
  report: string | null;
}

/** Every decision in order (of one report when given). */
export function moderationLog(db: Db, reportId?: number): LogEntry[] {
  return (
    reportId === undefined
      ? db.prepare('SELECT * FROM moderation_log ORDER BY id').all()
      : db.prepare('SELECT * FROM moderation_log WHERE report_id = ? ORDER BY id').all(reportId)
  ) as LogEntry[];
}
