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
import { createRng } from '../../build/demo/rng.ts';
import { figuresOf, isolate, recovered, scoreIsolation, solveSorted } from './solve.ts';

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
  /** null below 5 reports (no exact count below the floor) */
  n: number | null;
  mean: number | null;
  p25?: number | null;
  p50?: number | null;
  publishable?: boolean;
  label?: string;
  year?: number;
}

/**
 * One subtraction: whole (n, mean) minus published parts; an estimate when exactly one part is withheld.
 * Counts below 5 are not published, so the withheld part's size is what the published counts leave (the
 * attacker's best inference; `parts` must cover the whole: every year, band or category).
 */
function subtract(whole: { n: number | null; mean: number | null }, parts: Row[]): { n: number; estimate: number; row: Row } | null {
  if (whole.mean === null || whole.n === null) return null;
  const withheld = parts.filter((p) => p.mean === null);
  if (withheld.length !== 1) return null;
  const published = parts.filter((p) => p.mean !== null);
  const n = whole.n - published.reduce((a, p) => a + p.n!, 0);
  if (n <= 0) return null; // the withheld part is empty
  return { n, estimate: whole.mean * whole.n - published.reduce((a, p) => a + p.mean! * p.n!, 0), row: withheld[0]! };
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
        const rows = (d.breakdowns.by_practice_setting as Row[]).filter((r) => (r.n ?? 0) > 0 || SETTINGS.includes(r.label!));
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
    // Hiding counts below 5 leaves some subtractions ambiguous (several null rows: which holds the rest?),
    // so fewer attacks find a target than when exact small counts were published (7 kinds, 43 one-report
    // cells then); the ones left must still fail.
    expect(byAttack.size).toBeGreaterThanOrEqual(6);
    expect(single.count).toBeGreaterThan(10);
    expect(all.median).toBeGreaterThanOrEqual(0.25);
    expect(all.within5).toBeLessThanOrEqual(0.1);
    expect(single.median).toBeGreaterThanOrEqual(0.25);
    expect(single.within5).toBeLessThanOrEqual(0.1);
    expect(avg.median).toBeGreaterThanOrEqual(0.25);
    expect(avg.within5).toBeLessThanOrEqual(0.1);
  });
});

// ============================================================================ order statistics and counts

/**
 * Attacks on percentiles, intervals and counts (README: Disclosure control), against the real build and
 * server of the same thin dataset, with the attacker's solver (solve.ts). Bounds (DESIGN 3b, issue 26):
 * reading a publishable cell recovers at most 1 report in 10 within 1%; isolating a report (nested year
 * ranges under filters and regions, two consecutive builds) gives a median error of at least 25% and at
 * most 1 estimate in 10 within 5%; no count below the floor is ever shown.
 */
describe('order-statistic and count attacks on a thin dataset', () => {
  const reports = generateThinReports(2026);
  // the next night's dataset: one more report in each of 30 distinct specialty x state cells
  const added: ThinReport[] = (() => {
    const out: ThinReport[] = [];
    const rng = createRng(99);
    const specialties = Object.keys(THIN_SPECIALTIES);
    for (let k = 0; k < 30; k++) {
      const specialty = specialties[k % specialties.length]!;
      const state = THIN_STATES[(k * 7) % THIN_STATES.length]!;
      if (out.some((r) => r.specialty === specialty && r.state === state)) continue;
      let z = rng.normal();
      while (Math.abs(z) > 2) z = rng.normal();
      out.push({
        specialty, state, year: THIN_YEARS[rng.int(0, THIN_YEARS.length - 1)]!, total: Math.round((THIN_SPECIALTIES[specialty]! * Math.exp(0.22 * z)) / 100) * 100,
        setting: SETTINGS[rng.int(0, 2)]!, employment: EMPLOYMENTS[0]!, experience: rng.int(0, 30), submittedAt: '2026-11-16',
      });
    }
    return out;
  })();
  let a: RunningServer;
  let b: RunningServer;
  let starter: string;
  let enterprise: string;
  let enterpriseB: string;
  const lines: string[] = [];

  beforeAll(async () => {
    const work = mkdtempSync(join(tmpdir(), 'physpay-order-attack-'));
    const build = async (name: string, rs: ThinReport[]) => {
      const db = join(work, `${name}.db`);
      writeThinDb(db, rs, SECRET);
      const dist = join(work, `dist-${name}`);
      runBuild({ ...DEFAULT_BUILD_OPTIONS, db, out: dist, baseUrl: 'https://physpay.example', buildDate: '2026-11-16', durable: false, now: () => NOW, force: true });
      return startServer({
        dataDir: dist, serviceDb: join(work, `service-${name}.db`), host: '127.0.0.1', port: 0,
        ipLimits: { perMinute: 1_000_000, perDay: 10_000_000 }, trustProxy: false, pollMs: 60_000, clock: () => NOW,
      });
    };
    a = await build('night1', reports);
    b = await build('night2', [...reports, ...added]);
    starter = (await createKey(a.store, 'starter')).key;
    enterprise = (await createKey(a.store, 'enterprise')).key;
    enterpriseB = (await createKey(b.store, 'enterprise')).key;
  }, 180_000);

  afterAll(async () => {
    console.log(`order-statistic and count attacks\n${lines.join('\n')}`);
    await a?.close();
    await b?.close();
  });

  const keyed = async (server: RunningServer, key: string, path: string, params: Record<string, string | number | null | undefined>) => {
    const r = await request(server.url, `/api/v1/${path}?${qs(params)}`, { headers: { 'x-api-key': key } });
    if (r.status !== 200) return null;
    const body = r.json<Record<string, any>>();
    return (body.data ?? body) as Record<string, any>; // /available-data has no `data` envelope
  };
  const stateCell = (specialty: string, code: string, rs = reports) => rs.filter((r) => r.specialty === specialty && r.state === code).map((r) => r.total).sort((x, y) => x - y);
  const line = (what: string, s: string) => lines.push(`${what.padEnd(52)} ${s}`);

  /**
   * Isolation attacks, judged (DESIGN 3b): the solver difference (B's solved reports minus A's) must miss by
   * a median of at least 25% with at most 1 estimate in 10 within 5%. The fit (A's solved reports plus the
   * one report that best explains B's figures) lands where a guess of the cell's typical pay lands when the
   * figures carry no information about the added report: its baseline is "the added report is about B's
   * published median", which needs no comparison at all (on data as tight as physicians' pay in one
   * specialty, that guess alone is within 5% about 1 time in 5). The fit must do no better than that
   * baseline: comparing the cells must add nothing about the report.
   */
  function judgeIsolation(what: string, diff: { estimate: number; truth: number }[], fit: { estimate: number; truth: number }[], prior: { estimate: number; truth: number }[]) {
    const [sd, sf, sp] = [scoreIsolation(diff), scoreIsolation(fit), scoreIsolation(prior)];
    const show = (s: ReturnType<typeof scoreIsolation>) => `${s.count} reports, median error ${(100 * s.median).toFixed(1)}%, within 5%: ${(100 * s.within5).toFixed(1)}%`;
    line(`${what}, solver difference`, show(sd));
    line(`${what}, fit of the added report`, show(sf));
    line(`${what}, baseline: B's median, no comparison`, show(sp));
    expect(sd.count, what).toBeGreaterThanOrEqual(15);
    expect(sd.median, `${what} difference`).toBeGreaterThanOrEqual(0.25);
    expect(sd.within5, `${what} difference`).toBeLessThanOrEqual(0.1);
    expect(sf.median, `${what} fit against the baseline`).toBeGreaterThanOrEqual(sp.median - 0.03);
    expect(sf.within5, `${what} fit against the baseline`).toBeLessThanOrEqual(sp.within5 + 0.05);
  }

  function readScore(cells: { truth: number[]; solved: number[] }[]) {
    const total = cells.reduce((n, c) => n + c.truth.length, 0);
    const hit = cells.reduce((n, c) => n + recovered(c.truth, c.solved, 0.01), 0);
    return { cells: cells.length, total, hit, share: hit / Math.max(1, total) };
  }

  it('reading small keyed cells (P10-P90 and the interval), and the percentile-rank grid: at most 1 report in 10 within 1%', async () => {
    const bench: { truth: number[]; solved: number[] }[] = [];
    const grid: { truth: number[]; solved: number[] }[] = [];
    for (const specialty of Object.keys(THIN_SPECIALTIES)) {
      for (const code of THIN_STATES) {
        const truth = stateCell(specialty, code);
        if (truth.length < 5 || truth.length > 9) continue;
        const state = stateOf.get(code)!.name;
        const d = await keyed(a, starter, 'benchmarks', { specialty, state });
        expect(d?.geography.scope_used).toBe('state');
        bench.push({ truth, solved: solveSorted(d!.sample_size, figuresOf(d!.sample_size, d!.percentiles, d!.confidence.confidence_interval_95)) });
        const g = await keyed(a, starter, 'percentile-rank', { specialty, state, compensation: 1 });
        grid.push({ truth, solved: solveSorted(g!.sample_size, figuresOf(g!.sample_size, g!.percentiles)) });
      }
    }
    const sb = readScore(bench);
    const sg = readScore(grid);
    line('keyed: solve cells of 5-9 (P10-P90 + interval)', `${sb.cells} cells, ${sb.hit} of ${sb.total} reports within 1% (${(100 * sb.share).toFixed(1)}%)`);
    line('keyed: solve the percentile-rank grid (starter)', `${sg.cells} cells, ${sg.hit} of ${sg.total} reports within 1% (${(100 * sg.share).toFixed(1)}%)`);
    expect(sb.total).toBeGreaterThan(50);
    expect(sb.share).toBeLessThanOrEqual(0.1);
    expect(sg.share).toBeLessThanOrEqual(0.1);
  }, 120_000);

  it('reading open cells of 3-5 reports (p25, median, p75): at most 1 report in 10 within 1%', async () => {
    const cells: { truth: number[]; solved: number[] }[] = [];
    for (const specialty of Object.keys(THIN_SPECIALTIES)) {
      for (const code of THIN_STATES) {
        const truth = stateCell(specialty, code);
        if (truth.length < 3 || truth.length > 5) continue;
        const r = await request(a.url, `/data/api/v1/specialties/${specialty}/states/${slugify(stateOf.get(code)!.name)}.json`);
        const d = r.json<Record<string, any>>();
        expect(d.n).toBe(truth.length);
        cells.push({ truth, solved: solveSorted(d.n, figuresOf(d.n, { p10: d.p10, p25: d.p25, median: d.median, p75: d.p75, p90: d.p90 })) });
      }
    }
    const s = readScore(cells);
    line('open: solve specialty-in-state cells of 3-5', `${s.cells} cells, ${s.hit} of ${s.total} reports within 1% (${(100 * s.share).toFixed(1)}%)`);
    expect(s.total).toBeGreaterThan(30);
    expect(s.share).toBeLessThanOrEqual(0.1);
  }, 60_000);

  it('isolating a report: Enterprise year ranges grown one year at a time, under every filter, nationally and per region', async () => {
    const diff: { estimate: number; truth: number }[] = [];
    const fit: { estimate: number; truth: number }[] = [];
    const prior: { estimate: number; truth: number }[] = [];
    const first = THIN_YEARS[0]!;
    const filters: [string | null, string | null][] = [[null, null], ...SETTINGS.map((x) => [x, null] as [string, null]), ...EMPLOYMENTS.map((x) => [null, x] as [null, string]),
      ...SETTINGS.flatMap((x) => EMPLOYMENTS.map((y) => [x, y] as [string, string]))];
    for (const specialty of Object.keys(THIN_SPECIALTIES)) {
      for (const geo of ['US', ...REGIONS_USED.map((r) => `R:${r}`)]) {
        for (const [setting, employment] of filters) {
          let prev: Record<string, any> | null = null;
          for (const year of THIN_YEARS) {
            const d = await keyed(a, enterprise, 'benchmarks', {
              specialty, region: geo.startsWith('R:') ? geo.slice(2) : null, practice_setting: setting, employment_type: employment, year_start: first, year_end: year,
            });
            const at = d && (geo === 'US' ? d.geography.scope_used === 'national' : d.geography.scope_used === 'regional');
            if (d && at && prev && d.sample_size === prev.sample_size + 1) {
              const inScope = (r: ThinReport) => r.specialty === specialty && inGeo(r, geo) && (setting === null || r.setting === setting) && (employment === null || r.employment === employment) && r.year === year;
              const truth = reports.filter(inScope);
              expect(truth).toHaveLength(1);
              const est = isolate(prev.sample_size, figuresOf(prev.sample_size, prev.percentiles, prev.confidence.confidence_interval_95), d.sample_size, figuresOf(d.sample_size, d.percentiles, d.confidence.confidence_interval_95));
              diff.push({ estimate: est.difference, truth: truth[0]!.total });
              fit.push({ estimate: est.fit, truth: truth[0]!.total });
              prior.push({ estimate: d.percentiles.p50, truth: truth[0]!.total });
            }
            prev = d && at ? d : null;
          }
        }
      }
    }
    judgeIsolation('keyed: year-range chains', diff, fit, prior);
  }, 180_000);

  it('isolating a report: two consecutive nightly builds, one report added per cell (keyed and open)', async () => {
    const keyedFit: { estimate: number; truth: number }[] = [];
    const keyedDiff: { estimate: number; truth: number }[] = [];
    const keyedPrior: { estimate: number; truth: number }[] = [];
    const openFit: { estimate: number; truth: number }[] = [];
    const openDiff: { estimate: number; truth: number }[] = [];
    const openPrior: { estimate: number; truth: number }[] = [];
    for (const r of added) {
      const state = stateOf.get(r.state)!.name;
      const before = await keyed(a, enterprise, 'benchmarks', { specialty: r.specialty, state });
      const after = await keyed(b, enterpriseB, 'benchmarks', { specialty: r.specialty, state });
      if (before?.geography.scope_used === 'state' && after?.geography.scope_used === 'state') {
        expect(after.sample_size).toBe(before.sample_size + 1);
        const est = isolate(before.sample_size, figuresOf(before.sample_size, before.percentiles, before.confidence.confidence_interval_95), after.sample_size, figuresOf(after.sample_size, after.percentiles, after.confidence.confidence_interval_95));
        keyedFit.push({ estimate: est.fit, truth: r.total });
        keyedDiff.push({ estimate: est.difference, truth: r.total });
        keyedPrior.push({ estimate: after.percentiles.p50, truth: r.total });
      }
      const path = `/data/api/v1/specialties/${r.specialty}/states/${slugify(state)}.json`;
      const o1 = (await request(a.url, path)).json<Record<string, any>>();
      const o2 = (await request(b.url, path)).json<Record<string, any>>();
      if (o1.n !== null && o2.n !== null) {
        expect(o2.n).toBe(o1.n + 1);
        const f = (d: Record<string, any>) => figuresOf(d.n, { p10: d.p10, p25: d.p25, median: d.median, p75: d.p75, p90: d.p90 });
        const est = isolate(o1.n, f(o1), o2.n, f(o2));
        openFit.push({ estimate: est.fit, truth: r.total });
        openDiff.push({ estimate: est.difference, truth: r.total });
        openPrior.push({ estimate: o2.median, truth: r.total });
      }
    }
    judgeIsolation('two builds: keyed', keyedDiff, keyedFit, keyedPrior);
    judgeIsolation('two builds: open', openDiff, openFit, openPrior);
  }, 120_000);

  it('counts: no withheld cell shows its exact count or years, in /available-data, scopes, trending or breakdown rows', async () => {
    let shown = 0;
    let checked = 0;
    for (const specialty of Object.keys(THIN_SPECIALTIES)) {
      for (const code of THIN_STATES) {
        for (const [setting, employment] of [[null, null], [SETTINGS[0]!, null], [null, EMPLOYMENTS[0]!]] as [string | null, string | null][]) {
          const truth = reports.filter((r) => r.specialty === specialty && r.state === code && (setting === null || r.setting === setting) && (employment === null || r.employment === employment));
          if (truth.length === 0 || truth.length >= 5) continue;
          checked++;
          const state = stateOf.get(code)!.name;
          const av = await keyed(a, enterprise, 'available-data', { specialty, state, practice_setting: setting, employment_type: employment });
          const s = av!.availability.state;
          if (s.n !== null || s.years.length > 0) shown++;
          const d = await keyed(a, enterprise, 'benchmarks', { specialty, state, practice_setting: setting, employment_type: employment });
          if (d && d.scopes.state.n !== null) shown++;
        }
      }
    }
    // rows: every trending and breakdown row below 5 reports hides its count
    for (const specialty of Object.keys(THIN_SPECIALTIES)) {
      const d = await keyed(a, enterprise, 'benchmarks', { specialty, region: 'West' });
      for (const row of [...d!.trending, ...d!.breakdowns.by_experience, ...d!.breakdowns.by_practice_setting, ...d!.breakdowns.by_employment_type]) {
        if (row.n !== null && row.n < 5) shown++;
      }
    }
    line('counts of withheld cells shown (available-data, scopes, rows)', `${shown} of ${checked} cells and every row checked`);
    expect(checked).toBeGreaterThan(50);
    expect(shown).toBe(0);
  }, 120_000);
});
