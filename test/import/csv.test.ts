import { describe, expect, it } from 'vitest';
import { CsvEncodingError, CsvSyntaxError, decodeCsvBytes, parseCsv, recordsToRows } from '../../build/import/csv.ts';

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

  it('keys rows by header name in any column order and trims cells, listing the cells trimmed', () => {
    const { rows, errors } = recordsToRows(parseCsv('total, state ,specialty\n 285000 ,NY, Cardiology\n1,CA,Pediatrics\n'), COLUMNS);
    expect(errors).toEqual([]);
    expect(rows).toEqual([
      { line: 2, values: { total: '285000', state: 'NY', specialty: 'Cardiology' }, trimmed: ['total', 'specialty'] },
      { line: 3, values: { total: '1', state: 'CA', specialty: 'Pediatrics' } },
    ]);
  });

  it('matches header names whatever their letter case and surrounding spaces; extra columns keep their name', () => {
    const { rows } = recordsToRows(parseCsv(' Total ,STATE,Specialty,Notes\n1,NY,x,y\n'), COLUMNS, { extraAllowed: true });
    expect(rows[0]!.values).toEqual({ total: '1', state: 'NY', specialty: 'x', Notes: 'y' });
    expect(() => recordsToRows(parseCsv('total,state,specialty,STATE\n'), COLUMNS)).toThrow(/columns "state" and "STATE" are the same column/);
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

describe('decodeCsvBytes (encodings)', () => {
  const utf8 = (s: string) => Buffer.from(s, 'utf8');
  function encodingError(bytes: Uint8Array, file = 'in.csv'): CsvEncodingError {
    try {
      decodeCsvBytes(bytes, file);
    } catch (err) {
      expect(err).toBeInstanceOf(CsvEncodingError);
      return err as CsvEncodingError;
    }
    throw new Error('expected a CsvEncodingError');
  }

  it('returns the text of valid UTF-8, multi-byte characters included', () => {
    expect(decodeCsvBytes(utf8('name,city\nHôpital Saint-Éloi,Zürich 🏥\n'))).toBe('name,city\nHôpital Saint-Éloi,Zürich 🏥\n');
  });

  it('strips a UTF-8 byte-order mark', () => {
    expect(decodeCsvBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8('a,b\n1,2\n')]))).toBe('a,b\n1,2\n');
  });

  it('refuses Latin-1 with the line, the column and the byte, names Latin-1 and shows the iconv command', () => {
    const bytes = Buffer.from('name,city\nMercy,Sacramento\n"H\xf4pital Nord",Paris\n', 'latin1');
    const err = encodingError(bytes, 'hospitals.csv');
    expect(err.line).toBe(3);
    expect(err.column).toBe(3);
    expect(err.message).toMatch(/^line 3, column 3: /);
    expect(err.message).toContain('byte 0xF4');
    expect(err.message).toContain('Latin-1');
    expect(err.message).toContain('"Hôpital Nord"');
    expect(err.message).toContain('iconv -f latin1 -t utf-8 hospitals.csv > hospitals-utf8.csv');
    expect(err.message).not.toMatch(/\uFFFD|\0/);
  });

  it('names Windows-1252 when the bytes use its 0x80-0x9F punctuation (curly quotes, dashes)', () => {
    const bytes = Buffer.from([...utf8('a,b\n'), 0x93, ...utf8('quoted'), 0x94, ...utf8(',x\n')]);
    const err = encodingError(bytes, 'w.csv');
    expect(err.line).toBe(2);
    expect(err.column).toBe(1);
    expect(err.message).toContain('Windows-1252');
    expect(err.message).toContain('read "\u201Cquoted\u201D"');
    expect(err.message).not.toMatch(/[\u0080-\u009f]/);
    expect(err.message).toContain('iconv -f windows-1252 -t utf-8 w.csv > w-utf8.csv');
  });

  it('counts columns in characters, after valid multi-byte characters on the same line', () => {
    // "é" (2 bytes, valid), a comma, then a lone 0xE9: character column 3
    const bytes = Buffer.from([...utf8('a,b\né,'), 0xe9, ...utf8('\n')]);
    const err = encodingError(bytes);
    expect([err.line, err.column]).toEqual([2, 3]);
  });

  it('refuses invalid UTF-8 that is not plausible Latin-1 without guessing an encoding', () => {
    // 0x81 is not a character in Windows-1252 either
    const err = encodingError(Buffer.from([...utf8('a,b\n1,2\nx'), 0x81, ...utf8(',y\n')]));
    expect(err.line).toBe(3);
    expect(err.column).toBe(2);
    expect(err.message).toMatch(/not valid UTF-8/);
    expect(err.message).not.toMatch(/Latin-1|Windows-1252/);
  });

  it.each<[string, number[]]>([
    ['an overlong encoding', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a truncated sequence at the end', [0xe2, 0x82]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ])('refuses %s', (_label, seq) => {
    const err = encodingError(Buffer.from([...utf8('a,b\n'), ...seq]));
    expect(err.line).toBe(2);
  });

  it.each<[string, Buffer, RegExp, string]>([
    ['UTF-16 LE with a byte-order mark', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a,b\n1,2\n', 'utf16le')]), /UTF-16 \(little-endian, with a byte-order mark\)/, 'iconv -f utf-16 -t utf-8'],
    ['UTF-16 BE with a byte-order mark', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('a,b\n1,2\n', 'utf16le').swap16()]), /UTF-16 \(big-endian, with a byte-order mark\)/, 'iconv -f utf-16 -t utf-8'],
    ['UTF-16 LE without a byte-order mark', Buffer.from('specialty,state\ncardiology,NY\n', 'utf16le'), /UTF-16 \(little-endian\)/, 'iconv -f utf-16le -t utf-8'],
    ['UTF-16 BE without a byte-order mark', Buffer.from('specialty,state\ncardiology,NY\n', 'utf16le').swap16(), /UTF-16 \(big-endian\)/, 'iconv -f utf-16be -t utf-8'],
  ])('detects %s and says how to convert it', (_label, bytes, name, iconv) => {
    const err = encodingError(bytes, 'export.csv');
    expect(err.line).toBe(1);
    expect(err.message).toMatch(name);
    expect(err.message).toContain(`${iconv} export.csv > export-utf8.csv`);
    expect(err.message).not.toContain('\0');
  });

  it("quotes a file name with spaces or quotes in the iconv command", () => {
    const err = encodingError(Buffer.from('a\nH\xf4pital\n', 'latin1'), "/srv/in box/Bob's.csv");
    expect(err.message).toContain(`iconv -f latin1 -t utf-8 '/srv/in box/Bob'\\''s.csv' > '/srv/in box/Bob'\\''s-utf8.csv'`);
  });

  it('refuses a stray NUL byte, naming its line', () => {
    const err = encodingError(Buffer.from([...utf8('a,b\n1,2\n3,'), 0, ...utf8('4\n')]));
    expect(err.line).toBe(3);
    expect(err.column).toBe(3);
    expect(err.message).toMatch(/NUL byte/);
  });
});
