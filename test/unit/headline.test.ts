/**
 * The headline basis, recomputed independently: from a random dataset's raw columns, this file applies the
 * published rule itself (the most recent complete compensation years; full-time basis: part-time pay x 40 /
 * hours, no hours counts as reported unless Part-Time (W-2), hours outside 10-100 left out; outliers by the
 * Tukey fences of each specialty's full-time pay of every year) and compares n and the median of every
 * specialty, state and by-year row with what buildOpenFeeds publishes. The draw key is left out (null), so the
 * published figures are the exact ones (the disclosure control is tested elsewhere).
 */
import { describe, expect, it } from 'vitest';
import { buildOpenFeeds, basisOf } from '../../build/compute/open-feeds.ts';
import { DEFAULT_HEADLINE_YEARS, fteScale, headlineBasis, openPopulations } from '../../build/compute/headline.ts';
import { emptyReportColumns, isoToDay, specialtyRanges, type Dataset } from '../../build/compute/dataset.ts';
import { EMPLOYMENT_TYPES } from '../../build/contract/vocab.ts';
import { createRng } from '../../build/demo/rng.ts';
import type { SpecialtyFeed, SpecialtyStateFeed, StateFeed } from '../../build/contract/open-feeds.ts';

const PART_TIME = EMPLOYMENT_TYPES.indexOf('Part-Time (W-2)');
const HOURS = [NaN, NaN, 5, 12, 20, 30, 39.5, 40, 45, 50, 60, 99, 101, 120];

interface Raw { sp: number; st: number; year: number; total: number; hours: number; emp: number; day: number }

function randomReports(seed: number): Raw[] {
  const r = createRng(seed).next; // the demo generator's seeded generator
  const out: Raw[] = [];
  for (let sp = 0; sp < 3; sp++) {
    const count = 150 + Math.floor(r() * 200);
    for (let k = 0; k < count; k++) {
      const year = 2019 + Math.floor(r() * 8); // 2019-2026
      const total = Math.round((150_000 + sp * 120_000) * Math.exp((r() - 0.5) * 0.8) * (r() < 0.02 ? 8 : 1));
      out.push({
        sp, st: Math.floor(r() * 2), year, total,
        hours: HOURS[Math.floor(r() * HOURS.length)]!,
        emp: Math.floor(r() * EMPLOYMENT_TYPES.length),
        // submitted during the compensation year or the next, the newest in 2026
        day: isoToDay(`${Math.min(year + Math.floor(r() * 2), 2026)}-0${1 + Math.floor(r() * 9)}-15`),
      });
    }
  }
  return out;
}

function datasetOf(raw: Raw[]): Dataset {
  const rows = [...raw].sort((a, b) => a.sp - b.sp || a.total - b.total);
  const R = emptyReportColumns(rows.length);
  rows.forEach((x, i) => {
    R.specialty[i] = x.sp; R.state[i] = x.st; R.year[i] = x.year; R.total[i] = x.total; R.base[i] = NaN; R.bonus[i] = NaN;
    R.hours[i] = x.hours; R.experience[i] = -1; R.setting[i] = -1; R.employment[i] = x.emp; R.wrvus[i] = NaN; R.submittedDay[i] = x.day;
    R.keyLo[i] = i; R.keyHi[i] = 0;
  });
  return {
    specialties: [0, 1, 2].map((s) => ({ slug: `s${s}`, name: `S${s}`, soc_code: null, soc_match: 'exact' as const, aliases: [] })),
    states: ['AA', 'BB'].map((code) => ({ code, slug: code.toLowerCase(), name: code, region: 'South' as const, col_index: null, col_source: null, col_year: null })),
    bls: new Map(), institutions: [], reports: R, specialtyRange: specialtyRanges(R.specialty, 3), synthetic: true,
    drawKey: null as unknown as Uint8Array, // exact figures
    exactTotal: Float64Array.from(R.total),
  };
}

// ---- the rule, written out again
const q7 = (s: number[], p: number) => {
  const h = (s.length - 1) * p;
  const lo = Math.floor(h);
  return s[lo]! + (h - lo) * ((s[Math.min(lo + 1, s.length - 1)] ?? s[lo]!) - s[lo]!);
};
function fullTime(x: Raw): number | null {
  if (Number.isNaN(x.hours)) return x.emp === PART_TIME ? null : x.total;
  if (x.hours < 10 || x.hours > 100) return null;
  return x.hours < 40 ? (x.total * 40) / x.hours : x.total;
}
function expected(raw: Raw[], years: [number, number]) {
  const kept: (Raw & { ft: number })[] = [];
  for (let sp = 0; sp < 3; sp++) {
    const mine = raw.flatMap((x) => (x.sp === sp && fullTime(x) !== null ? [{ ...x, ft: fullTime(x)! }] : []));
    const sorted = mine.map((x) => x.ft).sort((a, b) => a - b);
    const q1 = q7(sorted, 0.25);
    const q3 = q7(sorted, 0.75);
    const [lo, hi] = [q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)];
    kept.push(...mine.filter((x) => x.ft >= lo && x.ft <= hi));
  }
  const cell = (xs: { ft: number }[]) => {
    const s = xs.map((x) => x.ft).sort((a, b) => a - b);
    return { n: s.length, median: s.length ? q7(s, 0.5) : null };
  };
  const headline = kept.filter((x) => x.year >= years[0] && x.year <= years[1]);
  return {
    national: (sp: number) => cell(headline.filter((x) => x.sp === sp)),
    inState: (sp: number, st: number) => cell(headline.filter((x) => x.sp === sp && x.st === st)),
    state: (st: number) => cell(headline.filter((x) => x.st === st)),
    year: (sp: number, y: number) => cell(kept.filter((x) => x.sp === sp && x.year === y)),
  };
}

const near = (published: number | null, exact: number | null, n: number) => {
  if (exact === null || published === null) return published === exact;
  return Math.abs(published - exact) <= (n <= 24 ? 500 : 0.5);
};

describe('the headline basis (years and full-time basis), recomputed', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: every specialty, state and by-year figure equals the rule applied to the raw reports`, () => {
      const raw = randomReports(seed);
      const ds = datasetOf(raw);
      const basis = basisOf(ds);
      expect(basis).toEqual({ firstYear: 2023, lastYear: 2025, partialFrom: 2026 });
      const feeds = buildOpenFeeds(ds, { baseUrl: 'https://x.example', publisher: 'T', accessDate: '2026-11-16', release: '2026-11-16' });
      const want = expected(raw, [2023, 2025]);
      let checked = 0;
      for (const f of feeds) {
        if (f.kind === 'specialty') {
          const d = f.doc as SpecialtyFeed;
          const sp = Number(d.specialty.slug.slice(1));
          const e = want.national(sp);
          expect(d.n, `n of ${d.specialty.slug}`).toBe(e.n);
          expect(near(d.median, e.median, e.n), `median of ${d.specialty.slug}: ${d.median} vs ${e.median}`).toBe(true);
          expect(d.basis.compensation_years).toEqual({ from: 2023, to: 2025 });
          expect(d.basis.description).toMatch(/2023-2025.*full-time basis/);
          for (const row of d.by_year) {
            const y = want.year(sp, row.year);
            if (y.n < 5) expect(row.withheld).toBe(true);
            else {
              expect(row.n, `${d.specialty.slug} ${row.year}`).toBe(y.n);
              expect(near(row.median, y.median, y.n)).toBe(true);
            }
            expect(row.partial).toBe(row.year >= 2026);
            checked++;
          }
          expect(d.by_year.map((r) => r.year)).toEqual([2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026]);
        } else if (f.kind === 'specialtyState') {
          const d = f.doc as SpecialtyStateFeed;
          const e = want.inState(Number(d.specialty.slug.slice(1)), d.state.code === 'AA' ? 0 : 1);
          if (e.n < 3) expect(d.withheld).toBe(true);
          else {
            expect(d.n).toBe(e.n);
            expect(near(d.median, e.median, e.n)).toBe(true);
          }
          checked++;
        } else if (f.kind === 'state') {
          const d = f.doc as StateFeed;
          const e = want.state(d.state.code === 'AA' ? 0 : 1);
          expect(d.n).toBe(e.n);
          expect(near(d.median, e.median, e.n)).toBe(true);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(20);
    });
  }

  it('the operator setting: one complete year counts 2025 only; a dataset whose newest submission is in 2025 counts 2022-2024', () => {
    const raw = randomReports(4);
    const ds = datasetOf(raw);
    const one = buildOpenFeeds(ds, { baseUrl: 'https://x.example', publisher: 'T', accessDate: '2026-11-16', release: '2026-11-16' }, openPopulations(ds, headlineBasis(2026, 1)));
    const d = one.find((f) => f.kind === 'specialty')!.doc as SpecialtyFeed;
    expect(d.n).toBe(expected(raw, [2025, 2025]).national(0).n);
    expect(d.basis.description).toMatch(/compensation years 2025 \(the most recent complete year\)/);
    const older = raw.filter((x) => x.day < isoToDay('2026-01-01'));
    expect(basisOf(datasetOf(older), DEFAULT_HEADLINE_YEARS)).toEqual({ firstYear: 2022, lastYear: 2024, partialFrom: 2025 });
  });

  it('fteScale: the full-time rule', () => {
    expect(fteScale(NaN, 0)).toBe(1); // no hours, full-time employment: as reported
    expect(fteScale(NaN, -1)).toBe(1); // no hours, employment unknown: as reported
    expect(fteScale(NaN, PART_TIME)).toBeNull(); // part-time without hours cannot be scaled
    expect(fteScale(20, PART_TIME)).toBe(2);
    expect(fteScale(40, 0)).toBe(1);
    expect(fteScale(60, 0)).toBe(1); // a long week is not scaled down
    expect(fteScale(9.9, 0)).toBeNull();
    expect(fteScale(100.5, 0)).toBeNull();
  });

  it('a part-time report moves with its full-time pay, and pay per wRVU stays what was reported', () => {
    const ds = datasetOf([...Array.from({ length: 10 }, (_, k) => ({ sp: 0, st: 0, year: 2024, total: 300_000 + k * 1000, hours: 50, emp: 0, day: isoToDay('2026-02-01') })),
      { sp: 0, st: 0, year: 2024, total: 150_000, hours: 20, emp: PART_TIME, day: isoToDay('2026-02-01') }]);
    ds.reports.wrvus[0] = 7500; // the part-time report sorts first: 150,000 / 7,500 = $20 per wRVU
    const pop = openPopulations(ds, basisOf(ds));
    const H = pop.headline.ds.reports;
    const k = Array.from(H.hours).indexOf(20);
    expect(H.total[k]).toBe(300_000);
    expect(H.total[k]! / H.wrvus[k]!).toBeCloseTo(20, 9);
    expect(Array.from(H.total)).toEqual([...H.total].sort((a, b) => a - b)); // re-sorted by full-time pay
  });
});
