/**
 * US state outlines for the choropleth maps (us-map.ts): the Census Bureau's cartographic boundaries of
 * us-atlas (states-albers-10m.json: TopoJSON already projected to Albers USA with Alaska and Hawaii inset,
 * in a 975 x 610 frame), converted to SVG path data once per process. The shared borders are simplified
 * once each (within SIMPLIFY_TOLERANCE) and islands under MIN_ISLAND_AREA left out: 24 kB of path data
 * instead of 63 kB. Coordinates are rounded to 0.1 unit and written relative ("l dx dy") in tenths, so the
 * path text is the same on every machine and build.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';
import type { Topology, GeometryCollection } from 'topojson-specification';

export const MAP_WIDTH = 975;
export const MAP_HEIGHT = 610;

/** FIPS state code -> USPS code, the 50 states and DC (the atlas's states). */
export const FIPS_TO_CODE: Readonly<Record<string, string>> = {
  '01': 'AL', '02': 'AK', '04': 'AZ', '05': 'AR', '06': 'CA', '08': 'CO', '09': 'CT', '10': 'DE', '11': 'DC', '12': 'FL',
  '13': 'GA', '15': 'HI', '16': 'ID', '17': 'IL', '18': 'IN', '19': 'IA', '20': 'KS', '21': 'KY', '22': 'LA', '23': 'ME',
  '24': 'MD', '25': 'MA', '26': 'MI', '27': 'MN', '28': 'MS', '29': 'MO', '30': 'MT', '31': 'NE', '32': 'NV', '33': 'NH',
  '34': 'NJ', '35': 'NM', '36': 'NY', '37': 'NC', '38': 'ND', '39': 'OH', '40': 'OK', '41': 'OR', '42': 'PA', '44': 'RI',
  '45': 'SC', '46': 'SD', '47': 'TN', '48': 'TX', '49': 'UT', '50': 'VT', '51': 'VA', '53': 'WA', '54': 'WV', '55': 'WI',
  '56': 'WY',
};

export interface StateOutline {
  code: string;
  name: string;
  /** SVG path data */
  d: string;
}

/** Tenths as the shortest decimal text: 3 -> ".3", -15 -> "-1.5", 20 -> "2". */
function tenths(t: number): string {
  const s = String(t / 10);
  if (s.startsWith('0.')) return s.slice(1);
  if (s.startsWith('-0.')) return `-${s.slice(2)}`;
  return s;
}

/** Path data of polygons (rings of [x, y]): each ring "M x,y l dx dy ... z", repeated points dropped. */
export function pathData(polygons: number[][][][]): string {
  let d = '';
  let px = 0;
  let py = 0;
  for (const polygon of polygons) {
    for (const ring of polygon) {
      let out = '';
      ring.forEach(([x, y], k) => {
        const X = Math.round(x! * 10);
        const Y = Math.round(y! * 10);
        if (k === 0) out += `M${tenths(X)},${tenths(Y)}l`;
        else if (X === px && Y === py) return;
        else {
          const dy = tenths(Y - py);
          out += `${out.endsWith('l') ? '' : ' '}${tenths(X - px)}${dy.startsWith('-') ? '' : ' '}${dy}`.replace(/ -/g, '-');
        }
        px = X;
        py = Y;
      });
      d += `${out.endsWith('l') ? out.slice(0, -1) : out}z`;
    }
  }
  return d;
}

/**
 * How far (in map units) a simplified outline may stray from the atlas's: 0.8 unit is under a pixel at
 * every width the map is drawn (975 units fill at most about 900 px; 390 px on a phone).
 */
export const SIMPLIFY_TOLERANCE = 0.8;
/** Islands smaller than this (square map units, about 2 px square on a desktop) are left out; a state's largest part never is. */
export const MIN_ISLAND_AREA = 2;

/** The points of `line` Douglas-Peucker keeps within `tolerance` (its ends always). */
export function simplifyLine(line: number[][], tolerance: number): number[][] {
  if (line.length <= 2) return line;
  const keep = new Uint8Array(line.length);
  keep[0] = 1;
  keep[line.length - 1] = 1;
  const stack: Array<[number, number]> = [[0, line.length - 1]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    const [ax, ay] = line[a] as [number, number];
    const [bx, by] = line[b] as [number, number];
    const dx = bx - ax;
    const dy = by - ay;
    const len = Math.sqrt(dx * dx + dy * dy);
    let far = -1;
    let at = -1;
    for (let i = a + 1; i < b; i++) {
      const [px, py] = line[i] as [number, number];
      const d = len === 0 ? Math.sqrt((px - ax) ** 2 + (py - ay) ** 2) : Math.abs(dy * px - dx * py + bx * ay - by * ax) / len;
      if (d > far) {
        far = d;
        at = i;
      }
    }
    if (far > tolerance) {
      keep[at] = 1;
      stack.push([a, at], [at, b]);
    }
  }
  return line.filter((_, i) => keep[i]);
}

/**
 * The topology with every arc simplified once (simplifyLine) and its coordinates decoded from the quantized
 * deltas: a border two states share is one arc, so both sides stay the same line (no gaps, no overlaps).
 */
export function simplifyTopology<T extends Topology>(topo: T, tolerance: number): T {
  const t = topo.transform;
  const arcs = topo.arcs.map((arc) => {
    let x = 0;
    let y = 0;
    const line = arc.map(([dx, dy]) => {
      if (!t) return [dx!, dy!];
      x += dx!;
      y += dy!;
      return [x * t.scale[0] + t.translate[0], y * t.scale[1] + t.translate[1]];
    });
    return simplifyLine(line, tolerance);
  });
  const { transform: _, ...rest } = topo;
  return { ...rest, arcs } as unknown as T;
}

/** The area of a ring (shoelace), unsigned. */
export function ringArea(ring: number[][]): number {
  let s = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) s += (ring[j]![0]! + ring[i]![0]!) * (ring[j]![1]! - ring[i]![1]!);
  return Math.abs(s / 2);
}

let cached: StateOutline[] | null = null;

/** Every state's outline, ordered by USPS code (computed once per process). */
export function stateOutlines(): StateOutline[] {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const atlas = JSON.parse(readFileSync(require.resolve('us-atlas/states-albers-10m.json'), 'utf8')) as Topology<{ states: GeometryCollection<{ name: string }> }>;
  const topo = simplifyTopology(atlas, SIMPLIFY_TOLERANCE);
  const fc = feature(topo, topo.objects.states);
  const out: StateOutline[] = [];
  for (const f of fc.features) {
    const code = FIPS_TO_CODE[String(f.id)];
    if (!code || !f.geometry) continue;
    const g = f.geometry;
    const all = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    const largest = Math.max(...all.map((p) => ringArea(p[0]!)));
    const polygons = all.filter((p) => ringArea(p[0]!) >= MIN_ISLAND_AREA || ringArea(p[0]!) === largest);
    out.push({ code, name: f.properties.name, d: pathData(polygons) });
  }
  out.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  cached = out;
  return out;
}
