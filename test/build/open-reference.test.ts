/**
 * The open feeds recomputed independently from the documented rules (README "Statistics and publication
 * rules"), straight from the golden reports DB with the test's own code: per-specialty national Tukey
 * fences decided once per report, floors 5 / 3 / 15, rounding at n <= 24, rankings of cells with n >= 15
 * with shared ranks, over the pay as the build reads it (each report times its secret factor, recomputed from
 * the DB's secret by test/keyed/reference.ts `distortedReference`). Counts must match exactly; medians and
 * percentiles must lie within their documented disclosure bound (a factor exp(+-0.75 / n^0.75), plus rounding)
 * of the exact type-7 values brought towards the median by the spread correction, and means within theirs
 * (0.75 / n of the exact mean / E[factor], plus rounding). Nothing here depends on other cells' figures.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { countWithin, distortedReference, loadReference, moves, q7, spreadCorrected, withinFactor, type RefData, type RefReport } from '../keyed/reference.ts';
import { MEAN_FACTOR } from '../../build/compute/disclosure.ts';

const V1 = 'public/data/api/v1';
let ref: RefData;
let dir: string;
const feed = (rel: string) => JSON.parse(readFileSync(join(dir, V1, rel), 'utf8'));
const asc = (xs: number[]) => [...xs].sort((a, b) => a - b);
const roundMoney = (v: number, n: number) => (n <= 24 ? Math.round(v / 1000) * 1000 : Math.round(v));
const roundRate = (v: number, n: number) => (n <= 24 ? Math.round(v) : Math.round(v * 100) / 100);

/** Exact (unperturbed, unrounded) figures of a cell, or nulls below its floor. */
interface Expected { floor: number; n: number | null; median: number | null; p10: number | null; p25: number | null; p75: number | null; p90: number | null; exactMean: number | null }

function expected(values: number[], floor: number): Expected {
  const v = asc(values);
  const n = v.length;
  if (n < floor || n === 0) return { floor, n: null, median: null, p10: null, p25: null, p75: null, p90: null, exactMean: null };
  return {
    floor, n, median: q7(v, 0.5), p25: q7(v, 0.25), p75: q7(v, 0.75),
    p10: n >= 15 ? q7(v, 0.1) : null, p90: n >= 15 ? q7(v, 0.9) : null,
    exactMean: v.reduce((a, x) => a + x, 0) / n,
  };
}

function expectCell(doc: Record<string, any>, e: Expected, label: string, rate = false) {
  if (e.n === null) expect(doc.n, label).toBeNull();
  else expect(countWithin(doc.n, e.n, [e.floor, 15, 25]), `${label} n ${doc.n} vs exact ${e.n}`).toBe(true);
  const fields = ['median', 'p10', 'p25', 'p75', 'p90'] as const;
  if (e.n === null) {
    for (const f of [...fields, 'mean'] as const) expect(doc[f], `${label} ${f}`).toBeNull();
    return;
  }
  const rounding = rate ? (e.n <= 24 ? 0.5 : 0.005) : e.n <= 24 ? 500 : 0.5;
  const unit = rate ? (e.n <= 24 ? 1 : 0.01) : e.n <= 24 ? 1000 : 1;
  const quartiles = { p25: e.p25!, p50: e.median!, p75: e.p75! };
  for (const f of fields) {
    if (e[f] === null) {
      expect(doc[f], `${label} ${f}`).toBeNull();
      continue;
    }
    const target = spreadCorrected(e[f]!, quartiles, true);
    expect(withinFactor(doc[f], target, e.n, unit), `${label} ${f} ${doc[f]} vs ${target} (exact ${e[f]}) x exp(+-0.75 / ${e.n}^0.75)`).toBe(true);
    expect(Math.abs(Math.round(doc[f] / unit) * unit - doc[f]), `${label} ${f} is rounded`).toBeLessThan(unit * 1e-6);
  }
  const published = [doc.p10, doc.p25, doc.median, doc.p75, doc.p90].filter((x) => x !== null);
  expect(published, `${label} in order`).toEqual([...published].sort((a, b) => a - b));
  const mean = e.exactMean! / MEAN_FACTOR;
  expect(Math.abs(doc.mean - mean), `${label} mean ${doc.mean} vs ${mean}`).toBeLessThanOrEqual((0.75 / e.n) * mean + rounding + 1e-6);
}

const fences = (sorted: number[]) => {
  const q1 = q7(sorted, 0.25);
  const q3 = q7(sorted, 0.75);
  return [q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)] as const;
};

/**
 * The headline basis, as the README states it: pay on a full-time basis (part-time x 40 / hours; no hours
 * counts as reported unless Part-Time (W-2); hours outside 10-100 left out), and the 3 compensation years
 * before the year of the newest submission. Null: left out.
 */
function fullTime(r: RefReport): number | null {
  if (r.hours === null) return r.employment === 'Part-Time (W-2)' ? null : r.total;
  if (r.hours < 10 || r.hours > 100) return null;
  return r.hours < 40 ? (r.total * 40) / r.hours : r.total;
}

describe('open feeds recomputed independently from the documented rules', () => {
  const kept = new Map<string, RefReport[]>(); // by specialty: headline reports inside the specialty's national fences
  const keptAllYears = new Map<string, RefReport[]>(); // the same, every compensation year (by_year)
  const rates = new Map<string, number[]>(); // by specialty: headline $/wRVU inside the specialty's $/wRVU fences
  let headline: [number, number];
  const work = useTempDir('openref');
  beforeAll(() => {
    const golden = goldenBuildIn(work.path);
    ref = distortedReference(golden.db, loadReference(golden.db)).dref;
    dir = golden.buildDir;
    const partialFrom = Number(ref.reports.map((r) => r.day).sort().pop()!.slice(0, 4));
    headline = [partialFrom - 3, partialFrom - 1];
    const inHeadline = (r: RefReport) => r.year >= headline[0] && r.year <= headline[1];
    for (const sp of ref.specialties) {
      // full-time pay: the report's total replaced by it; reports that cannot be put on the basis left out
      const rs = ref.reports.filter((r) => r.specialty === sp.slug).flatMap((r) => {
        const ft = fullTime(r);
        return ft === null ? [] : [{ ...r, total: ft, rate: r.wrvus !== null && r.wrvus > 0 ? r.total / r.wrvus : null }];
      });
      const totals = asc(rs.map((r) => r.total));
      if (!totals.length) continue;
      const [lo, hi] = fences(totals); // every year's full-time pay
      const inside = rs.filter((r) => r.total >= lo && r.total <= hi);
      keptAllYears.set(sp.slug, inside);
      kept.set(sp.slug, inside.filter(inHeadline));
      const rated = rs.filter((r) => r.rate !== null);
      if (rated.length) {
        const [rlo, rhi] = fences(asc(rated.map((r) => r.rate!)));
        rates.set(sp.slug, rated.filter((r) => inHeadline(r) && r.rate! >= rlo && r.rate! <= rhi).map((r) => r.rate!));
      }
    }
  }, 120_000);

  it('every headline says its basis: the 3 complete years before the newest submission, full-time', () => {
    expect(headline).toEqual([2023, 2025]); // the golden DB's newest submission is in 2026
    for (const sp of ref.specialties.slice(0, 5)) {
      const doc = feed(`specialties/${sp.slug}.json`);
      expect(doc.basis.compensation_years).toEqual({ from: headline[0], to: headline[1] });
      expect(doc.basis.full_time_equivalent).toBe(true);
    }
  });

  it('every specialty nationally, its practice settings, its top states (n >= 15, shared ranks) and its $/wRVU', () => {
    let checked = 0;
    for (const sp of ref.specialties) {
      const doc = feed(`specialties/${sp.slug}.json`);
      const k = kept.get(sp.slug) ?? [];
      const nat = expected(k.map((r) => r.total), 5);
      expectCell(doc, nat, sp.slug);
      if (nat.n === null) continue;
      for (const row of doc.practice_settings) expectCell(row, expected(k.filter((r) => r.setting === row.practice_setting).map((r) => r.total), 5), `${sp.slug} ${row.practice_setting}`);
      // ranked by the PUBLISHED (perturbed) medians of the state cells with n >= 15 (exact n)
      const states = ref.states
        .map((s) => ({ s, e: expected(k.filter((r) => r.state === s.code).map((r) => r.total), 3) }))
        .filter((x) => x.e.n !== null && x.e.n >= 15)
        .map((x) => {
          const d = feed(`specialties/${sp.slug}/states/${x.s.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.json`);
          return { ...x, published: d.median as number, n: d.n as number };
        })
        .sort((a, b) => b.published - a.published || a.s.code.localeCompare(b.s.code));
      const ranks = states.map((x) => 1 + states.filter((y) => y.published > x.published).length);
      expect(doc.top_states.map((t: any) => [t.rank, t.state.code, t.n, t.median]), sp.slug)
        .toEqual(states.slice(0, 10).map((x, i) => [ranks[i], x.s.code, x.n, x.published])); // the state feed's (perturbed) n
      // $/wRVU: fences of the specialty's own $/wRVU values (every year), the headline years' values
      const w = feed(`wrvu/${sp.slug}.json`);
      if (rates.has(sp.slug)) expectCell(w, expected(rates.get(sp.slug)!, 5), `${sp.slug} wrvu`, true);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('every specialty by compensation year (every year, full-time basis; floor 5, rounding by n, no mean; every year present; the newest submission year partial)', () => {
    const years = ref.reports.filter((r) => fullTime(r) !== null).map((r) => r.year);
    const first = Math.min(...years);
    const last = Math.max(...years);
    const partialFrom = Number(ref.reports.map((r) => r.day).sort().pop()!.slice(0, 4));
    let published = 0;
    let withheld = 0;
    for (const sp of ref.specialties) {
      const doc = feed(`specialties/${sp.slug}.json`);
      const k = doc.withheld ? [] : keptAllYears.get(sp.slug) ?? [];
      const want = [];
      for (let year = first; year <= last; year++) {
        const e = expected(k.filter((r) => r.year === year).map((r) => r.total), 5);
        const row = doc.by_year.find((r: any) => r.year === year);
        want.push({ year, n: row.n, rounded: e.n !== null && e.n <= 24, withheld: e.n === null, partial: year >= partialFrom }); // n: checked by expectCell
        expect(Object.keys(row).sort(), `${sp.slug} ${year}`).toEqual(['median', 'n', 'p25', 'p75', 'partial', 'rounded', 'withheld', 'year']);
        // a year row has no mean and no tails: check its quartiles against the exact ones within their bound
        expectCell({ ...row, mean: e.exactMean === null ? null : e.exactMean / MEAN_FACTOR, p10: null, p90: null }, { ...e, p10: null, p90: null }, `${sp.slug} ${year}`);
        if (e.n === null) withheld++;
        else published++;
      }
      expect(doc.by_year.map((r: any) => ({ year: r.year, n: r.n, rounded: r.rounded, withheld: r.withheld, partial: r.partial })), sp.slug).toEqual(want);
    }
    expect(published).toBeGreaterThan(50);
    expect(withheld).toBeGreaterThan(20);
  });

  it('every specialty in every state (floor 3) and every state across specialties (floor 5)', () => {
    const before = { ...moves };
    let published = 0;
    for (const st of ref.states) {
      const slug = st.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      const inState: number[] = [];
      for (const sp of ref.specialties) {
        const cell = (kept.get(sp.slug) ?? []).filter((r) => r.state === st.code).map((r) => r.total);
        inState.push(...cell);
        const e = expected(cell, 3);
        expectCell(feed(`specialties/${sp.slug}/states/${slug}.json`), e, `${sp.slug} ${st.code}`);
        if (e.n !== null) published++;
      }
      expectCell(feed(`states/${slug}.json`), expected(inState, 5), st.code);
    }
    expect(published).toBeGreaterThan(45); // 51 specialty-in-state cells of the headline years in the golden build
    // the perturbation is real: most published percentiles moved by more than their rounding
    expect((moves.moved - before.moved) / (moves.compared - before.compared)).toBeGreaterThan(0.5);
  });
});
