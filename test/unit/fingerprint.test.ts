/**
 * Report fingerprints are stored in reports DBs, so their values never change: the fast paths (a timestamp
 * already canonical is kept as is; one SHA-256 call) give what the original code gave.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reportFingerprint, submissionFingerprint, timestamp } from '../../build/db/fingerprint.ts';

/** The timestamp rule as first written (Date parses, toISOString writes). */
function slowTimestamp(v: string): string {
  const t = Date.parse(v);
  return Number.isNaN(t) ? v.trim() : new Date(t).toISOString();
}

const REPORT = {
  specialty_id: 7, state: 'tx ', year: 2025, total_compensation: 285_000, base_salary: 250_000, bonus: 35_000, hours_per_week: 50,
  years_in_practice: 8, practice_setting: 'Hospital Employed', employment_type: 'Full-Time (W-2)', wrvus: null, submitted_at: '2025-03-04T05:06:07.089Z',
};

describe('report fingerprints', () => {
  it('timestamps: the same as parsing and writing again, for in-range, rolled-over and odd values', () => {
    for (const v of ['2025-03-04T05:06:07.089Z', '2024-02-30T00:00:00.000Z', '2024-01-01T24:00:00.000Z', '2024-02-29T23:59:60.000Z',
      '2024-13-01T00:00:00.000Z', '2024-01-31T23:59:59.999Z', '2024-01-05', ' 2024-01-05T10:00:00Z ', 'not a date', '0000-01-01T00:00:00.000Z']) {
      expect(timestamp(v), v).toBe(slowTimestamp(v));
    }
    const digits = (n: number, max: number) => fc.integer({ min: 0, max }).map((x) => String(x).padStart(n, '0'));
    fc.assert(fc.property(digits(4, 9999), digits(2, 19), digits(2, 39), digits(2, 29), digits(2, 69), digits(2, 69), digits(3, 999),
      (y, mo, d, h, mi, s, ms) => {
        const v = `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`;
        expect(timestamp(v), v).toBe(slowTimestamp(v));
      }), { numRuns: 5_000, seed: 42 });
  });

  it('the same values as the original hashing (a Hash object over the JSON of the normalised values)', () => {
    const expected = createHash('sha256')
      .update(JSON.stringify(['report v1', 7, 'TX', 2025, 285_000, 250_000, 35_000, 50, 8, 'hospital employed', 'full-time (w-2)', null, '2025-03-04T05:06:07.089Z']))
      .digest('hex').slice(0, 32);
    expect(reportFingerprint(REPORT)).toBe(expected);
    const { specialty_id: _, submitted_at: __, ...answers } = REPORT;
    expect(submissionFingerprint({ ...answers, specialty: ' Family Medicine' })).toBe(createHash('sha256')
      .update(JSON.stringify(['submission v1', 'family medicine', 'TX', 2025, 285_000, 250_000, 35_000, 50, 8, 'hospital employed', 'full-time (w-2)', null]))
      .digest('hex').slice(0, 32));
  });
});
