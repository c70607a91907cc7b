/**
 * Property tests (fast-check) for the statistics core, openCell and keyedCell (figures within their disclosure bound).
 * References used here are written independently of the code under test where that is possible
 * (type-7 quantile from its definition, exact binomial tails with BigInt, the spread correction of the
 * disclosure control from its definition).
 */
import fc from 'fast-check';
import { quantileSorted as ssQuantileSorted } from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import { openCell } from '../../build/compute/cells.ts';
import { meanMoveShare, quantileMoveBound, LOG_FACTOR_VARIANCE, MEAN_FACTOR } from '../../build/compute/disclosure.ts';
import { keyedCell, keyedColumnsFromArtifact, uint32ToBase64 } from '../../build/compute/keyed.ts';
import { medianCi95, medianCiRanks, quantile, roundMoney, roundRate } from '../../build/compute/stats.ts';
import { tukeyKeep, tukeyRange } from '../helpers/tukey.ts';
import { countWithin } from '../keyed/reference.ts';
import { KeyedCell, type BlsInfo, type KeyedReportsArtifact } from '../../build/contract/keyed-artifacts.ts';



const RUNS = { numRuns: 200 };

const asc = (xs: number[]) => [...xs].sort((a, b) => a - b);

/** Type-7 quantile from its definition: h = (n - 1) p, linear interpolation between x[floor h] and x[ceil h]. */
function refQuantile(s: ArrayLike<number>, p: number): number {
  const h = (s.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return s[lo]! + (h - lo) * (s[hi]! - s[lo]!);
}

/** Values of a sorted cell inside [Q1 - 1.5 IQR, Q3 + 1.5 IQR]. */
function refTukeyKept(s: number[]): number[] {
  if (s.length === 0) return [];
  const q1 = refQuantile(s, 0.25);
  const q3 = refQuantile(s, 0.75);
  const iqr = q3 - q1;
  return s.filter((v) => v >= q1 - 1.5 * iqr && v <= q3 + 1.5 * iqr);
}

/** Exact: largest k with P(Bin(n, 1/2) <= k - 1) <= 0.025 (k = 1 when none), and that tail. */
function refCiRank(n: number): { k: number; tail: number } {
  const total = 1n << BigInt(n);
  let c = 1n; // C(n, j)
  let cum = 0n; // sum_{i < j} C(n, i)
  let k = 1;
  let tailNum = 1n; // P(B <= 0) numerator when k = 1
  for (let j = 0; j <= n; j++) {
    // cum + C(n, j) = numerator of P(B <= j); 0.025 = 1/40
    if ((cum + c) * 40n > total) break;
    cum += c;
    k = j + 1;
    tailNum = cum;
    c = (c * BigInt(n - j)) / BigInt(j + 1);
  }
  return { k, tail: Number(tailNum) / Number(total) };
}

const amount = fc.oneof(
  fc.integer({ min: 1, max: 5_000_000 }),
  fc.constantFrom(100_000, 250_000, 250_000, 400_000), // ties
  fc.integer({ min: 20_000_000, max: 90_000_000 }), // far outliers
);
const amounts = fc.array(amount, { minLength: 0, maxLength: 60 }).map(asc);

const WITHHELD = { n: null, median: null, mean: null, p10: null, p25: null, p75: null, p90: null, rounded: false, withheld: true };

/**
 * The value a published percentile p of pay is moved from (README: Disclosure control, method 3): the exact type-7
 * quantile of the cell's (distorted) values brought towards their median by the spread ratio
 * sqrt(max(1/4, 1 - Var(log factor) / sd^2)), sd = ln(Q3 / Q1) / 1.349 (1 when Q1 <= 0 or Q3 <= Q1), in log terms.
 * The published figure is this times exp(2 u quantileMoveBound(n)), u in [-1/2, 1/2), then rounded.
 */
function spreadCorrected(s: ArrayLike<number>, p: number): number {
  const q1 = refQuantile(s, 0.25);
  const q3 = refQuantile(s, 0.75);
  const m = refQuantile(s, 0.5);
  const q = refQuantile(s, p);
  const r = q1 > 0 && q3 > q1 ? Math.sqrt(Math.max(0.25, 1 - LOG_FACTOR_VARIANCE / (Math.log(q3 / q1) / 1.349) ** 2)) : 1;
  return r === 1 || q === m || !(q > 0) || !(m > 0) ? q : m * (q / m) ** r;
}

/** `got` (rounded with `slack`) is within the factor exp(+-quantileMoveBound(n)) of `target`. */
function expectWithinFactor(got: number, target: number, n: number, slack: number, label: string): void {
  const b = Math.exp(quantileMoveBound(n));
  const tol = slack + 1e-9 * Math.abs(target) + 1e-6;
  expect(got, `${label}: ${got} vs ${target} x exp(+-${quantileMoveBound(n)})`).toBeGreaterThanOrEqual(target / b - tol);
  expect(got, `${label}: ${got} vs ${target} x exp(+-${quantileMoveBound(n)})`).toBeLessThanOrEqual(target * b + tol);
}

describe('openCell properties', () => {
  it('published percentiles are ordered and within their perturbation bound; so is the mean; withheld exactly below the floor', () => {
    fc.assert(
      fc.property(amounts, fc.constantFrom(3, 5), fc.constantFrom<'money' | 'rate'>('money', 'rate'), fc.integer({ min: 0, max: 0xffffffff }), fc.option(fc.uint8Array({ minLength: 32, maxLength: 32 }), { freq: 4 }),
        (values, floor, kind, key0, drawKey) => {
          const days = values.map((_, i) => (i * 7919) % 1000);
          const keyLo = values.map((_, i) => (key0 + i * 2654435761) % 4294967296);
          const keyHi = values.map((_, i) => (key0 * 7 + i * 40503) % 4294967296);
          const { summary: s, newestDay } = openCell({ values, days, keyLo, keyHi, drawKey }, floor, kind);
          const n = values.length;
          expect(newestDay).toBe(n ? Math.max(...days) : null);
          if (n < floor || n === 0) {
            // never estimated: every figure null, n null
            expect(s).toEqual(WITHHELD);
            return;
          }
          expect(s.withheld).toBe(false);
          expect(drawKey ? countWithin(s.n, n, [floor, 15, 25]) : s.n === n, `n ${s.n} of ${n}`).toBe(true); // perturbed +-2 within its class
          expect(s.rounded).toBe(n <= 24);
          expect(s.p10 === null).toBe(n < 15);
          expect(s.p90 === null).toBe(n < 15);
          const ordered = [s.p10, s.p25, s.median, s.p75, s.p90].filter((v): v is number => v !== null);
          for (let i = 1; i < ordered.length; i++) expect(ordered[i - 1]!).toBeLessThanOrEqual(ordered[i]!);
          const round = (v: number) => (kind === 'money' ? roundMoney(v, n) : roundRate(v, n));
          const roundingSlack = kind === 'money' ? (n <= 24 ? 500 : 0.5) : n <= 24 ? 0.5 : 0.005;
          const got = { p10: s.p10, p25: s.p25, median: s.median, p75: s.p75, p90: s.p90 };
          const exactMean = values.reduce((a, v) => a + v, 0) / n;
          const grid = [['p10', 0.1], ['p25', 0.25], ['median', 0.5], ['p75', 0.75], ['p90', 0.9]] as const;
          if (drawKey === null) {
            // no draw key (tests of floors and rounding only): the exact figures of the values, rounded
            for (const [f, p] of grid) if (got[f] !== null) expect(got[f]).toBe(round(refQuantile(values, p)));
            expect(s.mean).toBe(round(exactMean));
            return;
          }
          // each published percentile: the spread-corrected exact type-7 value (recomputed here) moved by at most
          // its factor, then rounded; never negative
          for (const [f, p] of grid) {
            if (got[f] === null) continue;
            expect(got[f]!).toBeGreaterThanOrEqual(0);
            expectWithinFactor(got[f]!, spreadCorrected(values, p), n, roundingSlack, f);
          }
          // the mean: the distorted values' mean moved by at most meanMoveShare(n) of itself, / the factors' mean
          const target = exactMean / MEAN_FACTOR;
          expect(Math.abs(s.mean! - target)).toBeLessThanOrEqual(meanMoveShare(n) * target + roundingSlack + 1e-6 * target);
        }),
      RUNS,
    );
  });
});

describe('rounding properties', () => {
  const x = fc.double({ min: 0, max: 1e9, noNaN: true, noDefaultInfinity: true });
  const n = fc.integer({ min: 0, max: 200 });

  it('roundMoney is idempotent and lands on $1,000 steps for n <= 24, whole dollars above', () => {
    fc.assert(
      fc.property(x, n, (v, k) => {
        const r = roundMoney(v, k);
        expect(roundMoney(r, k)).toBe(r);
        expect(Number.isInteger(k <= 24 ? r / 1000 : r)).toBe(true);
        expect(Math.abs(r - v)).toBeLessThanOrEqual(k <= 24 ? 500 : 0.5);
      }),
      RUNS,
    );
  });

  it('roundRate is idempotent and within half a step', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e6, noNaN: true, noDefaultInfinity: true }), n, (v, k) => {
        const r = roundRate(v, k);
        expect(roundRate(r, k)).toBe(r);
        expect(Math.abs(r - v)).toBeLessThanOrEqual(k <= 24 ? 0.5 : 0.005 + 1e-9);
      }),
      RUNS,
    );
  });
});

describe('quantile properties', () => {
  const sorted = fc.array(fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 80 }).map(asc);
  const p = fc.double({ min: 0, max: 1, noNaN: true });

  it('equals simple-statistics quantileSorted and the type-7 definition', () => {
    fc.assert(
      fc.property(sorted, p, (s, q) => {
        const v = quantile(s, q);
        expect(v).toBe(ssQuantileSorted(s, q));
        expect(v).toBeCloseTo(refQuantile(s, q), 3);
        expect(v).toBeGreaterThanOrEqual(s[0]!);
        expect(v).toBeLessThanOrEqual(s[s.length - 1]!);
      }),
      RUNS,
    );
  });

  it('is monotone in p on integer data', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 5_000_000 }), { minLength: 1, maxLength: 80 }).map(asc), p, p, (s, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(quantile(s, lo)).toBeLessThanOrEqual(quantile(s, hi));
      }),
      RUNS,
    );
  });
});

describe('median CI properties', () => {
  it('medianCiRanks agrees with an exact binomial computation for n = 1..400', () => {
    for (let n = 1; n <= 400; n++) {
      const ref = refCiRank(n);
      const got = medianCiRanks(n);
      expect(got.k, `n = ${n}`).toBe(ref.k);
      expect(got.coverage, `n = ${n}`).toBeCloseTo(1 - 2 * ref.tail, 10);
      if (n >= 6) expect(got.coverage).toBeGreaterThanOrEqual(0.95);
      else expect(got.coverage).toBe(1 - 2 ** (1 - n));
    }
  });

  it('lower <= median <= upper, at order statistics k and n - k + 1', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5_000_000 }), { minLength: 1, maxLength: 300 }).map(asc), (s) => {
        const ci = medianCi95(s)!;
        const m = quantile(s, 0.5);
        expect(ci.lower).toBeLessThanOrEqual(m);
        expect(m).toBeLessThanOrEqual(ci.upper);
        const { k } = medianCiRanks(s.length);
        expect(ci.lower).toBe(s[k - 1]);
        expect(ci.upper).toBe(s[s.length - k]);
      }),
      RUNS,
    );
  });
});

describe('tukeyKeep properties', () => {
  it('keeps a contiguous sub-range of the sorted input: everything inside the fences, nothing outside', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, 1, 1, 2)), { maxLength: 60 }).map(asc), (s) => {
        const out = Array.from(tukeyKeep(s));
        const { lo, hi } = tukeyRange(s);
        expect(out).toEqual(s.slice(lo, hi));
        if (s.length > 0) {
          expect(out.length).toBeGreaterThan(0); // the median always lies inside [Q1, Q3]
          const q1 = refQuantile(s, 0.25);
          const q3 = refQuantile(s, 0.75);
          const lower = q1 - 1.5 * (q3 - q1);
          const upper = q3 + 1.5 * (q3 - q1);
          for (let i = 0; i < s.length; i++) {
            const inside = s[i]! >= lower && s[i]! <= upper;
            expect(inside, `index ${i}`).toBe(i >= lo && i < hi);
          }
        } else expect(out).toEqual([]);
      }),
      RUNS,
    );
  });
});

describe('keyedCell properties', () => {
  const BLS: BlsInfo = { available: true, soc_code: '29-1215', soc_title: 'X', soc_match: 'exact', median: 250_000, year: 2024, top_coded: false };
  const report = fc.record({
    total: fc.integer({ min: 50_000, max: 3_000_000 }),
    fte: fc.option(fc.integer({ min: 50_000, max: 3_000_000 })),
    base: fc.option(fc.integer({ min: 0, max: 1_000_000 })),
    bonus: fc.option(fc.integer({ min: 0, max: 500_000 })),
    year: fc.integer({ min: 2019, max: 2026 }),
    band: fc.integer({ min: -1, max: 4 }),
    day: fc.integer({ min: 17_900, max: 20_600 }),
    pick: fc.boolean(),
  });

  it('percentiles are monotone and within their bound, P10/P90 only from 15, CI brackets the median, counts below 5 hidden, sections add up', () => {
    fc.assert(
      fc.property(fc.array(report, { maxLength: 40 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), (rows, drawKey) => {
        rows.sort((a, b) => a.total - b.total);
        const a: KeyedReportsArtifact = {
          slug: 'p', count: rows.length, partial_from: 2026,
          key_lo: uint32ToBase64(Uint32Array.from(rows, (r) => (r.day * 2654435761) % 4294967296)),
          key_hi: uint32ToBase64(Uint32Array.from(rows, (r) => (r.total * 40503) % 4294967296)), draw_key: Buffer.from(drawKey).toString('base64'),
          total: rows.map((r) => r.total), fte: rows.map((r) => r.fte), base: rows.map((r) => r.base),
          bonus: rows.map((r) => r.bonus), wrvus: rows.map(() => null), year: rows.map((r) => r.year), experience_band: rows.map((r) => r.band),
          setting: rows.map(() => -1), employment: rows.map(() => -1), state: rows.map(() => 0), day: rows.map((r) => r.day),
        };
        const idx = rows.flatMap((r, i) => (r.pick ? [i] : []));
        const cell = keyedCell(keyedColumnsFromArtifact(a), idx, BLS);
        expect(KeyedCell.safeParse(cell).success).toBe(true);
        // the stored count: exact below 5 (never published), perturbed +-2 within its class from 5
        expect(idx.length < 5 ? cell.n === idx.length : countWithin(cell.n, idx.length, [5, 15])).toBe(true);
        if (idx.length < 5) {
          expect(cell.figures).toBeNull();
          expect(cell.sections).toBeNull();
          return;
        }
        const f = cell.figures!;
        const { p10, p25, p50, p75, p90 } = f.percentiles;
        const totals = idx.map((i) => rows[i]!.total);
        const n = totals.length;
        expect(p10 === null).toBe(n < 15);
        expect(p90 === null).toBe(n < 15);
        const ordered = [p10, p25, p50, p75, p90].filter((v): v is number => v !== null);
        for (let i = 1; i < ordered.length; i++) expect(ordered[i - 1]!).toBeLessThanOrEqual(ordered[i]!);
        for (const [v, p] of [[p10, 0.1], [p25, 0.25], [p50, 0.5], [p75, 0.75], [p90, 0.9]] as const) {
          if (v !== null) expectWithinFactor(v, spreadCorrected(totals, p), n, 0.5, `p${p * 100}`);
        }
        const target = totals.reduce((t, v) => t + v, 0) / n / MEAN_FACTOR;
        expect(Math.abs(f.mean - target)).toBeLessThanOrEqual(meanMoveShare(n) * target + 0.5 + 1e-6 * target);
        expect(f.standard_deviation === null).toBe(totals.length < 15);
        expect(f.confidence_interval_95.lower).toBeLessThanOrEqual(p50);
        expect(p50).toBeLessThanOrEqual(f.confidence_interval_95.upper);
        expect(f.confidence_interval_95.coverage).toBeGreaterThanOrEqual(0.95);
        expect(f.confidence_interval_95.method).toBe(idx.length >= 9 ? 'order_statistics' : 'approximate');
        expect(f.confidence_interval_95.lower).toBeGreaterThanOrEqual(0);
        if (n >= 9) {
          // moved outward, never inward: the interval holds the distribution-free one of the cell's values
          const { k } = medianCiRanks(n);
          expect(f.confidence_interval_95.lower).toBeLessThanOrEqual(totals[k - 1]! + 0.5);
          expect(f.confidence_interval_95.upper).toBeGreaterThanOrEqual(totals[n - k]! - 0.5);
        }
        const s = cell.sections!;
        // counts below 5 are null; the published ones are within +-2 of the truth, in its class
        const byYear = new Map<number, number>();
        for (const i of idx) byYear.set(rows[i]!.year, (byYear.get(rows[i]!.year) ?? 0) + 1);
        for (const r of s.trending) {
          const truth = byYear.get(r.year)!;
          expect(countWithin(r.n, truth, [5, 15])).toBe(true);
          expect(r.publishable).toBe(truth >= 5);
          expect(r.p50 === null).toBe(truth < 5);
        }
        expect(s.trending.map((r) => r.year)).toEqual([...byYear.keys()].sort((x, y) => x - y));
        expect(s.by_experience).toHaveLength(5);
        s.by_experience.forEach((r, b) => {
          const truth = idx.filter((i) => rows[i]!.band === b).length;
          expect(countWithin(r.n, truth, [5, 15])).toBe(true);
        });
        const fteN = idx.filter((i) => rows[i]!.fte !== null).length;
        expect(countWithin(s.fte_normalized.n, fteN, [5, 15])).toBe(true);
        expect(s.fte_normalized.percentiles === null).toBe(fteN < 5);
        const baseN = idx.filter((i) => rows[i]!.base !== null).length;
        expect(countWithin(s.components.base_salary.n, baseN, [5, 15])).toBe(true);
        expect(cell.bls_variance_pct).toBe(Math.round(((p50 - 250_000) / 250_000) * 100 * 10) / 10); // one decimal
      }),
      RUNS,
    );
  });
});
