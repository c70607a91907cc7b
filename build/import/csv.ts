/**
 * A small RFC 4180 CSV reader (pure). Quoted fields may hold commas, doubled quotes and line breaks;
 * lines end in LF or CRLF; a UTF-8 byte-order mark is ignored. Every record remembers the line it starts
 * on, so importers can point at the exact line of a bad row.
 */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

export function parseCsv(text: string): CsvRecord[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let i = 0;
  let quoted = false; // inside a quoted field
  let wasQuoted = false; // current field started with a quote
  const endField = () => {
    fields.push(field);
    field = '';
    wasQuoted = false;
  };
  const endRecord = () => {
    endField();
    // A line with nothing on it (e.g. the trailing newline) is not a record.
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: recordLine, fields });
    fields = [];
  };
  while (i < src.length) {
    const c = src[i]!;
    if (quoted) {
      if (c === '"') {
        if (src[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        const next = src[i];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
          throw new CsvSyntaxError(line, 'unexpected character after a closing quote');
        }
        continue;
      }
      if (c === '\n') line++;
      field += c;
      i++;
      continue;
    }
    if (c === '"') {
      if (field !== '' || wasQuoted) throw new CsvSyntaxError(line, 'a quote inside an unquoted field');
      quoted = true;
      wasQuoted = true;
      i++;
    } else if (c === ',') {
      endField();
      i++;
    } else if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && src[i + 1] === '\n' ? 2 : 1;
      line++;
      recordLine = line;
    } else {
      field += c;
      i++;
    }
  }
  if (quoted) throw new CsvSyntaxError(recordLine, 'a quoted field is never closed');
  if (field !== '' || fields.length > 0 || wasQuoted) endRecord();
  return records;
}

export interface RowError {
  line: number;
  message: string;
}

export interface CsvRow {
  line: number;
  values: Record<string, string>;
}

/**
 * Row objects keyed by header name. The header must hold every name of `columns` (any order); other
 * columns are an error unless `extraAllowed` (e.g. the many columns of the official BLS file).
 * A bad header throws (nothing in the file can be read); a row with the wrong number of fields is
 * returned as a row error so that the importer can list every bad line at once.
 */
export function recordsToRows(
  records: CsvRecord[],
  columns: readonly string[],
  options: { extraAllowed?: boolean } = {},
): { rows: CsvRow[]; errors: RowError[] } {
  const header = records[0];
  if (!header) throw new CsvSyntaxError(1, 'the file is empty (a header row is required)');
  const names = header.fields.map((h) => h.trim());
  const seen = new Set<string>();
  for (const n of names) {
    if (seen.has(n)) throw new CsvSyntaxError(header.line, `column "${n}" appears twice in the header`);
    seen.add(n);
  }
  const missing = columns.filter((c) => !seen.has(c));
  const unknown = names.filter((n) => !columns.includes(n));
  if (missing.length > 0 || (!options.extraAllowed && unknown.length > 0)) {
    const parts = [];
    if (missing.length) parts.push(`missing column(s): ${missing.join(', ')}`);
    if (!options.extraAllowed && unknown.length) parts.push(`unknown column(s): ${unknown.join(', ')}`);
    throw new CsvSyntaxError(header.line, `bad header: ${parts.join('; ')}. Expected: ${columns.join(',')}`);
  }
  const rows: CsvRow[] = [];
  const errors: RowError[] = [];
  for (const r of records.slice(1)) {
    if (r.fields.length !== names.length) {
      errors.push({ line: r.line, message: `expected ${names.length} fields, found ${r.fields.length}` });
      continue;
    }
    const values: Record<string, string> = Object.create(null);
    names.forEach((n, idx) => {
      values[n] = r.fields[idx]!.trim();
    });
    rows.push({ line: r.line, values });
  }
  return { rows, errors };
}
