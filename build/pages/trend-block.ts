/**
 * "By compensation year" on a specialty page (pure): the trend chart (trend-chart.ts) and a table of the
 * same figures (by_year[k] of specialties/{slug}.json), withheld years named as such, the partial year marked.
 */
import type { SpecialtyFeed } from '../contract/open-feeds.ts';
import { FLOORS } from '../compute/stats.ts';
import { fig } from './figures.ts';
import { esc } from './html.ts';
import { figure, table } from './layout.ts';
import { trendDesc, trendSvg } from './trend-chart.ts';

export interface TrendBlockOptions {
  /** the section's heading (default "By compensation year", id years-h) */
  heading?: string;
  /** HTML after the heading (the home page: which specialty this is and why) */
  intro?: string;
  /** put the table in a closed <details> (the home page: the chart's figures on demand) */
  tableInDetails?: boolean;
}

export function trendBlock(f: SpecialtyFeed, o: TrendBlockOptions = {}): string {
  const rows = f.by_year ?? [];
  if (!rows.length) return '';
  const name = f.specialty.name;
  const floor = FLOORS.national;
  const partial = rows.find((r) => r.partial);
  const published = rows.filter((r) => r.median !== null);
  const note = partial ? ` ${partial.year}* is the current compensation year, still being reported: its figures are partial.` : '';
  const tbl = table(
    `${name}: national total compensation by compensation year`,
    ['Year', 'n', 'P25', 'Median', 'P75'], // narrow enough for a phone: n is explained under the table
    rows.map((r, k) => `<tr><th scope="row">${esc(r.year)}${r.partial ? '*' : ''}</th>`
      + (['n', 'p25', 'median', 'p75'] as const).map((key) => fig(`by_year[${k}].${key}`, r[key], key === 'n' ? 'count' : 'usd', { tag: 'td', className: 'num', floor, compact: true })).join('')
      + '</tr>'),
    { id: 'by-year' },
  );
  // A trend needs two published years: one point (often the partial current year) is no line.
  const chart = published.length >= 2 ? trendSvg({ id: 'trend', title: `${name}: median and P25-P75 by compensation year`, desc: trendDesc(rows, floor) }, rows) : '';
  const shown = chart
    ? figure(chart, `Median (line) and 25th-75th percentile (band) by compensation year; gaps are years with fewer than ${floor} reports.${note}`)
    : published.length === 1
      ? `<p>Only ${esc(published[0]!.year)}${published[0]!.partial ? ' (the current year, still being reported)' : ''} has ${floor} or more reports so far, so there is no trend to draw yet.</p>`
      : `<p>No compensation year has ${floor} or more reports yet.</p>`;
  const tableNote = `<p class="meta">n: approved reports of that compensation year, on the same full-time basis as the headline (part-time pay scaled to 40 hours a week). Withheld: fewer than ${floor} reports that year.${partial ? ` * ${esc(partial.year)} is still being reported: its figures are partial.` : ''}</p>`;
  const tablePart = o.tableInDetails
    ? `<details class="figures"><summary>The figures by year (table)</summary>\n${tbl}\n${tableNote}\n</details>`
    : `${tbl}\n${tableNote}`;
  return `<h2 id="years-h">${esc(o.heading ?? 'By compensation year')}</h2>\n${o.intro ? `${o.intro}\n` : ''}${shown}\n${tablePart}`;
}
