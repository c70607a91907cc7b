/**
 * A small seeded pseudo-random generator (sfc32, seeded through splitmix32) so that demo data is the same
 * on every machine for the same seed. Not for anything secret.
 */
export interface Rng {
  /** uniform in [0, 1) */
  next(): number;
  /** uniform in [lo, hi) */
  uniform(lo: number, hi: number): number;
  /** integer in [lo, hi] */
  int(lo: number, hi: number): number;
  /** standard normal */
  normal(): number;
  /** true with probability p */
  chance(p: number): boolean;
  /** index drawn with probability proportional to weights (cumulative table from `cumulative`) */
  pick(cumulativeWeights: Float64Array): number;
}

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function createRng(seed: number): Rng {
  const init = splitmix32(seed);
  let a = init(), b = init(), c = init(), d = init();
  const next = (): number => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    const t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const r = (t + d) | 0;
    c = (c + r) | 0;
    return (r >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  let spare: number | null = null;
  const rng: Rng = {
    next,
    uniform: (lo, hi) => lo + (hi - lo) * next(),
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    normal() {
      if (spare !== null) {
        const s = spare;
        spare = null;
        return s;
      }
      let u = 0;
      while (u === 0) u = next();
      const v = next();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
    chance: (p) => next() < p,
    pick(cum) {
      const x = next() * cum[cum.length - 1]!;
      let lo = 0, hi = cum.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cum[mid]! > x) hi = mid;
        else lo = mid + 1;
      }
      return lo;
    },
  };
  return rng;
}

export function cumulative(weights: readonly number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let acc = 0;
  weights.forEach((w, i) => {
    acc += w;
    out[i] = acc;
  });
  return out;
}
