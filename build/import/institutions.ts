/**
 * Teaching institutions CSV (one row per PGY level): row schema and validation (pure).
 */
import { z } from 'zod';
import type { CsvRow, RowError } from './csv.ts';
import { describeIssues, isoDate, requiredNumber, requiredText } from './fields.ts';
import { NormalisedCounter, type Normalised } from './normalise.ts';
import { stateCodeIssue, type Refs } from './refs.ts';

export const INSTITUTION_COLUMNS = [
  'institution_slug', 'institution_name', 'city', 'state', 'academic_year', 'checked_at', 'source_url', 'pgy', 'salary',
] as const;

export interface ValidInstitution {
  slug: string;
  name: string;
  city: string;
  state: string;
  academic_year: string;
  checked_at: string;
  source_url: string;
  /** PGY level -> annual salary */
  pay: Map<number, number>;
  lines: number[];
}

const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

function rowSchema(refs: Refs) {
  return z.object({
    institution_slug: z.string().refine((s) => SLUG.test(s) && s.length <= 120, {
      message: 'must be a lower-case slug such as "mercy-general-hospital"',
    }),
    institution_name: requiredText(200),
    city: requiredText(100),
    state: z.string().transform((raw, ctx) => {
      const code = raw.length === 2 ? refs.stateCode.get(raw.toUpperCase()) : undefined;
      if (!code) ctx.addIssue({ code: 'custom', message: stateCodeIssue(refs, raw) });
      return code ?? '';
    }),
    academic_year: z.string().refine(
      (s) => /^\d{4}-\d{4}$/.test(s) && Number(s.slice(5)) === Number(s.slice(0, 4)) + 1,
      { message: 'must look like 2026-2027 (two consecutive years)' },
    ),
    checked_at: isoDate(),
    source_url: z.string().refine((s) => /^https?:\/\/[^\s]+$/.test(s) && URL.canParse(s), {
      message: 'must be an http(s) URL',
    }),
    pgy: requiredNumber({ min: 1, max: 10, int: true }),
    salary: requiredNumber({ min: 20_000, max: 250_000, currency: true, thousands: true }),
  });
}

const SHARED_FIELDS = ['name', 'city', 'state', 'academic_year', 'checked_at', 'source_url'] as const;

/**
 * Validate rows and group them by institution. Rows of one institution must agree on its details.
 * `normalised` counts the values accepted in a non-canonical form ($68,500, "Mercy General "), for the summary.
 */
export function validateInstitutionRows(rows: CsvRow[], refs: Refs): { valid: ValidInstitution[]; errors: RowError[]; normalised: Normalised } {
  const schema = rowSchema(refs);
  const counter = new NormalisedCounter(INSTITUTION_COLUMNS, { numbers: ['salary'] });
  const bySlug = new Map<string, ValidInstitution>();
  const errors: RowError[] = [];
  for (const row of rows) {
    const parsed = schema.safeParse(row.values);
    if (!parsed.success) {
      errors.push({ line: row.line, message: describeIssues(parsed.error) });
      continue;
    }
    counter.add(row);
    const r = parsed.data;
    const candidate = {
      slug: r.institution_slug, name: r.institution_name, city: r.city, state: r.state,
      academic_year: r.academic_year, checked_at: r.checked_at, source_url: r.source_url,
    };
    const known = bySlug.get(r.institution_slug);
    if (!known) {
      bySlug.set(r.institution_slug, { ...candidate, pay: new Map([[r.pgy, r.salary]]), lines: [row.line] });
      continue;
    }
    const conflict = SHARED_FIELDS.find((f) => known[f] !== candidate[f]);
    if (conflict) {
      errors.push({ line: row.line, message: `${conflict} "${candidate[conflict]}" differs from line ${known.lines[0]} ("${known[conflict]}") for institution ${r.institution_slug}` });
    } else if (known.pay.has(r.pgy)) {
      errors.push({ line: row.line, message: `PGY-${r.pgy} of ${r.institution_slug} is already given on an earlier line` });
    } else {
      known.pay.set(r.pgy, r.salary);
      known.lines.push(row.line);
    }
  }
  for (const inst of bySlug.values()) {
    const levels = [...inst.pay.keys()].sort((a, b) => a - b);
    if (levels[0] !== 1 || levels.some((l, i) => l !== i + 1)) {
      errors.push({ line: inst.lines[0]!, message: `${inst.slug}: PGY levels must run 1, 2, 3, ... without gaps (got ${levels.join(', ')})` });
    }
  }
  return { valid: [...bySlug.values()], errors: errors.sort((a, b) => a.line - b.line), normalised: counter.counts };
}
