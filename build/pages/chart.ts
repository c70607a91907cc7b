/**
 * Inline SVG charts (pure): geometry functions that tests can check, and renderers that draw them.
 * Every chart has role="img", a <title> and <desc> named by aria-labelledby / aria-describedby, scales
 * with its container (viewBox, width 100%), and sits next to a table with the same figures. Number
 * labels carry data-field / data-value like the tables, so the figures drawn are checked like the rest.
 */
import { attrs, esc, fmtMoney, fmtMoneyShort } from './html.ts';
import { labelWidth, placeLabels, type LabelSpec } from './label-layout.ts';

export { labelWidth };
export const CHART_WIDTH = 400;
/** Units kept between two labels of a row (label-layout.ts). */
export const LABEL_GAP = 6;
/** Rows of labels under the bar: the first row's offset from the bar, and the step to the next row. */
const LABEL_ROW = { first: 32, step: 18 } as const;

export interface Domain {
  lo: number;
  hi: number;
  step: number;
  ticks: number[];
}

/** A "nice" tick step (1, 2, 2.5 or 5 x 10^k) giving about `target` intervals over `span`. */
export function niceStep(span: number, target = 4): number {
  if (!(span > 0)) return 1;
  const raw = span / target;
  const pow = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * pow >= raw) return m * pow;
  return 10 * pow;
}

/** The smallest nice interval holding [lo, hi], never below 0, with its ticks. */
export function niceDomain(lo: number, hi: number, target = 4): Domain {
  if (hi <= lo) {
    const pad = Math.abs(hi) * 0.1 || 1;
    lo -= pad;
    hi += pad;
  }
  const step = niceStep(hi - lo, target);
  const nlo = Math.max(0, Math.floor(lo / step) * step);
  const nhi = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  for (let t = nlo; t <= nhi + step / 1e6; t += step) ticks.push(Math.round(t * 1e6) / 1e6);
  return { lo: nlo, hi: nhi, step, ticks };
}

export function scaleX(d: Domain, left: number, right: number): (v: number) => number {
  const span = d.hi - d.lo || 1;
  return (v) => round2(left + ((v - d.lo) / span) * (right - left));
}

const round2 = (v: number) => Math.round(v * 100) / 100;

// ------------------------------------------------------------------------------------ percentile bar

export interface PercentileFigures {
  p10: number | null;
  p25: number | null;
  median: number | null;
  p75: number | null;
  p90: number | null;
}

export interface PercentileGeometry {
  domain: Domain;
  /** x of each tick value */
  ticks: { value: number; x: number }[];
  /** P10-P90 line, when both tails are published */
  whisker: { x1: number; x2: number } | null;
  /** P25-P75 box, when both quartiles are published */
  box: { x: number; width: number } | null;
  median: number | null;
  /** x of the reference value (e.g. the national median), when given */
  reference: number | null;
  x: (v: number) => number;
}

export const PLOT = { left: 16, right: CHART_WIDTH - 16 };

/**
 * Where each part of the percentile bar goes; null when no figure is published. One baseline rule for
 * every distribution chart: the axis starts at $0 (so positions compare across pages and a box never
 * looks wider than it is), and ends at the next nice value past the highest figure.
 */
export function percentileGeometry(p: PercentileFigures, reference: number | null = null): PercentileGeometry | null {
  const values = [p.p10, p.p25, p.median, p.p75, p.p90, reference].filter((v): v is number => v !== null);
  if (p.median === null && p.p25 === null && p.p75 === null) return null;
  const max = Math.max(...values);
  const domain = niceDomain(0, max * 1.04);
  const x = scaleX(domain, PLOT.left, PLOT.right);
  return {
    domain,
    ticks: domain.ticks.map((value) => ({ value, x: x(value) })),
    whisker: p.p10 !== null && p.p90 !== null ? { x1: x(p.p10), x2: x(p.p90) } : null,
    box: p.p25 !== null && p.p75 !== null ? { x: x(p.p25), width: round2(x(p.p75) - x(p.p25)) } : null,
    median: p.median !== null ? x(p.median) : null,
    reference: reference !== null ? x(reference) : null,
    x,
  };
}

/** A number label of a chart, checkable like a table cell. */
function num(field: string, value: number, text: string): string {
  return `<tspan${attrs({ 'data-field': field, 'data-value': value })}>${esc(text)}</tspan>`;
}

export interface ChartText {
  id: string;
  title: string;
  desc: string;
}

function svgOpen(c: ChartText, height: number): string {
  return `<svg${attrs({ xmlns: 'http://www.w3.org/2000/svg', class: 'chart', viewBox: `0 0 ${CHART_WIDTH} ${height}`, role: 'img', 'aria-labelledby': `${c.id}-title`, 'aria-describedby': `${c.id}-desc`, 'data-chart': c.id })}>`
    + `<title${attrs({ id: `${c.id}-title` })}>${esc(c.title)}</title><desc${attrs({ id: `${c.id}-desc` })}>${esc(c.desc)}</desc>`;
}

/**
 * The P10-P90 line, P25-P75 box and median marker of one cell. `fieldPrefix` names the figures' JSON
 * path in their feed (e.g. "" or "wrvu."); `cents` for $/wRVU. Returns '' when nothing is published.
 */
export function percentileBarSvg(
  c: ChartText,
  p: PercentileFigures,
  opts: { fieldPrefix?: string; cents?: boolean; reference?: { value: number; label: string; field: string } | null } = {},
): string {
  const ref = opts.reference ?? null;
  const g = percentileGeometry(p, ref?.value ?? null);
  if (!g) return '';
  const f = (k: string) => `${opts.fieldPrefix ?? ''}${k}`;
  const money = (v: number) => fmtMoney(v, Boolean(opts.cents) && !Number.isInteger(v));
  const top = ref ? 18 : 0;
  const yMedianLabel = top + 16;
  const yBar = top + 46;
  // the labels under the bar: P25 and P75 on the first row, P10 and P90 on the second, each moved down a row
  // while its room is taken (label-layout.ts); the chart grows by the rows added
  const under: { field: string; v: number; name: string; spec: LabelSpec }[] = [];
  const ask = (field: string, v: number | null, name: string, side: 'left' | 'right', row: number) => {
    if (v !== null) under.push({ field, v, name, spec: { text: `${name} ${money(v)}`, x: g.x(v), side, row } });
  };
  ask('p25', p.p25, 'P25', 'left', 0);
  ask('p75', p.p75, 'P75', 'right', 0);
  ask('p10', p.p10, 'P10', 'left', 1);
  ask('p90', p.p90, 'P90', 'right', 1);
  const placed = placeLabels(under.map((u) => u.spec), CHART_WIDTH, LABEL_GAP);
  const extraRows = Math.max(0, ...placed.map((l) => l.row - 1));
  const extra = extraRows * LABEL_ROW.step;
  const height = top + 130 + extra;
  const out: string[] = [svgOpen(c, height)];
  out.push('<g class="grid">');
  for (const t of g.ticks) {
    out.push(`<line${attrs({ x1: t.x, x2: t.x, y1: top + 24, y2: yBar + 56 + extra })}></line>`);
    const tick = opts.cents ? money(t.value) : fmtMoneyShort(t.value);
    out.push(`<text${attrs({ x: t.x, y: height - 4, 'text-anchor': anchorFor(t.x, labelWidth(tick)), class: 'tick' })}>${esc(tick)}</text>`);
  }
  out.push('</g>');
  if (g.whisker) {
    out.push(`<line${attrs({ class: 'whisker', x1: g.whisker.x1, x2: g.whisker.x2, y1: yBar, y2: yBar })}></line>`);
    for (const wx of [g.whisker.x1, g.whisker.x2]) out.push(`<line${attrs({ class: 'whisker', x1: wx, x2: wx, y1: yBar - 8, y2: yBar + 8 })}></line>`);
  }
  if (g.box) out.push(`<rect${attrs({ class: 'box', x: g.box.x, y: yBar - 14, width: g.box.width, height: 28, rx: 3 })}></rect>`);
  if (g.median !== null && p.median !== null) {
    out.push(`<line${attrs({ class: 'median', x1: g.median, x2: g.median, y1: yBar - 20, y2: yBar + 20 })}></line>`);
    out.push(`<text${attrs({ x: g.median, y: yMedianLabel, 'text-anchor': anchorFor(g.median, labelWidth(`Median ${money(p.median)}`, true)), class: 'label strong' })}>Median ${num(f('median'), p.median, money(p.median))}</text>`);
  }
  if (ref && g.reference !== null) {
    out.push(`<line${attrs({ class: 'reference', x1: g.reference, x2: g.reference, y1: 4, y2: yBar + 22 })}></line>`);
    out.push(`<text${attrs({ x: g.reference, y: 12, 'text-anchor': anchorFor(g.reference, labelWidth(`${ref.label} ${money(ref.value)}`)), class: 'label ref' })}>${esc(ref.label)} ${num(ref.field, ref.value, money(ref.value))}</text>`);
  }
  under.forEach((u, i) => {
    const l = placed[i]!;
    out.push(`<text${attrs({ x: l.x, y: yBar + LABEL_ROW.first + l.row * LABEL_ROW.step, 'text-anchor': l.anchor, class: 'label' })}>${esc(u.name)} ${num(f(u.field), u.v, money(u.v))}</text>`);
  });
  out.push('</svg>');
  return out.join('');
}

/** Keep labels near the edges inside the chart. */
function anchorFor(x: number, width: number): 'start' | 'middle' | 'end' {
  if (x < width / 2) return 'start';
  if (x > CHART_WIDTH - width / 2) return 'end';
  return 'middle';
}

// ------------------------------------------------------------------------------------ ranked bars

export interface RankedItem {
  label: string;
  value: number;
  /** JSON path of the value in its feed */
  field: string;
  /** a reference marker on the bar (e.g. the national median) */
  reference?: { value: number; field: string } | null;
  /** the published rank (ties share one); default: the position */
  rank?: number | null;
}

export const RANK = { left: 4, labelRoom: 88, row: 40 } as const;

export interface RankedGeometry {
  domain: Domain;
  rows: { y: number; width: number; referenceX: number | null }[];
  height: number;
}

/** Bars from 0 (so lengths compare honestly), one row each, longest scale value at the right. */
export function rankedGeometry(items: { value: number; reference?: { value: number } | null }[]): RankedGeometry {
  const max = Math.max(0, ...items.flatMap((it) => [it.value, it.reference?.value ?? 0]));
  const domain = niceDomain(0, max || 1);
  const right = CHART_WIDTH - RANK.labelRoom;
  const x = scaleX(domain, RANK.left, right);
  return {
    domain,
    rows: items.map((it, k) => ({ y: 8 + k * RANK.row, width: round2(x(it.value) - RANK.left), referenceX: it.reference ? x(it.reference.value) : null })),
    height: 8 + items.length * RANK.row + 4,
  };
}

export function rankedBarsSvg(c: ChartText, items: RankedItem[], opts: { cents?: boolean } = {}): string {
  if (!items.length) return '';
  const g = rankedGeometry(items);
  const out: string[] = [svgOpen(c, g.height)];
  items.forEach((it, k) => {
    const row = g.rows[k]!;
    const yLabel = row.y + 12;
    const yBar = row.y + 17;
    out.push(`<text${attrs({ x: RANK.left, y: yLabel, class: 'label' })}>${esc(`${it.rank ?? k + 1}. ${it.label}`)}</text>`);
    out.push(`<rect${attrs({ class: 'bar', x: RANK.left, y: yBar, width: Math.max(row.width, 1), height: 14, rx: 2 })}></rect>`);
    const labelX = round2(Math.max(RANK.left + row.width, row.referenceX ?? 0) + 6); // past the bar and its reference marker
    out.push(`<text${attrs({ x: labelX, y: yBar + 12, class: 'label strong' })}>${num(it.field, it.value, fmtMoney(it.value, Boolean(opts.cents)))}</text>`);
    if (it.reference && row.referenceX !== null) {
      out.push(`<line${attrs({ class: 'reference', x1: row.referenceX, x2: row.referenceX, y1: yBar - 3, y2: yBar + 17 })}></line>`);
    }
  });
  out.push('</svg>');
  return out.join('');
}

// ------------------------------------------------------------------------------------ PGY scale

export interface PgyGeometry {
  domain: Domain;
  bars: { x: number; y: number; width: number; height: number; center: number }[];
  baseline: number;
  height: number;
}

/** top: room for two rows of value labels (staggered when the bars are too narrow for one row) */
export const PGY = { top: 42, plot: 150, left: 8, right: 8 } as const;

/** Vertical bars, one per PGY level, from 0. */
export function pgyGeometry(salaries: number[]): PgyGeometry {
  const domain = niceDomain(0, Math.max(1, ...salaries));
  const slot = (CHART_WIDTH - PGY.left - PGY.right) / Math.max(1, salaries.length);
  const baseline = PGY.top + PGY.plot;
  return {
    domain,
    baseline,
    height: baseline + 22,
    bars: salaries.map((s, k) => {
      const h = round2((s / domain.hi) * PGY.plot);
      const width = round2(slot * 0.62);
      const x = round2(PGY.left + k * slot + (slot - width) / 2);
      return { x, y: round2(baseline - h), width, height: h, center: round2(x + width / 2) };
    }),
  };
}

export function pgySvg(c: ChartText, scale: { pgy: number; salary: number }[], fieldOf: (k: number) => string): string {
  if (!scale.length) return '';
  const g = pgyGeometry(scale.map((s) => s.salary));
  const out: string[] = [svgOpen(c, g.height)];
  out.push(`<line${attrs({ class: 'axis', x1: PGY.left, x2: CHART_WIDTH - PGY.right, y1: g.baseline, y2: g.baseline })}></line>`);
  const slot = (CHART_WIDTH - PGY.left - PGY.right) / scale.length;
  // Too narrow for the labels side by side: value labels in two rows above the plot (alternating), year labels as bare numbers.
  const stagger = scale.some((s) => labelWidth(fmtMoney(s.salary)) + 6 > slot);
  const longYears = scale.every((s) => labelWidth(`PGY-${s.pgy}`) + 6 <= slot);
  scale.forEach((s, k) => {
    const b = g.bars[k]!;
    out.push(`<rect${attrs({ class: 'bar', x: b.x, y: b.y, width: b.width, height: b.height, rx: 2 })}></rect>`);
    out.push(`<text${attrs({ x: b.center, y: stagger ? PGY.top - 6 - (k % 2) * 18 : round2(b.y - 6), 'text-anchor': 'middle', class: 'label' })}>${num(fieldOf(k), s.salary, fmtMoney(s.salary))}</text>`);
    out.push(`<text${attrs({ x: b.center, y: g.baseline + 16, 'text-anchor': 'middle', class: 'label' })}>${esc(longYears ? `PGY-${s.pgy}` : String(s.pgy))}</text>`);
  });
  out.push('</svg>');
  return out.join('');
}
