/**
 * Disclosure control (README: Disclosure control), pure: method version 3. Two layers, both fixed by a
 * secret that lives only in the reports DB (build/source/record-keys.ts):
 *
 * 1. Record-level noise infusion (as the US Census Bureau's QWI does for establishments). Every report has
 *    a permanent secret factor exp(+-delta), delta between RECORD_NOISE.min and RECORD_NOISE.max (5.5% to
 *    15%), applied to its pay values (total, base, bonus) when the build reads it, before any statistic.
 *    Every cell, year range, filter, interface and build sees the same distorted value, so no comparison
 *    of figures, however many, gets closer to a report than its factor: at least 5.4% off.
 *
 * 2. The cell key method on top (ABS TableBuilder), for what a small cell shows of its few distorted values:
 *    - every report has a 64-bit record key (two 32-bit lanes); a cell's key is the lane-wise sum modulo
 *      2^32 of its reports' keys: the same set of reports always has the same key, whatever query or
 *      interface reaches it;
 *    - each figure's draw u in [-1/2, 1/2) is AES-256 of (cell key, column, slot) under a draw key derived
 *      from the secret: without the secret no draw can be computed or searched for, even by someone who
 *      knows every report of the cell;
 *    - every move is relative to the cell's own figure (a mean's sum by u x NOISE_SPAN x its own mean, a
 *      quantile by the factor exp(u x 2 x QUANTILE_SPAN / n^QUANTILE_DECAY)): nothing that sizes the noise
 *      depends on reports outside the cell, so a cell whose reports did not change publishes the same
 *      figures in every build of this method version, and a positive figure stays positive.
 *
 * Changing any constant here, or the record-key derivation, is a new DISCLOSURE_METHOD_VERSION: the reports
 * DB migration that introduces it replaces the secret, and the release that first uses it says so.
 */
import { createCipheriv, createHmac } from 'node:crypto';

/** The disclosure method's version: published in releases.json; a reports DB's secret is made for one version. */
export const DISCLOSURE_METHOD_VERSION = 3;

// ---------------------------------------------------------------- record-level noise

/** Bounds of |log factor| of a report's pay values. */
export const RECORD_NOISE = { min: 0.055, max: 0.15 } as const;

/**
 * A report's permanent factor from its secret 32-bit factor word: the low bit gives the sign, the other 31
 * bits delta, uniform in [min, max]. exp(-0.055) = 0.9465 and exp(0.055) = 1.0565: never within 5%.
 */
export function recordFactor(word: number): number {
  const sign = (word & 1) === 1 ? 1 : -1;
  const t = (word >>> 1) / 2147483648;
  return Math.exp(sign * (RECORD_NOISE.min + (RECORD_NOISE.max - RECORD_NOISE.min) * t));
}

/** E[factor] = E[cosh delta]: a mean of distorted values is divided by it, so large cells' means stay unbiased. */
export const MEAN_FACTOR = (Math.sinh(RECORD_NOISE.max) - Math.sinh(RECORD_NOISE.min)) / (RECORD_NOISE.max - RECORD_NOISE.min);
/** E[factor^2] = E[cosh 2 delta]. */
export const SQUARE_FACTOR = (Math.sinh(2 * RECORD_NOISE.max) - Math.sinh(2 * RECORD_NOISE.min)) / (2 * (RECORD_NOISE.max - RECORD_NOISE.min));
/** E[delta^2]: the variance the factors add to log pay. */
export const LOG_FACTOR_VARIANCE = (RECORD_NOISE.max ** 3 - RECORD_NOISE.min ** 3) / (3 * (RECORD_NOISE.max - RECORD_NOISE.min));

// ---------------------------------------------------------------- cell keys

/** A 64-bit cell key: two 32-bit lanes, each the sum of its reports' lane modulo 2^32. */
export interface CellKey {
  lo: number;
  hi: number;
}

export const TWO32 = 4294967296;

/** The cell key of the reports at positions `idx` (lanes `lo`, `hi` of their record keys). */
export function cellKeyOf(lo: ArrayLike<number>, hi: ArrayLike<number>, idx: ArrayLike<number>): CellKey {
  let a = 0; // exact: up to 2^21 reports x 2^32 stays below 2^53
  let b = 0;
  for (let k = 0; k < idx.length; k++) {
    a += lo[idx[k]!]!;
    b += hi[idx[k]!]!;
  }
  return { lo: a % TWO32, hi: b % TWO32 };
}

/** The cell key of positions [from, to). */
export function cellKeyOfRange(lo: ArrayLike<number>, hi: ArrayLike<number>, from: number, to: number): CellKey {
  let a = 0;
  let b = 0;
  for (let i = from; i < to; i++) {
    a += lo[i]!;
    b += hi[i]!;
  }
  return { lo: a % TWO32, hi: b % TWO32 };
}

// ---------------------------------------------------------------- keyed draws

/**
 * Columns whose figures are published, each with its own draws: column c's 16 slots are the four AES blocks
 * numbered 4c to 4c + 3 (below), computed only when one of its figures is asked for, so adding a column leaves
 * the draws of the others as they were. Columns 0-7: the headline columns; 8-31: the whole offer (offer-terms.ts).
 */
export const COLUMN = {
  total: 0, fte: 1, base: 2, bonus: 3, wrvus: 4, perWrvu: 5, rate: 6,
  // the whole offer: money components, then weeks, nights and contract terms, then $/wRVU by pay model
  call_pay: 8, signing_bonus: 9, retention_bonus: 10, relocation: 11, loan_repayment: 12, cme_allowance: 13,
  pto_weeks: 14, call_nights_per_month: 15,
  non_compete_miles: 16, non_compete_years: 17, partnership_track_years: 18, offer_shares: 19,
  rate_salary: 20, rate_salary_plus_productivity: 21, rate_production: 22, rate_collections: 23, rate_shift: 24,
} as const;
export type Column = (typeof COLUMN)[keyof typeof COLUMN];

/** Which figure of a column a draw moves. */
export const SLOT = { p10: 0, p25: 1, p50: 2, p75: 3, p90: 4, ciLower: 5, ciUpper: 6, sum: 7, squares: 8, count: 9 } as const;
export type Slot = (typeof SLOT)[keyof typeof SLOT];
const SLOTS_PER_COLUMN = 16; // 10 used
const BLOCKS_PER_COLUMN = SLOTS_PER_COLUMN / 4;
const COLUMNS = 32;

/** A (cell key, column) pair whose draws are asked for. */
export interface DrawPair {
  key: CellKey;
  column: Column;
}

/** The draw of one figure, in [-1/2, 1/2). */
export interface Draws {
  draw(key: CellKey, column: Column, slot: Slot): number;
  /**
   * Encipher now, in one call, the draws of every pair not known yet (a cell whose figures need many cell keys
   * asks for them together rather than one cipher call per pair). Values are the same either way.
   */
  prefetch?(pairs: readonly DrawPair[]): void;
}

/** Cell keys whose draws a Draws keeps (a direct-mapped table: a key that lands on a taken slot replaces it). */
const KEPT_KEYS = 1024;

/**
 * Draws under a 32-byte draw key (derived from the reports DB's secret by the build: drawKeyOf). The draws of
 * one cell key and column are the 16 little-endian words of AES-256-ECB over its 4 blocks (lo, hi, block number
 * 4 x column + j, version), each as w / 2^32 - 1/2: one cipher call per (cell key, column) a figure of it is
 * asked for, or one for many pairs (prefetch). ECB enciphers each block alone, so a column's draws are the same
 * however they are batched, and the same as when the columns of a group of 8 were enciphered together, as
 * before. The draws of recent cell keys are kept (forgetting one only costs computing it again).
 */
export function createDraws(drawKey: Uint8Array): Draws {
  if (drawKey.length !== 32) throw new Error('a draw key has 32 bytes');
  const cipher = createCipheriv('aes-256-ecb', drawKey, null);
  cipher.setAutoPadding(false);
  // slot s holds cell key (lo[s], hi[s]); bit c of have[s] says column c's 16 draws are in u at (s x COLUMNS + c) x 16
  const lo = new Uint32Array(KEPT_KEYS);
  const hi = new Uint32Array(KEPT_KEYS);
  const taken = new Uint8Array(KEPT_KEYS);
  const have = new Uint32Array(KEPT_KEYS);
  const u = new Float64Array(KEPT_KEYS * COLUMNS * SLOTS_PER_COLUMN);
  const slotOf = (key: CellKey): number => {
    const s = (Math.imul(key.lo ^ Math.imul(key.hi, 0x85ebca6b), 0x9e3779b1) >>> 22) & (KEPT_KEYS - 1);
    if (!taken[s] || lo[s] !== key.lo || hi[s] !== key.hi) {
      taken[s] = 1;
      lo[s] = key.lo;
      hi[s] = key.hi;
      have[s] = 0;
    }
    return s;
  };
  let plain = new DataView(new ArrayBuffer(0));
  /** encipher the 4 blocks of each (slot, column) of `todo` (pairs of numbers) and store their draws where the slot still holds that key */
  const compute = (todo: number[], keys: CellKey[]): void => {
    const pairs = todo.length / 2;
    const size = pairs * BLOCKS_PER_COLUMN * 16;
    if (plain.byteLength < size) plain = new DataView(new ArrayBuffer(Math.max(size, 2 * plain.byteLength)));
    for (let t = 0; t < pairs; t++) {
      const column = todo[2 * t + 1]!;
      const key = keys[t]!;
      for (let b = 0; b < BLOCKS_PER_COLUMN; b++) {
        const at = (t * BLOCKS_PER_COLUMN + b) * 16;
        plain.setUint32(at, key.lo, true);
        plain.setUint32(at + 4, key.hi, true);
        plain.setUint32(at + 8, column * BLOCKS_PER_COLUMN + b, true);
        plain.setUint32(at + 12, DISCLOSURE_METHOD_VERSION, true);
      }
    }
    const out = cipher.update(new Uint8Array(plain.buffer, 0, size));
    const words = new DataView(out.buffer, out.byteOffset, out.byteLength);
    for (let t = 0; t < pairs; t++) {
      const s = todo[2 * t]!;
      const column = todo[2 * t + 1]!;
      const key = keys[t]!;
      if (lo[s] !== key.lo || hi[s] !== key.hi) continue; // the slot went to another key meanwhile: computed again when asked for
      const base = (s * COLUMNS + column) * SLOTS_PER_COLUMN;
      for (let i = 0; i < SLOTS_PER_COLUMN; i++) u[base + i] = words.getUint32((t * SLOTS_PER_COLUMN + i) * 4, true) / TWO32 - 0.5;
      have[s]! |= 1 << column;
    }
  };
  const checked = (column: number) => {
    if (!(Number.isInteger(column) && column >= 0 && column < COLUMNS)) throw new Error(`no draw column ${column}`);
    return column;
  };
  return {
    draw(key, column, slot) {
      const s = slotOf(key);
      if (!(have[s]! & (1 << checked(column)))) compute([s, column], [key]);
      return u[(s * COLUMNS + column) * SLOTS_PER_COLUMN + slot]!;
    },
    prefetch(pairs) {
      const todo: number[] = [];
      const keys: CellKey[] = [];
      for (const { key, column } of pairs) {
        const s = slotOf(key);
        if (have[s]! & (1 << checked(column))) continue;
        let dup = false;
        for (let t = 0; t < keys.length && !dup; t++) dup = todo[2 * t] === s && todo[2 * t + 1] === column && keys[t]!.lo === key.lo && keys[t]!.hi === key.hi;
        if (dup) continue;
        todo.push(s, column);
        keys.push(key);
      }
      if (keys.length) compute(todo, keys);
    },
  };
}

const drawsByKey = new Map<string, Draws>();
/** the same key array is asked for once per figure: found by identity first, without hashing its bytes */
const drawsByArray = new WeakMap<Uint8Array, Draws>();

/** One Draws per draw key (build threads and the server each keep theirs). */
export function drawsFor(drawKey: Uint8Array): Draws {
  let d = drawsByArray.get(drawKey);
  if (d) return d;
  const id = Buffer.from(drawKey).toString('hex');
  d = drawsByKey.get(id);
  if (!d) {
    d = createDraws(drawKey);
    drawsByKey.set(id, d);
  }
  drawsByArray.set(drawKey, d);
  return d;
}

/** The draw key of a reports DB's secret (never the secret itself: that stays in the DB). */
export function drawKeyOf(secret: Uint8Array): Buffer {
  return createHmac('sha256', secret).update(`physpay cell draws v${DISCLOSURE_METHOD_VERSION}`).digest();
}

// ---------------------------------------------------------------- sums: means and standard deviations

/** A cell's sum moves by at most +-NOISE_SPAN/2 x its own mean (three quarters of a typical report). */
export const NOISE_SPAN = 1.5;
/** A sum of squared deviations moves by at most +-SQUARE_SPAN/2 x its own mean squared. */
export const SQUARE_SPAN = 0.5;
/** Standard deviations are published from this many reports (below, the perturbation would dominate them). */
export const SD_MIN_N = 15;

/** Where a cell's draws come from: the draws, the cell key of exactly the reports behind the figure, the column. */
export interface CellNoise {
  draws: Draws;
  key: CellKey;
  column: Column;
  /** true for pay columns (distorted by the record factors), false for wRVUs */
  pay: boolean;
}

/**
 * Published mean of a cell of distorted values: (sum + u x NOISE_SPAN x sum / n) / n, divided by
 * MEAN_FACTOR for pay columns (the factors' mean), so it estimates the mean of the undistorted pay.
 */
export function perturbedMean(sum: number, n: number, noise: CellNoise): number {
  const u = noise.draws.draw(noise.key, noise.column, SLOT.sum);
  return ((sum / n) * (1 + (u * NOISE_SPAN) / n)) / (noise.pay ? MEAN_FACTOR : 1);
}

/**
 * Published sample standard deviation of a cell of distorted pay: the sum of squared deviations plus its
 * own draw (SQUARE_SPAN x mean^2), then the variance the factors add taken back out
 * (Var x = (Var y + m^2) / E[f^2] - m^2 / E[f]^2). Null below SD_MIN_N reports.
 */
export function perturbedSd(squaredDeviations: number, sum: number, n: number, noise: CellNoise): number | null {
  if (n < SD_MIN_N) return null;
  const m = sum / n;
  const u = noise.draws.draw(noise.key, noise.column, SLOT.squares);
  const vy = Math.max(0, squaredDeviations + u * SQUARE_SPAN * m * m) / (n - 1);
  const vx = noise.pay ? (vy + m * m) / SQUARE_FACTOR - (m * m) / (MEAN_FACTOR * MEAN_FACTOR) : vy;
  return Math.sqrt(Math.max(0, vx));
}

/** How far a published mean of n reports can be from the mean of its distorted values, as a share of it. */
export function meanMoveShare(n: number): number {
  return NOISE_SPAN / 2 / n;
}

// ---------------------------------------------------------------- order statistics
//
// A percentile of a small cell is one (distorted) report's value, and the percentiles of nested cells differ
// by what one report does to them. So every published quantile is also multiplied by a factor of its own:
//
//   published = exact x exp(u x 2 x QUANTILE_SPAN / n^QUANTILE_DECAY),   u in [-1/2, 1/2) from (cell key, column, slot)
//
// A cell of 5 moves by up to +-22%, of 25 by 6.9%, of 100 by 2.4%, of 1,000 by 0.42%: about a small cell's
// own uncertainty, a small fraction of a large cell's interval.

export const QUANTILE_SPAN = 0.75;
export const QUANTILE_DECAY = 0.75;

/** Largest |log move| of a published quantile of n reports (the move is at most exp of this, minus 1). */
export function quantileMoveBound(n: number): number {
  return n <= 0 ? 0 : QUANTILE_SPAN / Math.pow(n, QUANTILE_DECAY);
}

/** A published quantile before rounding: `exact` times its draw's factor (0 stays 0; a positive figure stays positive). */
export function perturbQuantile(exact: number, n: number, noise: CellNoise, slot: Slot): number {
  return exact * Math.exp(2 * noise.draws.draw(noise.key, noise.column, slot) * quantileMoveBound(n));
}

// ---------------------------------------------------------------- counts
//
// An exact count at or above a floor, subtracted from another (a region minus its published states, a
// specialty minus its published settings, a year range minus a narrower one), gives the count of a cell below
// the floor. So every published count moves too (the ABS method for counts): by -2..2 drawn from the cell key.
// A count stays within its class, the range between the thresholds that decide what a figure shows (the
// floor, 15 for P10/P90 and "sufficient", 25 for whole-dollar figures), so a published count never
// contradicts what is shown beside it and tells nothing those figures do not already tell. The same reports
// always give the same count; a subtraction of two counts is off by up to 4.

/** Largest move of a published count. */
export const COUNT_SPAN = 2;

/**
 * A published count of n reports: n + e, e in -COUNT_SPAN..COUNT_SPAN from the cell's draw, kept within n's
 * class: between the largest of `thresholds` (ascending; the first is the floor) at or below n and the next one
 * minus 1. n is at or above the floor.
 */
export function perturbedCount(n: number, thresholds: readonly number[], noise: Pick<CellNoise, 'draws' | 'key'>): number {
  let lo = thresholds[0]!;
  let hi = Infinity;
  for (const t of thresholds) {
    if (t <= n) lo = t;
    else {
      hi = t - 1;
      break;
    }
  }
  const e = Math.round(2 * COUNT_SPAN * noise.draws.draw(noise.key, COLUMN.total, SLOT.count));
  return Math.min(hi, Math.max(lo, n + e));
}
