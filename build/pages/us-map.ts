/**
 * A US choropleth of state medians as inline SVG (pure, given the outlines of us-map-outline.ts): five
 * equal-width colour classes over the published medians' range (bounds on whole $1,000s, a colour-blind-safe
 * sequential blue palette), withheld and no-data states hatched. Every state is a link to its page with an
 * aria-label (keyboard focus) and a <title> (hover) giving its median and n; the figures in the title carry
 * data-field / data-value like every figure, so the build's audit and the tests check them against the feed.
 * The legend is HTML under the map (it reflows on phones): the classes with their bounds, and the hatch.
 */
import { attrs, esc, fmtCount, fmtMoney, withheldText } from './html.ts';
import { MAP_HEIGHT, MAP_WIDTH, stateOutlines, type StateOutline } from './us-map-outline.ts';

/** ColorBrewer "Blues" (its 6-class scale without the palest, which would not stand out from the hatch) (sequential, colour-blind safe), lightest = lowest medians. */
export const MAP_COLOURS = ['#c6dbef', '#9ecae1', '#6baed6', '#3182bd', '#08519c'] as const;
export const CLASS_COUNT = MAP_COLOURS.length;

export interface MapState {
  code: string;
  name: string;
  n: number | null;
  median: number | null;
  /** the state's page */
  href: string;
  /** the feed of this state's figures when it is not the section's (data-feed on the state's link) */
  feed?: string;
  /** JSON paths of n and median in that feed */
  nField: string;
  medianField: string;
}

export interface MapSpec {
  id: string;
  title: string;
  desc: string;
  /** floor named for withheld states */
  floor: number;
  /**
   * Colour only states with at least this many reports (the home page: 15); the others, withheld or not,
   * are hatched as "not enough reports (fewer than minN)" and show no figure. Default: every published state.
   */
  minN?: number;
  states: MapState[];
}

/**
 * Class bounds: CLASS_COUNT + 1 multiples of $1,000 from the lowest median (rounded down) up past the highest,
 * in equal steps. Class k holds medians in [bounds[k], bounds[k + 1]) (the last one includes its top).
 */
export function classBounds(medians: number[]): number[] {
  if (!medians.length) return [];
  const lo = Math.floor(Math.min(...medians) / 1000) * 1000;
  const hi = Math.ceil(Math.max(...medians) / 1000) * 1000;
  const step = Math.max(1000, Math.ceil((hi - lo) / CLASS_COUNT / 1000) * 1000);
  return Array.from({ length: CLASS_COUNT + 1 }, (_, k) => lo + k * step);
}

export function classOf(median: number, bounds: number[]): number {
  for (let k = CLASS_COUNT - 1; k > 0; k--) if (median >= bounds[k]!) return k;
  return 0;
}

const span = (field: string, value: number, text: string) => `<span${attrs({ 'data-field': field, 'data-value': value })}>${esc(text)}</span>`;

/** A state coloured on the map: published, and with at least spec.minN reports when the map sets one. */
const coloured = (spec: MapSpec, s: MapState) => s.median !== null && s.n !== null && s.n >= (spec.minN ?? 0);

function stateShape(spec: MapSpec, o: StateOutline, s: MapState | undefined, bounds: number[], hatch: string): string {
  if (s && spec.minN !== undefined && !coloured(spec, s)) {
    const label = `${s.name}: not enough reports (fewer than ${spec.minN})`;
    return `<a${attrs({ href: s.href, class: 'st thin', 'aria-label': label, 'data-state': s.code })}><path${attrs({ d: o.d, fill: hatch })}/><title>${esc(label)}</title></a>`;
  }
  if (!s) {
    const label = `${o.name}: no data`;
    return `<g class="st none"><path${attrs({ d: o.d, fill: hatch })}/><title>${esc(label)}</title></g>`;
  }
  if (s.median === null || s.n === null) {
    const label = `${s.name}: ${withheldText(spec.floor)}`;
    return `<a${attrs({ href: s.href, class: 'st withheld', 'aria-label': label, 'data-state': s.code })}><path${attrs({ d: o.d, fill: hatch })}/><title>${esc(label)}</title></a>`;
  }
  const k = classOf(s.median, bounds);
  const label = `${s.name}: median ${fmtMoney(s.median)}, ${fmtCount(s.n)} reports`;
  const title = `${esc(s.name)}: median ${span(s.medianField, s.median, fmtMoney(s.median))}, n = ${span(s.nField, s.n, fmtCount(s.n))}`;
  return `<a${attrs({ href: s.href, class: `st c${k}`, 'aria-label': label, 'data-state': s.code, 'data-feed': s.feed })}><path${attrs({ d: o.d, fill: MAP_COLOURS[k] })}/><title>${title}</title></a>`;
}

/** The map and its legend. `outlines` defaults to the us-atlas states. */
export function usMap(spec: MapSpec, outlines: StateOutline[] = stateOutlines()): string {
  const byCode = new Map(spec.states.map((s) => [s.code, s]));
  const medians = spec.states.filter((s) => coloured(spec, s)).map((s) => s.median!);
  const bounds = classBounds(medians);
  const hatchId = `${spec.id}-hatch`;
  const hatch = `url(#${hatchId})`;
  const shapes = outlines.map((o) => stateShape(spec, o, byCode.get(o.code), bounds, hatch)).join('\n');
  const svg = `<svg${attrs({ class: 'map', viewBox: `0 0 ${MAP_WIDTH} ${MAP_HEIGHT}`, role: 'group', 'aria-labelledby': `${spec.id}-t`, 'aria-describedby': `${spec.id}-d` })}>
<title${attrs({ id: `${spec.id}-t` })}>${esc(spec.title)}</title><desc${attrs({ id: `${spec.id}-d` })}>${esc(spec.desc)}</desc>
<defs><pattern${attrs({ id: hatchId, width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' })}><rect width="8" height="8" fill="#f6f8fa"/><line x1="0" y1="0" x2="0" y2="8" stroke="#8c959f" stroke-width="3"/></pattern></defs>
${shapes}
</svg>`;
  const swatch = (fill: string) => `<svg${attrs({ width: 18, height: 12, viewBox: '0 0 18 12', 'aria-hidden': 'true', focusable: 'false' })}><rect width="18" height="12" fill="${esc(fill)}" stroke="#8c959f" stroke-width="1"/></svg>`;
  const items = bounds.length
    ? MAP_COLOURS.map((c, k) => `<li>${swatch(c)}${esc(fmtMoney(bounds[k]!))} to ${k === CLASS_COUNT - 1 ? '' : 'under '}${esc(fmtMoney(bounds[k + 1]!))}</li>`)
    : [];
  items.push(`<li>${swatch(hatch)}${esc(spec.minN !== undefined ? `not enough reports (fewer than ${spec.minN})` : `${withheldText(spec.floor)} or no data`)}</li>`);
  return `<div class="usmap">${svg}
<ul class="map-legend" aria-label="${esc(`Legend: median total compensation, ${CLASS_COUNT} equal-width classes`)}">${items.join('')}</ul></div>`;
}
