/**
 * auditDocument: the independent re-check of publication floors, tails floor, rounding and withholding
 * over finished public documents.
 */
import { describe, expect, it } from 'vitest';
import { auditDocument } from '../../build/compute/audit.ts';

const nulls = { median: null, mean: null, p10: null, p25: null, p75: null, p90: null };
const WITHHELD = { n: null, ...nulls, rounded: false, withheld: true };

/** A correct national specialty document (only the fields the auditor looks at, plus a few others). */
function specialtyDoc() {
  return {
    title: 'Cardiology Salary Data',
    // n = 30 >= 25: whole dollars, tails published
    n: 30, median: 520_123, mean: 531_456, p10: 380_001, p25: 450_999, p75: 600_555, p90: 700_777, rounded: false, withheld: false,
    specialty: { slug: 'cardiology', name: 'Cardiology' },
    scope: 'national',
    states_with_data: 2,
    top_states: [
      // specialty-in-state floor 3, n <= 24 -> nearest $1,000
      { state: { code: 'TX', slug: 'texas', name: 'Texas', region: 'South' }, n: 3, median: 540_000, rounded: true },
      { state: { code: 'CA', slug: 'california', name: 'California', region: 'West' }, n: 12, median: 560_000, rounded: true },
    ],
    practice_settings: [
      { practice_setting: 'Academic', n: 5, median: 480_000, mean: 470_000, p10: null, p25: 430_000, p75: 520_000, p90: null, rounded: true, withheld: false },
      { practice_setting: 'Government', ...WITHHELD },
    ],
    // $/wRVU: n <= 24 -> nearest $1 (not $1,000)
    wrvu: { n: 10, median: 61, mean: 62, p10: null, p25: 55, p75: 68, p90: null, rounded: true, withheld: false },
  };
}

describe('auditDocument: correct documents', () => {
  it('a correct specialty document has no violations', () => {
    expect(auditDocument('specialty', specialtyDoc())).toEqual([]);
  });

  it('a correctly withheld specialty document (n null, figures null, notice) has no violations', () => {
    const doc = { ...specialtyDoc(), ...WITHHELD, notice: 'Fewer than 5 reports nationally.', top_states: [], practice_settings: [], wrvu: { ...WITHHELD } };
    expect(auditDocument('specialty', doc)).toEqual([]);
  });

  it('a specialty-in-state document at floor 3 is fine', () => {
    const doc = { n: 3, median: 250_000, mean: 251_000, p10: null, p25: 240_000, p75: 260_000, p90: null, rounded: true, withheld: false, national_median: 245_123 };
    expect(auditDocument('specialtyState', doc)).toEqual([]);
  });

  it('a wRVU document with n <= 24 rounded to $1 is fine; with n >= 25 cents are fine', () => {
    expect(auditDocument('wrvu', { n: 7, median: 52, mean: 53, p10: null, p25: 48, p75: 57, p90: null, rounded: true, withheld: false })).toEqual([]);
    expect(auditDocument('wrvu', { n: 25, median: 52.37, mean: 53.01, p10: 42.77, p25: 48.5, p75: 57.25, p90: 61.97, rounded: false, withheld: false })).toEqual([]);
  });

  it('a state document with top specialties at floor 3 is fine', () => {
    const doc = {
      n: 40, median: 300_123, mean: 310_456, p10: 200_001, p25: 250_002, p75: 350_003, p90: 420_004, rounded: false, withheld: false,
      top_specialties: [{ specialty: { slug: 'a', name: 'A' }, n: 3, median: 410_000, rounded: true, national_median: 400_123 }],
    };
    expect(auditDocument('state', doc)).toEqual([]);
  });

  it('index feeds: withheld list entries with n null are fine', () => {
    const doc = {
      specialties: [
        { slug: 'a', n: 6, median: 300_000, p25: 280_000, p75: 320_000, rounded: true, withheld: false },
        { slug: 'b', n: null, median: null, p25: null, p75: null, rounded: false, withheld: true },
      ],
    };
    expect(auditDocument('specialties', doc)).toEqual([]);
  });

  it('institution feeds are not audited for floors (pay scales have n null)', () => {
    expect(auditDocument('institution', { n: null, pgy1_salary: 70_123, median: 70_123 })).toEqual([]);
  });
});

describe('auditDocument: violations', () => {
  it('a published figure below its floor (national 5)', () => {
    const doc = specialtyDoc();
    doc.practice_settings[0]!.n = 4;
    const v = auditDocument('specialty', doc);
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({ path: 'practice_settings[0]' });
    expect(v[0]!.problem).toMatch(/4 reports \(floor 5\)/);
  });

  it('a top state published from 2 reports (floor 3)', () => {
    const doc = specialtyDoc();
    doc.top_states[0]!.n = 2;
    const v = auditDocument('specialty', doc);
    expect(v).toEqual([{ path: 'top_states[0]', problem: expect.stringMatching(/2 reports \(floor 3\)/) }]);
  });

  it('a specialty-in-state root published from 2 reports (floor 3)', () => {
    const doc = { n: 2, median: 250_000, mean: 251_000, p10: null, p25: 240_000, p75: 260_000, p90: null, rounded: true, withheld: false };
    expect(auditDocument('specialtyState', doc)).toEqual([{ path: '', problem: expect.stringMatching(/floor 3/) }]);
  });

  it('a whole-state root published from 4 reports (floor 5)', () => {
    const doc = { n: 4, median: 250_000, mean: 251_000, p10: null, p25: 240_000, p75: 260_000, p90: null, rounded: true, withheld: false };
    expect(auditDocument('state', doc)).toEqual([{ path: '', problem: expect.stringMatching(/floor 5/) }]);
  });

  it('p10 and p90 published from fewer than 15 reports', () => {
    const doc = { ...specialtyDoc(), n: 14, median: 520_000, mean: 531_000, p10: 380_000, p25: 451_000, p75: 601_000, p90: 701_000, rounded: true };
    const v = auditDocument('specialty', doc);
    expect(v.map((x) => x.problem)).toEqual([
      expect.stringMatching(/^p10 published from 14 reports \(floor 15\)/),
      expect.stringMatching(/^p90 published from 14 reports \(floor 15\)/),
    ]);
  });

  it('p10 alone from n = 14 is one violation; p10 at n = 15 is fine', () => {
    const base = { n: 14, median: 520_000, mean: 531_000, p10: 380_000, p25: 451_000, p75: 601_000, p90: null, rounded: true, withheld: false };
    expect(auditDocument('specialtyState', base)).toHaveLength(1);
    expect(auditDocument('specialtyState', { ...base, n: 15, p90: 700_000 })).toEqual([]);
  });

  it('an unrounded dollar figure from n <= 24', () => {
    const doc = { ...specialtyDoc(), n: 24, median: 520_123, mean: 531_000, p10: 380_000, p25: 451_000, p75: 601_000, p90: 701_000, rounded: true };
    const v = auditDocument('specialty', doc);
    expect(v).toHaveLength(1);
    expect(v[0]!.path).toBe('median'); // root figures are named without a leading dot
    expect(v[0]!.problem).toMatch(/520123 from 24 reports is not rounded to 1000/);
  });

  it('the same figure from n = 25 needs no rounding', () => {
    const doc = { ...specialtyDoc(), n: 25, median: 520_123 };
    expect(auditDocument('specialty', doc)).toEqual([]);
  });

  it('an unrounded nested figure from n <= 24 (top state, wRVU rate)', () => {
    const doc = specialtyDoc();
    doc.top_states[1]!.median = 560_500;
    doc.wrvu.median = 61.5;
    const v = auditDocument('specialty', doc);
    expect(v.map((x) => x.path)).toEqual(['top_states[1].median', 'wrvu.median']);
    expect(v[1]!.problem).toMatch(/not rounded to 1$/);
  });

  it('an unrounded rate in a wRVU document from n <= 24', () => {
    const v = auditDocument('wrvu', { n: 7, median: 52.4, mean: 53, p10: null, p25: 48, p75: 57, p90: null, rounded: true, withheld: false });
    expect(v).toEqual([{ path: 'median', problem: '52.4 from 7 reports is not rounded to 1' }]);
  });

  it('withheld figures with a non-null n', () => {
    const doc = specialtyDoc();
    doc.practice_settings[1] = { practice_setting: 'Government', ...nulls, n: 3 as unknown as null, rounded: false, withheld: true };
    expect(auditDocument('specialty', doc)).toEqual([{ path: 'practice_settings[1]', problem: expect.stringMatching(/withheld figures but n = 3/) }]);
  });

  it('figures published with a null n', () => {
    const doc = { specialties: [{ slug: 'a', n: null, median: 300_000, p25: null, p75: null, rounded: false, withheld: false }] };
    expect(auditDocument('specialties', doc)).toEqual([{ path: 'specialties[0]', problem: expect.stringMatching(/n = null/) }]);
  });

  it('a withheld root without a notice', () => {
    const doc = { ...specialtyDoc(), ...WITHHELD, top_states: [], practice_settings: [], wrvu: { ...WITHHELD } };
    expect(auditDocument('specialty', doc)).toEqual([{ path: 'notice', problem: 'withheld without a notice' }]);
  });

  it('a notice on a published document', () => {
    expect(auditDocument('specialty', { ...specialtyDoc(), notice: 'oops' })).toEqual([{ path: 'notice', problem: 'notice present on published figures' }]);
  });

  it('several problems at once are all reported', () => {
    const doc = specialtyDoc();
    doc.practice_settings[0]!.n = 4; // below floor
    doc.top_states[0]!.n = 2; // below floor 3
    doc.wrvu.median = 61.5; // unrounded rate
    expect(auditDocument('specialty', doc)).toHaveLength(3);
  });
});
