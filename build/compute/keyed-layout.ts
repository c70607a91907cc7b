/**
 * The cells of one specialty's keyed artifact laid out once (pure): every report belongs to up to 12 cells
 * (geography national / region / state x practice setting any / its own x employment type any / its own),
 * numbered geo x setting x employment. Members of every cell are listed in one flat array (CSR: cell c
 * holds members[offsets[c] .. offsets[c + 1])), in ascending report position, which is ascending
 * winsorized total.
 *
 * The other columns a cell reports percentiles of (FTE total, base, bonus, wRVUs, total per wRVU) are
 * distributed the same way after one sort of the whole specialty: walking the reports in ascending order
 * of a column and appending each value to every cell the report belongs to leaves every cell's values
 * sorted, so no cell sorts again (12 sorts of every report before).
 */
import { EMPLOYMENT_TYPES, PRACTICE_SETTINGS } from '../contract/vocab.ts';

export interface CellLayout {
  /** number of cell ids: geo x setting x employment (geo 0 = national, 1.. regions, then states; 0 = any, else index + 1) */
  cells: number;
  /** offsets into members, length cells + 1 */
  offsets: Int32Array;
  members: Int32Array;
  /** cells of each report: ids[r * 12 ..], `memberships[r]` of them */
  ids: Int32Array;
  memberships: Uint8Array;
}

export const SETTING_SLOTS = PRACTICE_SETTINGS.length + 1;
export const EMPLOYMENT_SLOTS = EMPLOYMENT_TYPES.length + 1;
const PER_REPORT = 12;

/**
 * `state[r]` is each report's state index, `regionOfState[s]` the region index of a state, `setting[r]` and
 * `employment[r]` -1 when unknown.
 */
export function cellLayout(count: number, state: Int16Array, regionOfState: Int32Array, regionCount: number, setting: Int8Array, employment: Int8Array): CellLayout {
  const geoCount = 1 + regionCount + regionOfState.length;
  const cells = geoCount * SETTING_SLOTS * EMPLOYMENT_SLOTS;
  const ids = new Int32Array(count * PER_REPORT);
  const memberships = new Uint8Array(count);
  const sizes = new Int32Array(cells);
  for (let r = 0; r < count; r++) {
    const s = state[r]!;
    const geos = [0, 1 + regionOfState[s]!, 1 + regionCount + s];
    const st = setting[r]! + 1;
    const em = employment[r]! + 1;
    let m = 0;
    for (const g of geos) {
      const base = g * SETTING_SLOTS;
      for (let a = 0; a < (st > 0 ? 2 : 1); a++) {
        const row = (base + (a === 0 ? 0 : st)) * EMPLOYMENT_SLOTS;
        for (let b = 0; b < (em > 0 ? 2 : 1); b++) {
          const id = row + (b === 0 ? 0 : em);
          ids[r * PER_REPORT + m++] = id;
          sizes[id]!++;
        }
      }
    }
    memberships[r] = m;
  }
  const offsets = new Int32Array(cells + 1);
  for (let c = 0; c < cells; c++) offsets[c + 1] = offsets[c]! + sizes[c]!;
  const fill = offsets.slice(0, cells);
  const members = new Int32Array(offsets[cells]!);
  for (let r = 0; r < count; r++) {
    for (let k = 0; k < memberships[r]!; k++) members[fill[ids[r * PER_REPORT + k]!]!++] = r;
  }
  return { cells, offsets, members, ids, memberships };
}

/** Decode a cell id into (geo, setting slot, employment slot). */
export function cellParts(id: number): { geo: number; setting: number; employment: number } {
  const employment = id % EMPLOYMENT_SLOTS;
  const rest = (id - employment) / EMPLOYMENT_SLOTS;
  const setting = rest % SETTING_SLOTS;
  return { geo: (rest - setting) / SETTING_SLOTS, setting, employment };
}

/** Report positions ascending by `values` (NaN left out); ties keep report order. */
export function ascendingOrder(values: Float64Array): Int32Array {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort();
  const order = new Int32Array(sorted.length);
  const taken = new Int32Array(sorted.length);
  for (let r = 0; r < values.length; r++) {
    const v = values[r]!;
    if (Number.isNaN(v)) continue;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    order[lo + taken[lo]!++] = r;
  }
  return order;
}

/**
 * Every cell's values of one column, ascending, NaN left out: cell c holds
 * values[layout.offsets[c] .. layout.offsets[c] + counts[c]).
 */
export function distributeSorted(layout: CellLayout, column: Float64Array): { values: Float64Array; counts: Int32Array } {
  const values = new Float64Array(layout.members.length);
  const counts = new Int32Array(layout.cells);
  const { ids, memberships, offsets } = layout;
  const order = ascendingOrder(column);
  for (let k = 0; k < order.length; k++) {
    const r = order[k]!;
    const v = column[r]!;
    for (let j = 0; j < memberships[r]!; j++) {
      const id = ids[r * PER_REPORT + j]!;
      values[offsets[id]! + counts[id]!++] = v;
    }
  }
  return { values, counts };
}

/** A cell's slice of a distributed column. */
export function cellSlice(d: { values: Float64Array; counts: Int32Array }, layout: CellLayout, id: number): Float64Array {
  const start = layout.offsets[id]!;
  return d.values.subarray(start, start + d.counts[id]!);
}
