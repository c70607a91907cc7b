/**
 * Moderation of reports: list, approve, reject, by id or in bulk. Only `approved` reports are ever used by
 * the build. Moves allowed: pending -> approved | rejected, and an operator may reverse a decision
 * (approved <-> rejected). Every change stamps `moderated_at`.
 */
import type { Db } from './open.ts';
import type { ReportStatus } from '../contract/vocab.ts';
import { normalizeName } from '../contract/names.ts';

export interface ReportFilter {
  status?: ReportStatus;
  /** slug, name or alias */
  specialty?: string;
  /** two-letter code */
  state?: string;
  /** only reports submitted before this ISO date/timestamp */
  submittedBefore?: string;
}

export interface ListedReport {
  id: number;
  specialty: string;
  state: string;
  year: number;
  total_compensation: number;
  practice_setting: string | null;
  employment_type: string | null;
  submitted_at: string;
  status: ReportStatus;
}

export class ModerationError extends Error {}

function where(db: Db, f: ReportFilter): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (f.status) {
    clauses.push('r.status = ?');
    params.push(f.status);
  }
  if (f.specialty) {
    const hit = db.prepare('SELECT specialty_id FROM specialty_aliases WHERE alias = ?').get(normalizeName(f.specialty)) as
      | { specialty_id: number }
      | undefined;
    if (!hit) throw new ModerationError(`unknown specialty "${f.specialty}"`);
    clauses.push('r.specialty_id = ?');
    params.push(hit.specialty_id);
  }
  if (f.state) {
    const code = f.state.toUpperCase();
    if (!db.prepare('SELECT 1 FROM states WHERE code = ?').get(code)) throw new ModerationError(`unknown state code "${f.state}"`);
    clauses.push('r.state = ?');
    params.push(code);
  }
  if (f.submittedBefore) {
    if (Number.isNaN(Date.parse(f.submittedBefore))) throw new ModerationError(`--submitted-before must be an ISO date (got "${f.submittedBefore}")`);
    clauses.push('r.submitted_at < ?');
    params.push(new Date(Date.parse(f.submittedBefore)).toISOString());
  }
  return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export function countReports(db: Db, filter: ReportFilter): number {
  const w = where(db, filter);
  return (db.prepare(`SELECT count(*) AS n FROM reports r ${w.sql}`).get(...w.params) as { n: number }).n;
}

export function listReports(db: Db, filter: ReportFilter, limit = 50): ListedReport[] {
  const w = where(db, filter);
  return db
    .prepare(
      `SELECT r.id, s.slug AS specialty, r.state, r.year, r.total_compensation, r.practice_setting, r.employment_type,
              r.submitted_at, r.status
       FROM reports r JOIN specialties s ON s.id = r.specialty_id ${w.sql}
       ORDER BY r.submitted_at, r.id LIMIT ?`,
    )
    .all(...w.params, limit) as ListedReport[];
}

export interface ModerationResult {
  changed: number;
  /** ids that already had the target status */
  unchanged: number[];
}

const TARGET: Record<'approve' | 'reject', ReportStatus> = { approve: 'approved', reject: 'rejected' };

/** Approve or reject the given report ids. Unknown ids refuse the whole batch (nothing changes). */
export function moderateIds(db: Db, action: 'approve' | 'reject', ids: number[], now: Date): ModerationResult {
  const target = TARGET[action];
  return db
    .transaction((): ModerationResult => {
      const get = db.prepare('SELECT status FROM reports WHERE id = ?');
      const missing: number[] = [];
      const unchanged: number[] = [];
      const toChange: number[] = [];
      for (const id of new Set(ids)) {
        const row = get.get(id) as { status: ReportStatus } | undefined;
        if (!row) missing.push(id);
        else if (row.status === target) unchanged.push(id);
        else toChange.push(id);
      }
      if (missing.length) throw new ModerationError(`no report with id ${missing.join(', ')}; nothing changed`);
      const upd = db.prepare('UPDATE reports SET status = ?, moderated_at = ? WHERE id = ?');
      for (const id of toChange) upd.run(target, now.toISOString(), id);
      return { changed: toChange.length, unchanged };
    })
    .immediate();
}

/** Approve or reject every pending report matching the filter (bulk moderation). */
export function moderatePending(db: Db, action: 'approve' | 'reject', filter: Omit<ReportFilter, 'status'>, now: Date): ModerationResult {
  const w = where(db, { ...filter, status: 'pending' });
  const info = db
    .prepare(`UPDATE reports AS r SET status = ?, moderated_at = ? ${w.sql}`)
    .run(TARGET[action], now.toISOString(), ...w.params);
  return { changed: info.changes, unchanged: [] };
}
