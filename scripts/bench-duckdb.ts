/**
 * The DuckDB reference of the build benchmark (README: Benchmarks: the whole build within 10x the time DuckDB
 * takes to compute the same cells from the same rows). DuckDB is the yardstick, not a part of physpay.
 *
 * The rows are physpay's own: the approved reports as build/source/read.ts reads them, with the per-report
 * columns derived by build/compute/keyed.ts (`keyedColumnsFromDataset`: winsorized total, FTE total, base,
 * bonus, wRVUs, year, experience band, setting, employment, state) plus the specialty, the state's region,
 * the total as read (pay is already distorted by the record factors, disclosure.ts) and the two 32-bit lanes
 * of each report's record key. They are appended to an in-memory DuckDB
 * (appender fed with data chunks of 2,048 rows; timed as `load`), then every cell is computed with
 * GROUPING SETS and materialised with CREATE TABLE AS (timed as the queries):
 *
 * - keyed cells: specialty x geography (national, region, state) x practice setting (any, each) x employment
 *   type (any, each) = 12 grouping sets; per cell n, P10-P90, sum (mean) and sample SD of the winsorized total,
 *   the same of the FTE total, P25-P75 of base and bonus, P25-P90 of wRVUs and of total/wRVU, first and last
 *   submission day, and the cell keys the perturbed counts, means and SD need (each lane summed mod 2^32: over
 *   every report of the cell, and over those with an FTE total, a base, a bonus, wRVUs for the counts (and the
 *   FTE mean) of those columns); the trending rows (the 12 sets x year) and experience bands (x band): n,
 *   P25-P75, sum, cell key;
 * - open cells: specialty national, specialty x state, specialty x practice setting, state (all specialties)
 *   and specialty x year, over the totals inside each specialty's national Tukey fences (national.ts: type-7
 *   quartiles of every approved total of the specialty; computed in the same query, so exact, not
 *   approximated), n, P10-P90, sum, cell key, newest day; and each specialty's national $/wRVU cell (fences
 *   on the rates likewise; its cell key over its own rate reports).
 *
 * Quantiles: physpay's `quantile` (stats.ts) is simple-statistics' quantileSorted, type 7 (index (n - 1) p,
 * linear interpolation), which is DuckDB's quantile_cont (same index, same definition). Only the last bit can
 * differ: physpay computes x[lo] + f (x[hi] - x[lo]), DuckDB 1.5 x[lo] (1 - f) + x[hi] f, so a value that is
 * exactly a half (integer data such as wRVUs) may round the other way; --check reports those as ties.
 *
 *   npx tsx scripts/bench-duckdb.ts --db bench/out/demo-1000000.db [--runs 3] [--threads 2] [--json]
 *                                   [--check <dist-data dir built from the same DB>]
 *
 * --check compares every DuckDB cell with the build's files (private/keyed/benchmarks/{slug}.json and the
 * open feeds under public/data/api/v1/): counts, means and SDs are perturbed by physpay (disclosure.ts), so
 * the check applies the same perturbation (the build's draws, drawsFor(ds.drawKey), at DuckDB's cell keys) to
 * DuckDB's exact counts (perturbedCount with the build's thresholds: keyed.ts countOf, cells.ts openCell; the
 * counts must then be equal) and sums (allowing one unit of the last rounded digit: summation order);
 * each percentile is moved by a secret draw, so the check holds it to its bound: within
 * c x (exp(quantileMoveBound(n)) - 1) of c, DuckDB's exact value brought towards the median by the cell's
 * spread ratio (published.ts), plus half the rounding unit.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  DOUBLE, DuckDBDataChunk, DuckDBInstance, INTEGER, SMALLINT, TINYINT, UINTEGER,
  type DuckDBConnection, type DuckDBType,
} from '@duckdb/node-api';
import { openReportsDb } from '../build/db/open.ts';
import { readDataset } from '../build/source/read.ts';
import type { Dataset } from '../build/compute/dataset.ts';
import { KEYED_DEFAULTS, MIN_SAMPLE, SUFFICIENT_SAMPLE, keyedColumnsFromDataset, publishedCount } from '../build/compute/keyed.ts';
import { TAILS_MIN_N, spreadRatio, towardsMedian } from '../build/compute/published.ts';
import { nationalFacts } from '../build/compute/national.ts';
import { EXPERIENCE_BANDS, FLOORS, ROUNDING_MAX_N, roundMoney, roundRate } from '../build/compute/stats.ts';
import {
  COLUMN, drawsFor, perturbedCount, perturbedMean, perturbedSd, quantileMoveBound, type CellKey, type CellNoise, type Column, type Draws,
} from '../build/compute/disclosure.ts';
import { EMPLOYMENT_TYPES, PRACTICE_SETTINGS, REGIONS } from '../build/contract/vocab.ts';
import { GEO_NATIONAL, cellKey, geoRegion, geoState, keyedPaths, type KeyedSpecialtyArtifact } from '../build/contract/keyed-artifacts.ts';
import { feedPaths } from '../build/contract/open-feeds.ts';
import { fteScale } from '../build/compute/headline.ts';
import { basisOf } from '../build/compute/open-feeds.ts';
import { arg, flag, median } from './bench-lib.ts';

// ---------------------------------------------------------------- the rows

/** One row per approved report, column-wise, in the Dataset's order. NaN = NULL in DuckDB. */
interface Rows {
  count: number;
  sp: Int16Array;
  st: Int16Array;
  rg: Int8Array;
  setting: Int8Array;
  employment: Int8Array;
  yr: Int16Array;
  band: Int8Array;
  day: Int32Array;
  total: Float64Array;
  wtotal: Float64Array;
  fte: Float64Array;
  base: Float64Array;
  bonus: Float64Array;
  wrvus: Float64Array;
  /** the two 32-bit lanes of each report's record key (disclosure.ts) */
  kLo: Uint32Array;
  kHi: Uint32Array;
  /** full-time pay of the open data (headline.ts: fteScale); NaN when the open data leaves the report out */
  ftotal: Float64Array;
  /** 1 when the report's compensation year is a headline year of the open data */
  hl: Int8Array;
}

/** The table's columns: name, DuckDB type, the Rows field, nullable (NaN -> NULL). */
const COLUMNS: { name: string; type: DuckDBType; field: keyof Omit<Rows, 'count'>; nullable: boolean }[] = [
  { name: 'sp', type: SMALLINT, field: 'sp', nullable: false },
  { name: 'st', type: SMALLINT, field: 'st', nullable: false },
  { name: 'rg', type: TINYINT, field: 'rg', nullable: false },
  { name: 'setting', type: TINYINT, field: 'setting', nullable: false }, // -1 = not given
  { name: 'employment', type: TINYINT, field: 'employment', nullable: false }, // -1 = not given
  { name: 'yr', type: SMALLINT, field: 'yr', nullable: false },
  { name: 'band', type: TINYINT, field: 'band', nullable: false }, // -1 = not given
  { name: 'day', type: INTEGER, field: 'day', nullable: false },
  { name: 'total', type: DOUBLE, field: 'total', nullable: false }, // as reported
  { name: 'ftotal', type: DOUBLE, field: 'ftotal', nullable: true }, // full-time pay (open data); NULL: left out
  { name: 'hl', type: TINYINT, field: 'hl', nullable: false }, // 1: a headline year (open data)
  { name: 'wtotal', type: DOUBLE, field: 'wtotal', nullable: false }, // winsorized (keyed API)
  { name: 'fte', type: DOUBLE, field: 'fte', nullable: true },
  { name: 'base', type: DOUBLE, field: 'base', nullable: true },
  { name: 'bonus', type: DOUBLE, field: 'bonus', nullable: true },
  { name: 'wrvus', type: DOUBLE, field: 'wrvus', nullable: true }, // NULL unless > 0
  { name: 'k_lo', type: UINTEGER, field: 'kLo', nullable: false },
  { name: 'k_hi', type: UINTEGER, field: 'kHi', nullable: false },
];

/** The keyed stage's per-report columns (keyedColumnsFromDataset) for every specialty, plus what the open cells use. */
function rowsOf(ds: Dataset): Rows {
  const R = ds.reports;
  const n = R.count;
  const rows: Rows = {
    count: n,
    sp: new Int16Array(n), st: new Int16Array(n), rg: new Int8Array(n), setting: new Int8Array(n), employment: new Int8Array(n),
    yr: new Int16Array(n), band: new Int8Array(n), day: new Int32Array(n),
    total: R.total, wtotal: new Float64Array(n), fte: new Float64Array(n), base: new Float64Array(n), bonus: new Float64Array(n), wrvus: new Float64Array(n),
    kLo: R.keyLo, kHi: R.keyHi,
    ftotal: new Float64Array(n), hl: new Int8Array(n),
  };
  // the open data's population (headline.ts), written out: full-time pay, and the headline years
  const basis = basisOf(ds);
  for (let i = 0; i < n; i++) {
    const scale = fteScale(R.hours[i]!, R.employment[i]!);
    rows.ftotal[i] = scale === null ? NaN : scale === 1 ? R.total[i]! : (R.total[i]! * 40) / R.hours[i]!;
    rows.hl[i] = R.year[i]! >= basis.firstYear && R.year[i]! <= basis.lastYear ? 1 : 0;
  }
  const regionOfState = Int8Array.from(ds.states, (s) => REGIONS.indexOf(s.region));
  const facts = nationalFacts(ds);
  for (let si = 0; si < ds.specialties.length; si++) {
    const { start } = ds.specialtyRange[si]!;
    const c = keyedColumnsFromDataset(ds, si, KEYED_DEFAULTS, facts, 0);
    rows.sp.fill(si, start, start + c.count);
    rows.wtotal.set(c.total, start);
    rows.fte.set(c.fte, start);
    rows.base.set(c.base, start);
    rows.bonus.set(c.bonus, start);
    rows.wrvus.set(c.wrvus, start);
    rows.yr.set(c.year, start);
    rows.band.set(c.band, start);
    rows.setting.set(c.setting, start);
    rows.employment.set(c.employment, start);
    rows.st.set(c.state, start);
    rows.day.set(c.day, start);
    for (let k = 0; k < c.count; k++) rows.rg[start + k] = regionOfState[c.state[k]!]!;
  }
  return rows;
}

// ---------------------------------------------------------------- load

const CHUNK = 2048; // DuckDB's vector size: the most rows a data chunk holds

async function load(con: DuckDBConnection, rows: Rows): Promise<void> {
  await con.run(`CREATE TABLE r (${COLUMNS.map((c) => `${c.name} ${c.type.toString()}`).join(', ')})`);
  const appender = await con.createAppender('r');
  const types = COLUMNS.map((c) => c.type);
  for (let off = 0; off < rows.count; off += CHUNK) {
    const m = Math.min(CHUNK, rows.count - off);
    const chunk = DuckDBDataChunk.create(types, m);
    COLUMNS.forEach((col, j) => {
      const src = rows[col.field] as ArrayLike<number>;
      const v = chunk.getColumnVector(j) as unknown as { setItem(i: number, x: number | null): void; flush(): void };
      if (col.nullable) for (let i = 0; i < m; i++) { const x = src[off + i]!; v.setItem(i, Number.isNaN(x) ? null : x); }
      else for (let i = 0; i < m; i++) v.setItem(i, src[off + i]!);
      v.flush();
    });
    appender.appendDataChunk(chunk);
  }
  appender.closeSync();
}

// ---------------------------------------------------------------- the queries

const Q5 = '[0.1, 0.25, 0.5, 0.75, 0.9]';
const Q3 = '[0.25, 0.5, 0.75]';
const Q4 = '[0.25, 0.5, 0.75, 0.9]';
const MOD = '4294967296';

/**
 * A cell key (disclosure.ts cellKeyOf) as two columns `${name}_lo`, `${name}_hi`: each lane of the record keys
 * summed mod 2^32, over the cell's rows or only those `where` selects.
 */
function cellKeySql(name: string, where?: string): string {
  const filter = where ? ` FILTER (WHERE ${where})` : '';
  return ['lo', 'hi'].map((lane) => `(sum(k_${lane})${filter} % ${MOD})::BIGINT AS ${name}_${lane}`).join(', ');
}

/** The keyed API's 12 grouping sets: geography (national, region, state) x setting (any, each) x employment (any, each), each with `extra`. */
function keyedSets(extra: string[] = []): string {
  const sets: string[] = [];
  for (const geo of [[], ['rg'], ['st']]) {
    for (const s of [[], ['setting']]) for (const e of [[], ['employment']]) sets.push(`(${['sp', ...geo, ...s, ...e, ...extra].join(', ')})`);
  }
  return `GROUPING SETS (${sets.join(', ')})`;
}
// A report without a setting (employment) is in the "any" cells only, never in a cell of its own.
const KEYED_HAVING = 'HAVING (grouping(setting) = 1 OR setting >= 0) AND (grouping(employment) = 1 OR employment >= 0)';
const KEYED_GROUP_COLS = 'grouping(rg, st, setting, employment)::INTEGER AS gid, sp, rg, st, setting, employment';

const KEYED_SQL = [
  `CREATE OR REPLACE TABLE keyed_cells AS
   SELECT ${KEYED_GROUP_COLS}, count(*)::INTEGER AS n,
     quantile_cont(wtotal, ${Q5}) AS total_q, sum(wtotal) AS total_sum, stddev_samp(wtotal) AS total_sd,
     ${cellKeySql('key')},
     min(day) AS first_day, max(day) AS last_day,
     count(fte)::INTEGER AS fte_n, quantile_cont(fte, ${Q5}) AS fte_q, sum(fte) AS fte_sum,
     ${cellKeySql('fte_key', 'fte IS NOT NULL')},
     count(base)::INTEGER AS base_n, quantile_cont(base, ${Q3}) AS base_q, ${cellKeySql('base_key', 'base IS NOT NULL')},
     count(bonus)::INTEGER AS bonus_n, quantile_cont(bonus, ${Q3}) AS bonus_q, ${cellKeySql('bonus_key', 'bonus IS NOT NULL')},
     count(wrvus)::INTEGER AS wrvu_n, quantile_cont(wrvus, ${Q4}) AS wrvu_q, quantile_cont(wtotal / wrvus, ${Q4}) AS per_wrvu_q,
     ${cellKeySql('wrvu_key', 'wrvus IS NOT NULL')}
   FROM r GROUP BY ${keyedSets()} ${KEYED_HAVING}`,
  `CREATE OR REPLACE TABLE keyed_trend AS
   SELECT ${KEYED_GROUP_COLS}, yr, count(*)::INTEGER AS n, quantile_cont(wtotal, ${Q3}) AS q, sum(wtotal) AS total_sum, ${cellKeySql('key')}
   FROM r GROUP BY ${keyedSets(['yr'])} ${KEYED_HAVING}`,
  `CREATE OR REPLACE TABLE keyed_experience AS
   SELECT ${KEYED_GROUP_COLS}, band, count(*)::INTEGER AS n, quantile_cont(wtotal, ${Q3}) AS q, sum(wtotal) AS total_sum, ${cellKeySql('key')}
   FROM r WHERE band >= 0 GROUP BY ${keyedSets(['band'])} ${KEYED_HAVING}`,
];

/** grouping(sp, st, setting, yr) of each open grouping set. */
const OPEN_GID = { national: 7, state: 3, setting: 5, allSpecialtiesState: 11, year: 6 } as const;

const OPEN_SQL = [
  // headline.ts and national.ts: the open data counts full-time pay (ftotal; NULL: left out); a report counts
  // when its full-time pay lies inside its specialty's Tukey fences (type-7 quartiles of the full-time pay of
  // every year); the headline cells count the headline years (hl = 1), the by-year rows every year.
  // gid = grouping(sp, st, setting, yr) of the one GROUPING SETS query this was: yr is never grouped in the
  // headline cells (so 2 x grouping(sp, st, setting) + 1), the by-year rows are (sp, yr): 6.
  `CREATE OR REPLACE TABLE open_cells AS
   WITH e AS (SELECT * FROM r WHERE ftotal IS NOT NULL),
        q AS (SELECT sp, quantile_cont(ftotal, [0.25, 0.75]) AS q FROM e GROUP BY sp),
        f AS (SELECT sp, q[1] - 1.5 * (q[2] - q[1]) AS lo, q[2] + 1.5 * (q[2] - q[1]) AS hi FROM q),
        k AS (SELECT e.* FROM e JOIN f USING (sp) WHERE ftotal >= lo AND ftotal <= hi)
   SELECT (2 * grouping(sp, st, setting) + 1)::INTEGER AS gid, sp, st, setting, NULL::SMALLINT AS yr, count(*)::INTEGER AS n,
     quantile_cont(ftotal, ${Q5}) AS q, sum(ftotal) AS total_sum, ${cellKeySql('key')}, max(day) AS newest_day
   FROM k WHERE hl = 1
   GROUP BY GROUPING SETS ((sp), (sp, st), (sp, setting), (st))
   HAVING grouping(setting) = 1 OR setting >= 0
   UNION ALL
   SELECT 6 AS gid, sp, NULL::SMALLINT AS st, NULL::TINYINT AS setting, yr, count(*)::INTEGER AS n,
     quantile_cont(ftotal, ${Q5}) AS q, sum(ftotal) AS total_sum, ${cellKeySql('key')}, max(day) AS newest_day
   FROM k GROUP BY sp, yr`,
  // each specialty's national $/wRVU cell: fences on the rates of every year, the headline years' rates
  `CREATE OR REPLACE TABLE open_wrvu AS
   WITH x AS (SELECT sp, total / wrvus AS rate, hl, k_lo, k_hi, day FROM r WHERE wrvus IS NOT NULL AND ftotal IS NOT NULL),
        q AS (SELECT sp, quantile_cont(rate, [0.25, 0.75]) AS q FROM x GROUP BY sp),
        f AS (SELECT sp, q[1] - 1.5 * (q[2] - q[1]) AS lo, q[2] + 1.5 * (q[2] - q[1]) AS hi FROM q)
   SELECT sp, count(*)::INTEGER AS n, quantile_cont(rate, ${Q5}) AS q, sum(rate) AS rate_sum, ${cellKeySql('key')}, max(day) AS newest_day
   FROM x JOIN f USING (sp) WHERE rate >= lo AND rate <= hi AND hl = 1 GROUP BY sp`,
];

// ---------------------------------------------------------------- counts: DuckDB rows next to physpay's cells

interface CellCount { duckdb: number; physpay: number | null; note?: string }

async function count(con: DuckDBConnection, sql: string): Promise<number> {
  const r = await con.runAndReadAll(sql);
  return Number(r.getRows()[0]![0]);
}

/**
 * How many cells physpay's build computes, from the same rows (a counting pass, no statistics). Trending and
 * experience rows exist only in cells of at least MIN_SAMPLE reports (keyedCell); DuckDB computes them for
 * every cell.
 */
function physpayCounts(ds: Dataset, rows: Rows) {
  const S = ds.specialties.length;
  const G = 1 + REGIONS.length + ds.states.length;
  const nS = PRACTICE_SETTINGS.length + 1;
  const nE = EMPLOYMENT_TYPES.length + 1;
  const B = EXPERIENCE_BANDS.length;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < rows.count; i++) {
    if (rows.yr[i]! < y0) y0 = rows.yr[i]!;
    if (rows.yr[i]! > y1) y1 = rows.yr[i]!;
  }
  const Y = rows.count ? y1 - y0 + 1 : 1;
  const size = new Uint32Array(S * G * nS * nE);
  const years = new Uint8Array(size.length * Y);
  const bands = new Uint8Array(size.length * B);
  const spState = new Uint8Array(S * ds.states.length);
  for (let i = 0; i < rows.count; i++) {
    const geos = [0, 1 + rows.rg[i]!, 1 + REGIONS.length + rows.st[i]!];
    const ss = rows.setting[i]! >= 0 ? [0, 1 + rows.setting[i]!] : [0];
    const es = rows.employment[i]! >= 0 ? [0, 1 + rows.employment[i]!] : [0];
    for (const g of geos) for (const s of ss) for (const e of es) {
      const c = ((rows.sp[i]! * G + g) * nS + s) * nE + e;
      size[c] = size[c]! + 1;
      years[c * Y + rows.yr[i]! - y0] = 1;
      if (rows.band[i]! >= 0) bands[c * B + rows.band[i]!] = 1;
    }
    spState[rows.sp[i]! * ds.states.length + rows.st[i]!] = 1;
  }
  let cells = 0;
  let published = 0;
  let yearRows = 0;
  let yearRowsAll = 0;
  let bandRowsAll = 0;
  for (let c = 0; c < size.length; c++) {
    if (size[c] === 0) continue;
    cells++;
    let y = 0;
    for (let k = 0; k < Y; k++) y += years[c * Y + k]!;
    let b = 0;
    for (let k = 0; k < B; k++) b += bands[c * B + k]!;
    yearRowsAll += y;
    bandRowsAll += b;
    if (size[c]! >= MIN_SAMPLE) {
      published++;
      yearRows += y;
    }
  }
  return {
    keyed_cells: cells,
    keyed_cells_with_figures: published,
    keyed_trend_rows: yearRows,
    keyed_trend_rows_all_cells: yearRowsAll,
    keyed_experience_rows: published * B,
    keyed_experience_rows_nonempty_all_cells: bandRowsAll,
    open_specialty_national: S,
    open_specialty_state: spState.reduce((n, x) => n + x, 0),
    open_specialty_setting: S * PRACTICE_SETTINGS.length,
    open_state: ds.states.length,
    open_specialty_year: S * Y,
    open_wrvu: S,
  };
}

// ---------------------------------------------------------------- one run

export interface DuckdbRun { load_s: number; keyed_s: number; open_s: number; query_s: number }

async function timed(con: DuckDBConnection, sqls: string[]): Promise<number> {
  const t0 = performance.now();
  for (const sql of sqls) await con.run(sql);
  return (performance.now() - t0) / 1000;
}

async function oneRun(rows: Rows, threads: number, keep: boolean): Promise<{ run: DuckdbRun; con: DuckDBConnection; instance: DuckDBInstance }> {
  const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const con = await instance.connect();
  const t0 = performance.now();
  await load(con, rows);
  const load_s = (performance.now() - t0) / 1000;
  const keyed_s = await timed(con, KEYED_SQL);
  const open_s = await timed(con, OPEN_SQL);
  const run = { load_s, keyed_s, open_s, query_s: keyed_s + open_s };
  if (!keep) {
    con.closeSync();
    instance.closeSync();
  }
  return { run, con, instance };
}

// ---------------------------------------------------------------- the reference

export interface DuckdbReference {
  threads: number;
  rows: number;
  /** reading the SQLite DB (readDataset) and deriving the columns: not part of DuckDB's figures */
  prep_s: number;
  runs: DuckdbRun[];
  median_query_s: number;
  median_load_s: number;
  cells: Record<string, CellCount>;
  duckdb_version: string;
  notes: string[];
  check?: CheckResult;
}

export interface ReferenceOptions {
  runs?: number;
  threads?: number;
  /** a dist-data dir built from the same DB: compare every cell */
  check?: string;
  /** progress lines (stderr by default) */
  log?: (line: string) => void;
}

export async function duckdbReference(dbPath: string, opts: ReferenceOptions = {}): Promise<DuckdbReference> {
  const runs = Math.max(1, opts.runs ?? 3);
  const threads = opts.threads ?? 2;
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const p0 = performance.now();
  const db = openReportsDb(dbPath, { readonly: true });
  let ds: Dataset;
  try {
    ds = readDataset(db);
  } finally {
    db.close();
  }
  const rows = rowsOf(ds);
  const prep_s = (performance.now() - p0) / 1000;
  log(`duckdb reference: ${rows.count.toLocaleString('en-US')} approved reports of ${dbPath} read and derived in ${prep_s.toFixed(1)} s; ${runs} run(s), ${threads} thread(s)`);

  const results: DuckdbRun[] = [];
  let last: { con: DuckDBConnection; instance: DuckDBInstance } | null = null;
  for (let k = 0; k < runs; k++) {
    const r = await oneRun(rows, threads, k === runs - 1);
    results.push(r.run);
    if (k === runs - 1) last = r;
    log(`run ${k + 1}: load ${r.run.load_s.toFixed(2)} s, keyed cells ${r.run.keyed_s.toFixed(2)} s, open cells ${r.run.open_s.toFixed(2)} s, query total ${r.run.query_s.toFixed(2)} s`);
  }
  const { con, instance } = last!;
  try {
    const version = String((await con.runAndReadAll('SELECT version()')).getRows()[0]![0]);
    const pc = physpayCounts(ds, rows);
    const oc = (gid: number) => count(con, `SELECT count(*) FROM open_cells WHERE gid = ${gid}`);
    const cells: Record<string, CellCount> = {
      keyed_cells: { duckdb: await count(con, 'SELECT count(*) FROM keyed_cells'), physpay: pc.keyed_cells, note: `${pc.keyed_cells_with_figures} with n >= ${MIN_SAMPLE}: figures, trending and experience rows` },
      keyed_trend_rows: {
        duckdb: await count(con, 'SELECT count(*) FROM keyed_trend'), physpay: pc.keyed_trend_rows,
        note: `physpay: cells with n >= ${MIN_SAMPLE} only; ${pc.keyed_trend_rows_all_cells} rows over every cell, as DuckDB computes`,
      },
      keyed_experience_rows: {
        duckdb: await count(con, 'SELECT count(*) FROM keyed_experience'), physpay: pc.keyed_experience_rows,
        note: `physpay: all ${EXPERIENCE_BANDS.length} bands (empty ones n = 0) of cells with n >= ${MIN_SAMPLE}; ${pc.keyed_experience_rows_nonempty_all_cells} non-empty bands over every cell, as DuckDB computes`,
      },
      open_specialty_national: { duckdb: await oc(OPEN_GID.national), physpay: pc.open_specialty_national },
      open_specialty_state: { duckdb: await oc(OPEN_GID.state), physpay: pc.open_specialty_state, note: 'physpay also lists (withheld) cells whose reports are all outliers' },
      open_specialty_setting: { duckdb: await oc(OPEN_GID.setting), physpay: pc.open_specialty_setting, note: 'physpay lists every setting of every specialty, empty ones withheld' },
      open_state: { duckdb: await oc(OPEN_GID.allSpecialtiesState), physpay: pc.open_state },
      open_specialty_year: { duckdb: await oc(OPEN_GID.year), physpay: pc.open_specialty_year, note: 'physpay has a row for every year of the span, empty ones withheld' },
      open_wrvu: { duckdb: await count(con, 'SELECT count(*) FROM open_wrvu'), physpay: pc.open_wrvu },
    };
    const out: DuckdbReference = {
      threads,
      rows: rows.count,
      prep_s,
      runs: results,
      median_query_s: median(results.map((r) => r.query_s)),
      median_load_s: median(results.map((r) => r.load_s)),
      cells,
      duckdb_version: version,
      notes: [
        "quantiles: quantile_cont (type 7, index (n-1)p, linear interpolation) = physpay's quantile (simple-statistics quantileSorted); DuckDB interpolates lo*(1-f)+hi*f, physpay lo+f*(hi-lo), so an exact half can round one unit apart (rare ties)",
        "open cells: the open data's population (headline.ts: full-time pay, the headline years; by-year rows every year) and the exact outlier rule of national.ts (each specialty's Tukey fences on its full-time pay of every year, and on its $/wRVU for the wRVU cell), computed inside the open query, not approximated",
        'counts and means: DuckDB computes exact counts, sums and cell keys; physpay perturbs the counts, means and SDs (disclosure control), applied only in --check',
        'not computed by DuckDB: the 95% CI of the median (order statistics), year lists, BLS variance, file writing, validation',
      ],
    };
    if (opts.check) out.check = await check(con, ds, opts.check, log);
    return out;
  } finally {
    con.closeSync();
    instance.closeSync();
  }
}

// ---------------------------------------------------------------- --check: every DuckDB cell against the build's files

export interface CheckResult {
  compared: number;
  exact: number;
  /** means and SDs within one unit of their rounding (summation order) */
  close: number;
  /** percentiles one unit apart where DuckDB's unrounded value is an exact half (see `pct`) */
  ties: number;
  /** perturbed percentiles within their documented bound of DuckDB's exact value (see `moved` and `quantileTargets`) */
  moved: number;
  /** the largest |published - exact| / bound seen (at most 1, plus the rounding unit) */
  largestShare: number;
  mismatches: number;
  examples: string[];
  tieExamples: string[];
}

type Row = Record<string, unknown>;

async function readRows(con: DuckDBConnection, sql: string): Promise<Row[]> {
  return (await con.runAndReadAll(sql)).getRowObjectsJS() as Row[];
}

function checker(log: (l: string) => void) {
  const res: CheckResult = { compared: 0, exact: 0, close: 0, ties: 0, moved: 0, largestShare: 0, mismatches: 0, examples: [], tieExamples: [] };
  const bad = (what: string) => {
    res.mismatches++;
    if (res.examples.length < 40) {
      res.examples.push(what);
      log(`MISMATCH ${what}`);
    }
  };
  return {
    res,
    /**
     * A percentile: equal after physpay's rounding, or a tie: DuckDB's unrounded value lies within 1e-9 of a
     * rounding boundary and the two differ by one unit. Both are the same type-7 value; physpay interpolates
     * as lo + d (hi - lo) (simple-statistics), DuckDB as lo (1 - d) + hi d, and the last bit decides which
     * way an exact half rounds.
     */
    pct(what: string, physpay: number | null, duckRaw: number | null, round: (v: number) => number, unit: number) {
      res.compared++;
      const duck = duckRaw === null ? null : round(duckRaw);
      if (physpay === duck) res.exact++;
      else if (physpay !== null && duckRaw !== null && Math.abs(Math.abs(physpay - duck!) - unit) < unit * 1e-6
        && Math.abs(((duckRaw / unit) % 1) - 0.5) < 1e-6) {
        res.ties++;
        if (res.tieExamples.length < 5) res.tieExamples.push(`${what}: physpay ${physpay}, duckdb ${duckRaw}`);
      } else bad(`${what}: physpay ${physpay}, duckdb ${duck} (unrounded ${duckRaw})`);
    },
    /**
     * A perturbed percentile (README: Disclosure control): within `bound` of `centre` (quantileTargets: DuckDB's
     * exact value with the spread correction), plus half the rounding unit and a hair; null exactly when
     * DuckDB's is null.
     */
    moved(what: string, physpay: number | null, { centre, bound }: QuantileTarget, unit: number) {
      res.compared++;
      if (physpay === null || centre === null) {
        if (physpay === centre) res.exact++;
        else bad(`${what}: physpay ${physpay}, duckdb ${centre}`);
        return;
      }
      const off = Math.abs(physpay - centre);
      if (bound > 0) res.largestShare = Math.max(res.largestShare, Math.max(0, off - unit / 2) / bound);
      if (off <= bound + unit / 2 + 1e-6) res.moved++;
      else bad(`${what}: physpay ${physpay}, duckdb ${centre} after the spread correction (moved ${off.toFixed(2)}, bound ${bound.toFixed(2)})`);
    },
    /** must be equal */
    eq(what: string, physpay: unknown, duck: unknown) {
      res.compared++;
      if (physpay === duck) res.exact++;
      else bad(`${what}: physpay ${JSON.stringify(physpay)}, duckdb ${JSON.stringify(duck)}`);
    },
    /** equal, or within `tol` (a perturbed mean / SD rebuilt from a sum in another order) */
    near(what: string, physpay: number | null, duck: number | null, tol: number) {
      res.compared++;
      if (physpay === duck) res.exact++;
      else if (physpay !== null && duck !== null && Math.abs(physpay - duck) <= tol + 1e-9) res.close++;
      else bad(`${what}: physpay ${physpay}, duckdb ${duck}`);
    },
  };
}

const whole = Math.round;
const P5 = ['p10', 'p25', 'p50', 'p75', 'p90'] as const;
const P4 = ['p25', 'p50', 'p75', 'p90'] as const;
const P3 = ['p25', 'p50', 'p75'] as const;
const num = (x: unknown) => (x === null || x === undefined ? null : Number(x));
const list = (x: unknown) => (x as (number | null)[] | null) ?? [];

/** Where a published percentile may lie: `bound` around `centre` (null: none published). */
interface QuantileTarget { centre: number | null; bound: number }

/**
 * The targets of a cell's published percentiles `ps` from DuckDB's exact ones (`exact[i]` is `ps[i]`; P25, P50
 * and P75 among them), as published.ts publishedQuantiles moves them: each brought towards the median by the
 * cell's spread ratio (from its own quartiles; 1 for wRVUs), c = towardsMedian(exact, median, ratio), then
 * multiplied by exp(2u quantileMoveBound(n)), |u| <= 1/2: so |published - c| <= c (exp(quantileMoveBound(n)) - 1).
 * The re-sorting after the draws keeps this (every figure of the cell moves by a factor within the same bound).
 */
function quantileTargets(exact: (number | null)[], ps: readonly string[], n: number, pay: boolean): QuantileTarget[] {
  const at = (p: string) => exact[ps.indexOf(p)] ?? NaN;
  const median = at('p50');
  const ratio = spreadRatio(at('p25'), at('p75'), pay);
  const move = Math.exp(quantileMoveBound(n)) - 1;
  return ps.map((_, i) => {
    const x = exact[i] ?? null;
    const centre = x === null ? null : towardsMedian(x, median, ratio);
    return { centre, bound: centre === null ? 0 : Math.abs(centre) * move };
  });
}

/** A cell key read from DuckDB's columns `${name}_lo`, `${name}_hi` (cellKeySql). */
const cellKeyFrom = (r: Row, name = 'key'): CellKey => ({ lo: Number(r[`${name}_lo`]), hi: Number(r[`${name}_hi`]) });

/** The noise of a figure of `column` at a cell key, as the build draws it (pay: every column but wRVUs). */
const noiseAt = (draws: Draws, key: CellKey, column: Column): CellNoise => ({ draws, key, column, pay: column !== COLUMN.wrvus });

async function check(con: DuckDBConnection, ds: Dataset, dist: string, log: (l: string) => void): Promise<CheckResult> {
  const base = join(dist, 'current');
  const draws = drawsFor(ds.drawKey);
  const c = checker(log);
  const readJson = (p: string) => JSON.parse(readFileSync(join(base, p), 'utf8'));
  const readFeed = (p: string) => readJson(join('public', p));
  const keyOf = (r: Row) => {
    const gid = Number(r.gid);
    const geo = (gid & 12) === 12 ? GEO_NATIONAL : (gid & 8) === 0 ? geoRegion(REGIONS[Number(r.rg)]!) : geoState(ds.states[Number(r.st)]!.code);
    return cellKey(geo, gid & 2 ? null : PRACTICE_SETTINGS[Number(r.setting)]!, gid & 1 ? null : EMPLOYMENT_TYPES[Number(r.employment)]!);
  };
  const bySp = <T extends Row>(rs: T[]) => {
    const m = new Map<number, T[]>();
    for (const r of rs) {
      const sp = Number(r.sp);
      let l = m.get(sp);
      if (!l) m.set(sp, (l = []));
      l.push(r);
    }
    return m;
  };

  // ---- keyed API cells
  const cells = bySp(await readRows(con, 'SELECT * FROM keyed_cells'));
  const trend = bySp(await readRows(con, 'SELECT gid, sp, rg, st, setting, employment, yr, n, q, total_sum, key_lo, key_hi FROM keyed_trend'));
  const bands = bySp(await readRows(con, 'SELECT gid, sp, rg, st, setting, employment, band, n, q, total_sum, key_lo, key_hi FROM keyed_experience'));
  let keyedCells = 0;
  ds.specialties.forEach((sp, si) => {
    const art = readJson(keyedPaths.specialty(sp.slug)) as KeyedSpecialtyArtifact;
    const within = (at: string, got: Record<string, number | null>, exact: (number | null)[], ps: readonly string[], n: number, column: Column, unit = 1) => {
      const shown = ps.map((p, i) => ((p === 'p10' || p === 'p90') && n < TAILS_MIN_N ? null : exact[i] ?? null));
      const targets = quantileTargets(shown, ps, n, column !== COLUMN.wrvus);
      ps.forEach((p, i) => c.moved(`${at} ${p}`, got[p] ?? null, targets[i]!, unit));
    };
    const mine = new Map((cells.get(si) ?? []).map((r) => [keyOf(r), r]));
    const trendOf = new Map<string, Row>();
    const trendRows = new Map<string, number>();
    for (const r of trend.get(si) ?? []) {
      const k = keyOf(r);
      trendOf.set(`${k}#${r.yr}`, r);
      trendRows.set(k, (trendRows.get(k) ?? 0) + 1);
    }
    const bandOf = new Map<string, Row>();
    for (const r of bands.get(si) ?? []) bandOf.set(`${keyOf(r)}#${r.band}`, r);
    c.eq(`${sp.slug}: number of keyed cells`, Object.keys(art.cells).length, mine.size);
    const pmean = (sum: unknown, n: number, key: CellKey, column: Column) => whole(perturbedMean(Number(sum), n, noiseAt(draws, key, column)));
    // keyed.ts countOf: perturbed within its class from MIN_SAMPLE on (exact below, where only a cell's own n is published)
    const pcount = (n: number, key: CellKey) => (n >= MIN_SAMPLE ? perturbedCount(n, [MIN_SAMPLE, SUFFICIENT_SAMPLE], { draws, key }) : n);
    for (const [key, cell] of Object.entries(art.cells)) {
      const d = mine.get(key);
      const at = `${sp.slug} ${key}`;
      if (!d) {
        c.eq(`${at}: cell`, 'present', 'missing');
        continue;
      }
      keyedCells++;
      const n = Number(d.n);
      c.eq(`${at} n`, cell.n, pcount(n, cellKeyFrom(d)));
      if (!cell.figures || !cell.sections) continue;
      within(`${at} total`, cell.figures.percentiles, list(d.total_q), P5, n, COLUMN.total);
      c.near(`${at} mean`, cell.figures.mean, pmean(d.total_sum, n, cellKeyFrom(d), COLUMN.total), 1);
      const sd = num(d.total_sd);
      const psd = sd === null ? null : perturbedSd(sd * sd * (n - 1), Number(d.total_sum), n, noiseAt(draws, cellKeyFrom(d), COLUMN.total));
      c.near(`${at} sd`, cell.figures.standard_deviation, psd === null ? null : whole(psd), 1);
      const s = cell.sections;
      c.eq(`${at} data_date_range`, JSON.stringify(cell.data_date_range), JSON.stringify({
        earliest: new Date(Number(d.first_day) * 86_400_000).toISOString().slice(0, 10),
        latest: new Date(Number(d.last_day) * 86_400_000).toISOString().slice(0, 10),
      }));
      c.eq(`${at} fte n`, s.fte_normalized.n, publishedCount(pcount(Number(d.fte_n), cellKeyFrom(d, 'fte_key'))));
      if (s.fte_normalized.percentiles) {
        within(`${at} fte`, s.fte_normalized.percentiles, list(d.fte_q), P5, Number(d.fte_n), COLUMN.fte);
        c.near(`${at} fte mean`, s.fte_normalized.mean, pmean(d.fte_sum, Number(d.fte_n), cellKeyFrom(d, 'fte_key'), COLUMN.fte), 1);
      }
      for (const [name, comp, nn, q, column] of [
        ['base', s.components.base_salary, d.base_n, d.base_q, COLUMN.base], ['bonus', s.components.bonus, d.bonus_n, d.bonus_q, COLUMN.bonus],
      ] as const) {
        c.eq(`${at} ${name} n`, comp.n, publishedCount(pcount(Number(nn), cellKeyFrom(d, `${name}_key`))));
        if (comp.p50 !== null) within(`${at} ${name}`, comp, list(q), P3, Number(nn), column);
      }
      c.eq(`${at} wrvu n`, s.productivity.n, publishedCount(pcount(Number(d.wrvu_n), cellKeyFrom(d, 'wrvu_key'))));
      if (s.productivity.wrvus) {
        within(`${at} wrvus`, s.productivity.wrvus, list(d.wrvu_q), P4, Number(d.wrvu_n), COLUMN.wrvus);
        within(`${at} $/wRVU`, s.productivity.compensation_per_wrvu!, list(d.per_wrvu_q), P4, Number(d.wrvu_n), COLUMN.perWrvu, 0.01);
      }
      const breakdown = (what: string, row: { n: number | null; p25: number | null; p50: number | null; p75: number | null; mean: number | null }, t: Row | undefined) => {
        c.eq(`${at} ${what} n`, row.n, t ? publishedCount(pcount(Number(t.n), cellKeyFrom(t))) : null);
        if (row.p50 === null || !t) return;
        within(`${at} ${what}`, row, list(t.q), P3, Number(t.n), COLUMN.total);
        c.near(`${at} ${what} mean`, row.mean, pmean(t.total_sum, Number(t.n), cellKeyFrom(t), COLUMN.total), 1);
      };
      for (const t of s.trending) breakdown(`year ${t.year}`, t, trendOf.get(`${key}#${t.year}`));
      s.by_experience.forEach((b, i) => breakdown(`band ${b.label}`, b, bandOf.get(`${key}#${i}`)));
      c.eq(`${at} number of trending rows`, s.trending.length, trendRows.get(key) ?? 0);
    }
  });
  log(`check: keyed cells compared: ${keyedCells}`);

  // ---- open cells
  const open = await readRows(con, 'SELECT * FROM open_cells');
  const wrvu = new Map((await readRows(con, 'SELECT * FROM open_wrvu')).map((r) => [Number(r.sp), r]));
  const idx = new Map<string, Row>();
  for (const r of open) idx.set(`${r.gid}|${r.sp}|${r.st}|${r.setting}|${r.yr}`, r);
  const get = (gid: number, sp: number | null, st: number | null, setting: number | null, yr: number | null) => idx.get(`${gid}|${sp}|${st}|${setting}|${yr}`);
  /**
   * DuckDB's figures of an open cell as cells.ts openCell publishes them: its floors (n, P10/P90), rounding by
   * the exact n, the perturbed count (kept within its class: the floor, FLOORS.tails, ROUNDING_MAX_N + 1), the
   * perturbed mean (column total, or rate for $/wRVU; pay either way) and the percentiles' targets.
   */
  const summary = (d: Row | undefined, floor: number, kind: 'money' | 'rate', sumField = 'total_sum') => {
    const n = d ? Number(d.n) : 0;
    const withheld = !d || n < floor || n === 0;
    const round = (v: number) => (kind === 'money' ? roundMoney(v, n) : roundRate(v, n));
    const unit = kind === 'money' ? (n <= ROUNDING_MAX_N ? 1000 : 1) : n <= ROUNDING_MAX_N ? 1 : 0.01;
    const q = withheld ? [] : list(d!.q);
    const tails = n >= FLOORS.tails;
    const [p10, p25, median, p75, p90] = quantileTargets([tails ? q[0] ?? null : null, q[1] ?? null, q[2] ?? null, q[3] ?? null, tails ? q[4] ?? null : null], P5, n, true);
    const column = kind === 'money' ? COLUMN.total : COLUMN.rate;
    return {
      n: withheld ? null : perturbedCount(n, [Math.max(1, floor), FLOORS.tails, ROUNDING_MAX_N + 1], { draws, key: cellKeyFrom(d!) }),
      withheld, round, unit,
      targets: { median: median!, p10: p10!, p25: p25!, p75: p75!, p90: p90! },
      mean: withheld ? null : round(perturbedMean(Number(d![sumField]), n, noiseAt(draws, cellKeyFrom(d!), column))),
    };
  };
  const cmp = (at: string, p: Record<string, unknown>, d: ReturnType<typeof summary>) => {
    c.eq(`${at} n`, p.n ?? null, d.n);
    c.eq(`${at} withheld`, p.withheld, d.withheld);
    for (const f of ['median', 'p10', 'p25', 'p75', 'p90'] as const) {
      if (f in p) c.moved(`${at} ${f}`, num(p[f]), d.targets[f], d.unit);
    }
    if ('mean' in p) c.near(`${at} mean`, num(p.mean), d.mean, d.unit);
  };
  let openCells = 0;
  ds.specialties.forEach((sp, si) => {
    const doc = readFeed(feedPaths.specialty(sp.slug));
    cmp(`open ${sp.slug} national`, doc, summary(get(OPEN_GID.national, si, null, null, null), FLOORS.national, 'money'));
    openCells++;
    if (!doc.withheld) {
      for (const [k, ps] of PRACTICE_SETTINGS.entries()) {
        const row = (doc.practice_settings as Record<string, unknown>[]).find((x) => x.practice_setting === ps)!;
        cmp(`open ${sp.slug} setting ${ps}`, row, summary(get(OPEN_GID.setting, si, null, k, null), FLOORS.national, 'money'));
        openCells++;
      }
      for (const row of doc.by_year as Record<string, unknown>[]) {
        cmp(`open ${sp.slug} year ${row.year}`, row, summary(get(OPEN_GID.year, si, null, null, Number(row.year)), FLOORS.national, 'money'));
        openCells++;
      }
      const w = readFeed(feedPaths.wrvu(sp.slug));
      cmp(`open ${sp.slug} $/wRVU`, w, summary(wrvu.get(si), FLOORS.national, 'rate', 'rate_sum'));
      openCells++;
    }
    ds.states.forEach((st, sti) => {
      const sdoc = readFeed(feedPaths.specialtyState(sp.slug, st.slug));
      cmp(`open ${sp.slug} ${st.code}`, sdoc, summary(get(OPEN_GID.state, si, sti, null, null), FLOORS.specialtyInState, 'money'));
      openCells++;
    });
  });
  ds.states.forEach((st, sti) => {
    const doc = readFeed(feedPaths.state(st.slug));
    cmp(`open state ${st.code}`, doc, summary(get(OPEN_GID.allSpecialtiesState, null, sti, null, null), FLOORS.state, 'money'));
    openCells++;
  });
  log(`check: open cells compared: ${openCells}`);
  return c.res;
}

// ---------------------------------------------------------------- command line

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  const dbPath = arg('db', 'bench/out/demo-1000000.db');
  const json = flag('json');
  const checkDir = arg('check', '');
  const ref = await duckdbReference(dbPath, {
    runs: Number(arg('runs', '3')),
    threads: Number(arg('threads', '2')),
    ...(checkDir ? { check: checkDir } : {}),
    log: (l) => (json ? process.stderr : process.stdout).write(`${l}\n`),
  });
  if (!json) {
    console.log(`DuckDB ${ref.duckdb_version}, ${ref.threads} thread(s), ${ref.rows.toLocaleString('en-US')} rows: median query ${ref.median_query_s.toFixed(2)} s (load ${ref.median_load_s.toFixed(2)} s, not counted)`);
    console.log('cells                      duckdb rows   physpay cells');
    for (const [k, v] of Object.entries(ref.cells)) console.log(`${k.padEnd(26)} ${String(v.duckdb).padStart(11)}   ${String(v.physpay ?? '-').padStart(13)}${v.note ? `  (${v.note})` : ''}`);
    for (const n of ref.notes) console.log(`note: ${n}`);
    if (ref.check) {
      const k = ref.check;
      console.log(`check: ${k.compared} figures compared: ${k.exact} equal, ${k.close} perturbed means/SDs within one unit of rounding, ${k.moved} perturbed percentiles within their bound (largest move ${(100 * k.largestShare).toFixed(1)}% of it), ${k.ties} percentiles one unit apart at an exact half, ${k.mismatches} mismatches`);
      for (const t of k.tieExamples) console.log(`  tie: ${t}`);
    }
  }
  if (json) console.log(JSON.stringify(ref));
  if (ref.check && ref.check.mismatches > 0) process.exitCode = 1;
}
