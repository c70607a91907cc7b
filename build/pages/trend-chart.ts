/**
 * The by-year chart of a specialty page (pure): the median as a line and the P25-P75 band, by
 * compensation year. Withheld years are gaps (nothing is drawn across them, nothing interpolated); the
 * current (partial) year is drawn apart: its segment dashed, its point hollow, its band lighter, its
 * tick "2026*". Coordinates are rounded to 0.01 so the bytes are the same on every build.
 */
import { CHART_WIDTH, niceDomain, scaleX, type ChartText } from './chart.ts';
import { attrs, esc, fmtMoney, fmtMoneyShort } from './html.ts';

export interface TrendRow {
  year: number;
  median: number | null;
  p25: number | null;
  p75: number | null;
  partial: boolean;
}

export const TREND = { left: 52, right: CHART_WIDTH - 16, top: 16, plot: 150, height: 200 } as const;

interface Pt { year: number; x: number; median: number; p25: number; p75: number; partial: boolean }

export interface TrendGeometry {
  /** x of each year's tick */
  years: { year: number; x: number; partial: boolean; published: boolean }[];
  yTicks: { value: number; y: number }[];
  /** runs of consecutive published years (a withheld year ends a run); the partial year is its own run */
  runs: Pt[][];
  /** the dashed link from the last full year to the partial year, when both are published */
  partialLink: [Pt, Pt] | null;
}

const r2 = (v: number) => Math.round(v * 100) / 100;

export function trendGeometry(rows: TrendRow[]): TrendGeometry | null {
  const pub = rows.filter((r) => r.median !== null && r.p25 !== null && r.p75 !== null);
  if (!pub.length || !rows.length) return null;
  const d = niceDomain(Math.min(...pub.map((r) => r.p25!)), Math.max(...pub.map((r) => r.p75!)), 4);
  const bottom = TREND.top + TREND.plot;
  const y = (v: number) => r2(bottom - ((v - d.lo) / (d.hi - d.lo || 1)) * TREND.plot);
  const first = rows[0]!.year;
  const last = rows[rows.length - 1]!.year;
  const x = scaleX({ lo: first - 0.5, hi: last + 0.5, step: 1, ticks: [] }, TREND.left, TREND.right);
  const runs: Pt[][] = [];
  let run: Pt[] = [];
  let prev: Pt | null = null;
  let partialLink: [Pt, Pt] | null = null;
  for (const r of rows) {
    if (r.median === null || r.p25 === null || r.p75 === null) {
      if (run.length) runs.push(run);
      run = [];
      prev = null;
      continue;
    }
    const p: Pt = { year: r.year, x: x(r.year), median: y(r.median), p25: y(r.p25), p75: y(r.p75), partial: r.partial };
    if (p.partial && run.length && !run[run.length - 1]!.partial) {
      if (prev) partialLink = [prev, p];
      runs.push(run);
      run = [];
    }
    run.push(p);
    prev = p;
  }
  if (run.length) runs.push(run);
  return {
    years: rows.map((r) => ({ year: r.year, x: x(r.year), partial: r.partial, published: r.median !== null })),
    yTicks: d.ticks.map((value) => ({ value, y: y(value) })),
    runs,
    partialLink,
  };
}

const pts = (ps: { x: number; y: number }[]) => ps.map((p) => `${p.x},${p.y}`).join(' ');

/** The chart, or '' when no year is published. Figures stay in the table beside it. */
export function trendSvg(c: ChartText, rows: TrendRow[]): string {
  const g = trendGeometry(rows);
  if (!g) return '';
  const out: string[] = [
    `<svg${attrs({ xmlns: 'http://www.w3.org/2000/svg', class: 'chart trend', viewBox: `0 0 ${CHART_WIDTH} ${TREND.height}`, role: 'img', 'aria-labelledby': `${c.id}-title`, 'aria-describedby': `${c.id}-desc`, 'data-chart': c.id })}>`
      + `<title${attrs({ id: `${c.id}-title` })}>${esc(c.title)}</title><desc${attrs({ id: `${c.id}-desc` })}>${esc(c.desc)}</desc>`,
    '<g class="grid">',
  ];
  for (const t of g.yTicks) {
    out.push(`<line${attrs({ x1: TREND.left, x2: TREND.right, y1: t.y, y2: t.y })}/>`);
    out.push(`<text${attrs({ x: TREND.left - 6, y: r2(t.y + 4), 'text-anchor': 'end', class: 'tick' })}>${esc(fmtMoneyShort(t.value))}</text>`);
  }
  out.push('</g>');
  const bottom = TREND.top + TREND.plot;
  const lastYear = g.years[g.years.length - 1]!.year;
  const every = g.years.length > 6 ? 2 : 1; // phones render ticks at 15 units: every other year when there are many
  for (const t of g.years) {
    if ((lastYear - t.year) % every !== 0) continue;
    out.push(`<text${attrs({ x: t.x, y: bottom + 18, 'text-anchor': 'middle', class: t.published ? 'tick' : 'tick gap' })}>${esc(`${t.year}${t.partial ? '*' : ''}`)}</text>`);
  }
  for (const run of g.runs) {
    const partial = run[0]!.partial;
    if (run.length === 1) {
      const p = run[0]!;
      out.push(`<line${attrs({ x1: p.x, x2: p.x, y1: p.p75, y2: p.p25, class: partial ? 'band-line partial' : 'band-line' })}/>`);
    } else {
      const poly = [...run.map((p) => ({ x: p.x, y: p.p75 })), ...[...run].reverse().map((p) => ({ x: p.x, y: p.p25 }))];
      out.push(`<polygon${attrs({ points: pts(poly), class: partial ? 'band partial' : 'band' })}/>`);
      out.push(`<polyline${attrs({ points: pts(run.map((p) => ({ x: p.x, y: p.median }))), class: partial ? 'trend-line partial' : 'trend-line' })}/>`);
    }
  }
  if (g.partialLink) {
    const [a, b] = g.partialLink;
    out.push(`<polygon${attrs({ points: pts([{ x: a.x, y: a.p75 }, { x: b.x, y: b.p75 }, { x: b.x, y: b.p25 }, { x: a.x, y: a.p25 }]), class: 'band partial' })}/>`);
    out.push(`<line${attrs({ x1: a.x, y1: a.median, x2: b.x, y2: b.median, class: 'trend-line partial' })}/>`);
  }
  for (const run of g.runs) for (const p of run) out.push(`<circle${attrs({ cx: p.x, cy: p.median, r: 3.5, class: p.partial ? 'dot partial' : 'dot' })}/>`);
  const firstPt = g.runs[0]![0]!;
  out.push(`<text${attrs({ x: r2(firstPt.x - 4), y: r2(firstPt.median - 9), class: 'small strong' })}>Median</text>`);
  const partialPt = g.runs.flat().find((p) => p.partial);
  if (partialPt) out.push(`<text${attrs({ x: partialPt.x, y: TREND.top - 4, 'text-anchor': 'middle', class: 'small' })}>partial</text>`);
  out.push('</svg>');
  return out.join('\n');
}

/** Text for the chart's <desc>: every year's median and quartiles, or why it is missing. */
export function trendDesc(rows: (TrendRow & { n: number | null })[], floor: number): string {
  return rows.map((r) => (r.median === null
    ? `${r.year}: withheld (fewer than ${floor} reports)`
    : `${r.year}${r.partial ? ' (partial year)' : ''}: median ${fmtMoney(r.median)}, P25 ${fmtMoney(r.p25!)}, P75 ${fmtMoney(r.p75!)}, n=${r.n}`)).join('; ');
}
