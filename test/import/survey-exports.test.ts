/**
 * Real survey exports (issue 28, item 2): the unambiguous forms spreadsheets write are accepted
 * ("$350,000", "285,000", "Specialty,State,..." headers, "Cardiology " with a trailing space, "68,500" in
 * institution salaries) and counted as normalised; ambiguous ones are refused with the fix named
 * ("350.000", "350,00", "11/03/2026" without --date-format); unknown specialties and states name the
 * command that lists the valid names (physpay reference specialties|states).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers/temp-dir.ts';
import { openReportsDb, type Db } from '../../build/db/open.ts';
import { ImportRejected, importFile, type ImportKind } from '../../build/import/run.ts';
import { CsvSyntaxError, parseCsv, recordsToRows, type CsvRow, type RowError } from '../../build/import/csv.ts';
import { loadRefs, type Refs } from '../../build/import/refs.ts';
import { REPORT_COLUMNS, validateReportRows } from '../../build/import/reports.ts';
import { INSTITUTION_COLUMNS, validateInstitutionRows } from '../../build/import/institutions.ts';
import { BLS_COLUMNS, validateBlsRows } from '../../build/import/bls.ts';
import { COL_COLUMNS, validateColRows } from '../../build/import/col.ts';
import { normalisedClause, normalisedSuffix } from '../../build/import/normalise.ts';

const NOW = new Date('2026-12-15T12:00:00.000Z');
const now = () => NOW;

let db: Db;
let refs: Refs;
const tmp = useTempDir('survey', { each: true });
let dir: string;

beforeEach(() => {
  db = openReportsDb(':memory:');
  refs = loadRefs(db);
  dir = tmp.path;
});
afterEach(() => {
  db.close();
});

let fileCounter = 0;
function csv(lines: string[]): string {
  const path = join(dir, `file-${++fileCounter}.csv`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

function rejected(kind: ImportKind, path: string): RowError[] {
  try {
    importFile(db, kind, path, { now });
  } catch (err) {
    expect(err).toBeInstanceOf(ImportRejected);
    return (err as ImportRejected).errors;
  }
  throw new Error('the import was not refused');
}

type ReportColumn = (typeof REPORT_COLUMNS)[number];
const GOOD: Record<ReportColumn, string> = {
  specialty: 'cardiology', state: 'NY', year: '2025', total_compensation: '350000', base_salary: '300000', bonus: '50000',
  hours_per_week: '50', years_in_practice: '8', practice_setting: 'Private Practice', employment_type: 'Partner/Owner',
  wrvus: '7000', submitted_at: '2026-03-11', status: 'approved',
};
/** One CSV line of a reports row (cells quoted), any column replaced. */
function reportLine(over: Partial<Record<ReportColumn, string>> = {}): string {
  const v = { ...GOOD, ...over };
  return REPORT_COLUMNS.map((c) => `"${v[c].replace(/"/g, '""')}"`).join(',');
}
/** Rows of a reports file as the importer reads them (header matched, cells trimmed). */
function reportRows(lines: string[], header = REPORT_COLUMNS.join(',')): CsvRow[] {
  return recordsToRows(parseCsv(`${[header, ...lines].join('\n')}\n`), REPORT_COLUMNS).rows;
}
function validate(lines: string[], options?: { dateFormat?: 'MDY' | 'DMY' | 'YMD' }) {
  return validateReportRows(reportRows(lines), refs, NOW, undefined, options);
}
/** The one error of a single bad reports row. */
function refusal(over: Partial<Record<ReportColumn, string>>, options?: { dateFormat?: 'MDY' | 'DMY' | 'YMD' }): string {
  const { valid, errors } = validate([reportLine(over)], options);
  expect(valid).toEqual([]);
  expect(errors).toHaveLength(1);
  return errors[0]!.message;
}

describe('reports: numbers as survey exports write them', () => {
  it.each([
    ['$350,000', 350000],
    ['350,000', 350000],
    ['$350000', 350000],
    ['350000.00', 350000],
    [' $350,000 ', 350000],
    ['$350,000.50', 350000.5],
    ['$1,350,000', 1350000],
  ])('total_compensation %j is %d', (text, value) => {
    const { valid, errors } = validate([reportLine({ total_compensation: text, base_salary: '', bonus: '' })]);
    expect(errors).toEqual([]);
    expect(valid[0]!.total_compensation).toBe(value);
  });

  it('reads base_salary, bonus, wrvus and hours with thousands separators too', () => {
    const { valid, errors } = validate([reportLine({ base_salary: '$300,000', bonus: '50,000', wrvus: '7,000', hours_per_week: '50.0' })]);
    expect(errors).toEqual([]);
    expect(valid[0]).toMatchObject({ base_salary: 300000, bonus: 50000, wrvus: 7000, hours_per_week: 50 });
  });

  it('imports a file of such values through physpay import (file written by a spreadsheet)', () => {
    const path = csv([REPORT_COLUMNS.join(','), reportLine({ total_compensation: '$350,000', base_salary: '285,000', bonus: '$65,000' })]);
    const result = importFile(db, 'reports', path, { now });
    expect(result.rows).toBe(1);
    expect(db.prepare('SELECT total_compensation, base_salary, bonus FROM reports').get()).toEqual({ total_compensation: 350000, base_salary: 285000, bonus: 65000 });
  });

  it.each<[string, string, RegExp, RegExp]>([
    ['a point before three digits (thousands or decimals?)', '350.000', /total_compensation: is ambiguous/, /write 350000 or 350,000.*350 /],
    ['a decimal comma', '350,00', /total_compensation: uses a comma as a decimal point/, /write 350\.00/],
    ['points as thousands separators', '1.350.000', /total_compensation: uses a point to separate thousands/, /write 1350000 or 1,350,000/],
    ['points and a decimal comma', '350.000,50', /total_compensation: uses a point to separate thousands/, /write 350000\.50/],
    ['separators not grouping three digits', '35,0000', /total_compensation: has thousands separators that do not group three digits/, /350000/],
    ['another currency', '€350,000', /total_compensation: must be an amount in US dollars such as 285000, 285,000 or \$285,000/, /"€350,000"/],
    ['a suffix', '350k', /total_compensation: must be an amount in US dollars/, /"350k"/],
    ['two dollar signs', '$$350,000', /total_compensation: must be an amount in US dollars/, /"\$\$350,000"/],
  ])('refuses %s, naming the fix', (_label, text, reason, fix) => {
    const message = refusal({ total_compensation: text, base_salary: '', bonus: '' });
    expect(message).toMatch(reason);
    expect(message).toMatch(fix);
  });

  it('a report written with $, separators and spaces is a duplicate of the same report written plainly', () => {
    const header = REPORT_COLUMNS.join(',');
    expect(importFile(db, 'reports', csv([header, reportLine()]), { now }).rows).toBe(1);
    const again = importFile(db, 'reports', csv([header, reportLine({ specialty: 'Cardiology ', total_compensation: '$350,000', base_salary: '300,000', wrvus: '7,000', submitted_at: '2026/03/11' })]), { now });
    expect(again.rows).toBe(0);
    expect(again.duplicateCount).toBe(1);
  });

  it('reads a point before three digits as decimals where thousands would be out of range, else refuses it', () => {
    const { valid, errors } = validate([reportLine({ hours_per_week: '37.500' })]);
    expect(errors).toEqual([]);
    expect(valid[0]!.hours_per_week).toBe(37.5);
    expect(refusal({ wrvus: '1.500' })).toMatch(/wrvus: is ambiguous: .*\(got "1.500": write 1500 or 1,500 for thousands, 1.5 for a decimal\)/);
    const col = validateColRows(recordsToRows(parseCsv('state,index,source,year\nNY,104.815,BEA RPP,2023\n'), COL_COLUMNS).rows, refs);
    expect(col.errors).toEqual([]);
    expect(col.valid[0]!.index).toBe(104.815);
  });

  it('still refuses negative amounts by their range, however they are written', () => {
    for (const text of ['-$350,000', '$-350,000', '-350000']) {
      expect(refusal({ total_compensation: text, base_salary: '', bonus: '' })).toMatch(/total_compensation: must be between 1 and 20000000/);
    }
    expect(refusal({ bonus: '-$5,000' })).toMatch(/bonus: must be between 0 and 20000000/);
  });

  it('refuses a dollar sign on a count and separators in a year, naming the fix', () => {
    expect(refusal({ wrvus: '$7,000' })).toMatch(/wrvus: is a count, not an amount of dollars \(got "\$7,000": write 7000\)/);
    expect(refusal({ hours_per_week: '$50' })).toMatch(/hours_per_week: is a count, not an amount of dollars/);
    expect(refusal({ year: '2,025' })).toMatch(/year: must be written without separators \(got "2,025": write 2025\)/);
  });
});

describe('reports: header names and surrounding spaces', () => {
  it('matches header names whatever their letter case and surrounding spaces', () => {
    const header = REPORT_COLUMNS.map((c, i) => (i % 3 === 0 ? c.toUpperCase() : i % 3 === 1 ? ` ${c[0]!.toUpperCase()}${c.slice(1)} ` : c)).join(',');
    expect(header).toMatch(/^SPECIALTY, State ,year,TOTAL_COMPENSATION/);
    const result = importFile(db, 'reports', csv([header, reportLine()]), { now });
    expect(result.rows).toBe(1);
  });

  it('refuses two header names that differ only in letter case, naming both', () => {
    const header = [...REPORT_COLUMNS, 'Specialty'].join(',');
    expect(() => reportRows([], header)).toThrow(CsvSyntaxError);
    expect(() => reportRows([], header)).toThrow(/columns "specialty" and "Specialty" are the same column/);
  });

  it('trims names: specialty, state, practice setting, employment type, status', () => {
    const { valid, errors } = validate([reportLine({ specialty: 'Cardiology ', state: ' ny', practice_setting: 'Private Practice  ', employment_type: ' Partner/Owner', status: 'approved ' })]);
    expect(errors).toEqual([]);
    expect(valid[0]).toMatchObject({ state: 'NY', practice_setting: 'Private Practice', employment_type: 'Partner/Owner', status: 'approved' });
  });
});

describe('reports: values normalised are counted', () => {
  it('counts each changed value once: numbers, dates and surrounding spaces', () => {
    const { errors, normalised } = validate(
      [
        reportLine({ total_compensation: '$350,000', base_salary: '300,000', bonus: ' 50000 ' }), // 2 numbers, 1 space
        reportLine({ specialty: 'Cardiology ', total_compensation: ' $350,000 ' }), // 1 space, 1 number (with spaces)
        reportLine({ submitted_at: '2026/03/11' }), // 1 date
        reportLine(), // nothing
        reportLine({ practice_setting: '   ', employment_type: '' }), // a blank cell is empty, not a value
      ],
    );
    expect(errors).toEqual([]);
    expect(normalised).toEqual({ numbers: 3, dates: 1, spaces: 2 });
  });

  it('does not count what was accepted before (plain numbers, ISO dates, letter case, aliases)', () => {
    const { normalised } = validate([reportLine({ specialty: 'OB/GYN', state: 'ny', total_compensation: '350000.00', submitted_at: '2026-03-11T09:30:00Z', practice_setting: 'private practice' })]);
    expect(normalised).toEqual({ numbers: 0, dates: 0, spaces: 0 });
  });

  it('does not count the values of refused rows', () => {
    const { errors, normalised } = validate([reportLine({ total_compensation: '$350,000', state: 'XX' }), reportLine({ bonus: '$50,000' })]);
    expect(errors).toHaveLength(1);
    expect(normalised).toEqual({ numbers: 1, dates: 0, spaces: 0 });
  });

  it('says how many values were normalised, in one short clause', () => {
    expect(normalisedClause({ numbers: 0, dates: 0, spaces: 0 })).toBe('');
    expect(normalisedSuffix({ numbers: 0, dates: 0, spaces: 0 })).toBe('');
    expect(normalisedSuffix({ numbers: 0, dates: 0, spaces: 2 })).toBe('; 2 values normalised (2 with surrounding spaces)');
    expect(normalisedClause({ numbers: 2, dates: 0, spaces: 1 })).toBe('3 values normalised (2 with $ or thousands separators, 1 with surrounding spaces)');
    expect(normalisedClause({ numbers: 0, dates: 1, spaces: 0 })).toBe('1 value normalised (1 date rewritten as ISO 8601)');
    expect(normalisedClause({ numbers: 1200, dates: 3, spaces: 0 })).toBe('1,203 values normalised (1,200 with $ or thousands separators, 3 dates rewritten as ISO 8601)');
  });
});

describe('reports: submitted_at and --date-format', () => {
  it('refuses a date with the year last unless --date-format gives the order, naming the option', () => {
    const message = refusal({ submitted_at: '11/03/2026' });
    expect(message).toMatch(/submitted_at: must be an ISO 8601 date or timestamp/);
    expect(message).toMatch(/--date-format MDY/);
    expect(message).toMatch(/--date-format DMY/);
  });

  it('names the one order a date allows when its day is above 12', () => {
    expect(refusal({ submitted_at: '13/03/2026' })).toMatch(/"13\/03\/2026".*--date-format DMY/);
    expect(refusal({ submitted_at: '03/13/2026' })).toMatch(/"03\/13\/2026".*--date-format MDY/);
  });

  it('reads the date in the order given: MDY and DMY', () => {
    const mdy = validate([reportLine({ submitted_at: '11/03/2026' }), reportLine({ submitted_at: '3/9/2026' })], { dateFormat: 'MDY' });
    expect(mdy.errors).toEqual([]);
    expect(mdy.valid.map((r) => r.submitted_at)).toEqual(['2026-11-03T00:00:00.000Z', '2026-03-09T00:00:00.000Z']);
    expect(mdy.normalised.dates).toBe(2);
    const dmy = validate([reportLine({ submitted_at: '11/03/2026' }), reportLine({ submitted_at: '11.03.2026' }), reportLine({ submitted_at: '11-03-2026' })], { dateFormat: 'DMY' });
    expect(dmy.errors).toEqual([]);
    expect(dmy.valid.map((r) => r.submitted_at)).toEqual(Array(3).fill('2026-03-11T00:00:00.000Z'));
  });

  it('reads a time after the date, as UTC (24-hour or AM/PM)', () => {
    const { valid, errors } = validate(
      [reportLine({ submitted_at: '11/03/2026 14:05' }), reportLine({ submitted_at: '11/03/2026 2:05:30 PM' }), reportLine({ submitted_at: '11/03/2026 12:10 am' })],
      { dateFormat: 'MDY' },
    );
    expect(errors).toEqual([]);
    expect(valid.map((r) => r.submitted_at)).toEqual(['2026-11-03T14:05:00.000Z', '2026-11-03T14:05:30.000Z', '2026-11-03T00:10:00.000Z']);
  });

  it('refuses a date that does not exist in the order given, and two-digit years', () => {
    expect(refusal({ submitted_at: '13/03/2026' }, { dateFormat: 'MDY' })).toMatch(/submitted_at: .*\(got "13\/03\/2026": not a date in the order --date-format MDY gives, month\/day\/year\)/);
    expect(refusal({ submitted_at: '02/30/2026' }, { dateFormat: 'MDY' })).toMatch(/not a date in the order --date-format MDY gives/);
    expect(refusal({ submitted_at: '11/03/26' }, { dateFormat: 'MDY' })).toMatch(/write the year with four digits/);
    expect(refusal({ submitted_at: '11/03-2026' }, { dateFormat: 'MDY' })).toMatch(/must be an ISO 8601 date or timestamp/);
  });

  it('accepts a date with the year first (unambiguous) with or without --date-format', () => {
    for (const options of [undefined, { dateFormat: 'MDY' as const }, { dateFormat: 'YMD' as const }]) {
      const { valid, errors } = validate([reportLine({ submitted_at: '2026/03/11' }), reportLine({ submitted_at: '2026/3/9 08:15' })], options);
      expect(errors).toEqual([]);
      expect(valid.map((r) => r.submitted_at)).toEqual(['2026-03-11T00:00:00.000Z', '2026-03-09T08:15:00.000Z']);
    }
  });

  it('with --date-format YMD, refuses a date with the year last, saying the file was declared year first', () => {
    expect(refusal({ submitted_at: '11/03/2026' }, { dateFormat: 'YMD' })).toMatch(/--date-format YMD .*year first/);
  });

  it('ISO 8601 stays accepted whatever --date-format says, and is not counted', () => {
    const { valid, errors, normalised } = validate([reportLine({ submitted_at: '2026-03-11' })], { dateFormat: 'DMY' });
    expect(errors).toEqual([]);
    expect(valid[0]!.submitted_at).toBe('2026-03-11T00:00:00.000Z');
    expect(normalised.dates).toBe(0);
  });

  it('a normalised date still takes part in the future and compensation-year checks', () => {
    expect(refusal({ submitted_at: '12/31/2026' }, { dateFormat: 'MDY' })).toMatch(/submitted_at: is in the future/);
    expect(refusal({ year: '2026', submitted_at: '12/31/2025' }, { dateFormat: 'MDY' })).toMatch(/year: compensation year 2026 is after the submission date 2025-12-31/);
  });
});

describe('unknown specialty or state names the command that lists the valid names', () => {
  it('reports', () => {
    expect(refusal({ specialty: 'astrology' })).toMatch(/specialty: unknown specialty "astrology" \(physpay reference specialties lists the names and spellings\)/);
    expect(refusal({ state: 'XX' })).toMatch(/state: must be a two-letter US state code such as NY or DC \(got "XX": physpay reference states lists them\)/);
    expect(refusal({ state: 'New York' })).toMatch(/state: must be a two-letter US state code such as NY or DC \(got "New York": write NY\)/);
  });

  it('institutions and cost of living', () => {
    const inst = rejected('institutions', csv([INSTITUTION_COLUMNS.join(','), 'mercy,Mercy,Sacramento,XX,2025-2026,2025-07-01,https://example.org,1,70000']));
    expect(inst[0]!.message).toMatch(/state: .*physpay reference states/);
    const col = rejected('col', csv([COL_COLUMNS.join(','), 'Atlantis,100,RPP,2023']));
    expect(col[0]!.message).toMatch(/unknown state "Atlantis" .*physpay reference states/);
  });
});

describe('institutions', () => {
  const header = INSTITUTION_COLUMNS.join(',');
  const line = (pgy: number, salary: string, name = 'Mercy General Hospital') =>
    `mercy-general-hospital,"${name}",Sacramento,CA,2025-2026,2025-07-01,https://example.org/mercy,${pgy},"${salary}"`;

  it('accepts salaries with $ and thousands separators, trailing spaces in names, capitalised headers; counts them', () => {
    const rows = recordsToRows(parseCsv(`${header.toUpperCase()}\n${[line(1, '68,500', 'Mercy General Hospital '), line(2, '$71,000'), line(3, '73500')].join('\n')}\n`), INSTITUTION_COLUMNS).rows;
    const { valid, errors, normalised } = validateInstitutionRows(rows, refs);
    expect(errors).toEqual([]);
    expect(valid).toHaveLength(1);
    expect(valid[0]!.name).toBe('Mercy General Hospital');
    expect([...valid[0]!.pay]).toEqual([[1, 68500], [2, 71000], [3, 73500]]);
    expect(normalised).toEqual({ numbers: 2, dates: 0, spaces: 1 });
  });

  it('imports them through physpay import', () => {
    const result = importFile(db, 'institutions', csv([header, line(1, '68,500'), line(2, '$71,000')]), { now });
    expect(result.rows).toBe(2);
    expect(db.prepare('SELECT pgy, salary FROM institution_pay ORDER BY pgy').all()).toEqual([{ pgy: 1, salary: 68500 }, { pgy: 2, salary: 71000 }]);
  });

  it('refuses a salary with a point separating thousands, naming the fix', () => {
    const errors = rejected('institutions', csv([header, line(1, '68.500')]));
    expect(errors[0]!.message).toMatch(/salary: uses a point to separate thousands \(got "68.500": write 68500 or 68,500, a point marks decimals\)/);
  });
});

describe('BLS and cost of living', () => {
  it('BLS: thousands separators stay accepted (and are counted); header names in any letter case', () => {
    const rows = recordsToRows(parseCsv('occ_code,Occ_Title,a_median,TOT_EMP\n29-1215,Family Medicine Physicians,"231,770","100,000"\n29-1212,Cardiologists,#,1\n'), BLS_COLUMNS, { extraAllowed: true }).rows;
    const { valid, errors, normalised } = validateBlsRows(rows, { year: 2024 });
    expect(errors).toEqual([]);
    expect(valid.map((w) => w.annual_median)).toEqual([231770, 239200]);
    expect(normalised).toEqual({ numbers: 1, dates: 0, spaces: 0 });
  });

  it('BLS: a YEAR column in any letter case is found when it is named as optional', () => {
    const { rows } = recordsToRows(parseCsv('OCC_CODE,OCC_TITLE,A_MEDIAN,Year\n29-1215,Family Medicine Physicians,231770,2024\n'), BLS_COLUMNS, { extraAllowed: true, optional: ['YEAR'] });
    expect(rows[0]!.values['YEAR']).toBe('2024');
  });

  it('cost of living: capitalised header and padded state names', () => {
    const rows = recordsToRows(parseCsv('State,Index,Source,Year\n" New York ",120.5,RPP,2023\n'), COL_COLUMNS).rows;
    const { valid, errors, normalised } = validateColRows(rows, refs);
    expect(errors).toEqual([]);
    expect(valid).toEqual([{ state: 'NY', index: 120.5, source: 'RPP', year: 2023 }]);
    expect(normalised).toEqual({ numbers: 0, dates: 0, spaces: 1 });
  });
});
