/**
 * BLS OEWS national wages (the official file's columns; extra columns are ignored): validation (pure).
 * A_MEDIAN: a number (thousands separators allowed), `#` = top-coded (at least the top-code value,
 * $239,200 in recent OEWS releases), `*` or `**` = not available.
 */
import { z } from 'zod';
import type { CsvRow, RowError } from './csv.ts';
import { describeIssues, requiredNumber, requiredText } from './fields.ts';
import { NormalisedCounter, type Normalised } from './normalise.ts';

export const BLS_COLUMNS = ['OCC_CODE', 'OCC_TITLE', 'A_MEDIAN'] as const;
export const DEFAULT_TOP_CODE = 239_200;

export interface ValidBlsWage {
  soc_code: string;
  title: string;
  annual_median: number | null;
  top_coded: boolean;
  year: number;
}

/** Validate every row; `normalised` counts medians written with thousands separators, for the summary. */
export function validateBlsRows(
  rows: CsvRow[],
  options: { year?: number; topCode?: number },
): { valid: ValidBlsWage[]; errors: RowError[]; normalised: Normalised } {
  const counter = new NormalisedCounter([...BLS_COLUMNS, 'YEAR'], { numbers: ['A_MEDIAN'] });
  const topCode = options.topCode ?? DEFAULT_TOP_CODE;
  const schema = z.object({
    OCC_CODE: z.string().refine((s) => /^\d{2}-\d{4}$/.test(s), { message: 'must be a SOC code NN-NNNN' }),
    OCC_TITLE: requiredText(300),
    A_MEDIAN: z.string().transform((raw, ctx): { median: number | null; topCoded: boolean } => {
      if (raw === '#') return { median: topCode, topCoded: true };
      if (raw === '*' || raw === '**') return { median: null, topCoded: false };
      const n = Number(raw.replace(/,/g, ''));
      if (!/^(\d+|\d{1,3}(,\d{3})+)(\.\d+)?$/.test(raw) || !(n > 0) || n > 10_000_000) {
        ctx.addIssue({ code: 'custom', message: `must be an annual wage, "#" (top-coded) or "*" (not available) (got "${raw}")` });
      }
      return { median: n, topCoded: false };
    }),
    YEAR: options.year !== undefined ? z.any() : requiredNumber({ min: 1997, max: 2100, int: true }),
  });
  const valid: ValidBlsWage[] = [];
  const errors: RowError[] = [];
  const firstLine = new Map<string, number>();
  for (const row of rows) {
    const parsed = schema.safeParse({ ...row.values, YEAR: row.values['YEAR'] ?? '' });
    if (!parsed.success) {
      errors.push({ line: row.line, message: describeIssues(parsed.error) });
      continue;
    }
    const r = parsed.data;
    const seen = firstLine.get(r.OCC_CODE);
    if (seen !== undefined) {
      errors.push({ line: row.line, message: `OCC_CODE ${r.OCC_CODE} already appears on line ${seen}` });
      continue;
    }
    firstLine.set(r.OCC_CODE, row.line);
    counter.add(row);
    valid.push({
      soc_code: r.OCC_CODE,
      title: r.OCC_TITLE,
      annual_median: r.A_MEDIAN.median,
      top_coded: r.A_MEDIAN.topCoded,
      year: options.year ?? (r.YEAR as number),
    });
  }
  return { valid, errors, normalised: counter.counts };
}
