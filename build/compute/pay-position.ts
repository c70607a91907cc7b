/**
 * "Where does this pay fall?" (pure): the position of one compensation among a scope's PUBLISHED
 * percentiles, by linear interpolation between neighbouring grid points. Nothing here sees a report: an
 * exact empirical rank would let a caller walk the values of a small cell and recover each report, so the
 * answer is a function of the published grid and the asked value only. Below the lowest or above the
 * highest published percentile only the band is known (the percentile is null).
 *
 * Used by the keyed API (/api/v1/percentile-rank), the tool server (evaluate_compensation) and the pages'
 * pay check (the same arithmetic, in the page's script).
 */

/** One published percentile: `percentile` in (0, 100), `value` the published figure. */
export interface GridPoint {
  percentile: number;
  value: number;
}

export interface PayPosition {
  /** interpolated percentile, one decimal; null below the lowest or above the highest grid point */
  percentile: number | null;
  /** the band, e.g. "below P10", "P25-P50", "above P90" */
  band: string;
  /** the band's percentile bounds (0 and 100 at the open ends) */
  band_lower_percentile: number;
  band_upper_percentile: number;
  /** the band's published dollar bounds (null at the open ends) */
  band_lower_value: number | null;
  band_upper_value: number | null;
}

const label = (p: number) => `P${p}`;
const oneDecimal = (v: number) => Math.round(v * 10) / 10;

/** Grid points from published figures, skipping withheld (null) ones, in percentile order. */
export function gridOf(figures: { percentile: number; value: number | null }[]): GridPoint[] {
  return figures
    .filter((f): f is GridPoint => f.value !== null && Number.isFinite(f.value))
    .sort((a, b) => a.percentile - b.percentile);
}

/** The five-point grid P10..P90 (P10/P90 may be withheld). */
export function standardGrid(p: { p10: number | null; p25: number | null; p50: number | null; p75: number | null; p90: number | null }): GridPoint[] {
  return gridOf([
    { percentile: 10, value: p.p10 },
    { percentile: 25, value: p.p25 },
    { percentile: 50, value: p.p50 },
    { percentile: 75, value: p.p75 },
    { percentile: 90, value: p.p90 },
  ]);
}

/**
 * Position of `x` on `grid` (ascending percentiles with non-decreasing values, at least two points).
 * Where several grid points share x's value (ties), the percentile is the middle of their range.
 */
export function payPosition(grid: GridPoint[], x: number): PayPosition {
  if (grid.length < 2) throw new RangeError('a pay position needs at least two published percentiles');
  const first = grid[0]!;
  const last = grid[grid.length - 1]!;
  if (x < first.value) {
    return { percentile: null, band: `below ${label(first.percentile)}`, band_lower_percentile: 0, band_upper_percentile: first.percentile, band_lower_value: null, band_upper_value: first.value };
  }
  if (x > last.value) {
    return { percentile: null, band: `above ${label(last.percentile)}`, band_lower_percentile: last.percentile, band_upper_percentile: 100, band_lower_value: last.value, band_upper_value: null };
  }
  const equal = grid.filter((g) => g.value === x);
  if (equal.length > 0) {
    const lo = equal[0]!;
    const hi = equal[equal.length - 1]!;
    // the band is the segment starting at the tie (or ending at it, for the top grid point)
    const i = grid.indexOf(hi);
    const a = i < grid.length - 1 ? hi : grid[i - 1]!;
    const b = i < grid.length - 1 ? grid[i + 1]! : hi;
    return {
      percentile: oneDecimal((lo.percentile + hi.percentile) / 2),
      band: `${label(a.percentile)}-${label(b.percentile)}`,
      band_lower_percentile: a.percentile, band_upper_percentile: b.percentile, band_lower_value: a.value, band_upper_value: b.value,
    };
  }
  let i = 0;
  while (grid[i + 1]!.value < x) i++;
  const a = grid[i]!;
  const b = grid[i + 1]!;
  const t = (x - a.value) / (b.value - a.value);
  return {
    percentile: oneDecimal(a.percentile + t * (b.percentile - a.percentile)),
    band: `${label(a.percentile)}-${label(b.percentile)}`,
    band_lower_percentile: a.percentile, band_upper_percentile: b.percentile, band_lower_value: a.value, band_upper_value: b.value,
  };
}

/** The method, in words, as every interface states it. */
export function payPositionMethod(grid: GridPoint[]): string {
  const names = grid.map((g) => label(g.percentile)).join(', ');
  return `Estimated by linear interpolation between the published percentiles of this scope (${names}); `
    + `below ${label(grid[0]!.percentile)} or above ${label(grid[grid.length - 1]!.percentile)} only the band is given. `
    + 'The estimate uses published figures only, never individual reports.';
}
