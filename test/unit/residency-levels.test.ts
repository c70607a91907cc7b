/**
 * Resident pay at each PGY level (build/compute/residency-levels.ts): every level is adjusted for cost of
 * living and ranked exactly as PGY-1 always was (salary / (index / 100) to whole dollars; ranks among scales
 * of the same academic year, nationally and in the state, ties shared); a scale without the level is left
 * out, never counted as 0.
 */
import { describe, expect, it } from 'vitest';
import { colAdjusted, levelRows, maxLevel } from '../../build/compute/residency-levels.ts';
import type { InstitutionRow, StateRow } from '../../build/compute/dataset.ts';

const state = (code: string, col_index: number | null): StateRow => ({ code, slug: code.toLowerCase(), name: code, region: 'South', col_index, col_source: 'test', col_year: 2022 });
const STATES = [state('TX', 92), state('NY', 125), state('DC', null)];
const inst = (slug: string, st: string, pay: number[], academic_year = '2026-2027'): InstitutionRow => ({
  slug, name: slug, city: 'C', state: st, academic_year, checked_at: '2026-07-01', source_url: `https://x.example/${slug}`, pay,
});

describe('PGY levels across teaching hospitals', () => {
  const list = [
    inst('a-tx', 'TX', [60000, 62000, 64000]),
    inst('b-tx', 'TX', [61000, 63000]),
    inst('c-ny', 'NY', [75000, 77500, 80000, 82500]),
    inst('d-dc', 'DC', [70000, 72000, 74000]),
    inst('e-ny', 'NY', [70000, 72000, 74000], '2025-2026'),
    inst('f-tx', 'TX', [61000, 63000, 64000]),
  ];

  it('adjusts every level as PGY-1: salary / (index / 100), whole dollars; null without an index', () => {
    expect(colAdjusted(64000, 92)).toBe(Math.round(64000 / 0.92));
    expect(colAdjusted(64000, null)).toBeNull();
    for (const pgy of [1, 2, 3]) {
      for (const r of levelRows(list, STATES, pgy)) {
        const i = list[r.k]!;
        const idx = STATES.find((s) => s.code === i.state)!.col_index;
        expect(r.salary).toBe(i.pay[pgy - 1]);
        expect(r.col_adjusted).toBe(idx === null ? null : Math.round(i.pay[pgy - 1]! / (idx / 100)));
      }
    }
  });

  it('a hospital whose scale ends before the level is not listed (not 0); maxLevel is the longest scale', () => {
    expect(levelRows(list, STATES, 3).map((r) => list[r.k]!.slug)).toEqual(['a-tx', 'c-ny', 'd-dc', 'e-ny', 'f-tx']);
    expect(levelRows(list, STATES, 4).map((r) => list[r.k]!.slug)).toEqual(['c-ny']);
    expect(levelRows(list, STATES, 5)).toEqual([]);
    expect(maxLevel(list)).toBe(4);
    expect(maxLevel([])).toBe(0);
  });

  it('ranks within the academic year, nationally and by state; ties share a rank; unadjusted rows are unranked', () => {
    const rows = new Map(levelRows(list, STATES, 3).map((r) => [list[r.k]!.slug, r]));
    // 2026-2027 PGY-3 adjusted: a-tx 69565, f-tx 69565 (tie), c-ny 64000; d-dc has no index
    expect(rows.get('a-tx')!.rank).toEqual({ position: 1, of: 3 });
    expect(rows.get('f-tx')!.rank).toEqual({ position: 1, of: 3 });
    expect(rows.get('c-ny')!.rank).toEqual({ position: 3, of: 3 });
    expect(rows.get('d-dc')!.rank).toBeNull();
    expect(rows.get('d-dc')!.state_rank).toBeNull();
    // e-ny is ranked alone among 2025-2026 scales, and in its state among them
    expect(rows.get('e-ny')!.rank).toEqual({ position: 1, of: 1 });
    expect(rows.get('c-ny')!.state_rank).toEqual({ position: 1, of: 1 });
    expect(rows.get('a-tx')!.state_rank).toEqual({ position: 1, of: 2 });
  });

  it('PGY-1 through levelRows is what the PGY-1 ranking always was (the former open-feeds code, kept here as the reference)', () => {
    const byCode = new Map(STATES.map((s) => [s.code, s]));
    const adjusted = list.map((i) => { const st = byCode.get(i.state)!; return st.col_index ? Math.round(i.pay[0]! / (st.col_index / 100)) : null; });
    const rows = levelRows(list, STATES, 1);
    expect(rows.map((r) => r.col_adjusted)).toEqual(adjusted);
    for (const r of rows) {
      if (adjusted[r.k] === null) continue;
      const same = list.map((i, k) => ({ i, k })).filter((x) => x.i.academic_year === list[r.k]!.academic_year && adjusted[x.k] !== null);
      const higher = same.filter((x) => adjusted[x.k]! > adjusted[r.k]!).length;
      expect(r.rank).toEqual({ position: higher + 1, of: same.length });
    }
  });
});
