/**
 * nationalFacts: outliers are decided once per report against its specialty's national fences, and the
 * disclosure references are national medians.
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

  it('reference = national median of every approved total (outliers included); referenceAll over all specialties', () => {
    const f = nationalFacts(dataset([[100, 200, 300], [1_000, 2_000]]));
    expect(f.reference[0]).toBe(200);
    expect(f.reference[1]).toBe(1_500);
    expect(f.referenceAll).toBe(300);
  });

  it('decides $/wRVU outliers against the specialty $/wRVU fences; reports without wRVUs are not rated', () => {
    const totals = [300_000, 300_000, 300_000, 300_000, 300_000, 300_000];
    const w = [6_000, 6_000, 6_100, 5_900, 6_000, 600]; // the last: $500/wRVU, far outside
    const f = nationalFacts(dataset([totals], [w]));
    expect(Array.from(f.openRate)).toEqual([1, 1, 1, 1, 1, 0]);
    expect(f.rateReference[0]).toBe(50);
    const noW = nationalFacts(dataset([totals], [[null, null, null, null, null, null]]));
    expect(Array.from(noW.openRate)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(Number.isNaN(noW.rateReference[0]!)).toBe(true);
  });
});
