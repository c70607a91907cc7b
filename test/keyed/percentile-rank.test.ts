/**
 * /api/v1/percentile-rank (where a compensation falls) and /available-data with the same filters as
 * /benchmarks, over real HTTP against the golden build. The rank is checked against an interpolation
 * written here from the published /benchmarks percentiles only, and walked in $1 steps over a small cell:
 * every answer is a function of the published grid, so the walk reveals nothing finer than that grid.
 */
import { describe, expect, it } from 'vitest';
import { AvailabilityResponse, BenchmarkResponse, PercentileRankResponse, type BenchmarkData, type PercentileRankData } from '../../build/contract/keyed-api.ts';
import { percentileRankData } from '../../server/keyed/percentile-rank.ts';
import type { TestKey } from '../helpers/keys.ts';
import { call, expectError, qs, rateHeaders, useKeyedServer, type KeyedServer } from './harness.ts';
import { countWithin, loadReference, select, type RefData } from './reference.ts';

let ks: KeyedServer;
let ref: RefData;
let starter: TestKey;
let professional: TestKey;
let enterprise: TestKey;

useKeyedServer({ now: '2026-12-01T12:00:00Z', prefix: 'prank' }, (k, keys) => {
  ks = k;
  ref = loadReference(ks.db);
  ({ starter, professional, enterprise } = keys);
});

async function bench(key: string, params: Record<string, string | number | undefined>): Promise<BenchmarkData> {
  const r = await call(ks.url, `/benchmarks?${qs(params)}`, key);
  expect(r.status, r.text.slice(0, 200)).toBe(200);
  return BenchmarkResponse.parse(r.json()).data;
}

async function rank(key: string, params: Record<string, string | number | undefined>): Promise<PercentileRankData> {
  const r = await call(ks.url, `/percentile-rank?${qs(params)}`, key);
  expect(r.status, r.text.slice(0, 200)).toBe(200);
  expect(r.headers['cache-control']).toBe('private, max-age=3600');
  const body = PercentileRankResponse.parse(r.json());
  expect(body.meta.request_id).toBe(r.headers['x-request-id']);
  return body.data;
}

type Grid = { p10: number | null; p25: number; p50: number; p75: number; p90: number | null };
/** The published grid points (P10 and P90 are null below 15 reports). */
const pointsOf = (p: Grid) => ([[10, p.p10], [25, p.p25], [50, p.p50], [75, p.p75], [90, p.p90]] as [number, number | null][]).filter((g): g is [number, number] => g[1] !== null);

/** Written here from the documented rule: linear between the published percentiles, bands outside, ties in the middle. */
function expected(p: Grid, x: number): { percentile: number | null; band: string } {
  const grid = pointsOf(p);
  const [first, last] = [grid[0]!, grid.at(-1)!];
  if (x < first[1]) return { percentile: null, band: `below P${first[0]}` };
  if (x > last[1]) return { percentile: null, band: `above P${last[0]}` };
  const ties = grid.filter(([, v]) => v === x);
  if (ties.length) {
    const end = grid.findIndex(([, v]) => v === x) + ties.length - 1;
    const [a, b] = end < grid.length - 1 ? [grid[end]!, grid[end + 1]!] : [grid[grid.length - 2]!, grid[grid.length - 1]!];
    return { percentile: Math.round(((ties[0]![0] + ties.at(-1)![0]) / 2) * 10) / 10, band: `P${a[0]}-P${b[0]}` };
  }
  let i = 0;
  while (grid[i + 1]![1] < x) i++;
  const [pa, va] = grid[i]!;
  const [pb, vb] = grid[i + 1]!;
  return { percentile: Math.round((pa + ((x - va) / (vb - va)) * (pb - pa)) * 10) / 10, band: `P${pa}-P${pb}` };
}

describe('/percentile-rank', () => {
  it('interpolates between the percentiles /benchmarks publishes for the same scope, and counts like /benchmarks', async () => {
    const cases: Record<string, string>[] = [
      { specialty: 'Cardiology' },
      { specialty: 'Family Medicine', state: 'California' },
      { specialty: 'Family Medicine', region: 'South', practice_setting: 'hospital employed' },
      { specialty: 'Internal Medicine', employment_type: 'Full-Time (W-2)' },
    ];
    for (const params of cases) {
      const b = await bench(starter.key, params);
      const p = b.percentiles;
      expect(p.p10, 'these scopes have 15 reports or more').not.toBeNull();
      const [lo, hi] = [p.p10!, p.p90!];
      for (const x of [lo - 1, lo, (lo + p.p25) / 2, p.p25 + 1, p.p50, p.p50 + 1234, p.p75, hi - 1, hi, hi + 1]) {
        const before = rateHeaders(await call(ks.url, '/me/usage', starter.key)).remainingDaily;
        const d = await rank(starter.key, { ...params, compensation: x });
        expect(rateHeaders(await call(ks.url, '/me/usage', starter.key)).remainingDaily, 'counted once').toBe(before - 1);
        const label = `${JSON.stringify(params)} ${x}`;
        expect({ percentile: d.percentile, band: d.band }, label).toEqual(expected(p, x));
        expect(d.percentiles, label).toEqual(p);
        expect(d.geography, label).toEqual(b.geography);
        expect(d.sample_size, label).toBe(b.sample_size);
        expect(d.filters, label).toEqual({ practice_setting: b.filters.practice_setting, employment_type: b.filters.employment_type });
        expect(d.basis).toBe('total_compensation');
        expect(d.compensation).toBe(x);
        expect(d.method).toMatch(/interpolation between the published percentiles/);
        expect(d.band_lower_percentile).toBeLessThanOrEqual(d.band_upper_percentile);
      }
    }
  });

  it('fte=true ranks among the FTE-normalized percentiles (Professional and Enterprise; Starter gets 403 naming the plans)', async () => {
    expectError(await call(ks.url, `/percentile-rank?${qs({ specialty: 'Cardiology', compensation: 500000, fte: 'true' })}`, starter.key), 403, /Professional and Enterprise.*Starter/);
    const b = await bench(professional.key, { specialty: 'Cardiology', state: 'Texas' });
    const d = await rank(professional.key, { specialty: 'Cardiology', state: 'Texas', compensation: 500000, fte: 'true' });
    expect(d.basis).toBe('fte_normalized');
    expect(d.percentiles).toEqual(b.fte_normalized!.percentiles);
    expect(d.sample_size).toBe(b.fte_normalized!.n);
    expect({ percentile: d.percentile, band: d.band }).toEqual(expected(b.fte_normalized!.percentiles!, 500000));
  });

  it('refuses bad input with a clear 400 (and a 404 where /benchmarks would)', async () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ specialty: 'Cardiology' }, /compensation is required/],
      [{ specialty: 'Cardiology', compensation: 'abc' }, /compensation must be a number of dollars/],
      [{ specialty: 'Cardiology', compensation: '350,000' }, /without commas/],
      [{ specialty: 'Cardiology', compensation: '-5' }, /compensation must be a number/],
      [{ specialty: 'Cardiology', compensation: '0' }, /more than 0/],
      [{ specialty: 'Cardiology', compensation: '999999999' }, /at most 100,000,000/],
      // the tool server's rule (build/contract/annual-pay.ts): 420 for $420k or an hourly rate is not a year's pay
      [{ specialty: 'Cardiology', compensation: '420' }, /^compensation 420 is under \$10,000, too little for a year's total pay: .*if you meant \$420k, give 420000$/],
      [{ specialty: 'Cardiology', compensation: '9999.99' }, /compensation 9999\.99 is under \$10,000/],
      [{ specialty: 'Cardiology', compensation: '300000', fte: 'yes' }, /fte must be true or false/],
      [{ specialty: 'Cardiology', compensation: '300000', year_start: '2024' }, /unknown parameter.*year_start/],
      [{ specialty: 'Cardiology', compensation: '300000', state: 'TX' }, /full US state name/],
      [{ specialty: 'Cardiologee', compensation: '300000' }, /unknown specialty.*Cardiology/],
    ];
    for (const [params, msg] of bad) expectError(await call(ks.url, `/percentile-rank?${qs(params)}`, enterprise.key), 400, msg);
    expectError(await call(ks.url, `/percentile-rank?${qs({ specialty: 'Medical Genetics', compensation: 300000 })}`, enterprise.key), 404, /insufficient data/);
  });

  it('walking compensation in $1 steps over a small cell reveals nothing finer than the published grid', async () => {
    // a publishable state cell with fewer than 15 reports (at n = 5 type-7 P25..P75 are reports themselves)
    const st = ref.states.find((s) => {
      const n = select(ref, { specialty: 'family-medicine' }, { state: s.code }).length;
      return n >= 8 && n < 15;
    })!;
    const params = { specialty: 'Family Medicine', state: st.name };
    const b = await bench(enterprise.key, params);
    expect(b.geography.scope_used).toBe('state');
    expect(b.sample_size).toBeLessThan(15);
    const p = b.percentiles;
    expect([p.p10, p.p90], 'P10 and P90 withheld below 15 reports').toEqual([null, null]);
    const [lo, hi] = [p.p25, p.p75];
    const values = select(ref, { specialty: 'family-medicine' }, { state: st.code }).map((r) => Math.round(r.total));
    // the walk, through the same shaping function the route uses ($1 steps from P25 - $2,000 to P75 + $2,000:
    // the lowest and highest published points of this cell) ...
    const changes = new Set<number>();
    let last = '';
    for (let x = lo - 2000; x <= hi + 2000; x++) {
      const d = percentileRankData(b, x, 'total_compensation');
      expect({ percentile: d.percentile, band: d.band }).toEqual(expected(p, x));
      if (d.band !== last) changes.add(x);
      last = d.band;
    }
    // ... changes band only at published percentile values (never at an individual report that is not one)
    const published = new Set(pointsOf(p).map(([, v]) => v));
    for (const x of changes) if (x !== lo - 2000) expect(published.has(x) || published.has(x - 1), `band changes at ${x}`).toBe(true);
    const hidden = values.filter((v) => v > lo && v < hi && !published.has(v));
    expect(hidden.length, 'the cell has reports strictly between published percentiles').toBeGreaterThan(0);
    for (const v of hidden) {
      // just below and just above a report: the same interpolation line, nothing marks the report
      const lo = percentileRankData(b, v - 1, 'total_compensation');
      const hi = percentileRankData(b, v + 1, 'total_compensation');
      expect(lo.band === hi.band || published.has(v) || published.has(v - 1) || published.has(v + 1)).toBe(true);
    }
    // ... and the HTTP answers are the same function (a sample of 60 steps through the real endpoint)
    for (let k = 0; k < 60; k++) {
      const x = Math.round(lo - 500 + ((hi - lo + 1000) * k) / 59);
      const d = await rank(enterprise.key, { ...params, compensation: x });
      expect({ percentile: d.percentile, band: d.band }, String(x)).toEqual(expected(p, x));
      expect(d.percentiles, String(x)).toEqual(p); // P10 and P90 null, as /benchmarks publishes them
      expect(d.method).toMatch(/\(P25, P50, P75\)/);
    }
    expect((await rank(enterprise.key, { ...params, compensation: lo - 1 })).band).toBe('below P25');
    expect((await rank(enterprise.key, { ...params, compensation: hi + 1 })).band).toBe('above P75');
  });
});

describe('/available-data takes the same filters as /benchmarks', () => {
  it('filters and year ranges: n per scope equals what /benchmarks would use; a publishable national scope means no 404', async () => {
    const queries: Record<string, string | number>[] = [
      { specialty: 'Cardiology', practice_setting: 'Academic' },
      { specialty: 'Cardiothoracic Surgery', practice_setting: 'Government' },
      { specialty: 'Family Medicine', state: 'Texas', employment_type: 'partner/owner' },
      { specialty: 'Family Medicine', region: 'West', year_start: 2024, year_end: 2025 },
      { specialty: 'Neurosurgery', state: 'New York', year_start: 2026 },
    ];
    for (const params of queries) {
      const r = await call(ks.url, `/available-data?${qs(params)}`, enterprise.key);
      expect(r.status, r.text.slice(0, 200)).toBe(200);
      const a = AvailabilityResponse.parse(r.json());
      const slug = ref.specialties.find((s) => s.name === params.specialty)!.slug;
      const q = {
        specialty: slug,
        setting: a.filters.practice_setting, employment: a.filters.employment_type,
        yearStart: (params.year_start as number | undefined) ?? null, yearEnd: (params.year_end as number | undefined) ?? null,
      };
      expect(a.filters).toEqual({ practice_setting: q.setting, employment_type: q.employment, year_start: q.yearStart, year_end: q.yearEnd });
      // null below 5 reports (no exact count below the floor); from 5, within 2 of the count in its class
      const count = (got: number | null | undefined, n: number) => expect(countWithin(got ?? null, n, [5, 15]), `${got} of ${n}`).toBe(true);
      count(a.availability.national.n, select(ref, q, {}).length);
      const stCode = params.state ? ref.states.find((s) => s.name === params.state)!.code : null;
      if (stCode) count(a.availability.state!.n, select(ref, q, { state: stCode }).length);
      const region = stCode ? ref.states.find((s) => s.code === stCode)!.region : (params.region as string | undefined) ?? null;
      if (region) count(a.availability.regional?.n, select(ref, q, { region }).length);
      else expect(a.availability.regional).toBeNull();
      const b = await call(ks.url, `/benchmarks?${qs(params)}`, enterprise.key);
      expect(b.status, JSON.stringify(params)).toBe(a.availability.national.publishable ? 200 : 404);
    }
    // the same tier rules: a year range needs Enterprise
    expectError(await call(ks.url, `/available-data?${qs({ specialty: 'Cardiology', year_start: 2024 })}`, professional.key), 403, /Enterprise/);
    expectError(await call(ks.url, `/available-data?${qs({ specialty: 'Cardiology', practice_setting: 'Spa' })}`, starter.key), 400, /practice_setting must be one of/);
  });
});
