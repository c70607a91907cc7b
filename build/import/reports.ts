/**
 * Reports CSV: row schema and validation (pure). The header is fixed by README: Demo data and Input files.
 */
import type { FingerprintedReport } from '../db/fingerprint.ts';
import { z } from 'zod';
import { EMPLOYMENT_TYPES, PRACTICE_SETTINGS, REPORT_STATUSES, type ReportStatus } from '../contract/vocab.ts';
import type { CsvRow, RowError } from './csv.ts';
import { describeIssues, isoTimestamp, optionalChoice, optionalNumber, requiredNumber } from './fields.ts';
import { resolveSpecialty, type Refs } from './refs.ts';

export const REPORT_COLUMNS = [
  'specialty', 'state', 'year', 'total_compensation', 'base_salary', 'bonus', 'hours_per_week',
  'years_in_practice', 'practice_setting', 'employment_type', 'wrvus', 'submitted_at', 'status',
] as const;

/** A checked row: the report's columns (those a fingerprint covers), its line and status. */
export interface ValidReport extends FingerprintedReport {
  line: number;
  status: ReportStatus;
}

function reportRowSchema(refs: Refs, now: Date) {
  return z
    .object({
      specialty: z.string().transform((raw, ctx) => {
        const hit = raw === '' ? undefined : resolveSpecialty(refs, raw);
        if (!hit) ctx.addIssue({ code: 'custom', message: raw === '' ? 'is required' : `unknown specialty "${raw}"` });
        return hit?.id ?? 0;
      }),
      state: z.string().transform((raw, ctx) => {
        const code = refs.stateCode.get(raw.toUpperCase());
        if (!code || raw.length !== 2) {
          ctx.addIssue({ code: 'custom', message: `must be a two-letter US state code such as NY or DC (got "${raw}")` });
        }
        return code ?? '';
      }),
      year: requiredNumber({ min: 1990, max: 2100, int: true }),
      total_compensation: requiredNumber({ min: 1, max: 20_000_000 }),
      base_salary: optionalNumber({ min: 0, max: 20_000_000 }),
      bonus: optionalNumber({ min: 0, max: 20_000_000 }),
      hours_per_week: optionalNumber({ min: 1, max: 168 }),
      years_in_practice: optionalNumber({ min: 0, max: 70, int: true }),
      practice_setting: optionalChoice(PRACTICE_SETTINGS),
      employment_type: optionalChoice(EMPLOYMENT_TYPES),
      wrvus: optionalNumber({ min: 1, max: 100_000 }),
      submitted_at: isoTimestamp(),
      status: z.string().transform((raw, ctx): ReportStatus => {
        if (raw === '') return 'pending';
        const s = REPORT_STATUSES.find((v) => v === raw.toLowerCase());
        if (!s) ctx.addIssue({ code: 'custom', message: `must be one of ${REPORT_STATUSES.join(', ')} (got "${raw}")` });
        return s ?? 'pending';
      }),
    })
    .superRefine((r, ctx) => {
      const parts = (r.base_salary ?? 0) + (r.bonus ?? 0);
      if (parts > r.total_compensation + 1) {
        ctx.addIssue({ code: 'custom', message: `base_salary + bonus (${parts}) exceed total_compensation (${r.total_compensation})` });
      }
      if (r.submitted_at) {
        const submittedYear = Number(r.submitted_at.slice(0, 4));
        if (r.year > submittedYear) {
          ctx.addIssue({ code: 'custom', path: ['year'], message: `compensation year ${r.year} is after the submission date ${r.submitted_at.slice(0, 10)}` });
        }
        if (Date.parse(r.submitted_at) > now.getTime() + 86_400_000) {
          ctx.addIssue({ code: 'custom', path: ['submitted_at'], message: `is in the future (${r.submitted_at})` });
        }
      }
    });
}

/** Validate every row; a file is imported only when `errors` is empty. `tick` counts rows (progress). */
export function validateReportRows(
  rows: CsvRow[],
  refs: Refs,
  now: Date,
  tick: (done: number) => void = () => {},
): { valid: ValidReport[]; errors: RowError[] } {
  const schema = reportRowSchema(refs, now);
  const valid: ValidReport[] = [];
  const errors: RowError[] = [];
  for (const [i, row] of rows.entries()) {
    tick(i);
    const parsed = schema.safeParse(row.values);
    if (!parsed.success) {
      errors.push({ line: row.line, message: describeIssues(parsed.error) });
      continue;
    }
    const r = parsed.data;
    valid.push({ line: row.line, ...r, specialty_id: r.specialty });
  }
  return { valid, errors };
}
