import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../build/cli/main.ts';
import type { CliIo } from '../../build/cli/io.ts';
import { REPORT_COLUMNS } from '../../build/import/reports.ts';
import { runCli } from '../helpers/cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/import/', import.meta.url));
const NOW = new Date('2026-01-15T12:00:00.000Z');

const run = (...args: string[]) => runCli(args, { now: NOW });

const tmp = useTempDir('cli', { each: true });
let dir: string;
let dbPath: string;

beforeEach(() => {
  dir = tmp.path;
  dbPath = join(dir, 'reports.db');
});
afterEach(() => {
  vi.unstubAllEnvs();
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
    expect(created.out[0]).toMatch(/^created .*reports\.db \(schema v\d+; 44 specialties/);
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

  it('init on an existing DB migrates it when needed and keeps its data; a current DB is said to be up to date', async () => {
    await init();
    expect((await run('import', 'reports', '--db', dbPath, reportsCsv([GOOD_ROW]))).code).toBe(0);
    const again = await run('init', '--db', dbPath);
    expect(again.code).toBe(0);
    expect(again.out[0]).toMatch(/^already up to date: .* \(schema v\d+;/);
    expect(reportCount()).toBe(1);
  });

  it('small traps: a folder given to import, a key prefix cut short, the builds --keep removed', async () => {
    await init();
    const folder = join(dir, 'exports');
    mkdirSync(folder);
    const imp = await run('import', 'reports', '--db', dbPath, folder);
    expect(imp.code).toBe(1);
    expect(imp.err.join('\n')).toMatch(/cannot read .*exports: it is a folder; name the CSV file to import/);
    expect(imp.err.join('\n')).not.toMatch(/EISDIR|\n\s+at /);

    const service = join(dir, 'service.db');
    for (let i = 0; i < 2; i++) expect((await run('keys', 'create', '--service-db', service, '--plan', 'starter')).code).toBe(0);
    const revoke = await run('keys', 'revoke', '--service-db', service, 'pcb_live_');
    expect(revoke.code).toBe(1);
    expect(revoke.err.join('\n')).toMatch(/pcb_live_ is only the start of a key prefix: it matches 2 keys; name one by its id or its whole 12-character prefix/);

    const demo = join(dir, 'demo.db');
    const out = join(dir, 'dist');
    expect((await run('demo', '--db', demo, '--reports', '400', '--seed', '3')).code).toBe(0);
    const first = await run('build', '--db', demo, '--out', out, '--keep', '1', '--build-date', '2026-11-16', '--no-fsync', '--no-precompress');
    expect(first.code).toBe(0);
    const firstId = /^built (\S+):/.exec(first.out[0]!)![1]!;
    expect((await run('import', 'reports', '--db', demo, reportsCsv([GOOD_ROW.replace(/,$/, ',approved')]))).code).toBe(0);
    // the next night (a build id starts with the build's time)
    const second = { out: [] as string[], err: [] as string[], code: 0 };
    second.code = await main(['node', 'physpay', 'build', '--db', demo, '--out', out, '--keep', '1', '--build-date', '2026-11-17', '--no-fsync', '--no-precompress'], {
      out: (l) => second.out.push(...l.split('\n')), err: (l) => second.err.push(...l.split('\n')), now: () => new Date(NOW.getTime() + 86_400_000), isTty: false,
    });
    expect(second.code, second.err.join('\n')).toBe(0);
    expect(second.out[0]).toContain(`; removed the old build ${firstId} (--keep)`);
  }, 120_000); // two whole builds with their pages

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
      GOOD_ROW.replace('520000', '520.000'), // line 6: thousands or decimals?
      GOOD_ROW,
    ]);
    const r = await run('import', 'reports', '--db', dbPath, path);
    expect(r.code).not.toBe(0);
    expect(r.out).toEqual([]);
    const rowLines = r.err.filter((l) => /\bline \d+\b/.test(l));
    expect(rowLines).toHaveLength(3);
    expect(rowLines[0]).toMatch(/^reports\.csv line 3: .*unknown specialty "astrology"/);
    expect(rowLines[1]).toMatch(/^reports\.csv line 5: .*state/);
    expect(rowLines[2]).toMatch(/^reports\.csv line 6: .*is ambiguous/);
    expect(r.err.at(-1)).toMatch(/3 bad row\(s\); nothing was imported/);
    expect(r.code).toBe(1);
    expect(reportCount()).toBe(0);
    expect(query<{ n: number }>('SELECT count(*) AS n FROM imports')[0]!.n).toBe(0);
    expect(query("SELECT status, rows_read, rows_imported, rows_refused FROM import_batches")).toEqual([
      { status: 'refused', rows_read: 6, rows_imported: 0, rows_refused: 3 },
    ]);
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

describe('physpay import: batches, duplicates, encodings (issue 18)', () => {
  const ROWS = [
    GOOD_ROW,
    GOOD_ROW.replace(',NY,', ',TX,'),
    GOOD_ROW.replace('cardiology', 'pediatrics'),
    GOOD_ROW.replace(',NY,', ',CA,').replace(/,$/, ',approved'),
  ];
  const file = (name: string, bytes: string | Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    return path;
  };
  const HEADER = REPORT_COLUMNS.join(',');

  it('a CRLF copy of an imported file imports nothing and lists each duplicate on stderr', async () => {
    await init();
    expect((await run('import', 'reports', '--db', dbPath, file('week.csv', `${[HEADER, ...ROWS].join('\n')}\n`))).out).toEqual([
      '4 reports imported from week.csv (3 pending, 1 approved); batch 1',
    ]);
    const r = await run('import', 'reports', '--db', dbPath, file('week-crlf.csv', `${[HEADER, ...ROWS].join('\r\n')}\r\n`));
    expect(r.code).toBe(0);
    expect(r.out).toEqual(['0 reports imported from week-crlf.csv; 4 duplicates skipped (already in the DB: 4; --allow-duplicates imports them); batch 2']);
    expect(r.err).toEqual([
      'week-crlf.csv line 2: duplicate of report 1 (batch 1), skipped',
      'week-crlf.csv line 3: duplicate of report 2 (batch 1), skipped',
      'week-crlf.csv line 4: duplicate of report 3 (batch 1), skipped',
      'week-crlf.csv line 5: duplicate of report 4 (batch 1), skipped',
    ]);
    expect(reportCount()).toBe(4);

    const same = await run('import', 'reports', '--db', dbPath, join(dir, 'week-crlf.csv'));
    expect(same.out).toEqual([`week-crlf.csv was already imported as batch 2 on ${NOW.toISOString()} (0 reports); nothing to do`]);

    const forced = await run('import', 'reports', '--db', dbPath, file('again.csv', `${[HEADER, ...ROWS, ''].join('\n')}\n`), '--allow-duplicates');
    expect(forced.code).toBe(0);
    expect(forced.out).toEqual(['4 reports imported from again.csv (3 pending, 1 approved); batch 3']);
    expect(reportCount()).toBe(8);
  });

  it('prints at most 20 duplicate lines, then one line with the rest', async () => {
    await init();
    const many = Array.from({ length: 30 }, (_, i) => GOOD_ROW.replace('520000', String(600_000 + i)));
    await run('import', 'reports', '--db', dbPath, file('a.csv', `${[HEADER, ...many].join('\n')}\n`));
    const r = await run('import', 'reports', '--db', dbPath, file('b.csv', `${[HEADER, ...many].join('\r\n')}\r\n`));
    expect(r.err).toHaveLength(21);
    expect(r.err[20]).toBe('b.csv: ... and 10 more duplicates skipped');
  });

  it('import list shows batches as a table, or as one JSON object with --json', async () => {
    await init();
    expect((await run('import', 'list', '--db', dbPath)).out).toEqual(['no import batches in ' + dbPath]);
    await run('import', 'reports', '--db', dbPath, file('week.csv', `${[HEADER, ...ROWS].join('\n')}\n`));
    await run('import', 'reports', '--db', dbPath, file('week-crlf.csv', `${[HEADER, ...ROWS].join('\r\n')}\r\n`));
    await run('import', 'col', '--db', dbPath, join(FIXTURES, 'col-good.csv'));
    await run('import', 'reports', '--db', dbPath, file('bad.csv', `${[HEADER, GOOD_ROW.replace('cardiology', 'astrology')].join('\n')}\n`));

    const json = await run('import', 'list', '--db', dbPath, '--json');
    expect(json.code).toBe(0);
    expect(json.out).toHaveLength(1);
    const parsed = JSON.parse(json.out[0]!) as { db: string; batches: Record<string, unknown>[] };
    expect(parsed.db).toBe(dbPath);
    expect(parsed.batches.map((b) => [b['id'], b['kind'], b['file_name'], b['rows_read'], b['rows_imported'], b['duplicates_skipped'], b['rows_refused'], b['status'], b['reports_remaining']])).toEqual([
      [4, 'reports', 'bad.csv', 1, 0, 0, 1, 'refused', 0],
      [3, 'col', 'col-good.csv', 3, 3, 0, 0, 'imported', null],
      [2, 'reports', 'week-crlf.csv', 4, 0, 4, 0, 'imported', 0],
      [1, 'reports', 'week.csv', 4, 4, 0, 0, 'imported', 4],
    ]);
    expect(parsed.batches[3]).toEqual({
      id: 1,
      kind: 'reports',
      file_name: 'week.csv',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      imported_at: NOW.toISOString(),
      rows_read: 4,
      rows_imported: 4,
      duplicates_skipped: 0,
      rows_refused: 0,
      status: 'imported',
      undone_at: null,
      reports_removed: null,
      reports_remaining: 4,
    });

    const table = await run('import', 'list', '--db', dbPath);
    expect(table.code).toBe(0);
    expect(table.out).toEqual([
      'batch  kind     imported at               read  imported  duplicates  refused  status    file',
      '    4  reports  2026-01-15T12:00:00.000Z     1         0           0        1  refused   bad.csv',
      '    3  col      2026-01-15T12:00:00.000Z     3         3           0        0  imported  col-good.csv',
      '    2  reports  2026-01-15T12:00:00.000Z     4         0           4        0  imported  week-crlf.csv',
      '    1  reports  2026-01-15T12:00:00.000Z     4         4           0        0  imported  week.csv',
    ]);
  });

  it('import undo removes one batch (dry run first), refuses twice, unknown ids and other kinds with exit 2', async () => {
    await init();
    await run('import', 'reports', '--db', dbPath, file('one.csv', `${[HEADER, ...ROWS.slice(0, 2)].join('\n')}\n`));
    await run('import', 'reports', '--db', dbPath, file('two.csv', `${[HEADER, ...ROWS.slice(2)].join('\n')}\n`));
    await run('import', 'col', '--db', dbPath, join(FIXTURES, 'col-good.csv'));

    const dry = await run('import', 'undo', '2', '--db', dbPath, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.out).toEqual([`dry run: undoing batch 2 (two.csv, imported ${NOW.toISOString()}) would remove 2 reports (1 pending, 1 approved), 50% of the 4 reports in the DB; nothing changed`]);
    expect(reportCount()).toBe(4);

    const undo = await run('import', 'undo', '2', '--db', dbPath, '--yes');
    expect(undo.code).toBe(0);
    expect(undo.out).toEqual([`batch 2 (two.csv, imported ${NOW.toISOString()}) undone: 2 reports removed (1 pending, 1 approved)`]);
    expect(query('SELECT id FROM reports ORDER BY id')).toEqual([{ id: 1 }, { id: 2 }]);

    const twice = await run('import', 'undo', '2', '--db', dbPath);
    expect(twice.code).toBe(2);
    expect(twice.err).toEqual([`physpay: batch 2 was already undone on ${NOW.toISOString()} (2 reports removed); nothing changed`]);

    const unknown = await run('import', 'undo', '99', '--db', dbPath);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toEqual([`physpay: no import batch 99 in ${dbPath} (physpay import list shows the batches); nothing changed`]);

    const notNumber = await run('import', 'undo', 'two.csv', '--db', dbPath);
    expect(notNumber.code).toBe(2);
    expect(notNumber.err).toEqual(['physpay: <batch> must be a batch id, a whole number as shown by physpay import list (got "two.csv")']);

    const col = await run('import', 'undo', '3', '--db', dbPath);
    expect(col.code).toBe(2);
    expect(col.err).toEqual(['physpay: batch 3 imported col data; only reports batches can be undone (import a corrected col file instead); nothing changed']);
    expect(reportCount()).toBe(2);
  });

  it('refuses a Latin-1 file with exit 1 and one line naming the line, Latin-1 and the iconv command', async () => {
    await init();
    const path = file('latin1.csv', Buffer.from(`${HEADER}\n${GOOD_ROW}\n${GOOD_ROW.replace('Private Practice', 'Pr\xe9vention')}\n`, 'latin1'));
    const r = await run('import', 'reports', '--db', dbPath, path);
    expect(r.code).toBe(1);
    expect(r.out).toEqual([]);
    expect(r.err).toEqual([
      `physpay: latin1.csv line 3, column 48: not valid UTF-8 (byte 0xE9); the file looks like Latin-1 (ISO-8859-1), where these bytes read "Prévention": convert it with \`iconv -f latin1 -t utf-8 ${path} > ${join(dir, 'latin1-utf8.csv')}\` and import that; nothing was imported`,
    ]);
    expect(reportCount()).toBe(0);
    expect(query('SELECT * FROM import_batches')).toEqual([]);
  });

  it('refuses a UTF-16 file with exit 1 and one line naming UTF-16', async () => {
    await init();
    const path = file('excel.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${HEADER}\n${GOOD_ROW}\n`, 'utf16le')]));
    const r = await run('import', 'reports', '--db', dbPath, path);
    expect(r.code).toBe(1);
    expect(r.err).toEqual([
      `physpay: excel.csv line 1: the file is UTF-16 (little-endian, with a byte-order mark), not UTF-8: convert it with \`iconv -f utf-16 -t utf-8 ${path} > ${join(dir, 'excel-utf8.csv')}\` and import that; nothing was imported`,
    ]);
    expect(reportCount()).toBe(0);
  });

  it('imports a UTF-8 file with a byte-order mark', async () => {
    await init();
    const r = await run('import', 'reports', '--db', dbPath, file('bom.csv', `\uFEFF${HEADER}\n${GOOD_ROW}\n`));
    expect(r.code).toBe(0);
    expect(reportCount()).toBe(1);
  });

  it('prints at most 20 bad rows, then one line counting the rest by reason', async () => {
    await init();
    const bad = [
      ...Array.from({ length: 1500 }, () => GOOD_ROW.replace('cardiology', 'astrology')),
      ...Array.from({ length: 1000 }, (_, i) => GOOD_ROW.replace(',NY,', `,X${i % 10},`)),
      ...Array.from({ length: 500 }, () => GOOD_ROW.replace('Private Practice', 'Clinic')),
    ];
    const r = await run('import', 'reports', '--db', dbPath, reportsCsv([GOOD_ROW, ...bad]));
    expect(r.code).toBe(1);
    expect(r.err).toHaveLength(22);
    expect(r.err.slice(0, 20).every((l) => /^reports\.csv line \d+: specialty: unknown specialty "astrology" \(physpay reference specialties lists the names and spellings\)$/.test(l))).toBe(true);
    expect(r.err[20]).toBe(
      "reports.csv: ... and 2,980 more rows refused: 1,480 x 'specialty: unknown specialty', 1,000 x 'state: must be a two-letter US state code such as NY or DC', 500 x 'practice_setting: is not one of: Hospital Employed, Private Practice, Academic, Multispecialty Group, Government, Other'",
    );
    expect(r.err[21]).toBe('physpay: reports.csv: 3,000 bad row(s); nothing was imported (the attempt is listed as batch 1)');
  });

  it('shows progress on stderr for files of more than 512 KB on a terminal, and none otherwise', async () => {
    await init();
    const rows = Array.from({ length: 10_050 }, (_, i) => GOOD_ROW.replace('520000', String(600_000 + i)));
    const path = reportsCsv(rows);
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const out: string[] = [];
      const io: CliIo = { out: (l) => out.push(l), err: (l) => out.push(l), now: () => NOW, isTty: true };
      expect(await main(['node', 'physpay', 'import', 'reports', '--db', dbPath, path], io)).toBe(0);
      expect(out).toEqual(['10,050 reports imported from reports.csv (10,050 pending); batch 1']);
      expect(written.join('')).toMatch(/\[2\/2\] importing the rows of reports\.csv: 100%, 10,050 rows/);
      written.length = 0;
      await run('import', 'reports', '--db', dbPath, path.replace('reports.csv', 'reports.csv'), '--allow-duplicates');
      expect(written).toEqual([]);
    } finally {
      spy.mockRestore();
    }
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
    expect(again.code).toBe(2); // a refusal that --force answers: a usage error
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

    const ok = await run('moderate', 'approve', '--db', dbPath, '1', '2', '--moderator', 'alice');
    expect(ok.code).toBe(0);
    expect(ok.out).toEqual(['2 reports approved by alice']);
    expect(query('SELECT id, status, moderated_at FROM reports ORDER BY id')).toEqual([
      { id: 1, status: 'approved', moderated_at: NOW.toISOString() },
      { id: 2, status: 'approved', moderated_at: NOW.toISOString() },
      { id: 3, status: 'pending', moderated_at: null },
    ]);
    const again = await run('moderate', 'approve', '--db', dbPath, '2', '--moderator', 'alice');
    expect(again.out).toEqual(['0 reports approved by alice; already approved: 2']);
  });

  it('rejects every pending report of a specialty with --all-pending, and list shows what is left', async () => {
    const r = await run('moderate', 'reject', '--db', dbPath, '--all-pending', '--specialty', 'cardiologist', '--yes', '--moderator', 'alice');
    expect(r.code).toBe(0);
    expect(r.out).toEqual(['2 reports rejected by alice']);
    const list = await run('moderate', 'list', '--db', dbPath, '--json');
    expect(list.code).toBe(0);
    expect((JSON.parse(list.out.join('\n')) as { rows: { specialty: string; status: string }[] }).rows).toEqual([
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
