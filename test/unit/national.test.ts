/**
 * nationalFacts: outliers are decided once per report against its specialty's national fences; nothing in the
 * facts sizes the disclosure noise any more (method 3: each cell's noise is relative to its own figures).
 */
import { describe, expect, it } from 'vitest';
import { nationalFacts } from '../../build/compute/national.ts';
import { emptyReportColumns, specialtyRanges, type Dataset } from '../../build/compute/dataset.ts';

function dataset(bySpecialty: number[][], wrvus: (number | null)[][] = []): Dataset {
  const rows = bySpecialty.flatMap((totals, s) => [...totals].sort((a, b) => a - b).map((t, k) => ({ s, t, w: wrvus[s]?.[k] ?? null })));
  const r = emptyReportColumns(rows.length);
  rows.forEach((x, i) => {
    r.specialty[i] = x.s;
    r.total[i] = x.t;
    r.wrvus[i] = x.w ?? NaN;
  });
  return {
    specialties: bySpecialty.map((_, s) => ({ slug: `s${s}`, name: `S${s}`, soc_code: null, soc_match: 'exact', aliases: [] })),
    states: [], bls: new Map(), institutions: [], reports: r, specialtyRange: specialtyRanges(r.specialty, bySpecialty.length), synthetic: true,
    drawKey: new Uint8Array(32), exactTotal: Float64Array.from(r.total),
  };
}

describe('nationalFacts', () => {
  it("keeps a specialty's high earners that a mixed cell's own fences would drop", () => {
    // family medicine around 250k; neurosurgery around 800k: each inside its own specialty's fences
    const fm = [230, 240, 245, 250, 255, 260, 270].map((k) => k * 1000);
    const ns = [700, 760, 800, 820, 860, 900].map((k) => k * 1000);
    const f = nationalFacts(dataset([fm, ns]));
    expect(Array.from(f.openTotal)).toEqual(new Array(13).fill(1));
    expect(Array.from(f.outliers)).toEqual([0, 0]);
  });

  it('marks a report outside its own specialty fences as an outlier', () => {
    // [200..240] step 10 plus 900k: Q1 210k, Q3 235k (type 7 over 6 values), 900k is far outside
    const f = nationalFacts(dataset([[200_000, 210_000, 220_000, 230_000, 240_000, 900_000]]));
    expect(Array.from(f.openTotal)).toEqual([1, 1, 1, 1, 1, 0]);
    expect(f.outliers[0]).toBe(1);
  });

  it('holds only the outlier decisions: a specialty\'s facts do not depend on any other specialty\'s reports', () => {
    const f = nationalFacts(dataset([[100, 200, 300], [1_000, 2_000]]));
    // no reference median or spread of any kind (each cell's noise is relative to its own figures)
    expect(Object.keys(f).sort()).toEqual(['openRate', 'openTotal', 'outliers']);
    // more (and far larger) reports in specialty 1 change nothing decided for specialty 0
    const g = nationalFacts(dataset([[100, 200, 300], [1_000, 2_000, 3_000, 4_000, 9_000_000]]));
    expect(Array.from(g.openTotal.subarray(0, 3))).toEqual(Array.from(f.openTotal.subarray(0, 3)));
    expect(g.outliers[0]).toBe(f.outliers[0]);
    expect(Array.from(g.openTotal.subarray(3))).toEqual([1, 1, 1, 1, 0]);
    expect(Array.from(g.outliers)).toEqual([0, 1]);
  });

  it('decides $/wRVU outliers against the specialty $/wRVU fences; reports without wRVUs are not rated', () => {
    const totals = [300_000, 300_000, 300_000, 300_000, 300_000, 300_000];
    const w = [6_000, 6_000, 6_100, 5_900, 6_000, 600]; // the last: $500/wRVU, far outside
    const f = nationalFacts(dataset([totals], [w]));
    expect(Array.from(f.openRate)).toEqual([1, 1, 1, 1, 1, 0]);
    // the $/wRVU outlier does not make its total an outlier: the two decisions are separate
    expect(Array.from(f.openTotal)).toEqual([1, 1, 1, 1, 1, 1]);
    const noW = nationalFacts(dataset([totals], [[null, null, null, null, null, null]]));
    expect(Array.from(noW.openRate)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(Array.from(noW.openTotal)).toEqual([1, 1, 1, 1, 1, 1]);
  });
});
