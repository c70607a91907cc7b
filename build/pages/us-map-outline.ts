/**
 * US state outlines for the choropleth maps (us-map.ts): the Census Bureau's cartographic boundaries of
 * us-atlas (states-albers-10m.json: TopoJSON already projected to Albers USA with Alaska and Hawaii inset,
 * in a 975 x 610 frame), converted to SVG path data once per process. Coordinates are rounded to 0.1 unit
 * and written relative ("l dx dy") in tenths, so the path text is the same on every machine and build.
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

let cached: StateOutline[] | null = null;

/** Every state's outline, ordered by USPS code (computed once per process). */
export function stateOutlines(): StateOutline[] {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const topo = JSON.parse(readFileSync(require.resolve('us-atlas/states-albers-10m.json'), 'utf8')) as Topology<{ states: GeometryCollection<{ name: string }> }>;
  const fc = feature(topo, topo.objects.states);
  const out: StateOutline[] = [];
  for (const f of fc.features) {
    const code = FIPS_TO_CODE[String(f.id)];
    if (!code || !f.geometry) continue;
    const g = f.geometry;
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    out.push({ code, name: f.properties.name, d: pathData(polygons) });
  }
  out.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
  cached = out;
  return out;
}
