/**
 * What an import says about its rows, in bounded memory whatever the file's size (pure): the first
 * KEPT_ROWS bad rows and duplicates in full (the CLI prints the first few), the rest counted.
 */
import type { RowError } from './csv.ts';

/** Bad rows and duplicates kept with their line and message; the rest are counted. */
export const KEPT_ROWS = 1_000;

/**
 * What a row error is about, without the row's own values: its first issue, minus quoted values and
 * parenthesised details ('state: must be a two-letter US state code such as NY or DC (got "XX")' ->
 * 'state: must be a two-letter US state code such as NY or DC').
 */
export function reasonOf(message: string): string {
  const first = message.split('; ')[0]!;
  return first.replace(/\s*\((?:[^()"]|"[^"]*")*\)/g, '').replace(/\s*"[^"]*"/g, '').replace(/\s+:/g, ':').trim();
}

/** The bad rows of an import, in line order: the first KEPT_ROWS errors, the others counted by reason. */
export class RowErrorLog {
  readonly kept: RowError[] = [];
  /** reason (reasonOf) -> errors not kept */
  readonly omitted = new Map<string, number>();
  /** Every error. */
  count = 0;
  /** Distinct bad lines. */
  lines = 0;
  private lastLine = -1;

  /** Errors of the next rows of the file (any order among themselves). */
  add(errors: RowError[]): void {
    for (const e of [...errors].sort((x, y) => x.line - y.line)) {
      this.count++;
      if (e.line !== this.lastLine) this.lines++;
      this.lastLine = e.line;
      if (this.kept.length < KEPT_ROWS) this.kept.push(e);
      else this.omitted.set(reasonOf(e.message), (this.omitted.get(reasonOf(e.message)) ?? 0) + 1);
    }
  }
}

/** A row that was not imported because the same report is already in the DB, or earlier in the file. */
export interface DuplicateRow {
  line: number;
  /** the report already in the DB, and its batch (null: not imported from a file, e.g. demo data) */
  reportId?: number;
  batchId?: number | null;
  /** the earlier line of the same file */
  firstLine?: number;
}

/** Duplicates skipped by an import: the first KEPT_ROWS in full, and how many in all of each kind. */
export class DuplicateLog {
  readonly kept: DuplicateRow[] = [];
  inDb = 0;
  inFile = 0;

  add(d: DuplicateRow): void {
    if (d.firstLine !== undefined) this.inFile++;
    else this.inDb++;
    if (this.kept.length < KEPT_ROWS) this.kept.push(d);
  }

  get count(): number {
    return this.inDb + this.inFile;
  }
}

/** Any rows an import names (e.g. flagged approved reports): the first KEPT_ROWS in full, and how many in all. */
export class KeptLog<T> {
  readonly kept: T[] = [];
  count = 0;

  add(item: T): void {
    if (this.kept.length < KEPT_ROWS) this.kept.push(item);
    this.count++;
  }
}
