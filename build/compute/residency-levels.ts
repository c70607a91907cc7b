/**
 * Resident pay at each postgraduate year (PGY) across teaching hospitals (pure): for every level, the
 * hospitals whose published scale has it, their salary adjusted for the state's cost of living, and their
 * national and state ranks. PGY-1 is the level the residency feeds have always ranked; every other level
 * is adjusted and ranked the same way (colAdjusted, rankLevel), so PGY-1 here equals the PGY-1 of
 * residency/institutions.json. Scales are published pay, not reports: no floors, no rounding, no noise.
 */
import type { InstitutionRow, StateRow } from './dataset.ts';
import { rankHighestFirst } from './ranking.ts';

/** A salary divided by the state's cost-of-living index / 100, to whole dollars; null without an index. */
export function colAdjusted(salary: number, colIndex: number | null): number | null {
  return colIndex ? Math.round(salary / (colIndex / 100)) : null;
}

export interface Position { position: number; of: number }

export interface LevelRow {
  /** index into the institutions given */
  k: number;
  salary: number;
  col_adjusted: number | null;
  /** among the scales of the same academic year with this level (every state); null when not adjusted */
  rank: Position | null;
  /** among the same state's scales of that academic year with this level */
  state_rank: Position | null;
}

/** The highest PGY level any scale publishes (0 when there is none). */
export function maxLevel(institutions: readonly InstitutionRow[]): number {
  return institutions.reduce((m, i) => Math.max(m, i.pay.length), 0);
}

/**
 * One level: a row per hospital whose scale has PGY-`pgy` (scales run 1, 2, 3, ... without gaps, so a
 * hospital without it is one whose scale ends earlier), in the order given. Ranks compare scales of the
 * same academic year only; ties share a position (1, 2, 2, 4), broken for listing by slug.
 */
export function levelRows(institutions: readonly InstitutionRow[], states: readonly StateRow[], pgy: number): LevelRow[] {
  const colOf = new Map(states.map((s) => [s.code, s.col_index]));
  const rows: LevelRow[] = [];
  institutions.forEach((inst, k) => {
    const salary = inst.pay[pgy - 1];
    if (salary === undefined) return;
    rows.push({ k, salary, col_adjusted: colAdjusted(salary, colOf.get(inst.state) ?? null), rank: null, state_rank: null });
  });
  const ranked = rows.filter((r) => r.col_adjusted !== null);
  const rankWithin = (group: LevelRow[]) => rankHighestFirst(group, (r) => r.col_adjusted!, (a, b) => institutions[a.k]!.slug.localeCompare(institutions[b.k]!.slug));
  for (const year of new Set(ranked.map((r) => institutions[r.k]!.academic_year))) {
    const sameYear = ranked.filter((r) => institutions[r.k]!.academic_year === year);
    for (const { rank, item } of rankWithin(sameYear)) item.rank = { position: rank, of: sameYear.length };
    for (const code of new Set(sameYear.map((r) => institutions[r.k]!.state))) {
      const sameState = sameYear.filter((r) => institutions[r.k]!.state === code);
      for (const { rank, item } of rankWithin(sameState)) item.state_rank = { position: rank, of: sameState.length };
    }
  }
  return rows;
}
