/**
 * Attacks across builds and with planted reports (README: Disclosure control, method version 3), against the
 * real build and a real server on the thin dataset (thin-data.ts). The attacker holds an Enterprise key, reads
 * every open feed of two nightly builds, knows the code, and knows every report of a cell but one (planted
 * through the intake, or colleagues pooling theirs): the victim.
 *
 * 1. Two builds, no injection: reports added in one state move no figure of a cell whose reports did not
 *    change (keyed artifacts and open feeds). Nothing that sizes the noise follows the data.
 * 2. Planted reports + key search: for every keyed cell of 5-14 reports, the attacker tries cell keys through
 *    the project's own draws (createDraws) under draw keys it can guess, and solves the victim from each
 *    published figure in turn; a candidate "fits" when every figure agrees to the dollar. Nothing fits. Even an
 *    insider with the real draw key and the real cell key gets the victim within 1% in under 1 case in 10:
 *    the planted reports' own factors are unknown to the attacker.
 * 3. Planted reports + averaging: every year range, practice setting and employment filter that holds the
 *    victim (n >= 5) gives a mean; each gives an estimate (mean x n minus the planted reports, n being the
 *    count the attacker knows: its planted reports in scope plus the victim, not the published count, which is
 *    perturbed); their median is the attack. Within 5% no more often than the guess "the cell's published
 *    median" (plus sampling slack) and in at most 1 case in 10. The same attacker who also knows the factors' distribution and
 *    corrects for it is measured and printed (README: known limits).
 * 4. No negative figure in any feed, CSV or keyed artifact (the moves are factors of the figure: see the unit property test).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { distortedTotals, generateThinReports, writeThinDb, drawThinReport, THIN_SPECIALTIES, THIN_STATES, THIN_YEARS, type ThinReport } from './thin-data.ts';
import { DEFAULT_BUILD_OPTIONS, runBuild } from '../../build/run-build.ts';
import { keyedPaths, type KeyedSpecialtyArtifact } from '../../build/contract/keyed-artifacts.ts';
import { feedPaths } from '../../build/contract/open-feeds.ts';
import { STATES } from '../../build/db/reference/states.ts';
import { slugify } from '../../build/contract/names.ts';
import { createDraws, drawKeyOf, MEAN_FACTOR, NOISE_SPAN, COLUMN, SLOT, TWO32, quantileMoveBound, type CellKey, type Draws } from '../../build/compute/disclosure.ts';
import { recordKeys } from '../../build/source/record-keys.ts';
import { quantile, tukeyFences } from '../../build/compute/stats.ts';
import { countWithin } from '../keyed/reference.ts';
import { createRng } from '../../build/demo/rng.ts';
import type { RunningServer } from '../../server/main.ts';
import { startTestServer } from '../helpers/server.ts';
import { createKey } from '../helpers/keys.ts';
import { request } from '../helpers/http.ts';
import { qs } from '../keyed/harness.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const NOW = new Date('2026-11-16T03:00:00.000Z');
const SECRET = Buffer.from('planted-attack-secret-not-real'.padEnd(32, '-').slice(0, 32));
const stateOf = new Map(STATES.map((s) => [s.code, s]));
const SETTINGS = ['Hospital Employed', 'Private Practice', 'Academic'];
const EMPLOYMENTS = ['Full-Time (W-2)', 'Partner/Owner'];
const lines: string[] = [];

const readJson = (dir: string, path: string) => JSON.parse(readFileSync(join(dir, path), 'utf8'));

describe('attacks across builds and with planted reports (method version 3)', () => {
  const work = useTempDir('planted');
  const reports = generateThinReports(2026);
  // night 2: three more cardiology reports in California (a cell of its own), nothing else
  const rng = createRng(99);
  const added = [0, 1, 2].map(() => drawThinReport(rng, 'cardiology', 'CA', 0));
  let dir1 = '';
  let dir2 = '';
  let server: RunningServer;
  let key = '';

  beforeAll(async () => {
    const build = (name: string, rs: ThinReport[], out: string) => {
      const db = join(work.path, `${name}.db`);
      writeThinDb(db, rs, SECRET);
      return runBuild({ ...DEFAULT_BUILD_OPTIONS, db, out, baseUrl: 'https://physpay.example', buildDate: name === 'night1' ? '2026-11-15' : '2026-11-16', durable: false, now: () => NOW, force: true });
    };
    const out = join(work.path, 'dist');
    dir1 = build('night1', reports, out).dir;
    dir2 = build('night2', [...reports, ...added], out).dir;
    expect(dir2).not.toBe(dir1);
    server = await startTestServer(out, join(work.path, 'service.db'), { clock: () => NOW });
    key = (await createKey(server.store, 'enterprise')).key;
  }, 180_000);

  afterAll(async () => {
    console.log(`planted-report and two-build attacks (method version 3)\n${lines.join('\n')}`);
    await server?.close();
  });

  it('1. two builds: reports added in California move no figure of a cell whose reports did not change', () => {
    let keyedSame = 0;
    let keyedChanged = 0;
    for (const slug of Object.keys(THIN_SPECIALTIES)) {
      const a = readJson(dir1, keyedPaths.specialty(slug)) as KeyedSpecialtyArtifact;
      const b = readJson(dir2, keyedPaths.specialty(slug)) as KeyedSpecialtyArtifact;
      for (const [cell, fig] of Object.entries(a.cells)) {
        // a cell holds a California cardiology report when it is cardiology and national, West or California
        const touched = slug === 'cardiology' && (cell.startsWith('US|') || cell.startsWith('R:West|') || cell.startsWith('S:CA|'));
        if (touched) {
          keyedChanged++;
          continue;
        }
        expect(b.cells[cell], `${slug} ${cell}`).toEqual(fig);
        keyedSame++;
      }
    }
    // An open cell counts the reports inside its specialty's fences (on the totals as the build sees them, times
    // their record factors: ids 1..N in insertion order, so night 2's first reports are night 1's). Published counts
    // are perturbed, so whether a cell's set of reports changed comes from the reports, not from its n.
    const openSets = (rs: ThinReport[]) => {
      const seen = distortedTotals(rs, SECRET);
      const sets = new Map<string, string>();
      for (const slug of Object.keys(THIN_SPECIALTIES)) {
        const f = tukeyFences(Float64Array.from(rs.flatMap((r, i) => (r.specialty === slug ? [seen[i]!] : []))).sort());
        rs.forEach((r, i) => {
          if (r.specialty !== slug || seen[i]! < f.lower || seen[i]! > f.upper) return;
          sets.set(`${slug}|${r.state}`, `${sets.get(`${slug}|${r.state}`) ?? ''},${i}`);
        });
      }
      return sets;
    };
    const [sets1, sets2] = [openSets(reports), openSets(night2())];
    let openSame = 0;
    let openMoved = 0;
    for (const slug of Object.keys(THIN_SPECIALTIES)) {
      for (const code of THIN_STATES) {
        if (slug === 'cardiology' && code === 'CA') continue;
        const path = `public/${feedPaths.specialtyState(slug, slugify(stateOf.get(code)!.name))}`;
        const a = readJson(dir1, path);
        const b = readJson(dir2, path);
        if (sets1.get(`${slug}|${code}`) !== sets2.get(`${slug}|${code}`)) {
          openMoved++; // the national fences moved a report in or out: another set of reports
          continue;
        }
        for (const f of ['n', 'median', 'mean', 'p10', 'p25', 'p75', 'p90']) expect(b[f], `${path} ${f}`).toEqual(a[f]);
        openSame++;
      }
    }
    lines.push(`1. two builds: ${keyedSame} keyed cells and ${openSame} open specialty-in-state cells unchanged (identical figures); ${keyedChanged} keyed cells held new reports${openMoved ? `; ${openMoved} open cells' reports moved across the fences` : ''}`);
    expect(keyedSame).toBeGreaterThan(1000);
    expect(openSame).toBeGreaterThan(80);
  });

  /** Keyed /benchmarks answer's headline for a scope (null when 404 or not the asked geography). */
  async function bench(params: Record<string, string | number | null>): Promise<Record<string, any> | null> {
    const r = await request(server.url, `/api/v1/benchmarks?${qs(params)}`, { headers: { 'x-api-key': key } });
    if (r.status === 404) return null;
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    return r.json<{ data: Record<string, any> }>().data;
  }

  /** Victims: every report of a state cell of 5-14 reports of night 2's data (the attacker knows the others). */
  const night2 = () => [...reports, ...added];
  const cellsOf = () => {
    const m = new Map<string, { r: ThinReport; id: number }[]>();
    night2().forEach((r, i) => {
      const k = `${r.specialty}|${r.state}`;
      if (!m.has(k)) m.set(k, []);
      m.get(k)!.push({ r, id: i + 1 }); // writeThinDb inserts in order: ids 1..N
    });
    return [...m.entries()].filter(([, rs]) => rs.length >= 5 && rs.length <= 14);
  };

  it('2. planted reports + key search: no key fits without the secret; an insider with the keys gets no victim to 1%', async () => {
    const guessed: Draws[] = [Buffer.alloc(32), Buffer.alloc(32, 0xff), drawKeyOf(Buffer.alloc(32)), drawKeyOf(Buffer.from('physpay'.padEnd(32, ' ')))].map((k) => createDraws(k));
    const insider = createDraws(drawKeyOf(SECRET));
    const CANDIDATES = 1 << 10;
    let fits = 0;
    let tried = 0;
    let insiderNear1 = 0;
    let insiderCount = 0;
    let cells = 0;
    for (const [id, members] of cellsOf()) {
      const [slug, code] = id.split('|') as [string, string];
      const d = await bench({ specialty: slug, state: stateOf.get(code)!.name });
      if (!d || d.geography.scope_used !== 'state') continue;
      cells++;
      const n = members.length;
      const published = { p25: d.percentiles.p25 as number, p50: d.percentiles.p50 as number, p75: d.percentiles.p75 as number, mean: d.mean as number };
      // the record keys of the cell's reports (the insider knows the secret; the outsider does not)
      const lo = new Uint32Array(n);
      const hi = new Uint32Array(n);
      recordKeys(SECRET, Float64Array.from(members, (m) => m.id), { lo, hi, factor: new Uint32Array(n) });
      let klo = 0;
      let khi = 0;
      for (let i = 0; i < n; i++) { klo += lo[i]!; khi += hi[i]!; }
      const realKey: CellKey = { lo: klo % TWO32, hi: khi % TWO32 };
      for (let v = 0; v < n; v++) {
        const victim = members[v]!.r.total;
        const planted = members.filter((_, i) => i !== v).map((m) => m.r.total);
        const plantedSum = planted.reduce((a, x) => a + x, 0);
        /** the victim each figure implies under draws u (the attacker's model: exact values, the published method) */
        const solve = (draws: Draws, k: CellKey) => {
          const u = draws.draw(k, COLUMN.total, SLOT.sum);
          const fromMean = (published.mean * MEAN_FACTOR * n) / (1 + (u * NOISE_SPAN) / n) - plantedSum;
          const all = Float64Array.from([...planted, fromMean]).sort();
          const move = (slot: (typeof SLOT)[keyof typeof SLOT]) => Math.exp(2 * draws.draw(k, COLUMN.total, slot) * quantileMoveBound(n));
          const predicted = { p25: quantile(all, 0.25) * move(SLOT.p25), p50: quantile(all, 0.5) * move(SLOT.p50), p75: quantile(all, 0.75) * move(SLOT.p75) };
          const fit = (['p25', 'p50', 'p75'] as const).every((f) => Math.abs(Math.round(predicted[f]) - published[f]) <= 1);
          return { fromMean, fit };
        };
        for (const draws of guessed) {
          for (let c = 0; c < CANDIDATES; c++) {
            tried++;
            if (solve(draws, { lo: (c * 2654435761) >>> 0, hi: (c * 40503 + v) >>> 0 }).fit) fits++;
          }
        }
        const inside = solve(insider, realKey);
        insiderCount++;
        if (Math.abs(inside.fromMean - victim) <= 0.01 * victim) insiderNear1++;
      }
    }
    lines.push(`2. key search: ${cells} keyed state cells of 5-14, ${tried.toLocaleString('en-US')} (draw key, cell key) candidates tried: ${fits} fit; insider with the real keys: ${insiderNear1} of ${insiderCount} victims within 1%`);
    expect(cells).toBeGreaterThan(10);
    expect(fits).toBe(0);
    expect(insiderNear1 / insiderCount).toBeLessThan(0.1);
  }, 300_000);

  it('3. planted reports + every year range and filter: no better than guessing the median, at most 1 in 10 within 5%', async () => {
    const errors: number[] = [];
    const guessErrors: number[] = [];
    const knowingErrors: number[] = [];
    const within = (xs: number[], t: number) => xs.filter((x) => x <= t).length / Math.max(1, xs.length);
    const all = night2();
    for (const [id, members] of cellsOf()) {
      const [slug, code] = id.split('|') as [string, string];
      const state = stateOf.get(code)!.name;
      const head = await bench({ specialty: slug, state });
      if (!head || head.geography.scope_used !== 'state') continue;
      // one victim per cell (the report with the median id), so that cells count alike
      const victim = members[Math.floor(members.length / 2)]!.r;
      const estimates: number[] = [];
      for (let a = THIN_YEARS[0]!; a <= victim.year; a++) {
        for (let b = victim.year; b <= THIN_YEARS[THIN_YEARS.length - 1]!; b++) {
          for (const setting of [null, victim.setting]) {
            for (const employment of [null, victim.employment]) {
              const inScope = (r: ThinReport) => r.specialty === slug && r.state === code && r.year >= a && r.year <= b
                && (setting === null || r.setting === setting) && (employment === null || r.employment === employment);
              const scope = all.filter(inScope);
              if (scope.length < 5) continue;
              const d = await bench({ specialty: slug, state, year_start: a, year_end: b, practice_setting: setting, employment_type: employment });
              if (!d || d.geography.scope_used !== 'state') continue;
              expect(countWithin(d.sample_size, scope.length, [5, 15]), `${id} ${a}-${b} ${setting} ${employment}: published ${d.sample_size}, exact ${scope.length}`).toBe(true);
              const others = scope.filter((r) => r !== victim).reduce((s, r) => s + r.total, 0);
              // the attacker knows this scope's count: its own reports in it and the victim (the published one is perturbed)
              estimates.push(d.mean * scope.length - others);
            }
          }
        }
      }
      if (estimates.length === 0) continue;
      const est = quantile(Float64Array.from(estimates).sort(), 0.5);
      errors.push(Math.abs(est - victim.total) / victim.total);
      guessErrors.push(Math.abs(head.percentiles.p50 - victim.total) / victim.total);
      // the attacker who also knows that every factor is 5.5%-15% off: picks the side from the cell's median and corrects by the middle
      const corrected = est > head.percentiles.p50 ? est / Math.exp(0.1025) : est * Math.exp(0.1025);
      knowingErrors.push(Math.abs(corrected - victim.total) / victim.total);
    }
    const w5 = within(errors, 0.05);
    const g5 = within(guessErrors, 0.05);
    const slack = 2 * Math.sqrt((g5 * (1 - g5) + 0.01) / Math.max(1, errors.length));
    const med = (xs: number[]) => quantile(Float64Array.from(xs).sort(), 0.5);
    lines.push(`3. planted + every range and filter: ${errors.length} victims; within 5%: attack ${(100 * w5).toFixed(1)}%, median guess ${(100 * g5).toFixed(1)}%; within 1%: attack ${(100 * within(errors, 0.01)).toFixed(1)}%; median error: attack ${(100 * med(errors)).toFixed(1)}%, guess ${(100 * med(guessErrors)).toFixed(1)}%`);
    lines.push(`   the same attacker correcting for the factors' known size: within 5% ${(100 * within(knowingErrors, 0.05)).toFixed(1)}%, median error ${(100 * med(knowingErrors)).toFixed(1)}% (README: known limits)`);
    expect(errors.length).toBeGreaterThan(10);
    expect(w5).toBeLessThanOrEqual(Math.min(0.1, g5 + slack));
    expect(within(errors, 0.01)).toBeLessThanOrEqual(0.1);
  }, 300_000);

  it('4. no negative pay figure in any feed, CSV or keyed artifact', () => {
    let checked = 0;
    const walk = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));
    const money = /^(median|mean|p10|p25|p50|p75|p90|lower|upper|national_median|col_adjusted_median|standard_deviation)$/;
    const visit = (x: unknown, where: string) => {
      if (Array.isArray(x)) x.forEach((y, i) => visit(y, `${where}[${i}]`));
      else if (x && typeof x === 'object') {
        for (const [k, v] of Object.entries(x)) {
          if (typeof v === 'number' && money.test(k)) {
            checked++;
            expect(v, `${where}.${k}`).toBeGreaterThanOrEqual(0);
          } else visit(v, `${where}.${k}`);
        }
      }
    };
    for (const f of walk(dir2).filter((p) => p.endsWith('.json') && !p.includes('/reports/'))) visit(JSON.parse(readFileSync(f, 'utf8')), f);
    // CSV money columns (a difference from the national median, in percent, may be negative)
    for (const f of walk(dir2).filter((p) => p.endsWith('.csv'))) {
      // fields of one record (quoted fields may hold commas; no field of these files holds a line break)
      const fields = (l: string) => [...l.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map((m) => m[1]!);
      const [header, ...rows] = readFileSync(f, 'utf8').split('\r\n').filter(Boolean).map(fields);
      for (const r of rows) expect(r.length, f).toBe(header!.length);
      const cols = header!.flatMap((h, k) => (money.test(h) || /^pgy\d+_salary$|_col_adjusted$|^(salary|col_adjusted)$/.test(h) ? [k] : []));
      expect(cols.length, f).toBeGreaterThan(0);
      for (const r of rows) for (const k of cols) expect(r[k] ?? '', `${f} ${header![k]}`).not.toMatch(/^-/);
    }
    lines.push(`4. negatives: ${checked.toLocaleString('en-US')} published money figures checked, none below 0`);
    expect(checked).toBeGreaterThan(10_000);
  });
});
