/**
 * The disclosure accuracy table (build/compute/disclosure-accuracy.ts): the documented bound by size, and the
 * largest moves drawn among cells of about each size, on synthetic keyed columns with cells of every size.
 */
import { describe, expect, it } from 'vitest';
import { accuracyTable, specialtyAccuracy, ACCURACY_SIZES } from '../../build/compute/disclosure-accuracy.ts';
import { keyedColumnsFromArtifact, keyedSpreads, uint32ToBase64 } from '../../build/compute/keyed.ts';
import { quantileMoveBound } from '../../build/compute/disclosure.ts';
import type { KeyedReportsArtifact } from '../../build/contract/keyed-artifacts.ts';

/** n reports of one specialty: 1,000 in state 0, 100 in state 1, 25 in state 2, 5 in state 3 (all one region). */
function columns() {
  const sizes = [1_000, 100, 25, 5];
  const total: number[] = [];
  const state: number[] = [];
  let h = 12345;
  sizes.forEach((n, st) => {
    for (let i = 0; i < n; i++) {
      h = (Math.imul(h, 1103515245) + 12345) >>> 0;
      total.push(Math.round(300_000 * Math.exp(0.3 * ((h / 2 ** 32) * 2 - 1))));
      state.push(st);
    }
  });
  const order = total.map((_, i) => i).sort((a, b) => total[a]! - total[b]!);
  const count = total.length;
  const keys = Uint32Array.from({ length: count }, (_, i) => Math.imul(i + 1, 0x9e3779b1) >>> 0);
  const a: KeyedReportsArtifact = {
    slug: 'x', count, reference: 300_000, spread: { total: 0, fte: 0, base: 0, bonus: 0, wrvus: 0, per_wrvu: 0 }, partial_from: 2030,
    key: uint32ToBase64(keys), key_square: uint32ToBase64(keys), total: order.map((i) => total[i]!),
    fte: new Array(count).fill(null), base: new Array(count).fill(null), bonus: new Array(count).fill(null), wrvus: new Array(count).fill(null),
    year: order.map((i) => 2019 + (i % 8)), experience_band: new Array(count).fill(-1), setting: new Array(count).fill(-1), employment: new Array(count).fill(-1),
    state: order.map((i) => state[i]!), day: new Array(count).fill(20_000),
  };
  const c = keyedColumnsFromArtifact(a);
  c.spread = keyedSpreads(c);
  return c;
}

describe('disclosure accuracy table', () => {
  const c = columns();
  const rows = accuracyTable([specialtyAccuracy(c, [0, 0, 0, 0])]);

  it('has a row per documented size with the bound of the typical specialty', () => {
    expect(rows.map((r) => r.n)).toEqual([...ACCURACY_SIZES]);
    for (const r of rows) expect(r.bound).toBe(Math.round(quantileMoveBound(r.n, c.spread.total)));
    // the bound shrinks faster than the interval: its share of the interval falls with n
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.bound_share_of_ci).toBeLessThan(rows[i - 1]!.bound_share_of_ci);
    expect(rows[rows.length - 1]!.bound_share_of_ci).toBeLessThan(0.15);
  });

  it('measures cells of about each size, and no move exceeds its documented bound', () => {
    for (const r of rows) {
      expect(r.cells, `n = ${r.n}`).toBeGreaterThan(0);
      expect(r.largest_move).not.toBeNull();
      expect(r.largest_move!).toBeGreaterThan(0);
      expect(r.largest_share_of_bound!).toBeLessThanOrEqual(1.001);
    }
    // a national cell of about 1,000 moves by a small fraction of its interval
    expect(rows[3]!.largest_move_share_of_ci!).toBeLessThan(0.2);
  });
});
