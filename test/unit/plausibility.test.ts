/**
 * The reference-level rule of `physpay moderate` (issue 28, item 3): before a specialty has enough approved
 * reports for Tukey fences, a total is checked against the specialty's reference level (its BLS median, else
 * the built-in national level). Pure: a function of the level, the total, the hours and the employment type.
 */
import { describe, expect, it } from 'vitest';
import {
  FENCES_MIN_APPROVED, IMPLAUSIBLE_FACTOR, implausibleAgainst, implausibleText, payAtFullTime, type PayFields, type ReferenceLevel,
} from '../../build/compute/plausibility.ts';
import { FLOORS } from '../../build/compute/stats.ts';
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
