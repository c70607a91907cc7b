/**
 * How one figure appears on a page (pure). Every figure is an element carrying its JSON path in its
 * feed (`data-field`, relative to the nearest ancestor's `data-feed`) and its exact value
 * (`data-value`: the JSON number, "withheld", or "null" for a figure that does not exist). Tests read
 * the figures back through these attributes and compare them with the feed; the build's audit runs the
 * publication floors over them.
 */
import { FLOORS } from '../compute/stats.ts';
import { attrs, esc, fmtCount, fmtMoney, fmtPct, fmtRate, withheldText } from './html.ts';

export type Unit = 'usd' | 'rate' | 'count' | 'pct' | 'index' | 'rank';

export function formatValue(value: number, unit: Unit): string {
  switch (unit) {
    case 'usd':
      return fmtMoney(value);
    case 'rate':
      return fmtRate(value);
    case 'count':
    case 'rank':
      return fmtCount(value);
    case 'pct':
      return fmtPct(value);
    case 'index':
      return String(value);
  }
}

export interface FigureOptions {
  /** floor of a withheld figure ("withheld (fewer than N reports)"); without it a null reads "not available" */
  floor?: number | null;
  tag?: string;
  className?: string;
  /** a narrow table: a withheld figure reads just "withheld" (the table's note names the floor once) */
  compact?: boolean;
}

/** One figure element (`<span>` unless `tag` says otherwise). */
export function fig(field: string, value: number | null, unit: Unit, o: FigureOptions = {}): string {
  const tag = o.tag ?? 'span';
  if (value === null) {
    const withheld = o.floor !== undefined && o.floor !== null;
    return `<${tag}${attrs({ class: [o.className, withheld ? 'withheld' : 'na', o.compact ? 'compact' : ''].filter(Boolean).join(' '), 'data-field': field, 'data-value': withheld ? 'withheld' : 'null' })}>${esc(withheld ? (o.compact ? 'withheld' : withheldText(o.floor!)) : 'not available')}</${tag}>`;
  }
  return `<${tag}${attrs({ class: o.className, 'data-field': field, 'data-value': value })}>${esc(formatValue(value, unit))}</${tag}>`;
}

/** A text field shown as is (as_of, attribution): its value is the element's text. */
export function textFig(field: string, value: string, tag = 'span', extra: Record<string, string> = {}): string {
  return `<${tag}${attrs({ ...extra, 'data-field': field })}>${esc(value)}</${tag}>`;
}

/**
 * Floor to name when a figure of a percentile summary is null: the cell's floor when the whole cell is
 * withheld (n null); the tails floor (15) for P10/P90 of a published cell.
 */
export function floorOf(summary: { n: number | null }, field: string, cellFloor: number): number {
  if (summary.n !== null && (field === 'p10' || field === 'p90')) return FLOORS.tails;
  return cellFloor;
}

/** The figures of a percentile summary, in display order. */
export const SUMMARY_ROWS = [
  { key: 'p10', label: '10th percentile (P10)' },
  { key: 'p25', label: '25th percentile (P25)' },
  { key: 'median', label: 'Median (P50)' },
  { key: 'p75', label: '75th percentile (P75)' },
  { key: 'p90', label: '90th percentile (P90)' },
  { key: 'mean', label: 'Mean' },
] as const;
export type SummaryKey = (typeof SUMMARY_ROWS)[number]['key'];
