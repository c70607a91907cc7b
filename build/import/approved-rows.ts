/**
 * Rows a reports file imports as approved (pure). They skip moderation, so the importer does what an
 * approval would show a moderator: a row whose status is approved and that fails the hard plausibility rule
 * (build/compute/plausibility.ts: hardIssues) is a bad row, unless the operator keeps such rows
 * (--keep-implausible); and every approved report imported is flagged as `physpay moderate approve` flags
 * it (the Tukey fences of the approved reports before the import, the reference level, and the whole offer's
 * flags, the conversion rate against the specialty's $/wRVU before the import), plus hours a
 * week outside the plausible range when such a row was kept. Rows of any other status are left to moderation.
 */
import { hardIssueDetail, hardIssues, PLAUSIBLE_HOURS, type HardIssue, type ReferenceLevel } from '../compute/plausibility.ts';
import type { SpecialtyRate } from '../compute/offer-plausibility.ts';
import { flagCount, flagDetails, flagsAgainst, type ModerationFlags, type SpecialtyFences } from '../db/moderation.ts';
import type { ValidReport } from './reports.ts';

const KEEP_HINT = 'import it as pending for a moderator, or give --keep-implausible';

/**
 * The row error of an approved row failing the hard rule, one issue per column, the way out after the last:
 * `total_compensation: implausible for a report imported as approved (got $19,500,000, 41.5x the national
 * level of $470,000: import it as pending for a moderator, or give --keep-implausible)`.
 */
export function implausibleApprovedMessage(issues: readonly HardIssue[]): string {
  return issues
    .map((i, k) => `${i.column}: implausible for a report imported as approved (${hardIssueDetail(i)}${k === issues.length - 1 ? `: ${KEEP_HINT}` : ''})`)
    .join('; ');
}

/**
 * The refusal of a row imported as approved that fails the hard rule against its specialty's reference level
 * (implausibleApprovedMessage), or null: rows of another status, and approved rows that pass.
 */
export function implausibleApprovedIssue(r: ValidReport, reference: ReferenceLevel | undefined): string | null {
  if (r.status !== 'approved') return null;
  const issues = hardIssues(reference, r);
  return issues.length ? implausibleApprovedMessage(issues) : null;
}

/** An approved report an import wrote, with its flags. */
export interface ApprovedFlag {
  line: number;
  report_id: number;
  specialty: string;
  total_compensation: number;
  /** as `moderate approve` flags it: fences, reference level and the offer's flags */
  flags: ModerationFlags | null;
  /** hours a week outside PLAUSIBLE_HOURS (a row kept by --keep-implausible), else null */
  hours_outside: number | null;
}

/** The flags of an approved report imported from `line` as report `id`; null when it has none. */
export function approvedFlag(
  r: ValidReport,
  id: number,
  specialty: string,
  fences: SpecialtyFences | undefined,
  reference: ReferenceLevel | undefined,
  rate?: SpecialtyRate,
): ApprovedFlag | null {
  const flags = flagsAgainst(r, fences, reference, rate);
  const hours = r.hours_per_week;
  const hoursOutside = hours !== null && (hours < PLAUSIBLE_HOURS.min || hours > PLAUSIBLE_HOURS.max) ? hours : null;
  if (!flags && hoursOutside === null) return null;
  return { line: r.line, report_id: id, specialty, total_compensation: r.total_compensation, flags, hours_outside: hoursOutside };
}

const dollars = (v: number) => `$${Math.round(v).toLocaleString('en-US')}`;

/**
 * `report 2 (dermatology, total $19,500,000) imported as approved with its flag: implausible: 41.5x the
 * national level ($470,000)`; hours read `implausible hours: 4 a week (outside 10 to 100)`.
 */
export function approvedFlagText(f: ApprovedFlag): string {
  const count = (f.flags ? flagCount(f.flags) : 0) + (f.hours_outside !== null ? 1 : 0);
  return `report ${f.report_id} (${f.specialty}, total ${dollars(f.total_compensation)}) imported as approved with its ${count > 1 ? 'flags' : 'flag'}: ${approvedFlagDetail(f)}`;
}

/** The flags alone: `high (above the upper Tukey fence, $290,000); implausible: 10.0x the national level ($470,000)`. */
export function approvedFlagDetail(f: ApprovedFlag): string {
  return [
    ...(f.flags ? [flagDetails(f.flags)] : []),
    ...(f.hours_outside !== null ? [`implausible hours: ${f.hours_outside} a week (outside ${PLAUSIBLE_HOURS.min} to ${PLAUSIBLE_HOURS.max})`] : []),
  ].join('; ');
}
