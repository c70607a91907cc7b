/**
 * What the importers accept beyond the canonical forms, and how much of it a file used (pure).
 *
 * - Header names match the expected columns whatever their letter case and surrounding spaces, and with
 *   spaces and underscores alike (`Specialty`, ` STATE `, `Total Compensation`); two names that differ only
 *   so are one column given twice.
 * - Cells lose their surrounding whitespace (recordsToRows) and numbers and dates may be written as
 *   spreadsheets write them (fields.ts). Each value so changed is counted once, by what was changed:
 *   `numbers` ($ or thousands separators), `dates` (a non-ISO date rewritten as ISO 8601), else `spaces`.
 *   A row's values are counted only when the row is valid; a cell of spaces alone is empty, not counted.
 */
import type { CsvRow } from './csv.ts';

export interface Normalised {
  /** amounts with a `$` sign or thousands separators (`$350,000`, `68,500`) */
  numbers: number;
  /** dates not in ISO 8601 (`2026/03/11`, `11/03/2026` with --date-format), stored as ISO 8601 */
  dates: number;
  /** values with surrounding whitespace and nothing else changed (`Cardiology `) */
  spaces: number;
}

export const noneNormalised = (): Normalised => ({ numbers: 0, dates: 0, spaces: 0 });

/** a + b (e.g. the counts of the batches of one file). */
export function addNormalised(a: Normalised, b: Normalised): Normalised {
  return { numbers: a.numbers + b.numbers, dates: a.dates + b.dates, spaces: a.spaces + b.spaces };
}

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * One clause for an import summary, '' when nothing was normalised:
 * `3 values normalised (2 with $ or thousands separators, 1 with surrounding spaces)`.
 */
export function normalisedClause(n: Normalised): string {
  const total = n.numbers + n.dates + n.spaces;
  if (total === 0) return '';
  const parts = [
    n.numbers ? `${fmt(n.numbers)} with $ or thousands separators` : '',
    n.dates ? `${fmt(n.dates)} ${n.dates === 1 ? 'date' : 'dates'} rewritten as ISO 8601` : '',
    n.spaces ? `${fmt(n.spaces)} with surrounding spaces` : '',
  ].filter(Boolean);
  return `${fmt(total)} ${total === 1 ? 'value' : 'values'} normalised (${parts.join(', ')})`;
}

/** normalisedClause as the part of an import summary before "; batch N": `; 3 values normalised (...)`, or ''. */
export function normalisedSuffix(n: Normalised): string {
  const clause = normalisedClause(n);
  return clause ? `; ${clause}` : '';
}

/**
 * Counts the values a validator read and normalisation changed. `numbers` and `dates` name the columns
 * whose values may be written in a non-canonical form (a value there counts as such when `isNumberForm` /
 * `isDateForm` says so); every other column of `columns` counts only its surrounding whitespace.
 */
export class NormalisedCounter {
  readonly counts: Normalised = noneNormalised();

  constructor(
    private readonly columns: readonly string[],
    private readonly kinds: { numbers?: readonly string[]; dates?: readonly string[] } = {},
  ) {}

  /** Count the values of a row that was accepted. */
  add(row: CsvRow): void {
    const trimmed = row.trimmed ?? [];
    for (const c of this.columns) {
      const v = row.values[c];
      if (v === undefined || v === '') continue;
      if (this.kinds.numbers?.includes(c) && isNumberForm(v)) this.counts.numbers++;
      else if (this.kinds.dates?.includes(c) && isDateForm(v)) this.counts.dates++;
      else if (trimmed.includes(c)) this.counts.spaces++;
    }
  }
}

/** An accepted number written with a `$` sign or thousands separators. */
export const isNumberForm = (value: string): boolean => /[$,]/.test(value);

/** An accepted date not written as ISO 8601 (YYYY-MM-DD, optionally with a time). */
export const isDateForm = (value: string): boolean => !/^\d{4}-\d{2}-\d{2}([T ]|$)/.test(value);

/** How a header name is compared: trimmed, lower case, each run of spaces and underscores one `_`. */
const headerForm = (name: string): string => name.trim().toLowerCase().replace(/[\s_]+/g, '_');

/**
 * The key each header field is stored under: the expected or optional column it names, ignoring letter
 * case and surrounding whitespace, spaces and underscores alike (`Total Compensation` is
 * `total_compensation`), else the field itself, trimmed (a column the importer ignores or refuses).
 * Throws a message when two fields name the same column.
 */
export function headerKeys(fields: readonly string[], columns: readonly string[], optional: readonly string[] = []): string[] {
  const known = new Map<string, string>();
  for (const c of [...columns, ...optional]) known.set(headerForm(c), c);
  const given = new Map<string, string>(); // column (or unknown name, exactly) -> the field naming it first
  return fields.map((f) => {
    const name = f.trim();
    const column = known.get(headerForm(name));
    const key = column ?? name;
    const id = column ?? `\u0000${name}`;
    const before = given.get(id);
    if (before !== undefined) {
      throw new HeaderError(
        before === name
          ? `column "${name}" appears twice in the header`
          : `columns "${before}" and "${name}" are the same column (header names ignore letter case, surrounding spaces, and spaces against underscores)`,
      );
    }
    given.set(id, name);
    return key;
  });
}

export class HeaderError extends Error {}
