/**
 * The attacker's tools for order statistics (pure): solve a cell's sorted values from its published
 * figures, and estimate the one report that two nested cells differ by. Written from the public method
 * (type-7 quantiles, the binomial interval ranks); they know nothing of the secret.
 *
 * solveSorted: each published percentile is a linear equation on the sorted values (type 7: position
 * 1 + p(n - 1), interpolated between two order statistics), each order-statistic interval bound pins one
 * order statistic. Least squares with a tiny penalty on second differences: a determined system (exact
 * figures of a cell of 5-7 reports) comes back exactly; an underdetermined one as a smooth interpolation.
 */

export interface Figure {
  /** a quantile in (0, 1), or an order-statistic rank (1-based) when `rank` is set */
  p?: number;
  rank?: number;
  value: number;
}

/** The distribution-free interval's ranks (k, n - k + 1): largest k with P(Bin(n, 1/2) <= k - 1) <= 0.025 (k = 1 below). */
export function ciRanks(n: number): [number, number] {
  let k = 1;
  let cdf = 0;
  let c = 1;
  for (let j = 0; j <= n; j++) {
    if (j > 0) c = (c * (n - j + 1)) / j;
    const next = cdf + c * 0.5 ** n;
    if (next > 0.025) break;
    cdf = next;
    k = j + 1;
  }
  return [k, n - k + 1];
}

/** The published figures of a cell as equations: quantiles (non-null) and, when given, the interval's bounds as order statistics. */
export function figuresOf(n: number, pct: Record<string, number | null | undefined>, ci?: { lower: number; upper: number; method?: string } | null): Figure[] {
  const out: Figure[] = [];
  const P: Record<string, number> = { p10: 0.1, p25: 0.25, p50: 0.5, median: 0.5, p75: 0.75, p90: 0.9 };
  for (const [k, v] of Object.entries(pct)) if (k in P && typeof v === 'number') out.push({ p: P[k]!, value: v });
  if (ci && (ci.method === undefined || ci.method === 'order_statistics')) {
    const [lo, hi] = ciRanks(n);
    out.push({ rank: lo, value: ci.lower }, { rank: hi, value: ci.upper });
  }
  return out;
}

/** Solve a small dense system A x = b (Gaussian elimination with partial pivoting). */
function solveDense(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r]![c]!) > Math.abs(M[piv]![c]!)) piv = r;
    [M[c], M[piv]] = [M[piv]!, M[c]!];
    const d = M[c]![c]!;
    if (Math.abs(d) < 1e-300) continue;
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r]![c]! / d;
      if (f === 0) continue;
      for (let k = c; k <= n; k++) M[r]![k]! -= f * M[c]![k]!;
    }
  }
  return M.map((row, i) => row[n]! / (row[i]! || 1));
}

/** The sorted values of a cell of n reports that best explain its published figures. */
export function solveSorted(n: number, figures: Figure[]): number[] {
  if (n <= 0 || figures.length === 0) return [];
  const scale = Math.max(...figures.map((f) => Math.abs(f.value)), 1);
  const rows: { coef: Map<number, number>; value: number; w: number }[] = [];
  for (const f of figures) {
    const coef = new Map<number, number>();
    if (f.rank !== undefined) coef.set(f.rank - 1, 1);
    else {
      const h = (n - 1) * f.p!;
      const lo = Math.floor(h);
      const frac = h - lo;
      coef.set(lo, 1 - frac);
      if (frac > 0) coef.set(Math.min(lo + 1, n - 1), (coef.get(Math.min(lo + 1, n - 1)) ?? 0) + frac);
    }
    rows.push({ coef, value: f.value / scale, w: 1 });
  }
  const lambda = 1e-6;
  for (let i = 1; i < n - 1; i++) rows.push({ coef: new Map([[i - 1, 1], [i, -2], [i + 1, 1]]), value: 0, w: Math.sqrt(lambda) });
  // a whisper of ridge towards the mean of the figures keeps a cell of 1-2 reports solvable
  const mean = figures.reduce((a, f) => a + f.value, 0) / figures.length / scale;
  for (let i = 0; i < n; i++) rows.push({ coef: new Map([[i, 1]]), value: mean, w: 1e-5 });
  const AtA = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const Atb = new Array<number>(n).fill(0);
  for (const r of rows) {
    for (const [i, a] of r.coef) {
      Atb[i]! += r.w * r.w * a * r.value;
      for (const [j, c] of r.coef) AtA[i]![j]! += r.w * r.w * a * c;
    }
  }
  return solveDense(AtA, Atb).map((x) => x * scale);
}

/** Type-7 quantile of ascending values. */
export function q7(s: number[], p: number): number {
  const h = (s.length - 1) * p;
  const lo = Math.floor(h);
  return s[lo]! + (h - lo) * ((s[Math.min(lo + 1, s.length - 1)] ?? s[lo]!) - s[lo]!);
}

/** The figures a cell would publish exactly (same quantiles and interval as `like`), for the fit. */
function exactFigures(sorted: number[], like: Figure[]): number[] {
  return like.map((f) => (f.rank !== undefined ? sorted[Math.min(f.rank - 1, sorted.length - 1)]! : q7(sorted, f.p!)));
}

/**
 * The report that cell B (n + 1 reports) has and cell A (n reports) lacks, two ways:
 *  - `difference`: sum of B's solved values minus sum of A's;
 *  - `fit`: A's solved values plus one candidate y, the y whose exact figures best match B's published ones.
 */
export function isolate(nA: number, figsA: Figure[], nB: number, figsB: Figure[]): { difference: number; fit: number } {
  const a = solveSorted(nA, figsA);
  const b = solveSorted(nB, figsB);
  const difference = b.reduce((s, x) => s + x, 0) - a.reduce((s, x) => s + x, 0);
  const median = q7([...a].sort((x, y) => x - y), 0.5);
  const sortedA = [...a].sort((x, y) => x - y);
  // B's figures are published for nB = nA + 1 values; their ranks refer to nB (figsB carries them)
  const cost = (y: number) => {
    const merged = [...sortedA, y].sort((x, z) => x - z);
    const exact = exactFigures(merged, figsB);
    return exact.reduce((s, e, i) => s + (e - figsB[i]!.value) ** 2, 0);
  };
  let best = median;
  let bestCost = Infinity;
  for (let k = 0; k <= 600; k++) {
    const y = median * (0.3 + (2.7 * k) / 600);
    const c = cost(y);
    if (c < bestCost) [best, bestCost] = [y, c];
  }
  let step = (median * 2.7) / 600;
  for (let it = 0; it < 40; it++) {
    for (const y of [best - step, best + step]) {
      const c = cost(y);
      if (c < bestCost) [best, bestCost] = [y, c];
    }
    step /= 2;
  }
  return { difference, fit: best };
}

/** How many of the true sorted values the solved ones hit within `tolerance` (relative), rank by rank. */
export function recovered(truthSorted: number[], solved: number[], tolerance = 0.01): number {
  const s = [...solved].sort((a, b) => a - b);
  return truthSorted.filter((t, i) => s[i] !== undefined && Math.abs(s[i]! - t) <= tolerance * t).length;
}

/** Relative errors of solved values against the true sorted ones, rank by rank (a missing rank counts as 1). */
export function rankErrors(truthSorted: number[], solved: number[]): number[] {
  const s = [...solved].sort((a, b) => a - b);
  return truthSorted.map((t, i) => (s[i] === undefined ? 1 : Math.abs(s[i]! - t) / t));
}

export interface ErrorScore {
  count: number;
  /** median relative error */
  median: number;
  /** shares of errors <= 1% and <= 5% */
  within1: number;
  within5: number;
}

/** Median and the shares within 1% and 5% of a list of relative errors. */
export function scoreErrors(errors: number[]): ErrorScore {
  const e = [...errors].sort((a, b) => a - b);
  const share = (t: number) => e.filter((x) => x <= t).length / Math.max(1, e.length);
  return { count: e.length, median: e.length ? e[Math.floor((e.length - 1) / 2)]! : NaN, within1: share(0.01), within5: share(0.05) };
}

export type IsolationScore = ErrorScore;

/** Median relative error and the shares within 1% and 5% of a list of (estimate, truth) pairs. */
export function scoreIsolation(pairs: { estimate: number; truth: number }[]): IsolationScore {
  return scoreErrors(pairs.map((p) => Math.abs(p.estimate - p.truth) / p.truth));
}
