/**
 * Cost-of-living CSV `state,index,source,year` (one row per state, US = 100): validation (pure).
 */
import { z } from 'zod';
import { normalizeName } from '../contract/names.ts';
import type { CsvRow, RowError } from './csv.ts';
import { describeIssues, requiredNumber, requiredText } from './fields.ts';
import { NormalisedCounter, type Normalised } from './normalise.ts';
import { unknownStateIssue, type Refs } from './refs.ts';

export const COL_COLUMNS = ['state', 'index', 'source', 'year'] as const;

export interface ValidCol {
  state: string;
  index: number;
  source: string;
  year: number;
}

/** Validate every row; `normalised` counts the values that had surrounding spaces, for the summary. */
export function validateColRows(rows: CsvRow[], refs: Refs): { valid: ValidCol[]; errors: RowError[]; normalised: Normalised } {
  const counter = new NormalisedCounter(COL_COLUMNS);
  const schema = z.object({
    state: z.string().transform((raw, ctx) => {
      const code = refs.stateCode.get(raw.toUpperCase()) ?? refs.stateCode.get(normalizeName(raw));
      if (!code) ctx.addIssue({ code: 'custom', message: unknownStateIssue(raw) });
      return code ?? '';
    }),
    index: requiredNumber({ min: 20, max: 300 }),
    source: requiredText(200),
    year: requiredNumber({ min: 1990, max: 2100, int: true }),
  });
  const valid: ValidCol[] = [];
  const errors: RowError[] = [];
  const firstLine = new Map<string, number>();
  for (const row of rows) {
    const parsed = schema.safeParse(row.values);
    if (!parsed.success) {
      errors.push({ line: row.line, message: describeIssues(parsed.error) });
      continue;
    }
    const seen = firstLine.get(parsed.data.state);
    if (seen !== undefined) {
      errors.push({ line: row.line, message: `state ${parsed.data.state} already appears on line ${seen}` });
      continue;
    }
    firstLine.set(parsed.data.state, row.line);
    counter.add(row);
    valid.push(parsed.data);
  }
  return { valid, errors, normalised: counter.counts };
}
