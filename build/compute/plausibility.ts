/**
 * Implausible totals, judged against a reference level (pure: no DB, no clock).
 *
 * `physpay moderate` flags a report by the build's rule, the Tukey fences of its specialty's approved
 * totals (national.ts). Fences need approved reports (FENCES_MIN_APPROVED); in a new DB there are none, and
 * a $3,000,000 dermatologist or a $12,000 full-time pediatrician would go through unflagged; past them, an
 * absurd total would be one more `high` or `low`. So every report is also checked against the specialty's
 * reference level: the BLS median of its occupation, else the built-in national level
 * (build/db/reference/national-levels.ts). The level is looked up by build/db/moderation.ts.
 *
 * The rule: flagged when the total is more than IMPLAUSIBLE_FACTOR times the level (high), or when the pay at
 * 40 hours a week is less than the level divided by IMPLAUSIBLE_FACTOR (low).
 */
import type { EmploymentType } from '../contract/vocab.ts';
import { FLOORS, FTE_HOURS, FTE_MAX_HOURS, FTE_MIN_HOURS } from './stats.ts';

/**
 * Fences decide from this many approved reports of the specialty; below it the reference level does. It is
 * the open data's national floor: below 5 reports no national figure of the specialty is published, and from
 * 5 on the type-7 quartiles are the 2nd and 4th lowest totals, so neither the lowest nor the highest
 * approved total moves the fences (with 1 approved report the fences are that one total; with 2 to 4 they
 * sit close around those few totals and flag ordinary pay).
 */
export const FENCES_MIN_APPROVED = FLOORS.national;

/**
 * How far from the reference level a report must be to be flagged: more than 5 times it, or less than a
 * fifth of it at 40 hours a week. The spread of pay inside one specialty stays well within that: in ten
 * synthetic demo datasets (600,000 reports drawn around these levels with the spread of public surveys:
 * settings, states, experience, years, part-time work), the highest ordinary total is 3.9 times its level and
 * the lowest full-time pay 19.5% of it (one report in 600,000 below a fifth; none in the default demo),
 * with the BLS median as the level where the demo has one (it sits 17-30% below the survey levels, as
 * BLS wage figures do, and the factor absorbs that). Typical
 * entry errors are far outside: $3,000,000 is 6.4 times a dermatologist's level, $12,000 is 5.8% of a
 * pediatrician's BLS median. A mistyped amount (one zero too many or too few, a monthly figure) is too.
 */
export const IMPLAUSIBLE_FACTOR = 5;

const PART_TIME: EmploymentType = 'Part-Time (W-2)';

export interface ReferenceLevel {
  /** USD a year */
  level: number;
  /** 'bls': the BLS median of the specialty's occupation; 'national': the built-in national level */
  source: 'bls' | 'national';
}

/** The fields of a report the rule reads. */
export interface PayFields {
  total_compensation: number;
  hours_per_week: number | null;
  employment_type: string | null;
}

export interface Implausible {
  direction: 'high' | 'low';
  /** the pay compared: the total (high), or the pay at 40 hours a week (low) */
  pay: number;
  /** pay / level */
  ratio: number;
  /** true when the pay was scaled up from fewer than 40 hours a week */
  scaled: boolean;
  reference: ReferenceLevel;
}

/**
 * The report's pay at 40 hours a week, for the low check: a report of fewer than 40 hours is scaled up
 * (total x 40 / hours, as the build's FTE figures do); 40 hours or more is taken as it is. A report without
 * hours is read as full-time, unless it says it is part-time: then its full-time pay is unknown (null), and
 * a low part-time total is not flagged.
 */
export function payAtFullTime(r: PayFields): number | null {
  const hours = r.hours_per_week;
  if (hours === null) return r.employment_type === PART_TIME ? null : r.total_compensation;
  return hours > 0 && hours < FTE_HOURS ? (r.total_compensation * FTE_HOURS) / hours : r.total_compensation;
}

/**
 * The reference rule: 'high' when the total is more than IMPLAUSIBLE_FACTOR times the level; 'low' when the
 * pay at 40 hours a week is less than the level / IMPLAUSIBLE_FACTOR; otherwise null. The high check takes
 * the total as reported (a part-time total is never scaled up to be flagged).
 */
export function implausibleAgainst(reference: ReferenceLevel, r: PayFields): Implausible | null {
  const { level } = reference;
  if (!(level > 0)) return null;
  const total = r.total_compensation;
  if (total > level * IMPLAUSIBLE_FACTOR) return { direction: 'high', pay: total, ratio: total / level, scaled: false, reference };
  const pay = payAtFullTime(r);
  if (pay !== null && pay < level / IMPLAUSIBLE_FACTOR) {
    return { direction: 'low', pay, ratio: pay / level, scaled: pay !== total, reference };
  }
  return null;
}

const dollars = (v: number) => `$${Math.round(v).toLocaleString('en-US')}`;
const LEVEL_NAME: Record<ReferenceLevel['source'], string> = { bls: 'BLS median', national: 'national level' };

/**
 * The flag as moderators read it, naming the rule, how far and the level:
 * `implausible: 6.4x the national level ($470,000)`, `implausible: 5.8% of the BLS median ($205,860)`,
 * `implausible: 11.7% of the BLS median ($205,860) at 40 hours a week`.
 */
export function implausibleText(f: Implausible): string {
  const level = `the ${LEVEL_NAME[f.reference.source]} (${dollars(f.reference.level)})`;
  return f.direction === 'high'
    ? `implausible: ${f.ratio.toFixed(1)}x ${level}`
    : `implausible: ${(f.ratio * 100).toFixed(1)}% of ${level}${f.scaled ? ' at 40 hours a week' : ''}`;
}

// ------------------------------------------------------------------------------------------- the hard rule

/**
 * Hours a week a report may give and be plausible: the range the build's FTE figures read (stats.ts). A
 * figure outside it is most often another column's value (years in practice, a monthly or yearly count).
 */
export const PLAUSIBLE_HOURS = { min: FTE_MIN_HOURS, max: FTE_MAX_HOURS } as const;

/** One way a report fails the hard rule, by column. */
export type HardIssue =
  | { column: 'total_compensation'; total: number; implausible: Implausible }
  | { column: 'hours_per_week'; hours: number };

/**
 * The hard plausibility rule, for a report no moderator will see (`physpay import reports` of a row whose
 * status is approved): its total must not be implausible against its specialty's reference level
 * (implausibleAgainst: more than IMPLAUSIBLE_FACTOR times the level, or pay at 40 hours a week below the level
 * / IMPLAUSIBLE_FACTOR), and its hours a week, when given, must lie within PLAUSIBLE_HOURS. Every issue,
 * total first; empty when it passes. Without a reference level only the hours are checked.
 */
export function hardIssues(reference: ReferenceLevel | undefined, r: PayFields): HardIssue[] {
  const issues: HardIssue[] = [];
  const implausible = reference ? implausibleAgainst(reference, r) : null;
  if (implausible) issues.push({ column: 'total_compensation', total: r.total_compensation, implausible });
  const hours = r.hours_per_week;
  if (hours !== null && (hours < PLAUSIBLE_HOURS.min || hours > PLAUSIBLE_HOURS.max)) issues.push({ column: 'hours_per_week', hours });
  return issues;
}

/**
 * What was found, after `got` (no `;`, so that it fits in one issue of a row error):
 * `got $19,500,000, 41.5x the national level of $470,000`,
 * `got $350 ($700 at 40 hours a week), 0.3% of the BLS median of $205,860`, `got 2, outside 10 to 100 hours a week`.
 */
export function hardIssueDetail(i: HardIssue): string {
  if (i.column === 'hours_per_week') return `got ${i.hours}, outside ${PLAUSIBLE_HOURS.min} to ${PLAUSIBLE_HOURS.max} hours a week`;
  const f = i.implausible;
  const level = `the ${LEVEL_NAME[f.reference.source]} of ${dollars(f.reference.level)}`;
  if (f.direction === 'high') return `got ${dollars(i.total)}, ${f.ratio.toFixed(1)}x ${level}`;
  const scaled = f.scaled ? ` (${dollars(f.pay)} at 40 hours a week)` : '';
  return `got ${dollars(i.total)}${scaled}, ${(f.ratio * 100).toFixed(1)}% of ${level}`;
}

/** One issue in words, column first: `total_compensation: got $19,500,000, 41.5x the national level of $470,000`. */
export const hardIssueText = (i: HardIssue): string => `${i.column}: ${hardIssueDetail(i)}`;
