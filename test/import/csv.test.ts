import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, parseCsv, recordsToRows } from '../../build/import/csv.ts';

function syntaxError(text: string): CsvSyntaxError {
  try {
    parseCsv(text);
  } catch (err) {
    expect(err).toBeInstanceOf(CsvSyntaxError);
    return err as CsvSyntaxError;
  }
  throw new Error('expected a CsvSyntaxError');
}

describe('parseCsv', () => {
  it('splits plain records and numbers them by line', () => {
    expect(parseCsv('a,b,c\n1,2,3\n4,5,6\n')).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1', '2', '3'] },
      { line: 3, fields: ['4', '5', '6'] },
    ]);
  });

  it('accepts a last record without a trailing newline', () => {
    expect(parseCsv('a,b\n1,2')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', '2'] },
    ]);
  });

  it('keeps empty fields, including a trailing empty one', () => {
    expect(parseCsv('a,,c,\n')).toEqual([{ line: 1, fields: ['a', '', 'c', ''] }]);
  });

  it('keeps commas inside quoted fields', () => {
    expect(parseCsv('name,total\n"Smith, John","$285,000"\n')).toEqual([
      { line: 1, fields: ['name', 'total'] },
      { line: 2, fields: ['Smith, John', '$285,000'] },
    ]);
  });

  it('turns doubled quotes into one quote', () => {
    expect(parseCsv('"say ""hi""",x\n"""",""\n')).toEqual([
      { line: 1, fields: ['say "hi"', 'x'] },
      { line: 2, fields: ['"', ''] },
    ]);
  });

  it('keeps line breaks inside quoted fields and still numbers later records by their real line', () => {
    const text = 'a,b\n1,"first\nsecond\nthird"\n2,plain\n3,"x\ny"\n4,last\n';
    const records = parseCsv(text);
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', 'first\nsecond\nthird'] },
      { line: 5, fields: ['2', 'plain'] },
      { line: 6, fields: ['3', 'x\ny'] },
      { line: 8, fields: ['4', 'last'] },
    ]);
  });

  it('reads CRLF line endings (also inside quoted fields) without leaving \\r in fields', () => {
    const records = parseCsv('a,b\r\n1,2\r\n"x\r\ny",3\r\n4,5\r\n');
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', '2'] },
      { line: 3, fields: ['x\r\ny', '3'] },
      { line: 5, fields: ['4', '5'] },
    ]);
  });

  it('ignores a UTF-8 byte-order mark', () => {
    const records = parseCsv('\uFEFFspecialty,state\nCardiology,NY\n');
    expect(records[0]).toEqual({ line: 1, fields: ['specialty', 'state'] });
    expect(records[1]).toEqual({ line: 2, fields: ['Cardiology', 'NY'] });
  });

  it('skips blank lines but counts them', () => {
    expect(parseCsv('a\n\nb\n\n')).toEqual([
      { line: 1, fields: ['a'] },
      { line: 3, fields: ['b'] },
    ]);
  });

  it('returns no records for an empty text', () => {
    expect(parseCsv('')).toEqual([]);
  });

  it('reports an unclosed quote at the line where its record starts', () => {
    const err = syntaxError('a,b\n1,2\n3,"never closed\nmore text\n');
    expect(err.line).toBe(3);
    expect(err.message).toMatch(/^line 3: /);
    expect(err.message).toMatch(/never closed/);
  });

  it('reports text after a closing quote', () => {
    const err = syntaxError('a,b\n"x"y,2\n');
    expect(err.line).toBe(2);
    expect(err.message).toMatch(/after a closing quote/);
  });

  it('reports a quote inside an unquoted field', () => {
    const err = syntaxError('a,b\n1,2\nab"c,3\n');
    expect(err.line).toBe(3);
    expect(err.message).toMatch(/quote inside an unquoted field/);
  });
});

describe('recordsToRows', () => {
  const COLUMNS = ['specialty', 'state', 'total'] as const;

  it('keys rows by header name in any column order and trims cells', () => {
    const { rows, errors } = recordsToRows(parseCsv('total, state ,specialty\n 285000 ,NY, Cardiology\n'), COLUMNS);
    expect(errors).toEqual([]);
    expect(rows).toEqual([{ line: 2, values: { total: '285000', state: 'NY', specialty: 'Cardiology' } }]);
  });

  it('returns a row with the wrong number of fields as a row error and keeps reading', () => {
    const text = 'specialty,state,total\nCardiology,NY,1\nCardiology,NY\n"Family\nMedicine",TX,2\nA,B,C,D\nPediatrics,CA,3\n';
    const { rows, errors } = recordsToRows(parseCsv(text), COLUMNS);
    expect(errors).toEqual([
      { line: 3, message: 'expected 3 fields, found 2' },
      { line: 6, message: 'expected 3 fields, found 4' },
    ]);
    expect(rows.map((r) => r.line)).toEqual([2, 4, 7]);
    expect(rows[1]!.values['specialty']).toBe('Family\nMedicine');
  });

  it('rejects a header with a missing column, naming it', () => {
    expect(() => recordsToRows(parseCsv('specialty,state\nx,y\n'), COLUMNS)).toThrow(CsvSyntaxError);
    expect(() => recordsToRows(parseCsv('specialty,state\nx,y\n'), COLUMNS)).toThrow(/missing column\(s\): total/);
  });

  it('rejects an unknown header column unless extra columns are allowed', () => {
    const text = 'specialty,state,total,notes\na,b,c,d\n';
    expect(() => recordsToRows(parseCsv(text), COLUMNS)).toThrow(/unknown column\(s\): notes/);
    const { rows, errors } = recordsToRows(parseCsv(text), COLUMNS, { extraAllowed: true });
    expect(errors).toEqual([]);
    expect(rows[0]!.values).toMatchObject({ specialty: 'a', state: 'b', total: 'c', notes: 'd' });
  });

  it('rejects a column named twice', () => {
    expect(() => recordsToRows(parseCsv('specialty,state,total,state\n'), COLUMNS)).toThrow(/appears twice/);
  });

  it('rejects an empty file', () => {
    expect(() => recordsToRows(parseCsv(''), COLUMNS)).toThrow(/empty/);
  });

  it('accepts a header-only file as zero rows', () => {
    expect(recordsToRows(parseCsv('specialty,state,total\n'), COLUMNS)).toEqual({ rows: [], errors: [] });
  });
});
