/**
 * Import at scale: write a reports CSV of --rows rows (demo generator, seed 42), import it into an empty
 * reports DB with the CLI (`physpay import reports`), and report wall time, rows per second and the peak
 * resident memory of the import process (GNU time's %M). Then undo the batch and show the DB file size
 * before and after `physpay reclaim` (the space a large undo leaves behind).
 *
 *   npx tsx scripts/bench-import.ts [--rows 1000000] [--json]
 *
 * References, printed beside today's figures: DuckDB reading the same CSV into a table (scripts/duckdb-read-csv.ts,
 * run here in its own process and measured the same way; it loads rows, without the importer's checks), and
 * the whole-file importer this replaced (commit 7659857), measured with this script's CSV on this machine:
 * 1,000,000 rows in 51.7 s at a peak of 3,493 MB (300,000 rows: 10.2 s, 1,320 MB).
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateReports } from '../build/demo/generate.ts';
import { REPORT_COLUMNS } from '../build/import/reports.ts';
import { arg, flag } from './bench-lib.ts';

const ROWS = Number(arg('rows', '1000000'));
const JSON_OUT = flag('json');
const work = resolve('bench/out/import');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const csv = join(work, `reports-${ROWS}.csv`);
const db = join(work, 'reports.db');
const log = (s: string) => (JSON_OUT ? process.stderr : process.stdout).write(`${s}\n`);
const fmt = (n: number) => n.toLocaleString('en-US');
const mb = (bytes: number) => `${(bytes / 1e6).toLocaleString('en-US', { maximumFractionDigits: bytes < 1e7 ? 1 : 0 })} MB`;

function writeCsv(): void {
  const fd = openSync(csv, 'w');
  let buf: string[] = [REPORT_COLUMNS.join(',')];
  const flush = () => {
    writeSync(fd, `${buf.join('\n')}\n`);
    buf = [];
  };
  const cell = (v: string | number | null) => (v === null ? '' : String(v));
  generateReports({ reports: ROWS, seed: 42, asOf: '2026-11-15' }, (r) => {
    buf.push([
      r.specialtySlug, r.state, r.year, r.total_compensation, r.base_salary, r.bonus, r.hours_per_week, r.years_in_practice,
      r.practice_setting, r.employment_type, r.wrvus, r.submitted_at, r.status,
    ].map(cell).join(','));
    if (buf.length >= 10_000) flush();
  });
  flush();
  closeSync(fd);
}

/** Run a Node script under GNU time: wall seconds and peak RSS in bytes. */
function timed(nodeArgs: string[]): { seconds: number; peakRss: number; stdout: string } {
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %e %M', process.execPath, ...nodeArgs], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const m = /TIME ([\d.]+) (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`node ${nodeArgs.join(' ')} failed (exit ${r.status}): ${r.stderr.slice(-2000)}`);
  return { seconds: Number(m[1]), peakRss: Number(m[2]) * 1024, stdout: r.stdout };
}
const physpay = (args: string[]) => timed(['bin/physpay.js', ...args]);

log(`writing ${fmt(ROWS)} rows to ${csv}`);
writeCsv();
const csvBytes = statSync(csv).size;
physpay(['init', '--db', db]);
log(`importing (${mb(csvBytes)})`);
// the demo's approved rows include its entry mistakes (about 1%): imported as they are, each flagged
const imported = physpay(['import', 'reports', '--db', db, '--keep-implausible', csv]);
log(imported.stdout.trim());
const sizeImported = statSync(db).size;
const undo = physpay(['import', 'undo', '1', '--db', db, '--yes']);
log(undo.stdout.trim());
const sizeAfterUndo = statSync(db).size;
const reclaim = physpay(['reclaim', '--db', db]);
log(reclaim.stdout.trim());
const sizeReclaimed = statSync(db).size;
log('reading the same CSV with DuckDB (reference)');
const duck = timed(['--import', 'tsx', 'scripts/duckdb-read-csv.ts', csv, join(work, 'reports.duckdb')]);
log(duck.stdout.trim());

const result = {
  rows: ROWS,
  csv_bytes: csvBytes,
  import_seconds: imported.seconds,
  rows_per_second: Math.round(ROWS / imported.seconds),
  import_peak_rss_bytes: imported.peakRss,
  undo_seconds: undo.seconds,
  db_bytes_after_import: sizeImported,
  db_bytes_after_undo: sizeAfterUndo,
  db_bytes_after_reclaim: sizeReclaimed,
  duckdb: { seconds: duck.seconds, rows_per_second: Math.round(ROWS / duck.seconds), peak_rss_bytes: duck.peakRss, note: 'read_csv into a table, 2 threads, no checks' },
  reference: { rows: 1_000_000, import_seconds: 51.7, import_peak_rss_bytes: 3_493e6, note: 'whole-file importer (7659857), same CSV' },
};
if (JSON_OUT) console.log(JSON.stringify(result));
else {
  console.log('');
  console.log(`                      physpay import           DuckDB read_csv (same CSV)   whole-file importer (reference)`);
  console.log(`rows                  ${fmt(ROWS).padEnd(24)} ${fmt(ROWS).padEnd(28)} 1,000,000`);
  console.log(`import time           ${`${imported.seconds.toFixed(1)} s`.padEnd(24)} ${`${duck.seconds.toFixed(1)} s`.padEnd(28)} 51.7 s`);
  console.log(`rows per second       ${fmt(result.rows_per_second).padEnd(24)} ${fmt(result.duckdb.rows_per_second).padEnd(28)} ${fmt(Math.round(1e6 / 51.7))}`);
  console.log(`peak memory (RSS)     ${mb(imported.peakRss).padEnd(24)} ${mb(duck.peakRss).padEnd(28)} 3,493 MB`);
  console.log(`DB after import       ${mb(sizeImported)}`);
  console.log(`DB after undo         ${mb(sizeAfterUndo)}`);
  console.log(`DB after reclaim      ${mb(sizeReclaimed)}`);
}
