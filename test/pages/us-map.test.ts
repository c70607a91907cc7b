/**
 * The US choropleth (build/pages/us-map.ts) and the by-year chart (trend-chart.ts): every state drawn once,
 * hatched exactly when withheld, colour classes monotone in the median, figures marked for the audit;
 * withheld years are gaps, never bridged.
 */
import { describe, expect, it } from 'vitest';
import { elements, parseHtml, textOf } from '../../build/pages/parse.ts';
import { CLASS_COUNT, MAP_COLOURS, classBounds, classOf, usMap, type MapState } from '../../build/pages/us-map.ts';
import { FIPS_TO_CODE, MIN_ISLAND_AREA, SIMPLIFY_TOLERANCE, pathData, ringArea, simplifyLine, simplifyTopology, stateOutlines } from '../../build/pages/us-map-outline.ts';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Topology } from 'topojson-specification';
import { trendGeometry, trendSvg } from '../../build/pages/trend-chart.ts';

const outlines = stateOutlines();
const codes = Object.values(FIPS_TO_CODE);

function states(median: (code: string, k: number) => number | null): MapState[] {
  return codes.map((code, k) => {
    const m = median(code, k);
    return { code, name: `State ${code}`, n: m === null ? null : 10 + k, median: m, href: `/states/${code}`, feed: `https://x.example/data/api/v1/${code}.json`, nField: 'n', medianField: 'median' };
  });
}

describe('US map', () => {
  it('has the 50 states and DC, each outline once, with rounded path data', () => {
    expect(outlines.map((o) => o.code).sort()).toEqual([...codes].sort());
    expect(new Set(outlines.map((o) => o.code)).size).toBe(51);
    for (const o of outlines) expect(o.d).toMatch(/^M[-\d.,]+l[-\d. ]+z/);
    for (const o of outlines) expect(o.d).not.toMatch(/\.\d\d/); // one decimal at most
  });

  it('is light: simplified borders and no specks of islands, 30 kB of path data at most (the atlas: 63 kB)', () => {
    const total = outlines.reduce((n, o) => n + o.d.length, 0);
    expect(total).toBeLessThan(30_000);
    expect(total).toBeGreaterThan(15_000); // still the states' shapes
    for (const o of outlines) expect(o.d.length, o.code).toBeGreaterThan(40); // every state drawn, DC and Rhode Island too
  });

  it('simplifies each shared border once: both states keep the very same line (no gaps, no overlaps)', () => {
    const atlas = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('us-atlas/states-albers-10m.json'), 'utf8')) as Topology;
    const simple = simplifyTopology(atlas, SIMPLIFY_TOLERANCE);
    expect(simple.transform).toBeUndefined();
    expect(simple.arcs).toHaveLength(atlas.arcs.length);
    const points = (t: Topology) => t.arcs.reduce((n, a) => n + a.length, 0);
    expect(points(simple)).toBeLessThan(points(atlas) * 0.5);
    // each arc keeps its ends exactly, so the arcs still meet where they met
    const decoded = simplifyTopology(atlas, 0);
    decoded.arcs.forEach((a, i) => {
      expect(simple.arcs[i]![0]).toEqual(a[0]);
      expect(simple.arcs[i]!.at(-1)).toEqual(a.at(-1));
    });
  });

  it('Douglas-Peucker keeps the ends and leaves no dropped point farther than the tolerance from the line it was dropped for', () => {
    // the distance to the line through a and b (what Douglas-Peucker bounds), or to a when a = b
    const dist = (p: number[], a: number[], b: number[]) => {
      const dx = b[0]! - a[0]!;
      const dy = b[1]! - a[1]!;
      const len = Math.sqrt(dx * dx + dy * dy);
      return len === 0 ? Math.sqrt((p[0]! - a[0]!) ** 2 + (p[1]! - a[1]!) ** 2) : Math.abs(dy * p[0]! - dx * p[1]! + b[0]! * a[1]! - b[1]! * a[0]!) / len;
    };
    const pt = fc.tuple(fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ min: -100, max: 100, noNaN: true }));
    fc.assert(fc.property(fc.array(pt, { minLength: 2, maxLength: 60 }), fc.double({ min: 0.1, max: 5, noNaN: true }), (raw, tol) => {
      const line = raw.map(([x, y], i) => [x, y, i]); // the index rides along as a third coordinate
      const kept = simplifyLine(line, tol);
      expect(kept[0]).toBe(line[0]);
      expect(kept.at(-1)).toBe(line.at(-1));
      for (let k = 0; k + 1 < kept.length; k++) {
        const a = kept[k]!;
        const b = kept[k + 1]!;
        for (let i = a[2]! + 1; i < b[2]!; i++) expect(dist(line[i]!, a, b)).toBeLessThanOrEqual(tol * (1 + 1e-9));
      }
    }), { numRuns: 300 });
  });

  it('drops only islands smaller than the threshold', () => {
    expect(ringArea([[0, 0], [2, 0], [2, 2], [0, 2]])).toBe(4);
    expect(MIN_ISLAND_AREA).toBeLessThan(4);
  });

  it('writes relative path data in tenths', () => {
    expect(pathData([[[[0, 0], [1.04, 0], [1.04, 0.26], [0.001, 0]]]])).toBe('M0,0l1 0 0 .3-1-.3z');
  });

  it('draws every state once, hatched iff withheld, colour class monotone in the median', () => {
    const input = states((code, k) => (k % 4 === 0 ? null : 200_000 + ((k * 7919) % 51) * 3_000));
    const html = usMap({ id: 'm', title: 't', desc: 'd', floor: 3, states: input });
    const { root, errors } = parseHtml(`<!DOCTYPE html><html lang="en"><head><title>x</title></head><body>${html}</body></html>`);
    expect(errors).toEqual([]);
    const shapes = [...elements(root!)].filter((e) => e.tag === 'a' && e.attrs['data-state']);
    expect(shapes.map((e) => e.attrs['data-state']).sort()).toEqual([...codes].sort());
    const byCode = new Map(input.map((s) => [s.code, s]));
    const classed: { median: number; k: number }[] = [];
    for (const a of shapes) {
      const s = byCode.get(a.attrs['data-state']!)!;
      const path = [...elements(a)].find((e) => e.tag === 'path')!;
      const hatched = path.attrs.fill === 'url(#m-hatch)';
      expect(hatched, s.code).toBe(s.median === null);
      expect(a.attrs['aria-label']).toContain(s.name);
      expect(a.attrs.href).toBe(s.href);
      const figs = [...elements(a)].filter((e) => e.attrs['data-field']);
      if (s.median === null) {
        expect(figs).toEqual([]);
        expect(a.attrs['aria-label']).toContain('withheld (fewer than 3 reports)');
        continue;
      }
      expect(a.attrs['data-feed']).toBe(s.feed);
      expect(figs.map((f) => [f.attrs['data-field'], Number(f.attrs['data-value'])])).toEqual([['median', s.median], ['n', s.n]]);
      expect(textOf([...elements(a)].find((e) => e.tag === 'title')!)).toContain(`n = ${s.n}`);
      const k = MAP_COLOURS.indexOf(path.attrs.fill as (typeof MAP_COLOURS)[number]);
      expect(k).toBeGreaterThanOrEqual(0);
      classed.push({ median: s.median, k });
    }
    classed.sort((a, b) => a.median - b.median);
    for (let i = 1; i < classed.length; i++) expect(classed[i]!.k).toBeGreaterThanOrEqual(classed[i - 1]!.k);
    expect(classed[0]!.k).toBe(0);
    expect(classed[classed.length - 1]!.k).toBe(CLASS_COUNT - 1);
    // the legend names every class with its bounds, and the hatch
    expect(html).toContain('withheld (fewer than 3 reports) or no data');
    expect((html.match(/<li>/g) ?? []).length).toBe(CLASS_COUNT + 1);
  });

  it('class bounds are whole thousands covering the range; a single value still gets a class', () => {
    const b = classBounds([201_500, 349_999]);
    expect(b[0]).toBe(201_000);
    expect(b[CLASS_COUNT]!).toBeGreaterThanOrEqual(350_000);
    for (const x of b) expect(x % 1000).toBe(0);
    expect(classOf(201_500, b)).toBe(0);
    expect(classOf(349_999, b)).toBe(CLASS_COUNT - 1);
    const one = classBounds([300_000]);
    expect(classOf(300_000, one)).toBe(0);
  });

  it('is byte-identical across renders and hatches everything when nothing is published', () => {
    const all = states(() => null);
    const a = usMap({ id: 'm', title: 't', desc: 'd', floor: 5, states: all });
    expect(usMap({ id: 'm', title: 't', desc: 'd', floor: 5, states: all })).toBe(a);
    expect((a.match(/fill="url\(#m-hatch\)"/g) ?? []).length).toBe(51 + 1); // every state and the legend swatch
  });
});

describe('by-year chart', () => {
  const row = (year: number, median: number | null, partial = false) => ({ year, median, p25: median === null ? null : median - 50_000, p75: median === null ? null : median + 50_000, partial });

  it('leaves withheld years as gaps and draws the partial year apart', () => {
    const g = trendGeometry([row(2019, 300_000), row(2020, 310_000), row(2021, null), row(2022, 330_000), row(2023, 340_000), row(2024, 350_000, true)])!;
    expect(g.runs.map((r) => r.map((p) => p.year))).toEqual([[2019, 2020], [2022, 2023], [2024]]);
    expect(g.partialLink?.map((p) => p.year)).toEqual([2023, 2024]);
    const svg = trendSvg({ id: 't', title: 't', desc: 'd' }, [row(2019, 300_000), row(2020, null), row(2021, 320_000, true)]);
    expect(svg).not.toContain('polyline'); // no two consecutive published full years: nothing to join
    expect(svg).toContain('2021*');
    expect(svg).toContain('class="dot partial"');
    expect(svg).not.toMatch(/\d\.\d{3}/); // coordinates rounded to 0.01
  });

  it('draws nothing when every year is withheld', () => {
    expect(trendSvg({ id: 't', title: 't', desc: 'd' }, [row(2020, null), row(2021, null)])).toBe('');
  });
});
