/**
 * The open feeds recomputed independently from the documented rules (README "Statistics and publication
 * rules"), straight from the golden reports DB with the test's own code: per-specialty national Tukey
 * fences decided once per report, floors 5 / 3 / 15, rounding at n <= 24, rankings of cells with n >= 15
 * with shared ranks. Counts, medians and percentiles must match exactly; means must lie within the
 * documented disclosure bound (0.75 x the specialty's national median of every approved total, / n).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { goldenBuild, makeGoldenDb } from '../helpers/golden-build.ts';
import { loadReference, q7, type RefData, type RefReport } from '../keyed/reference.ts';

const V1 = 'public/data/api/v1';
let ref: RefData;
let dir: string;
const feed = (rel: string) => JSON.parse(readFileSync(join(dir, V1, rel), 'utf8'));
const asc = (xs: number[]) => [...xs].sort((a, b) => a - b);
const roundMoney = (v: number, n: number) => (n <= 24 ? Math.round(v / 1000) * 1000 : Math.round(v));
const roundRate = (v: number, n: number) => (n <= 24 ? Math.round(v) : Math.round(v * 100) / 100);

interface Expected { n: number | null; median: number | null; p10: number | null; p25: number | null; p75: number | null; p90: number | null; exactMean: number | null }

function expected(values: number[], floor: number, rate = false): Expected {
  const v = asc(values);
  const n = v.length;
  if (n < floor || n === 0) return { n: null, median: null, p10: null, p25: null, p75: null, p90: null, exactMean: null };
  const r = (x: number) => (rate ? roundRate(x, n) : roundMoney(x, n));
  return {
    n, median: r(q7(v, 0.5)), p25: r(q7(v, 0.25)), p75: r(q7(v, 0.75)),
    p10: n >= 15 ? r(q7(v, 0.1)) : null, p90: n >= 15 ? r(q7(v, 0.9)) : null,
    exactMean: v.reduce((a, x) => a + x, 0) / n,
  };
}

function expectCell(doc: Record<string, any>, e: Expected, reference: number, label: string, rate = false) {
  expect({ n: doc.n, median: doc.median, p10: doc.p10, p25: doc.p25, p75: doc.p75, p90: doc.p90 }, label)
    .toEqual({ n: e.n, median: e.median, p10: e.p10, p25: e.p25, p75: e.p75, p90: e.p90 });
  if (e.n === null) {
    expect(doc.mean, label).toBeNull();
    return;
  }
  const rounding = rate ? (e.n <= 24 ? 0.5 : 0.005) : e.n <= 24 ? 500 : 0.5;
  expect(Math.abs(doc.mean - e.exactMean!), `${label} mean ${doc.mean} vs exact ${e.exactMean}`).toBeLessThanOrEqual((0.75 * reference) / e.n + rounding + 1e-6);
}

const fences = (sorted: number[]) => {
  const q1 = q7(sorted, 0.25);
  const q3 = q7(sorted, 0.75);
  return [q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)] as const;
};

describe('open feeds recomputed independently from the documented rules', () => {
  const kept = new Map<string, RefReport[]>(); // by specialty: reports inside the specialty's national fences
  const median = new Map<string, number>();
  beforeAll(() => {
    const work = mkdtempSync(join(tmpdir(), 'physpay-openref-'));
    const db = makeGoldenDb(work);
    ref = loadReference(db);
    dir = goldenBuild(db, join(work, 'dist')).dir;
    for (const sp of ref.specialties) {
      const rs = ref.reports.filter((r) => r.specialty === sp.slug);
      const totals = asc(rs.map((r) => r.total));
      if (!totals.length) continue;
      const [lo, hi] = fences(totals);
      kept.set(sp.slug, rs.filter((r) => r.total >= lo && r.total <= hi));
      median.set(sp.slug, q7(totals, 0.5));
    }
  }, 120_000);

  it('every specialty nationally, its practice settings, its top states (n >= 15, shared ranks) and its $/wRVU', () => {
    let checked = 0;
    for (const sp of ref.specialties) {
      const doc = feed(`specialties/${sp.slug}.json`);
      const k = kept.get(sp.slug) ?? [];
      const m = median.get(sp.slug) ?? 0;
      const nat = expected(k.map((r) => r.total), 5);
      expectCell(doc, nat, m, sp.slug);
      if (nat.n === null) continue;
      for (const row of doc.practice_settings) expectCell(row, expected(k.filter((r) => r.setting === row.practice_setting).map((r) => r.total), 5), m, `${sp.slug} ${row.practice_setting}`);
      const states = ref.states
        .map((s) => ({ s, e: expected(k.filter((r) => r.state === s.code).map((r) => r.total), 3) }))
        .filter((x) => x.e.n !== null && x.e.n >= 15)
        .sort((a, b) => b.e.median! - a.e.median! || a.s.code.localeCompare(b.s.code));
      const ranks = states.map((x) => 1 + states.filter((y) => y.e.median! > x.e.median!).length);
      expect(doc.top_states.map((t: any) => [t.rank, t.state.code, t.n, t.median]), sp.slug)
        .toEqual(states.slice(0, 10).map((x, i) => [ranks[i], x.s.code, x.e.n, x.e.median]));
      // $/wRVU: fences of the specialty's own $/wRVU values
      const rated = ref.reports.filter((r) => r.specialty === sp.slug && r.wrvus !== null && r.wrvus > 0).map((r) => r.total / r.wrvus!);
      const sortedRates = asc(rated);
      const w = feed(`wrvu/${sp.slug}.json`);
      if (sortedRates.length) {
        const [lo, hi] = fences(sortedRates);
        expectCell(w, expected(sortedRates.filter((x) => x >= lo && x <= hi), 5, true), q7(sortedRates, 0.5), `${sp.slug} wrvu`, true);
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('every specialty by compensation year (floor 5, rounding by n, no mean; every year present; the newest submission year partial)', () => {
    const years = ref.reports.map((r) => r.year);
    const first = Math.min(...years);
    const last = Math.max(...years);
    const partialFrom = Number(ref.reports.map((r) => r.day).sort().pop()!.slice(0, 4));
    let published = 0;
    let withheld = 0;
    for (const sp of ref.specialties) {
      const doc = feed(`specialties/${sp.slug}.json`);
      const k = doc.withheld ? [] : kept.get(sp.slug) ?? [];
      const want = [];
      for (let year = first; year <= last; year++) {
        const e = expected(k.filter((r) => r.year === year).map((r) => r.total), 5);
        want.push({ year, n: e.n, median: e.median, p25: e.p25, p75: e.p75, rounded: e.n !== null && e.n <= 24, withheld: e.n === null, partial: year >= partialFrom });
        if (e.n === null) withheld++;
        else published++;
      }
      expect(doc.by_year, sp.slug).toEqual(want);
    }
    expect(published).toBeGreaterThan(50);
    expect(withheld).toBeGreaterThan(20);
  });

  it('every specialty in every state (floor 3) and every state across specialties (floor 5)', () => {
    const all = asc(ref.reports.map((r) => r.total));
    const allMedian = q7(all, 0.5);
    let published = 0;
    for (const st of ref.states) {
      const slug = st.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      const inState: number[] = [];
      for (const sp of ref.specialties) {
        const cell = (kept.get(sp.slug) ?? []).filter((r) => r.state === st.code).map((r) => r.total);
        inState.push(...cell);
        const e = expected(cell, 3);
        expectCell(feed(`specialties/${sp.slug}/states/${slug}.json`), e, median.get(sp.slug) ?? 0, `${sp.slug} ${st.code}`);
        if (e.n !== null) published++;
      }
      expectCell(feed(`states/${slug}.json`), expected(inState, 5), allMedian, st.code);
    }
    expect(published).toBeGreaterThan(100);
  });
});
