/**
 * The rows of a rejects file (build/import/rejects.ts, pure): RFC 4180 quoting that keeps every value
 * exactly, so that the rows go back into an import as they were.
 */
import { describe, expect, it } from 'vitest';
import { rejectsHeader, rejectsRow } from '../../build/import/rejects.ts';
import { parseCsv } from '../../build/import/csv.ts';

describe('rejects file rows', () => {
  it('start with line and reason, then the fields as written', () => {
    expect(rejectsHeader(['Specialty', 'Total Compensation'])).toBe('line,reason,Specialty,Total Compensation');
    expect(rejectsRow(7, 'state: bad', ['cardiology', 'XX'])).toBe('7,state: bad,cardiology,XX');
  });

  it('quote commas, quotes, line breaks and surrounding spaces, and nothing else (no formula escaping)', () => {
    const fields = ['$19,500,000', 'say "hi"', 'Family\nMedicine', ' Pediatrics ', '-$5,000', '=1+1', ''];
    const row = rejectsRow(3, 'a, b', fields);
    expect(row).toBe('3,"a, b","$19,500,000","say ""hi""","Family\nMedicine"," Pediatrics ","-$5,000",=1+1,');
    expect(parseCsv(`${row}\n`)[0]!.fields).toEqual(['3', 'a, b', ...fields]);
  });
});
