/** The attacker's solver (solve.ts) recovers exact cells: if it did not, the attack test would prove nothing. */
import { describe, expect, it } from 'vitest';
import { ciRanks, figuresOf, isolate, q7, rankErrors, recovered, scoreErrors, scoreIsolation, solveSorted } from './solve.ts';

const exactPct = (s: number[]) => ({ p10: q7(s, 0.1), p25: q7(s, 0.25), p50: q7(s, 0.5), p75: q7(s, 0.75), p90: q7(s, 0.9) });

describe('solveSorted', () => {
  it.each([5, 6, 7])('n = %i: exact P10-P90 and the [min, max] interval give every report back', (n) => {
    const truth = Array.from({ length: n }, (_, i) => 200_000 + 37_000 * i + (i * i * 1_313) % 9_000).sort((a, b) => a - b);
    const [lo, hi] = ciRanks(n);
    expect([lo, hi]).toEqual([1, n]); // n < 9: [min, max]
    const solved = solveSorted(n, figuresOf(n, exactPct(truth), { lower: truth[lo - 1]!, upper: truth[hi - 1]! }));
    expect(recovered(truth, solved, 0.0001)).toBe(n);
  });

  it('open cells of 3 from p25, median, p75; of 5 the middle three', () => {
    const three = [210_000, 260_000, 330_000];
    expect(recovered(three, solveSorted(3, figuresOf(3, { p25: q7(three, 0.25), median: q7(three, 0.5), p75: q7(three, 0.75) })), 0.001)).toBe(3);
    const five = [210_000, 240_000, 260_000, 300_000, 330_000];
    expect(recovered(five, solveSorted(5, figuresOf(5, { p25: q7(five, 0.25), median: q7(five, 0.5), p75: q7(five, 0.75) })), 0.001)).toBeGreaterThanOrEqual(3);
  });

  it('isolate: exact figures of nested keyed cells (5 -> 6) give the added report', () => {
    const a = [210_000, 240_000, 260_000, 300_000, 330_000];
    const y = 275_000;
    const b = [...a, y].sort((x, z) => x - z);
    const figs = (s: number[]) => figuresOf(s.length, exactPct(s), { lower: s[ciRanks(s.length)[0] - 1]!, upper: s[ciRanks(s.length)[1] - 1]! });
    const r = isolate(5, figs(a), 6, figs(b));
    expect(Math.abs(r.difference - y)).toBeLessThan(1);
    expect(Math.abs(r.fit - y)).toBeLessThan(1);
  });
});

describe('scoring', () => {
  it('rankErrors compares rank by rank (a missing rank counts as a miss); scoreErrors gives median and shares', () => {
    expect(rankErrors([100, 200, 300], [303, 100, 180])).toEqual([0, 0.1, 0.01]);
    expect(rankErrors([100, 200], [100])).toEqual([0, 1]);
    const s = scoreErrors([0, 0.1, 0.01, 0.5]);
    expect(s).toEqual({ count: 4, median: 0.01, within1: 0.5, within5: 0.5 });
    expect(scoreIsolation([{ estimate: 110, truth: 100 }, { estimate: 100, truth: 100 }, { estimate: 70, truth: 100 }]).median).toBeCloseTo(0.1);
  });
});
