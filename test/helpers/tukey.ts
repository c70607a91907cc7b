/**
 * The reports a sorted sample keeps inside its Tukey fences, as index range and values: the rule
 * build/compute/national.ts applies to each specialty's national distribution, for tests of the fences.
 */
import { tukeyFences } from '../../build/compute/stats.ts';

export function tukeyRange(sorted: ArrayLike<number>): { lo: number; hi: number } {
  if (sorted.length === 0) return { lo: 0, hi: 0 };
  const { lower, upper } = tukeyFences(sorted);
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi && sorted[lo]! < lower) lo++;
  while (hi > lo && sorted[hi - 1]! > upper) hi--;
  return { lo, hi };
}

export function tukeyKeep(sorted: ArrayLike<number>): Float64Array {
  const { lo, hi } = tukeyRange(sorted);
  return Float64Array.from(Array.prototype.slice.call(sorted, lo, hi) as number[]);
}
