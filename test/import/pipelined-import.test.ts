/**
 * A large reports file is read and checked on a worker thread while the main thread writes (issue 42,
 * report-reader.ts). Whichever path a file takes, the import must be the same: the same DB rows in the same
 * order, the same batch, the same messages with the same lines, the same rejects file, exit code and --json.
 * PHYSPAY_IMPORT_WORKER_MIN_BYTES chooses the path here: 'never' (this thread) against '0' (the worker, for
 * every file). The files cross several chunks of BATCH_ROWS rows, with bad rows in more than one.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { generateReports } from '../../build/demo/generate.ts';
import { loadRefs } from '../../build/import/refs.ts';
import { BATCH_ROWS, type ReportChunk } from '../../build/import/report-chunks.ts';
import { readReportChunks, readReportChunksInWorker } from '../../build/import/report-reader.ts';
import { scanCsvFile } from '../../build/import/source.ts';
import { runCli } from '../helpers/cli.ts';
import { useReportsDb } from './reports-db.ts';

const fx = useReportsDb('pipelined');
const ENV = 'PHYSPAY_IMPORT_WORKER_MIN_BYTES';
const saved = process.env[ENV];
afterEach(() => {
  if (saved === undefined) delete process.env[ENV];
  else process.env[ENV] = saved;
});

/** About 5,500 rows of demo reports (3 chunks), with bad rows and duplicates in several chunks. */
function rows(opts: { bad: boolean }): string[] {
  const out: string[] = [];
  const cell = (v: string | number | null) => (v === null ? '' : String(v));
  generateReports({ reports: 5_500, seed: 7, asOf: '2026-01-10' }, (r) => {
    out.push([
      r.specialtySlug, r.state, r.year, r.total_compensation, r.base_salary, r.bonus, r.hours_per_week, r.years_in_practice,
      r.practice_setting, r.employment_type, r.wrvus, r.submitted_at, r.status,
    ].map(cell).join(','));
  });
  // a duplicate of an earlier row in a later chunk, a quoted line break, spaces and $ amounts
  out.splice(2_500, 0, out[10]!, '" cardiology\n",NY,2025,"$520,000",,,55,,,,,2025-12-01,pending');
  if (opts.bad) {
    out.splice(30, 0, 'astrology,NY,2025,520000,,,55,,,,,2025-12-01,'); // unknown specialty, first chunk
    out.splice(2_100, 0, 'pediatrics,OH,2025,250000'); // too few fields, second chunk
    out.splice(4_400, 0, 'dermatology,NY,2025,"$19,500,000",,,50,,,,,2025-12-01,approved'); // implausible for approved, third chunk
    out.push('cardiology,XX,2031,1,,,,,,,,2031-01-01,'); // several issues, last (partial) chunk
  }
  return out;
}

interface Outcome {
  code: number;
  out: string[];
  err: string[];
  reports: unknown[];
  batches: unknown[];
  rejects: string | null;
}

/** Import `path` into a new DB (in its own folder) on one path; everything the import left behind. */
let runs = 0;
async function importOn(path: string, mode: 'never' | '0', args: string[]): Promise<Outcome> {
  const dir = join(fx.dir, `${mode}-${++runs}`);
  mkdirSync(dir, { recursive: true });
  const db = join(dir, 'reports.db');
  expect((await runCli(['init', '--db', db])).code).toBe(0);
  const rejects = join(dir, 'rejects.csv');
  process.env[ENV] = mode;
  const r = await runCli(['import', 'reports', '--db', db, ...args.map((a) => (a === 'REJECTS' ? rejects : a)), path]);
  const conn = new Database(db, { readonly: true });
  try {
    return {
      code: r.code,
      out: r.out.map((l) => l.replace(/(never|0)-\d+/g, 'DIR')),
      err: r.err.map((l) => l.replace(/(never|0)-\d+/g, 'DIR')),
      reports: conn.prepare('SELECT * FROM reports ORDER BY rowid').all(),
      batches: conn.prepare('SELECT * FROM import_batches ORDER BY id').all(),
      rejects: existsSync(rejects) ? readFileSync(rejects, 'utf8') : null,
    };
  } finally {
    conn.close();
  }
}

async function bothPaths(path: string, args: string[]): Promise<Outcome> {
  const single = await importOn(path, 'never', args);
  const worker = await importOn(path, '0', args);
  expect(worker).toEqual(single);
  return single;
}

describe('a reports file read on a worker thread imports exactly as on one thread', () => {
  it('a good file (with duplicates and normalised values), also with --json', async () => {
    const path = fx.csv('good.csv', rows({ bad: false }));
    const plain = await bothPaths(path, ['--keep-implausible']);
    expect(plain.code).toBe(0);
    expect(plain.reports.length).toBeGreaterThan(2 * BATCH_ROWS);
    expect(plain.out.join('\n')).toMatch(/1 duplicate skipped/);
    const json = await bothPaths(path, ['--json', '--keep-implausible']);
    expect(JSON.parse(json.out.join('\n'))).toMatchObject({ status: 'imported', batch_id: 1 });
  });

  it('bad rows in several chunks: refused whole, every bad line listed, the refused batch recorded', async () => {
    const path = fx.csv('bad.csv', rows({ bad: true }));
    const r = await bothPaths(path, []);
    expect(r.code).toBe(1);
    expect(r.reports).toEqual([]);
    expect(r.batches).toMatchObject([{ status: 'refused' }]);
    expect(r.err.filter((l) => / line \d+: /.test(l)).length).toBeGreaterThanOrEqual(4);
    await bothPaths(path, ['--json']);
  });

  it('bad rows with --rejects: the good rows imported, the same rejects file, exit 3', async () => {
    const r = await bothPaths(fx.csv('bad.csv', rows({ bad: true })), ['--rejects', 'REJECTS']);
    expect(r.code).toBe(3);
    expect(r.rejects!.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(5); // the header and each bad row
    expect(r.reports.length).toBeGreaterThan(2 * BATCH_ROWS);
    await bothPaths(fx.csv('bad2.csv', rows({ bad: true })), ['--rejects', 'REJECTS', '--json']);
  });

  it('a file unreadable part-way (an unclosed quote in the third chunk): the same refusal and rejects file', async () => {
    const lines = rows({ bad: true });
    lines.splice(4_600, 0, 'cardiology,NY,2025,"520000');
    const path = fx.csv('broken.csv', lines);
    expect((await bothPaths(path, [])).code).toBe(1);
    const r = await bothPaths(path, ['--rejects', 'REJECTS']);
    expect(r.code).toBe(1);
    expect(r.reports).toEqual([]);
  });

  it('a bad header and an empty file are refused the same way', async () => {
    await bothPaths(fx.file('header.csv', ['specialty,state,year', 'cardiology,NY,2025']), []);
    await bothPaths(fx.file('empty.csv', []), ['--rejects', 'REJECTS']);
  });
});

describe('readReportChunksInWorker', () => {
  it('hands over the same header, chunks and progress, in the same order, as readReportChunks', () => {
    const path = fx.csv('chunks.csv', rows({ bad: true }));
    const conn = new Database(fx.db, { readonly: true });
    const refs = loadRefs(conn);
    conn.close();
    const settings = { refs, now: new Date('2026-01-15T12:00:00Z'), rejects: true };
    const file = { path, sha256: scanCsvFile(path, 'chunks.csv').sha256 };
    const calls = (read: typeof readReportChunks) => {
      const seen: unknown[] = [];
      read(file, settings, {
        header: (fields) => seen.push({ header: fields }),
        chunk: (c: ReportChunk) => seen.push(c),
        progress: (done, size, pending) => seen.push({ done, size, pending }),
      });
      return seen;
    };
    const single = calls(readReportChunks);
    expect(single.filter((c) => 'valid' in (c as object)).length).toBe(3);
    expect(calls(readReportChunksInWorker)).toEqual(single);
  });
});
