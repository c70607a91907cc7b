/**
 * A specialty's national figures by compensation year (the `by_year` rows of specialties/{slug}.json), pure.
 * Each year is an open cell like every other (openCell: outliers decided per report beforehand, floor 5,
 * rounding by n). Rows carry n, median, P25 and P75 only: no mean (a mean is a sum and would need the
 * disclosure perturbation), no P10/P90. Every year from `firstYear` to `lastYear` has a row, so a year
 * without enough reports is a withheld row (a gap), never left out; years from `partialFrom` on are
 * still being reported.
 */
import type { Dataset } from './dataset.ts';
import type { NationalFacts } from './national.ts';
import type { YearRow } from '../contract/open-feeds.ts';
import { groupBy, openCell, totalsOf } from './cells.ts';
import { FLOORS } from './stats.ts';

export interface YearSpan {
  firstYear: number;
  lastYear: number;
  /** compensation years from this one on are still being reported */
  partialFrom: number;
}

/** First and last compensation year of the reports of `ds`; `partialFrom` is the newest submission's year (of all approved reports). */
export function yearSpan(ds: Dataset, partialFrom: number): YearSpan {
  let first = Infinity;
  let last = -Infinity;
  for (const y of ds.reports.year) {
    if (y < first) first = y;
    if (y > last) last = y;
  }
  if (!Number.isFinite(first)) return { firstYear: partialFrom, lastYear: partialFrom - 1, partialFrom };
  return { firstYear: first, lastYear: last, partialFrom };
}

/** The by-year rows of one specialty: `all` are its report indexes, ascending by total. */
export function byYearRows(ds: Dataset, facts: NationalFacts, all: number[], span: YearSpan): YearRow[] {
  const years = groupBy(all, (i) => ds.reports.year[i]!);
  const rows: YearRow[] = [];
  for (let year = span.firstYear; year <= span.lastYear; year++) {
    const s = openCell(totalsOf(ds, facts, years.get(year) ?? []), FLOORS.national).summary;
    rows.push({ year, n: s.n, median: s.median, p25: s.p25, p75: s.p75, rounded: s.rounded, withheld: s.withheld, partial: year >= span.partialFrom });
  }
  return rows;
}
