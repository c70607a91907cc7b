/**
 * zod field parsers for CSV cells (strings in, typed values out), with messages an operator can act on.
 * Empty cells mean "unknown" where a column is optional.
 */
import { z } from 'zod';

const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

interface NumberRule {
  min: number;
  max: number;
  int?: boolean;
  /** Accept "239,200" (thousands separators), as in spreadsheets exported from official tables. */
  thousands?: boolean;
}

function parseNumber(raw: string, rule: NumberRule, ctx: z.RefinementCtx): number {
  const text = rule.thousands ? raw.replace(/,(?=\d{3}(\D|$))/g, '') : raw;
  if (!PLAIN_NUMBER.test(text)) {
    ctx.addIssue({ code: 'custom', message: `must be a plain number like 285000, without $ or commas (got "${raw}")` });
    return 0;
  }
  const v = Number(text);
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

export const optionalNumber = (rule: NumberRule) =>
  z.string().transform((raw, ctx): number | null => (raw === '' ? null : parseNumber(raw, rule, ctx)));

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
 * An ISO 8601 date or timestamp, normalised to a UTC timestamp `YYYY-MM-DDTHH:MM:SS.sssZ`.
 * A date alone means midnight UTC; a timestamp without an offset is taken as UTC.
 */
export const isoTimestamp = () =>
  z.string().transform((raw, ctx) => {
    const dm = DATE.exec(raw);
    const tm = dm ? null : TIMESTAMP.exec(raw);
    const parts = dm ?? tm;
    if (!parts || !isRealDate(Number(parts[1]), Number(parts[2]), Number(parts[3]))) {
      ctx.addIssue({ code: 'custom', message: `must be an ISO 8601 date or timestamp, e.g. 2025-03-14 or 2025-03-14T09:30:00Z (got "${raw}")` });
      return '';
    }
    const withZone = dm ? `${raw}T00:00:00Z` : tm && !tm[8] ? `${raw.replace(' ', 'T')}Z` : raw.replace(' ', 'T');
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
