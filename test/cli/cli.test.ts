import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../build/cli/main.ts';
import type { CliIo } from '../../build/cli/io.ts';
import { REPORT_COLUMNS } from '../../build/import/reports.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/import/', import.meta.url));
const NOW = new Date('2026-01-15T12:00:00.000Z');

interface Run {
  code: number;
  out: string[];
  err: string[];
}

async function run(...args: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (line) => out.push(...line.split('\n')),
    err: (line) => err.push(...line.split('\n')),
    now: () => NOW,
    isTty: false,
  };
  const code = await main(['node', 'physpay', ...args], io);
  return { code, out, err };
}

let dir: string;
let dbPath: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'physpay-cli-'));
  dbPath = join(dir, 'reports.db');
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
const reportCount = () => query<{ n: number }>('SELECT count(*) AS n FROM reports')[0]!.n;

async function init(): Promise<void> {
  const r = await run('init', '--db', dbPath);
  expect(r.code).toBe(0);
}

function reportsCsv(rows: string[]): string {
  const path = join(dir, 'reports.csv');
  writeFileSync(path, `${[REPORT_COLUMNS.join(','), ...rows].join('\n')}\n`);
  return path;
}
const GOOD_ROW = 'cardiology,NY,2025,520000,480000,40000,55,12,Private Practice,Partner/Owner,7000,2025-12-01,';

describe('physpay --help', () => {
  it('lists init, stats, import, moderate and demo, each with a description', async () => {
    const r = await run('--help');
    expect(r.code).toBe(0);
    expect(r.err).toEqual([]);
    expect(r.out.join('\n')).toMatch(/^Usage: physpay/);
    for (const name of ['init', 'stats', 'import', 'moderate', 'demo']) {
      const line = r.out.find((l) => new RegExp(`^\\s+${name}(\\s|$)`).test(l));
      expect(line, `help line for ${name}`).toBeDefined();
      const description = line!.replace(new RegExp(`^\\s+${name}(\\s+\\[options\\])?`), '').trim();
      expect(description.length, `description of ${name}`).toBeGreaterThan(10);
    }
  });

  it('shows the documented columns in the help of import reports', async () => {
    const r = await run('import', 'reports', '--help');
    expect(r.code).toBe(0);
    expect(r.out.join('\n')).toContain(`Columns: ${REPORT_COLUMNS.join(',')}`);
  });

  it('exits non-zero on an unknown command', async () => {
    const r = await run('frobnicate');
    expect(r.code).not.toBe(0);
    expect(r.err.join('\n')).toMatch(/unknown command/);
  });
});

describe('physpay init and stats', () => {
  it('init creates a DB with reference data; stats --json prints one JSON object', async () => {
    const created = await run('init', '--db', dbPath);
    expect(created.code).toBe(0);
    expect(created.out).toHaveLength(1);
    expect(created.out[0]).toMatch(/^created .*reports\.db \(schema v2; 44 specialties/);
    expect(created.out[0]).toMatch(/51 states incl\. DC\)$/); // 51 rows already include DC
    expect(existsSync(dbPath)).toBe(true);

    const stats = await run('stats', '--db', dbPath, '--json');
    expect(stats.code).toBe(0);
    expect(stats.out).toHaveLength(1);
    expect(JSON.parse(stats.out[0]!)).toEqual({
      db: dbPath,
      synthetic: false,
      reports: {},
      specialties_with_approved_reports: 0,
      states_with_approved_reports: 0,
      institutions: 0,
      bls_wages: 0,
    });
  });

  it('init on an existing DB migrates it and keeps its data', async () => {
    await init();
    expect((await run('import', 'reports', '--db', dbPath, reportsCsv([GOOD_ROW]))).code).toBe(0);
    const again = await run('init', '--db', dbPath);
    expect(again.code).toBe(0);
    expect(again.out[0]).toMatch(/^migrated /);
    expect(reportCount()).toBe(1);
  });

  it('stats on a missing DB fails with one line naming physpay init', async () => {
    const r = await run('stats', '--db', join(dir, 'nope.db'));
    expect(r.code).toBe(1);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/^physpay: reports DB not found: .*nope\.db.*physpay init/);
  });

  it('a missing mandatory --db is a usage error', async () => {
    const r = await run('init');
    expect(r.code).toBe(2);
    expect(r.err.join('\n')).toMatch(/--db/);
  });
});

describe('physpay import', () => {
  it('imports a good reports file and prints a summary', async () => {
    await init();
    const r = await run('import', 'reports', '--db', dbPath, join(FIXTURES, 'reports-good.csv'));
    expect(r.code).toBe(0);
    expect(r.err).toEqual([]);
    expect(r.out).toEqual([expect.stringMatching(/^4 reports imported from reports-good\.csv/)]);
    // The CLI clock stamps moderated reports.
    expect(query<{ moderated_at: string }>("SELECT moderated_at FROM reports WHERE status = 'approved'")).toEqual([
      { moderated_at: NOW.toISOString() },
    ]);
    const again = await run('import', 'reports', '--db', dbPath, join(FIXTURES, 'reports-good.csv'));
    expect(again.code).toBe(0);
    expect(again.out[0]).toMatch(/already imported/);
    expect(reportCount()).toBe(4);
  });

  it('a bad reports file exits non-zero, prints one stderr line per bad row with its line number, and imports nothing', async () => {
    await init();
    const path = reportsCsv([
      GOOD_ROW, // line 2
      GOOD_ROW.replace('cardiology', 'astrology'), // line 3
      GOOD_ROW, // line 4
      GOOD_ROW.replace(',NY,', ',XX,'), // line 5
      GOOD_ROW.replace('520000', '"$520,000"'), // line 6
      GOOD_ROW,
    ]);
    const r = await run('import', 'reports', '--db', dbPath, path);
    expect(r.code).not.toBe(0);
    expect(r.out).toEqual([]);
    const rowLines = r.err.filter((l) => /\bline \d+\b/.test(l));
    expect(rowLines).toHaveLength(3);
    expect(rowLines[0]).toMatch(/^reports\.csv line 3: .*unknown specialty "astrology"/);
    expect(rowLines[1]).toMatch(/^reports\.csv line 5: .*state/);
    expect(rowLines[2]).toMatch(/^reports\.csv line 6: .*plain number/);
    expect(r.err.at(-1)).toMatch(/3 bad row\(s\); nothing was imported/);
    expect(reportCount()).toBe(0);
    expect(query<{ n: number }>('SELECT count(*) AS n FROM imports')[0]!.n).toBe(0);
  });

  it('a missing input file is one clear error line', async () => {
    await init();
    const r = await run('import', 'reports', '--db', dbPath, join(dir, 'missing.csv'));
    expect(r.code).toBe(1);
    expect(r.err).toEqual([expect.stringMatching(/^physpay: cannot read .*missing\.csv: no such file/)]);
  });

  it('import into a DB that does not exist fails without creating it', async () => {
    const r = await run('import', 'reports', '--db', dbPath, join(FIXTURES, 'reports-good.csv'));
    expect(r.code).toBe(1);
    expect(r.err[0]).toMatch(/reports DB not found/);
    expect(existsSync(dbPath)).toBe(false);
  });

  it('import bls takes --year and --top-code, and asks for --year when the file has no YEAR column', async () => {
    await init();
    const file = join(FIXTURES, 'bls-oews-national.csv');
    const noYear = await run('import', 'bls', '--db', dbPath, file);
    expect(noYear.code).not.toBe(0);
    expect(noYear.err.join('\n')).toMatch(/--year/);

    const ok = await run('import', 'bls', '--db', dbPath, file, '--year', '2024', '--top-code', '250000');
    expect(ok.code).toBe(0);
    expect(query('SELECT annual_median, top_coded, year FROM bls_wages WHERE soc_code = ?', '29-1212')).toEqual([
      { annual_median: 250000, top_coded: 1, year: 2024 },
    ]);
  });

  it('imports institutions and cost of living', async () => {
    await init();
    expect((await run('import', 'institutions', '--db', dbPath, join(FIXTURES, 'institutions-good.csv'))).code).toBe(0);
    expect((await run('import', 'col', '--db', dbPath, join(FIXTURES, 'col-good.csv'))).code).toBe(0);
    expect(query<{ n: number }>('SELECT count(*) AS n FROM institution_pay')[0]!.n).toBe(7);
    expect(query('SELECT col_index FROM states WHERE code = ?', 'NY')).toEqual([{ col_index: 120.5 }]);
  });
});

describe('physpay demo', () => {
  it('a bad --reports value fails naming --reports and PHYSPAY_DEMO_REPORTS, and writes nothing', async () => {
    const r = await run('demo', '--db', dbPath, '--reports', 'abc');
    expect(r.code).not.toBe(0);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toContain('--reports');
    expect(r.err[0]).toContain('PHYSPAY_DEMO_REPORTS');
    expect(r.err[0]).toContain('"abc"');
    expect(existsSync(dbPath)).toBe(false);
  });

  it('a bad PHYSPAY_DEMO_REPORTS variable fails the same way', async () => {
    vi.stubEnv('PHYSPAY_DEMO_REPORTS', '-5');
    const r = await run('demo', '--db', dbPath);
    expect(r.code).not.toBe(0);
    expect(r.err[0]).toMatch(/--reports \(PHYSPAY_DEMO_REPORTS\)/);
    expect(existsSync(dbPath)).toBe(false);
  });

  it('creates a small synthetic DB that stats labels synthetic; refuses to overwrite it without --force', async () => {
    const r = await run('demo', '--db', dbPath, '--reports', '400', '--seed', '9');
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(1);
    expect(r.out[0]).toMatch(/^SYNTHETIC demo DB .*: 400 reports .*seed 9/);

    const stats = await run('stats', '--db', dbPath, '--json');
    expect(stats.code).toBe(0);
    const s = JSON.parse(stats.out[0]!) as { synthetic: boolean; reports: Record<string, number>; institutions: number };
    expect(s.synthetic).toBe(true);
    expect(Object.values(s.reports).reduce((a, b) => a + b, 0)).toBe(400);
    expect(s.institutions).toBeGreaterThan(0);

    const text = await run('stats', '--db', dbPath);
    expect(text.out[0]).toMatch(/SYNTHETIC/);

    const again = await run('demo', '--db', dbPath, '--reports', '400');
    expect(again.code).toBe(1);
    expect(again.err[0]).toMatch(/already exists.*--force/);
    expect((await run('demo', '--db', dbPath, '--reports', '300', '--force')).code).toBe(0);
    expect(reportCount()).toBe(300);
  });
});

describe('physpay moderate', () => {
  beforeEach(async () => {
    await init();
    const path = reportsCsv([GOOD_ROW, GOOD_ROW.replace(',NY,', ',TX,'), GOOD_ROW.replace('cardiology', 'pediatrics')]);
    expect((await run('import', 'reports', '--db', dbPath, path)).code).toBe(0);
  });

  it('approve with no ids and no --all-pending exits non-zero with a clear message, changing nothing', async () => {
    const r = await run('moderate', 'approve', '--db', dbPath);
    expect(r.code).not.toBe(0);
    expect(r.err).toEqual(['physpay: nothing to approve: give report ids or --all-pending']);
    expect(query<{ n: number }>("SELECT count(*) AS n FROM reports WHERE status = 'pending'")[0]!.n).toBe(3);
  });

  it('refuses ids together with --all-pending, and filters without --all-pending', async () => {
    expect((await run('moderate', 'reject', '--db', dbPath, '1', '--all-pending')).err[0]).toMatch(/not both/);
    expect((await run('moderate', 'reject', '--db', dbPath, '1', '--state', 'NY')).err[0]).toMatch(/only apply with --all-pending/);
    expect((await run('moderate', 'reject', '--db', dbPath, 'x1')).err[0]).toMatch(/whole numbers/);
    expect(query<{ n: number }>("SELECT count(*) AS n FROM reports WHERE status = 'pending'")[0]!.n).toBe(3);
  });

  it('approves by id with the CLI clock; an unknown id refuses the batch', async () => {
    const bad = await run('moderate', 'approve', '--db', dbPath, '1', '999');
    expect(bad.code).toBe(1);
    expect(bad.err[0]).toMatch(/no report with id 999; nothing changed/);
    expect(query<{ status: string }>('SELECT status FROM reports WHERE id = 1')).toEqual([{ status: 'pending' }]);

    const ok = await run('moderate', 'approve', '--db', dbPath, '1', '2');
    expect(ok.code).toBe(0);
    expect(ok.out).toEqual(['2 report(s) approved']);
    expect(query('SELECT id, status, moderated_at FROM reports ORDER BY id')).toEqual([
      { id: 1, status: 'approved', moderated_at: NOW.toISOString() },
      { id: 2, status: 'approved', moderated_at: NOW.toISOString() },
      { id: 3, status: 'pending', moderated_at: null },
    ]);
    const again = await run('moderate', 'approve', '--db', dbPath, '2');
    expect(again.out).toEqual(['0 report(s) approved; already approved: 2']);
  });

  it('rejects every pending report of a specialty with --all-pending, and list shows what is left', async () => {
    const r = await run('moderate', 'reject', '--db', dbPath, '--all-pending', '--specialty', 'cardiologist');
    expect(r.code).toBe(0);
    expect(r.out).toEqual(['2 report(s) rejected']);
    const list = await run('moderate', 'list', '--db', dbPath, '--json');
    expect(list.code).toBe(0);
    expect(list.out.map((l) => JSON.parse(l) as { specialty: string; status: string })).toEqual([
      expect.objectContaining({ specialty: 'pediatrics', status: 'pending' }),
    ]);
  });
});

describe('bin/physpay.js', () => {
  it('node bin/physpay.js --help exits 0 and prints the usage', { timeout: 15_000 }, () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PHYSPAY_')));
    const r = spawnSync(process.execPath, ['bin/physpay.js', '--help'], { cwd: ROOT, encoding: 'utf8', timeout: 10_000, env });
    expect(r.error).toBeUndefined();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Usage: physpay/);
    for (const name of ['init', 'stats', 'import', 'moderate', 'demo']) expect(r.stdout).toMatch(new RegExp(`\\n\\s+${name}\\b`));
  });
});
