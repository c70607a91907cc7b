/**
 * zod field parsers for CSV cells (strings in, typed values out), with messages an operator can act on.
 * Empty cells mean "unknown" where a column is optional.
 */
import { z } from 'zod';

interface NumberRule {
  min: number;
  max: number;
  int?: boolean;
  /** An amount of US dollars: a leading "$" is accepted ("$350,000", "-$5,000"). */
  currency?: boolean;
  /** Thousands separators are accepted ("285,000", "7,000"), as spreadsheets and official tables write them. */
  thousands?: boolean;
  /** The word "none" (any letter case) is read as 0 (a sign-on bonus, a non-compete: build/contract/offer-terms.ts). */
  none?: boolean;
}

/** What a number cell may look like: sign and "$" in either order, digits (grouped by "," in threes), decimals. */
const NUMBER = /^([+-]?)(\$?)([+-]?)(\d+|\d{1,3}(?:,\d{3})+)(\.\d+)?$/;
/** "." groups thousands (and "," may mark decimals): 1.350.000, 350.000,50, and maybe 350.000. */
const POINT_THOUSANDS = /^(\d{1,3}(?:\.\d{3})+)(?:,(\d+))?$/;
/** "," marks decimals: 350,00, 37,5. */
const DECIMAL_COMMA = /^(\d+),(\d{1,2})$/;
/** Digits with "," that do not group them in threes: 35,0000, 1,2345. */
const MISGROUPED = /^\d+(?:,\d+)+(?:\.\d+)?$/;

const withCommas = (digits: string) => digits.replace(/\B(?=(\d{3})+$)/g, ',');

/**
 * Why a cell that is not a number in NUMBER's form was refused, with the fix. European forms are named
 * as such; an `ambiguous` "350.000" (thousands, or three decimals) says how to write either reading.
 * Value-specific text stays in the parentheses, so that refusals summed up by reason stay together.
 */
function notANumber(raw: string, rule: NumberRule, ambiguous = false): string {
  const body = raw.replace(/^[+-]?\$?[+-]?/, '');
  const points = POINT_THOUSANDS.exec(body);
  if (points) {
    const digits = points[1]!.replace(/\./g, '');
    if (ambiguous) {
      return `is ambiguous: a point before three digits may separate thousands or mark decimals (got "${raw}": write ${digits} or ${withCommas(digits)} for thousands, ${Number(points[1])} for a decimal)`;
    }
    const plain = points[2] === undefined ? digits : `${digits}.${points[2]}`;
    return `uses a point to separate thousands (got "${raw}": write ${plain} or ${withCommas(digits)}${points[2] === undefined ? '' : `.${points[2]}`}, a point marks decimals)`;
  }
  const comma = DECIMAL_COMMA.exec(body);
  if (comma) return `uses a comma as a decimal point (got "${raw}": write ${comma[1]}.${comma[2]}, or group thousands by three as in ${withCommas(`${comma[1]}000`)})`;
  if (MISGROUPED.test(body)) {
    const digits = body.replace(/[$,]/g, '');
    return `has thousands separators that do not group three digits (got "${raw}": write ${digits} or ${withCommas(digits.split('.')[0]!)}${digits.includes('.') ? `.${digits.split('.')[1]}` : ''})`;
  }
  if (rule.currency) return `must be an amount in US dollars such as 285000, 285,000 or $285,000 (got "${raw}")`;
  if (rule.thousands) return `must be a number such as 5200 or 5,200 (got "${raw}")`;
  return `must be a plain number (got "${raw}")`;
}

function parseNumber(raw: string, rule: NumberRule, ctx: z.RefinementCtx): number {
  const m = NUMBER.exec(raw);
  if (!m || (m[1] && m[3])) {
    ctx.addIssue({ code: 'custom', message: notANumber(raw, rule) });
    return 0;
  }
  const [, sign1, dollar, sign2, whole, decimals = ''] = m;
  const plain = `${sign1 || sign2}${whole!.replace(/,/g, '')}${decimals}`;
  if (/^[1-9]\d{0,2}$/.test(whole!) && decimals.length === 4) {
    // "350.000": European thousands or three decimals? Refused when the thousands reading is a valid value
    // (ambiguous when the decimal one is too); read as decimals otherwise ("104.815" as a cost-of-living index).
    const fits = (v: number) => v >= rule.min && v <= rule.max && (!rule.int || Number.isInteger(v));
    if (fits(Number(`${sign1 || sign2}${whole}${decimals.slice(1)}`))) {
      ctx.addIssue({ code: 'custom', message: notANumber(raw, rule, fits(Number(plain))) });
      return 0;
    }
  }
  if (dollar && !rule.currency) {
    ctx.addIssue({ code: 'custom', message: `is a count, not an amount of dollars (got "${raw}": write ${plain.replace(/^\+/, '')})` });
    return 0;
  }
  if (whole!.includes(',') && !rule.thousands) {
    ctx.addIssue({ code: 'custom', message: `must be written without separators (got "${raw}": write ${plain.replace(/^\+/, '')})` });
    return 0;
  }
  const v = Number(plain);
  if (rule.int && !Number.isInteger(v)) ctx.addIssue({ code: 'custom', message: `must be a whole number (got "${raw}")` });
  else if (v < rule.min || v > rule.max) {
    ctx.addIssue({ code: 'custom', message: `must be between ${rule.min} and ${rule.max} (got ${raw})` });
  }
  return v;
}

export const requiredNumber = (rule: NumberRule) =>
  z.string().transform((raw, ctx) => {
    if (raw === '') {
      ctx.addIssue({ code: 'custom', message: 'is required' });
      return z.NEVER;
    }
    return parseNumber(raw, rule, ctx);
  });

/** The word an optional cell may hold for 0 where a rule allows it (`none`). */
const NONE = /^none$/i;

/**
 * A cell of an optional number column that is not empty: "none" (any letter case) is 0 where the rule allows
 * it, and refused elsewhere with what to write (0, or an empty cell); anything else as parseNumber reads it.
 */
export function parseOptionalNumber(raw: string, rule: NumberRule, ctx: z.RefinementCtx): number {
  if (!NONE.test(raw)) return parseNumber(raw, rule, ctx);
  if (rule.none) return 0;
  ctx.addIssue({
    code: 'custom',
    message: rule.min > 0
      ? `must be a number from ${rule.min} to ${rule.max}; leave it empty when there is none (got "${raw}")`
      : `must be a number: write 0 for none, or leave it empty when unknown (got "${raw}")`,
  });
  return 0;
}

export const optionalNumber = (rule: NumberRule) =>
  z.string().transform((raw, ctx): number | null => (raw === '' ? null : parseOptionalNumber(raw, rule, ctx)));

export const requiredText = (max = 200) =>
  z.string().transform((raw, ctx) => {
    if (raw === '') ctx.addIssue({ code: 'custom', message: 'is required' });
    else if (raw.length > max) ctx.addIssue({ code: 'custom', message: `is longer than ${max} characters` });
    return raw;
  });

/** One of `allowed`, matched case-insensitively, returned in its canonical spelling. Empty -> null. */
export const optionalChoice = <T extends string>(allowed: readonly T[]) =>
  z.string().transform((raw, ctx): T | null => {
    if (raw === '') return null;
    const hit = allowed.find((a) => a.toLowerCase() === raw.toLowerCase());
    if (!hit) ctx.addIssue({ code: 'custom', message: `"${raw}" is not one of: ${allowed.join(', ')}` });
    return hit ?? null;
  });

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

function isRealDate(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** `YYYY-MM-DD` (a real calendar date). */
export const isoDate = () =>
  z.string().transform((raw, ctx) => {
    const m = DATE.exec(raw);
    if (!m || !isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))) {
      ctx.addIssue({ code: 'custom', message: `must be a date YYYY-MM-DD (got "${raw}")` });
    }
    return raw;
  });

/**
 * The order of year, month and day in the dates of a file that are not ISO 8601 (`physpay import reports
 * --date-format`): MDY reads 11/03/2026 as 3 November 2026, DMY as 11 March 2026; YMD says the file's dates
 * all put the year first (2026/03/11), so one with the year last is refused instead of guessed.
 */
export const DATE_FORMATS = ['MDY', 'DMY', 'YMD'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** A --date-format value (any letter case), or a sentence naming the accepted ones. */
export function parseDateFormat(raw: string): DateFormat | { error: string } {
  const hit = DATE_FORMATS.find((f) => f === raw.trim().toUpperCase());
  return hit ?? {
    error: `--date-format must be MDY (month first: 11/03/2026 is 3 November 2026), DMY (day first: 11 March 2026) or YMD (year first: 2026/03/11) (got "${raw}")`,
  };
}

const ORDER_WORDS: Record<DateFormat, string> = { MDY: 'month/day/year', DMY: 'day/month/year', YMD: 'year/month/day' };

/** A date that is not ISO 8601: year first or last, parts separated by "/", "." or "-", then maybe a time. */
const OTHER_DATE = /^(\d{1,4})([/.-])(\d{1,2})\2(\d{1,4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*([AaPp])[Mm])?)?$/;

const ISO_EXPECTED = 'must be an ISO 8601 date or timestamp such as 2026-03-11 or 2026-03-11T09:30:00Z';
const pad2 = (n: number | string) => String(n).padStart(2, '0');

/** Why a year-last date is refused when no order was given (or YMD was): the fix, and which order fits. */
function yearLastHint(a: string, b: string, year: string, format: DateFormat | undefined): string {
  const [p, q] = [Number(a), Number(b)];
  if (format === 'YMD') return `--date-format YMD says the dates put the year first: write it as YYYY-MM-DD or give --date-format MDY or DMY`;
  if (p > 12 && q <= 12) return `the day comes first: give --date-format DMY, or write it as ${year}-${pad2(b)}-${pad2(a)}`;
  if (q > 12 && p <= 12) return `the month comes first: give --date-format MDY, or write it as ${year}-${pad2(a)}-${pad2(b)}`;
  return `with the year last, the month or the day may come first: give --date-format MDY for month first or --date-format DMY for day first`;
}

/**
 * A non-ISO date as `YYYY-MM-DDTHH:MM:SSZ` (a time without a zone is UTC), or why it is refused. Year-first
 * dates are unambiguous and always read; year-last ones only in the order `format` gives (MDY or DMY).
 */
function otherDate(raw: string, format: DateFormat | undefined): { iso: string } | { error: string } {
  const refuse = (why?: string) => ({ error: `${ISO_EXPECTED} (got "${raw}"${why ? `: ${why}` : ''})` });
  const m = OTHER_DATE.exec(raw);
  if (!m) return refuse();
  const [, a, , b, c, hh, mi = '0', ss = '0', ampm] = m;
  let ymd: [string, string, string];
  let order: DateFormat = 'YMD';
  if (a!.length === 4 && c!.length <= 2) ymd = [a!, b!, c!];
  else if (c!.length === 4 && a!.length <= 2) {
    if (format === undefined || format === 'YMD') return refuse(yearLastHint(a!, b!, c!, format));
    order = format;
    ymd = format === 'MDY' ? [c!, a!, b!] : [c!, b!, a!];
  } else if (a!.length <= 2 && c!.length <= 2) return refuse('write the year with four digits');
  else return refuse();
  let hour = hh === undefined ? 0 : Number(hh);
  if (ampm) {
    if (hour < 1 || hour > 12) return refuse('an hour before AM or PM runs from 1 to 12');
    hour = (hour % 12) + (/p/i.test(ampm) ? 12 : 0);
  }
  const [y, mo, d] = ymd;
  if (!isRealDate(Number(y), Number(mo), Number(d))) {
    return refuse(order === 'YMD' ? 'no such date' : `not a date in the order --date-format ${order} gives, ${ORDER_WORDS[order]}`);
  }
  if (hour > 23 || Number(mi) > 59 || Number(ss) > 59) return refuse('no such time');
  return { iso: `${y}-${pad2(mo)}-${pad2(d)}T${pad2(hour)}:${pad2(mi)}:${pad2(ss)}Z` };
}

/**
 * An ISO 8601 date or timestamp, normalised to a UTC timestamp `YYYY-MM-DDTHH:MM:SS.sssZ`.
 * A date alone means midnight UTC; a timestamp without an offset is taken as UTC. Dates as spreadsheets
 * write them are read too (otherDate): year first always, year last in the order `format` gives.
 */
export const isoTimestamp = (format?: DateFormat) =>
  z.string().transform((raw, ctx) => {
    const dm = DATE.exec(raw);
    const tm = dm ? null : TIMESTAMP.exec(raw);
    const parts = dm ?? tm;
    let withZone: string;
    if (!parts) {
      const other = otherDate(raw, format);
      if ('error' in other) {
        ctx.addIssue({ code: 'custom', message: other.error });
        return '';
      }
      withZone = other.iso;
    } else if (!isRealDate(Number(parts[1]), Number(parts[2]), Number(parts[3]))) {
      ctx.addIssue({ code: 'custom', message: `must be an ISO 8601 date or timestamp, e.g. 2025-03-14 or 2025-03-14T09:30:00Z (got "${raw}")` });
      return '';
    } else withZone = dm ? `${raw}T00:00:00Z` : tm && !tm[8] ? `${raw.replace(' ', 'T')}Z` : raw.replace(' ', 'T');
    const t = Date.parse(withZone);
    if (Number.isNaN(t)) {
      ctx.addIssue({ code: 'custom', message: `is not a valid timestamp (got "${raw}")` });
      return '';
    }
    return new Date(t).toISOString();
  });

/** Format the issues of a failed zod parse as one line: `field: message; field: message`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}
