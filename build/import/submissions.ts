/**
 * `physpay import submissions`: reports physicians sent through /contribute, from the service store's pending
 * intake into the reports DB as one import batch of `pending` reports (listed and undone like any batch).
 *
 * Two stores and no transaction across them, so the order makes it safe to run twice or to kill midway:
 *   1. one reports-DB transaction: the batch and its reports, each with its submission id (unique);
 *   2. then the service store marks the submissions taken and drops their client hashes.
 * A run killed between 1 and 2 finds those submission ids already in the reports DB the next time: it
 * imports them no more and only marks them taken. Killed inside 1, nothing of it was written.
 *
 * A submission whose answers equal a report already in the DB (answersFingerprint: every value, not the time it
 * was sent) or an earlier submission of the same run is skipped and marked taken: the same report sent again
 * (the service store refuses a repeat by the same client; this catches one from another address, or one an
 * older store let through).
 */
import { createHash } from 'node:crypto';
import type { Db } from '../db/open.ts';
import { answersFingerprint, fillMissingFingerprints, reportFingerprint } from '../db/fingerprint.ts';
import type { PendingSubmission } from '../../server/store/types.ts';
import type { CsvRow } from './csv.ts';
import { loadRefs } from './refs.ts';
import { validateReportRows, type ValidReport } from './reports.ts';
import { insertBatch } from './result.ts';
import { OFFER_COLUMNS } from '../contract/offer-terms.ts';

export interface SubmissionsImport {
  /** the batch made (null: nothing new to import) */
  batchId: number | null;
  /** submissions imported now, as pending reports */
  imported: string[];
  /** submissions an earlier run had imported (it stopped before marking them taken) */
  alreadyImported: string[];
  /**
   * submissions whose report is already in the DB (the same answers, whenever sent) or was imported from an
   * earlier submission of this run: skipped, with the report they equal
   */
  duplicates: { id: string; reportId: number }[];
  /** submissions the CSV importer's rules refuse (e.g. a specialty not in this DB's reference data), with its message: left pending */
  refused: { id: string; reason: string }[];
  /** the batch the already imported ones belong to (to mark them with it) */
  batchOf: Map<string, number>;
}

/** The highest report id ever given out (an undone batch's ids are not given out again). */
const highestId = (db: Db) => (db
  .prepare('SELECT max(coalesce((SELECT max(id) FROM reports), 0), coalesce((SELECT max(last_report_id) FROM import_batches), 0)) AS high')
  .get() as { high: number }).high;

/**
 * The reports of the DB that have one of these totals, by their answers (answersFingerprint) -> the lowest
 * report id. One pass over the reports table, whatever the number of submissions.
 */
function reportsByAnswers(db: Db, totals: number[]): Map<string, number> {
  const out = new Map<string, number>();
  if (totals.length === 0) return out;
  // with the whole offer's values: a report's answers include them (answersFingerprint hashes them when given)
  const rows = db.prepare(`SELECT id, specialty_id, state, year, total_compensation, base_salary, bonus, hours_per_week, years_in_practice,
    practice_setting, employment_type, wrvus, ${OFFER_COLUMNS.join(', ')} FROM reports WHERE total_compensation IN (SELECT value FROM json_each(?)) ORDER BY id`)
    .all(JSON.stringify([...new Set(totals)])) as (Parameters<typeof answersFingerprint>[0] & { id: number })[];
  for (const r of rows) {
    const key = answersFingerprint(r);
    if (!out.has(key)) out.set(key, r.id);
  }
  return out;
}

/**
 * A submission as the reports CSV would give it (strings, null as an empty cell, the time the server received
 * it as `submitted_at`), so that the CSV importer's own rules check it: the same code, the same messages.
 */
function asCsvRow(s: PendingSubmission, line: number): CsvRow {
  const r = s.report;
  const cell = (v: string | number | null) => (v === null || v === undefined ? '' : String(v));
  return {
    line,
    values: {
      specialty: cell(r.specialty), state: cell(r.state), year: cell(r.year), total_compensation: cell(r.total_compensation),
      base_salary: cell(r.base_salary), bonus: cell(r.bonus), hours_per_week: cell(r.hours_per_week), years_in_practice: cell(r.years_in_practice),
      practice_setting: cell(r.practice_setting), employment_type: cell(r.employment_type), wrvus: cell(r.wrvus), submitted_at: cell(s.received_at), status: '',
      // the whole offer: absent from a submission that gave none (or stored before they existed), so empty
      ...Object.fromEntries(OFFER_COLUMNS.map((c) => [c, cell(r[c] ?? null)])),
    },
  };
}

/** Step 1: write the pending submissions into the reports DB, in one transaction (see the file comment). */
export function importSubmissions(db: Db, pending: readonly PendingSubmission[], stamp: string): SubmissionsImport {
  return db.transaction((): SubmissionsImport => {
    const out: SubmissionsImport = { batchId: null, imported: [], alreadyImported: [], duplicates: [], refused: [], batchOf: new Map() };
    fillMissingFingerprints(db); // reports written by other means (demo data, older code) get theirs, as a CSV import does
    const refs = loadRefs(db);
    const already = db.prepare('SELECT batch_id FROM reports WHERE submission_id = ?');
    const toCheck: PendingSubmission[] = [];
    for (const s of pending) {
      const prior = already.get(s.id) as { batch_id: number } | undefined;
      if (prior) {
        out.alreadyImported.push(s.id);
        out.batchOf.set(s.id, prior.batch_id);
      } else toCheck.push(s);
    }
    // The importer's rules, on every value (reference data, ranges, base + bonus within the total, the year not
    // after the submission). The time was the server's: a clock here behind the server's refuses nothing.
    const latest = toCheck.reduce((m, s) => { const t = Date.parse(s.received_at); return Number.isNaN(t) ? m : Math.max(m, t); }, Date.parse(stamp));
    const { valid, errors } = validateReportRows(toCheck.map((s, i) => asCsvRow(s, i + 1)), refs, new Date(latest));
    for (const e of errors) out.refused.push({ id: toCheck[e.line - 1]!.id, reason: e.message });
    // The same answers, whenever sent: the reports already in the DB (the first of each), then this run's own.
    const high = highestId(db);
    const known = reportsByAnswers(db, valid.map((r) => r.total_compensation));
    const fresh: { s: PendingSubmission; report: ValidReport; fingerprint: string }[] = [];
    for (const report of valid) {
      const s = toCheck[report.line - 1]!;
      const answers = answersFingerprint(report);
      const dup = known.get(answers);
      if (dup !== undefined) {
        out.duplicates.push({ id: s.id, reportId: dup });
        continue;
      }
      known.set(answers, high + 1 + fresh.length);
      fresh.push({ s, report, fingerprint: reportFingerprint(report) });
    }
    if (fresh.length === 0) return out;
    const ids = fresh.map((f) => f.s.id);
    const batchId = insertBatch(db, {
      kind: 'reports', file: `web submissions (${fresh.length})`, sha256: createHash('sha256').update(ids.join('\n')).digest('hex'), stamp,
      rowsRead: pending.length, rowsImported: fresh.length, duplicates: out.duplicates.length, refused: out.refused.length, lastReportId: high + fresh.length,
    }, 'imported');
    const insert = db.prepare(`INSERT INTO reports (id, specialty_id, state, year, total_compensation, base_salary, bonus, hours_per_week,
      years_in_practice, practice_setting, employment_type, wrvus, submitted_at, status, batch_id, fingerprint, source, submission_id, intake_signals,
      ${OFFER_COLUMNS.join(', ')})
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, 'web', ?, ?, ${OFFER_COLUMNS.map(() => '?').join(', ')})`);
    fresh.forEach(({ s, report: r, fingerprint }, i) => {
      insert.run(high + 1 + i, r.specialty_id, r.state, r.year, r.total_compensation, r.base_salary, r.bonus, r.hours_per_week, r.years_in_practice,
        r.practice_setting, r.employment_type, r.wrvus, r.submitted_at, batchId, fingerprint, s.id, JSON.stringify(s.signals),
        ...OFFER_COLUMNS.map((c) => r[c] ?? null));
      out.imported.push(s.id);
    });
    out.batchId = batchId;
    return out;
  }).immediate();
}

/** The signals of a web report in words, for `physpay moderate list` (pure). */
export function signalsText(json: string | null): string {
  if (!json) return '';
  let s: { challenge?: string; seconds_to_submit?: number | null; client_submissions_today?: number; same_report_elsewhere?: number };
  try {
    s = JSON.parse(json) as typeof s;
  } catch {
    return '';
  }
  const ordinal = (n: number) => `${n}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
  const parts = [
    s.challenge === 'pow' ? 'proof of work' : 'form without JavaScript',
    ...(s.seconds_to_submit !== null && s.seconds_to_submit !== undefined ? [`${s.seconds_to_submit.toLocaleString('en-US')} s to submit`] : []),
    ...(s.client_submissions_today ? [`${ordinal(s.client_submissions_today)} from its client that day`] : []),
    ...(s.same_report_elsewhere ? [`same report from ${s.same_report_elsewhere} other client${s.same_report_elsewhere === 1 ? '' : 's'}`] : []),
  ];
  return parts.join(', ');
}
