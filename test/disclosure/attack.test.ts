/**
 * Differencing attacks against the real build and a real server (README: Disclosure control): can a withheld cell be
 * recovered by subtracting published figures?
 *
 * The data (thin-data.ts) has many cells at every floor. The attacker holds an Enterprise key (so every
 * section and free year ranges) and reads the open feeds. For every withheld cell that some subtraction
 * isolates exactly (the published n add up), the attacker's estimate of that cell's sum is
 *   mean x n of a scope  -  sum of mean x n of the published parts (or of the narrower year range),
 * and we score it against the truth:
 *   error = |estimate - true sum| / (true sum / n)   ("in reports": 0.25 = a quarter of a typical report).
 * For a one-report cell that is the relative error of that physician's pay.
 *
 * Attacks: trending years, experience bands, practice-setting and employment-type rows (keyed breakdowns;
 * the same cells answer the filters), regions minus their states, free year ranges [a, y] - [a, y-1] and
 * [y, b] - [y+1, b], each under every filter; in the open feeds, a state minus its specialty-in-state
 * cells and a specialty nationally minus its states.
 *
 * Bound (issue 15): median error >= 0.25 and at most 1 estimate in 10 within 0.05, over all estimates, and
 * the same for one-report cells alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateThinReports, writeThinDb, THIN_SPECIALTIES, THIN_STATES, THIN_YEARS, type ThinReport } from './thin-data.ts';
import { DEFAULT_BUILD_OPTIONS, runBuild } from '../../build/run-build.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { createKey, qs } from '../keyed/harness.ts';
import { request } from '../helpers/http.ts';
import { STATES } from '../../build/db/reference/states.ts';
import { slugify } from '../../build/contract/names.ts';
import { EXPERIENCE_BANDS, experienceBandIndex } from '../../build/compute/stats.ts';

const NOW = new Date('2026-11-16T03:00:00.000Z');
/** A fixed secret keeps this test's figures the same on every run (a real DB gets a random one at init). */
const SECRET = Buffer.from((process.env.ATTACK_TEST_SECRET ?? 'attack-test-secret-not-a-real-one').padEnd(32, '-').slice(0, 32));
const stateOf = new Map(STATES.map((s) => [s.code, s]));
const REGIONS_USED = [...new Set(THIN_STATES.map((c) => stateOf.get(c)!.region))];
const SETTINGS = ['Hospital Employed', 'Private Practice', 'Academic'];
const EMPLOYMENTS = ['Full-Time (W-2)', 'Partner/Owner'];

interface Scope {
  specialty: string;
  geo: string; // US | R:<region> | S:<code>
  setting: string | null;
  employment: string | null;
  yearStart?: number;
  yearEnd?: number;
}

interface Estimate {
  attack: string;
  target: string;
  n: number;
  estimate: number;
  truth: number;
}

const inGeo = (r: ThinReport, geo: string) =>
  geo === 'US' || (geo.startsWith('R:') ? stateOf.get(r.state)!.region === geo.slice(2) : r.state === geo.slice(2));

function truthOf(reports: ThinReport[], s: Scope, extra: (r: ThinReport) => boolean = () => true): { n: number; sum: number } {
  let n = 0;
  let sum = 0;
  for (const r of reports) {
    if (r.specialty !== s.specialty || !inGeo(r, s.geo)) continue;
    if (s.setting !== null && r.setting !== s.setting) continue;
    if (s.employment !== null && r.employment !== s.employment) continue;
    if (s.yearStart !== undefined && r.year < s.yearStart) continue;
    if (s.yearEnd !== undefined && r.year > s.yearEnd) continue;
    if (!extra(r)) continue;
    n++;
    sum += r.total;
  }
  return { n, sum };
}

const scopeId = (s: Scope) => `${s.specialty}|${s.geo}|${s.setting ?? '*'}|${s.employment ?? '*'}`;

interface Row {
  n: number;
  mean: number | null;
  p25?: number | null;
  p50?: number | null;
  publishable?: boolean;
  label?: string;
  year?: number;
}

/** One subtraction: whole (n, mean) minus published parts; an estimate when exactly one part is withheld. */
function subtract(whole: { n: number; mean: number | null }, parts: Row[]): { n: number; estimate: number; row: Row } | null {
  if (whole.mean === null) return null;
  const withheld = parts.filter((p) => p.mean === null && p.n > 0);
  if (withheld.length !== 1) return null;
  const published = parts.filter((p) => p.mean !== null);
  const covered = published.reduce((a, p) => a + p.n, 0) + withheld[0]!.n;
  if (covered !== whole.n) return null; // parts do not add up to the whole
  return { n: withheld[0]!.n, estimate: whole.mean * whole.n - published.reduce((a, p) => a + p.mean! * p.n, 0), row: withheld[0]! };
}

function score(estimates: Estimate[]) {
  const errors = estimates.map((e) => Math.abs(e.estimate - e.truth) / (e.truth / e.n)).sort((a, b) => a - b);
  const median = errors.length ? errors[Math.floor((errors.length - 1) / 2)]! : NaN;
  const within5 = errors.filter((x) => x <= 0.05).length / Math.max(1, errors.length);
  return { count: errors.length, median, within5, best: errors[0] ?? NaN };
}

describe('differencing attacks on a thin dataset (keyed API and open feeds)', () => {
  const reports = generateThinReports(2026);
  let server: RunningServer;
  let key: string;
  const estimates: Estimate[] = [];

  beforeAll(async () => {
    const work = mkdtempSync(join(tmpdir(), 'physpay-attack-'));
    const db = join(work, 'thin.db');
    writeThinDb(db, reports, SECRET);
    const dist = join(work, 'dist');
    runBuild({ ...DEFAULT_BUILD_OPTIONS, db, out: dist, baseUrl: 'https://physpay.example', buildDate: '2026-11-16', durable: false, now: () => NOW, force: true });
    server = await startServer({
      dataDir: dist, serviceDb: join(work, 'service.db'), host: '127.0.0.1', port: 0,
      ipLimits: { perMinute: 1_000_000, perDay: 10_000_000 }, trustProxy: false, pollMs: 60_000, clock: () => NOW,
    });
    key = (await createKey(server.store, 'enterprise')).key;
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  async function benchmarks(s: Scope): Promise<Record<string, any> | null> {
    const params: Record<string, string | number | null> = { specialty: s.specialty, practice_setting: s.setting, employment_type: s.employment };
    if (s.geo.startsWith('S:')) params.state = stateOf.get(s.geo.slice(2))!.name;
    if (s.geo.startsWith('R:')) params.region = s.geo.slice(2);
    if (s.yearStart !== undefined) params.year_start = s.yearStart;
    if (s.yearEnd !== undefined) params.year_end = s.yearEnd;
    const r = await request(server.url, `/api/v1/benchmarks?${qs(params)}`, { headers: { 'x-api-key': key } });
    if (r.status === 404) return null;
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    return r.json<{ data: Record<string, any> }>().data;
  }

  const headlineGeo = (d: Record<string, any>, s: Scope) =>
    d.geography.scope_used === 'state' ? s.geo : d.geography.scope_used === 'regional' ? `R:${d.geography.region}` : 'US';

  it('collects every estimate the keyed API allows (years, bands, settings, employment, regions, year ranges)', async () => {
    const geos = ['US', ...REGIONS_USED.map((r) => `R:${r}`), ...THIN_STATES.map((c) => `S:${c}`)];
    const scopes: Scope[] = [];
    for (const specialty of Object.keys(THIN_SPECIALTIES)) {
      for (const geo of geos) {
        scopes.push({ specialty, geo, setting: null, employment: null });
        for (const setting of SETTINGS) scopes.push({ specialty, geo, setting, employment: null });
        for (const employment of EMPLOYMENTS) scopes.push({ specialty, geo, setting: null, employment });
      }
    }
    const seen = new Map<string, { n: number; mean: number | null }>(); // published scope figures by scope id
    const yearTargets: { scope: Scope; year: number }[] = [];
    for (const s of scopes) {
      const d = await benchmarks(s);
      if (!d) continue;
      // Scope figures as the answer shows them (state, regional, national), for the region attack.
      const region = d.geography.region as string | null;
      if (d.scopes.state && s.geo.startsWith('S:')) seen.set(scopeId(s), d.scopes.state);
      if (d.scopes.regional && region) seen.set(scopeId({ ...s, geo: `R:${region}` }), d.scopes.regional);
      seen.set(scopeId({ ...s, geo: 'US' }), d.scopes.national);

      const geo = headlineGeo(d, s);
      const at: Scope = { ...s, geo };
      const whole = { n: d.sample_size as number, mean: d.mean as number };
      const add = (attack: string, target: string, hit: ReturnType<typeof subtract>, extra: (r: ThinReport) => boolean, narrowed: Scope = at) => {
        if (!hit) return;
        const t = truthOf(reports, narrowed, extra);
        expect(t.n, `${attack} ${target}`).toBe(hit.n);
        estimates.push({ attack, target, n: hit.n, estimate: hit.estimate, truth: t.sum });
      };
      const years = subtract(whole, d.trending as Row[]);
      if (years) {
        add('keyed: trending years', `${scopeId(at)}|year ${years.row.year}`, years, (r) => r.year === years.row.year);
        yearTargets.push({ scope: at, year: years.row.year! });
      }
      const bands = subtract(whole, d.breakdowns.by_experience as Row[]);
      if (bands) {
        const b = EXPERIENCE_BANDS.indexOf(bands.row.label as (typeof EXPERIENCE_BANDS)[number]);
        add('keyed: experience bands', `${scopeId(at)}|band ${bands.row.label}`, bands, (r) => experienceBandIndex(r.experience) === b);
      }
      if (s.setting === null) {
        const rows = (d.breakdowns.by_practice_setting as Row[]).filter((r) => r.n > 0 || SETTINGS.includes(r.label!));
        const hit = subtract(whole, rows);
        if (hit) add('keyed: practice-setting rows / filter', `${scopeId({ ...at, setting: hit.row.label! })}`, hit, () => true, { ...at, setting: hit.row.label! });
      }
      if (s.employment === null) {
        const hit = subtract(whole, d.breakdowns.by_employment_type as Row[]);
        if (hit) add('keyed: employment-type rows / filter', `${scopeId({ ...at, employment: hit.row.label! })}`, hit, () => true, { ...at, employment: hit.row.label! });
      }
    }

    // Regions minus their states (scopes.regional and scopes.state of the answers above).
    for (const specialty of Object.keys(THIN_SPECIALTIES)) {
      for (const region of REGIONS_USED) {
        for (const [setting, employment] of [[null, null], ...SETTINGS.map((x) => [x, null]), ...EMPLOYMENTS.map((x) => [null, x])] as [string | null, string | null][]) {
          const whole = seen.get(scopeId({ specialty, geo: `R:${region}`, setting, employment }));
          if (!whole) continue;
          const codes = THIN_STATES.filter((c) => stateOf.get(c)!.region === region);
          const parts = codes.map((c) => ({ ...(seen.get(scopeId({ specialty, geo: `S:${c}`, setting, employment })) ?? { n: 0, mean: null }), label: c }));
          const hit = subtract(whole, parts);
          if (!hit) continue;
          const target: Scope = { specialty, geo: `S:${hit.row.label}`, setting, employment };
          const t = truthOf(reports, target);
          expect(t.n).toBe(hit.n);
          estimates.push({ attack: 'keyed: region minus its states', target: scopeId(target), n: hit.n, estimate: hit.estimate, truth: t.sum });
        }
      }
    }

    // Free year ranges (Enterprise): [a, y] - [a, y-1] and [y, b] - [y+1, b] around each withheld year.
    const first = THIN_YEARS[0]!;
    const last = THIN_YEARS[THIN_YEARS.length - 1]!;
    for (const { scope, year } of yearTargets) {
      const pairs: [Scope, Scope][] = [];
      for (let a = first; a < year; a++) pairs.push([{ ...scope, yearStart: a, yearEnd: year }, { ...scope, yearStart: a, yearEnd: year - 1 }]);
      for (let b = last; b > year; b--) pairs.push([{ ...scope, yearStart: year, yearEnd: b }, { ...scope, yearStart: year + 1, yearEnd: b }]);
      for (const [wide, narrow] of pairs) {
        const dw = await benchmarks(wide);
        const dn = await benchmarks(narrow);
        if (!dw || !dn || headlineGeo(dw, scope) !== scope.geo || headlineGeo(dn, scope) !== scope.geo) continue;
        const n = dw.sample_size - dn.sample_size;
        const t = truthOf(reports, { ...scope, yearStart: year, yearEnd: year });
        if (n !== t.n || n <= 0) continue;
        estimates.push({
          attack: 'keyed: year range minus a narrower one', target: `${scopeId(scope)}|year ${year}`, n,
          estimate: dw.mean * dw.sample_size - dn.mean * dn.sample_size, truth: t.sum,
        });
      }
    }
    expect(estimates.length).toBeGreaterThan(100);
  }, 300_000);

  it('collects the open feeds\' estimates (a state minus its specialty cells; a specialty minus its states)', async () => {
    const feed = async (path: string) => {
      const r = await request(server.url, `/data/api/v1/${path}`);
      expect(r.status, path).toBe(200);
      return r.json<{ n: number | null; mean: number | null }>();
    };
    const cells = new Map<string, { n: number | null; mean: number | null }>();
    for (const sp of Object.keys(THIN_SPECIALTIES)) {
      for (const code of THIN_STATES) cells.set(`${sp}|${code}`, await feed(`specialties/${sp}/states/${slugify(stateOf.get(code)!.name)}.json`));
    }
    const before = estimates.length;
    for (const code of THIN_STATES) {
      const whole = await feed(`states/${slugify(stateOf.get(code)!.name)}.json`);
      if (whole.n === null) continue;
      const parts = Object.keys(THIN_SPECIALTIES).map((sp) => ({ label: sp, ...cells.get(`${sp}|${code}`)! }));
      const published = parts.filter((p) => p.n !== null);
      const remainder = whole.n - published.reduce((a, p) => a + p.n!, 0);
      const withheldWithData = parts.filter((p) => p.n === null && truthOf(reports, { specialty: p.label, geo: `S:${code}`, setting: null, employment: null }).n > 0);
      if (remainder <= 0 || withheldWithData.length !== 1) continue;
      const t = truthOf(reports, { specialty: withheldWithData[0]!.label, geo: `S:${code}`, setting: null, employment: null });
      expect(t.n).toBe(remainder);
      estimates.push({
        attack: 'open: state minus its specialty cells', target: `open|${withheldWithData[0]!.label}|${code}`, n: remainder,
        estimate: whole.mean! * whole.n - published.reduce((a, p) => a + p.mean! * p.n!, 0), truth: t.sum,
      });
    }
    for (const sp of Object.keys(THIN_SPECIALTIES)) {
      const whole = await feed(`specialties/${sp}.json`);
      if (whole.n === null) continue;
      const parts = THIN_STATES.map((c) => ({ label: c, ...cells.get(`${sp}|${c}`)! }));
      const published = parts.filter((p) => p.n !== null);
      const remainder = whole.n - published.reduce((a, p) => a + p.n!, 0);
      const withheldWithData = parts.filter((p) => p.n === null && truthOf(reports, { specialty: sp, geo: `S:${p.label}`, setting: null, employment: null }).n > 0);
      if (remainder <= 0 || withheldWithData.length !== 1) continue;
      const t = truthOf(reports, { specialty: sp, geo: `S:${withheldWithData[0]!.label}`, setting: null, employment: null });
      expect(t.n).toBe(remainder);
      estimates.push({
        attack: 'open: specialty minus its states', target: `open|${sp}|${withheldWithData[0]!.label}`, n: remainder,
        estimate: whole.mean! * whole.n - published.reduce((a, p) => a + p.mean! * p.n!, 0), truth: t.sum,
      });
    }
    expect(estimates.length).toBeGreaterThan(before);
  }, 120_000);

  it('the same reports get the same figures whatever query reaches them (trending row = one-year range = filter)', async () => {
    let compared = 0;
    for (const specialty of Object.keys(THIN_SPECIALTIES)) {
      const all = await benchmarks({ specialty, geo: 'US', setting: null, employment: null });
      for (const row of all!.trending as Row[]) {
        if (!row.publishable) continue;
        const one = await benchmarks({ specialty, geo: 'US', setting: null, employment: null, yearStart: row.year!, yearEnd: row.year! });
        expect({ n: one!.sample_size, mean: one!.mean, p25: one!.percentiles.p25, p50: one!.percentiles.p50 }).toEqual({ n: row.n, mean: row.mean, p25: row.p25, p50: row.p50 });
        compared++;
      }
      // a breakdown row is the filtered scope: same n and mean
      for (const row of all!.breakdowns.by_practice_setting as Row[]) {
        if (!row.publishable) continue;
        const filtered = await benchmarks({ specialty, geo: 'US', setting: row.label!, employment: null });
        expect({ n: filtered!.sample_size, mean: filtered!.mean }).toEqual({ n: row.n, mean: row.mean });
        compared++;
      }
      // and asking twice gives the same answer
      expect(await benchmarks({ specialty, geo: 'US', setting: null, employment: null })).toEqual(all);
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('no subtraction recovers a withheld cell better than noise the size of a typical report', () => {
    // The same two sets of reports give the same figures whatever query reached them: keep each distinct
    // subtraction once (e.g. [2019, y] and [2020, y] are one set when the scope has no 2019 report).
    const distinct = new Map<string, Estimate>();
    for (const e of estimates) distinct.set(`${e.target}|${e.estimate.toFixed(4)}`, e);
    estimates.splice(0, estimates.length, ...distinct.values());
    const byAttack = new Map<string, Estimate[]>();
    for (const e of estimates) byAttack.set(e.attack, [...(byAttack.get(e.attack) ?? []), e]);
    const lines = [...byAttack].map(([attack, list]) => {
      const s = score(list);
      return `${attack.padEnd(42)} ${String(s.count).padStart(5)} estimates  median error ${s.median.toFixed(3)}  within 5%: ${(100 * s.within5).toFixed(1)}%  best ${s.best.toFixed(4)}`;
    });
    const all = score(estimates);
    const single = score(estimates.filter((e) => e.n === 1));
    lines.push(`${'all'.padEnd(42)} ${String(all.count).padStart(5)} estimates  median error ${all.median.toFixed(3)}  within 5%: ${(100 * all.within5).toFixed(1)}%  best ${all.best.toFixed(4)}`);
    lines.push(`${'one-report cells'.padEnd(42)} ${String(single.count).padStart(5)} estimates  median error ${single.median.toFixed(3)}  within 5%: ${(100 * single.within5).toFixed(1)}%  best ${single.best.toFixed(4)}`);
    // An attacker with several subtractions for one cell averages them (each has its own noise).
    const byTarget = new Map<string, Estimate[]>();
    for (const e of estimates) byTarget.set(e.target, [...(byTarget.get(e.target) ?? []), e]);
    const averaged = [...byTarget.values()].map((list) => ({ ...list[0]!, attack: 'averaged', estimate: list.reduce((a, e) => a + e.estimate, 0) / list.length }));
    const avg = score(averaged);
    const multi = [...byTarget.values()].filter((l) => l.length > 1).length;
    lines.push(`${'averaged per cell'.padEnd(42)} ${String(avg.count).padStart(5)} cells      median error ${avg.median.toFixed(3)}  within 5%: ${(100 * avg.within5).toFixed(1)}%  best ${avg.best.toFixed(4)}  (${multi} cells with 2+ estimates, at most ${Math.max(...[...byTarget.values()].map((l) => l.length))})`);
    console.log(`differencing attacks (error in reports: |estimate - true sum| / true mean)\n${lines.join('\n')}`);
    expect(byAttack.size).toBeGreaterThanOrEqual(7);
    expect(single.count).toBeGreaterThan(30);
    expect(all.median).toBeGreaterThanOrEqual(0.25);
    expect(all.within5).toBeLessThanOrEqual(0.1);
    expect(single.median).toBeGreaterThanOrEqual(0.25);
    expect(single.within5).toBeLessThanOrEqual(0.1);
    expect(avg.median).toBeGreaterThanOrEqual(0.25);
    expect(avg.within5).toBeLessThanOrEqual(0.1);
  });
});
