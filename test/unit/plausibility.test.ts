/**
 * The reference-level rule of `physpay moderate` (issue 28, item 3): before a specialty has enough approved
 * reports for Tukey fences, a total is checked against the specialty's reference level (its BLS median, else
 * the built-in national level). Pure: a function of the level, the total, the hours and the employment type.
 */
import { describe, expect, it } from 'vitest';
import {
  FENCES_MIN_APPROVED, IMPLAUSIBLE_FACTOR, PLAUSIBLE_HOURS, hardIssues, hardIssueText, implausibleAgainst, implausibleText, payAtFullTime,
  type PayFields, type ReferenceLevel,
} from '../../build/compute/plausibility.ts';
import { FLOORS, FTE_MAX_HOURS, FTE_MIN_HOURS } from '../../build/compute/stats.ts';
import { NATIONAL_LEVELS } from '../../build/db/reference/national-levels.ts';
import { SPECIALTIES } from '../../build/db/reference/specialties.ts';

const DERM: ReferenceLevel = { level: 470_000, source: 'national' };
const PEDS_BLS: ReferenceLevel = { level: 205_860, source: 'bls' };

const report = (total: number, hours: number | null = null, employment: string | null = null): PayFields => ({
  total_compensation: total,
  hours_per_week: hours,
  employment_type: employment,
});
const text = (ref: ReferenceLevel, r: PayFields) => {
  const f = implausibleAgainst(ref, r);
  return f ? implausibleText(f) : null;
};

describe('the constants', () => {
  it('fences need 5 approved reports (the national publication floor); the factor is 5 either way', () => {
    expect(FENCES_MIN_APPROVED).toBe(5);
    expect(FENCES_MIN_APPROVED).toBe(FLOORS.national);
    expect(IMPLAUSIBLE_FACTOR).toBe(5);
  });

  it('every specialty of the catalog has a national level, a plausible physician median', () => {
    for (const s of SPECIALTIES) {
      expect(NATIONAL_LEVELS[s.slug], s.slug).toBeGreaterThanOrEqual(200_000);
      expect(NATIONAL_LEVELS[s.slug], s.slug).toBeLessThanOrEqual(1_000_000);
    }
    expect(Object.keys(NATIONAL_LEVELS).sort()).toEqual(SPECIALTIES.map((s) => s.slug).sort());
  });
});

describe('the issue\'s examples are flagged, and say which rule and which level', () => {
  it('a $3,000,000 dermatologist: 6.4x the national level', () => {
    expect(implausibleAgainst(DERM, report(3_000_000, 50, 'Partner/Owner'))).toEqual({
      direction: 'high', pay: 3_000_000, ratio: 3_000_000 / 470_000, scaled: false, reference: DERM,
    });
    expect(text(DERM, report(3_000_000))).toBe('implausible: 6.4x the national level ($470,000)');
  });

  it('a $12,000 full-time pediatrician: 5.8% of the BLS median', () => {
    expect(text(PEDS_BLS, report(12_000, 40, 'Full-Time (W-2)'))).toBe('implausible: 5.8% of the BLS median ($205,860)');
    expect(implausibleAgainst(PEDS_BLS, report(12_000, 40, 'Full-Time (W-2)'))).toMatchObject({ direction: 'low', pay: 12_000, scaled: false });
  });
});

describe('full-time pay: part-time totals are scaled to 40 hours a week before the low check', () => {
  it('scales a report of fewer than 40 hours, leaves 40 hours or more unchanged', () => {
    expect(payAtFullTime(report(60_000, 12, 'Part-Time (W-2)'))).toBe(200_000);
    expect(payAtFullTime(report(12_000, 20))).toBe(24_000);
    expect(payAtFullTime(report(12_000, 60, 'Full-Time (W-2)'))).toBe(12_000);
    expect(payAtFullTime(report(12_000, 40))).toBe(12_000);
  });

  it('reads a report without hours as full-time, unless it says part-time (then it cannot tell: null)', () => {
    expect(payAtFullTime(report(12_000, null, 'Full-Time (W-2)'))).toBe(12_000);
    expect(payAtFullTime(report(12_000, null, null))).toBe(12_000);
    expect(payAtFullTime(report(12_000, null, 'Independent Contractor (1099)'))).toBe(12_000);
    expect(payAtFullTime(report(12_000, null, 'Part-Time (W-2)'))).toBeNull();
  });

  it('a low part-time figure is plausible when its full-time pay is', () => {
    expect(implausibleAgainst(PEDS_BLS, report(60_000, 12, 'Part-Time (W-2)'))).toBeNull();
    expect(implausibleAgainst(PEDS_BLS, report(12_000, null, 'Part-Time (W-2)'))).toBeNull();
  });

  it('a part-time figure still too low at 40 hours is flagged, and the text says it was scaled', () => {
    expect(text(PEDS_BLS, report(12_000, 20, 'Part-Time (W-2)'))).toBe('implausible: 11.7% of the BLS median ($205,860) at 40 hours a week');
  });

  it('the high check takes the total as reported (a part-time total is never scaled up to flag it)', () => {
    expect(implausibleAgainst(DERM, report(2_000_000, 20, 'Part-Time (W-2)'))).toBeNull();
    expect(text(DERM, report(3_000_000, null, 'Part-Time (W-2)'))).toBe('implausible: 6.4x the national level ($470,000)');
  });
});

describe('the boundaries', () => {
  it('flags only beyond 5x the level or below a fifth of it', () => {
    expect(implausibleAgainst(DERM, report(5 * 470_000))).toBeNull();
    expect(implausibleAgainst(DERM, report(5 * 470_000 + 1))).toMatchObject({ direction: 'high' });
    expect(implausibleAgainst(DERM, report(470_000 / 5))).toBeNull();
    expect(implausibleAgainst(DERM, report(470_000 / 5 - 1))).toMatchObject({ direction: 'low' });
  });

  it('leaves the ordinary spread of a specialty alone (a quarter to four times its level)', () => {
    for (const total of [120_000, 235_000, 470_000, 940_000, 1_880_000]) expect(implausibleAgainst(DERM, report(total, 50))).toBeNull();
  });
});

/**
 * The hard rule (issue 42, item 3): what a report imported as approved, which no moderator sees, must pass.
 * Its total must be plausible against its specialty's reference level (the rule above), and its hours a week,
 * when given, within the range the build's FTE figures read (10 to 100).
 */
describe('the hard rule of a report that skips moderation', () => {
  const texts = (ref: ReferenceLevel | undefined, r: PayFields) => hardIssues(ref, r).map(hardIssueText);

  it('the hours range is the one the build reads for FTE pay', () => {
    expect(PLAUSIBLE_HOURS).toEqual({ min: FTE_MIN_HOURS, max: FTE_MAX_HOURS });
    expect(PLAUSIBLE_HOURS).toEqual({ min: 10, max: 100 });
  });

  it('a shifted export: $19,500,000, $3,500 and $350 totals, hours swapped with years', () => {
    expect(texts(DERM, report(19_500_000, 45, 'Full-Time (W-2)'))).toEqual(['total_compensation: got $19,500,000, 41.5x the national level of $470,000']);
    expect(texts(PEDS_BLS, report(3_500, 50))).toEqual(['total_compensation: got $3,500, 1.7% of the BLS median of $205,860']);
    expect(texts(PEDS_BLS, report(350, 20))).toEqual(['total_compensation: got $350 ($700 at 40 hours a week), 0.3% of the BLS median of $205,860']);
    expect(texts(DERM, report(480_000, 4))).toEqual(['hours_per_week: got 4, outside 10 to 100 hours a week']);
    expect(texts(DERM, report(480_000, 120))).toEqual(['hours_per_week: got 120, outside 10 to 100 hours a week']);
    expect(texts(PEDS_BLS, report(350, 2))).toEqual([
      'total_compensation: got $350 ($7,000 at 40 hours a week), 3.4% of the BLS median of $205,860',
      'hours_per_week: got 2, outside 10 to 100 hours a week',
    ]);
  });

  it('names the issues as data: column, values, and the reference rule\'s finding', () => {
    expect(hardIssues(DERM, report(19_500_000, 45))).toEqual([
      { column: 'total_compensation', total: 19_500_000, implausible: implausibleAgainst(DERM, report(19_500_000, 45)) },
    ]);
    expect(hardIssues(DERM, report(480_000, 4))).toEqual([{ column: 'hours_per_week', hours: 4 }]);
  });

  it('passes what moderation would pass: ordinary pay, part-time pay, hours from 10 to 100, unknown hours', () => {
    const ordinary = [report(470_000, 50), report(60_000, 12, 'Part-Time (W-2)'), report(470_000, 10), report(470_000, 100), report(470_000, null), report(12_000, null, 'Part-Time (W-2)')];
    for (const r of ordinary) expect(hardIssues(PEDS_BLS, r), JSON.stringify(r)).toEqual([]);
    expect(hardIssues(DERM, report(5 * 470_000, 40))).toEqual([]);
    expect(hardIssues(DERM, report(470_000 / 5, 40))).toEqual([]);
  });

  it('without a reference level only the hours are checked', () => {
    expect(hardIssues(undefined, report(19_500_000, 45))).toEqual([]);
    expect(texts(undefined, report(19_500_000, 2))).toEqual(['hours_per_week: got 2, outside 10 to 100 hours a week']);
  });
});
