/**
 * Imported text is plain text: every importer (reports, institutions, BLS, cost of living) refuses a
 * control character, a bidirectional control or a noncharacter anywhere in the file, before anything is
 * written, naming the line, the column (1-based, in characters, within the physical line), the code point
 * and the CSV column it sits in. The CLI prints that one line and imports nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers/temp-dir.ts';
import { openReportsDb, type Db } from '../../build/db/open.ts';
import { ImportRejected, importFile, type ImportKind } from '../../build/import/run.ts';
import { REPORT_COLUMNS } from '../../build/import/reports.ts';
import { INSTITUTION_COLUMNS } from '../../build/import/institutions.ts';
import { main } from '../../build/cli/main.ts';
import type { CliIo } from '../../build/cli/io.ts';

const NOW = new Date('2026-01-15T12:00:00.000Z');
const now = () => NOW;
const INST_HEADER = INSTITUTION_COLUMNS.join(',');
const REPORT_HEADER = REPORT_COLUMNS.join(',');
const inst = (slug: string, name: string, pgy = 1) => `${slug},${name},Sacramento,CA,2025-2026,2025-07-01,https://example.org/${slug},${pgy},${70_000 + pgy * 2_000}`;
const PLAIN = 'imported text must be plain text (remove it and import again)';

let db: Db;
const tmp = useTempDir('forbidden', { each: true });
let dir: string;
let n = 0;
beforeEach(() => {
  db = openReportsDb(':memory:');
  dir = tmp.path;
});
afterEach(() => {
  db.close();
});

function file(text: string): string {
  const path = join(dir, `f${++n}.csv`);
  writeFileSync(path, text);
  return path;
}

const tables = ['reports', 'institutions', 'institution_pay', 'bls_wages', 'import_batches'];
const snapshot = () => ({
  counts: tables.map((t) => (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n),
  col: db.prepare('SELECT code, col_index, col_source, col_year FROM states ORDER BY code').all(),
});

/** The import must be refused at file level, with nothing written; returns the one-line reason. */
function refused(kind: ImportKind, text: string, opts: { year?: number } = {}): string {
  const before = snapshot();
  let caught: unknown;
  try {
    importFile(db, kind, file(text), { now, ...opts });
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ImportRejected);
  const err = caught as ImportRejected;
  expect(err.fileLevel).toBe(true);
  expect(err.message).toMatch(/nothing imported$/);
  expect(snapshot()).toEqual(before);
  return err.detail!;
}

describe('every importer names the line, the column, the code point and the CSV column', () => {
  it('institutions: ESC in institution_name (line 4, column 17)', () => {
    const text = [INST_HEADER, inst('good-hospital', 'Good Hospital', 1), inst('good-hospital', 'Good Hospital', 2), inst('mercy-hospital', '"\u001b[31mMercy"')].join('\n') + '\n';
    expect(refused('institutions', text)).toBe(`line 4, column 17: control character U+001B (ESC) in institution_name; ${PLAIN}`);
  });

  it('reports: ESC in practice_setting', () => {
    const row = 'cardiology,TX,2025,500000,,,,,Academic\u001b[0m,,,2025-06-01,';
    const column = row.indexOf('\u001b') + 1;
    expect(refused('reports', `${REPORT_HEADER}\r\n${row}\r\n`)).toBe(`line 2, column ${column}: control character U+001B (ESC) in practice_setting; ${PLAIN}`);
  });

  it('BLS: a right-to-left override in OCC_TITLE, and a control character in a column the importer ignores', () => {
    const head = 'OCC_CODE,OCC_TITLE,A_MEDIAN,AREA_TITLE';
    expect(refused('bls', `${head}\n29-1215,Family \u202eMedicine,"231,770",U.S.\n`, { year: 2024 }))
      .toBe(`line 2, column 16: bidirectional control U+202E (RIGHT-TO-LEFT OVERRIDE) in OCC_TITLE; ${PLAIN}`);
    expect(refused('bls', `${head}\n29-1215,Family Medicine,"231,770",U.S.\u0007\n`, { year: 2024 }))
      .toBe(`line 2, column 39: control character U+0007 (BEL) in AREA_TITLE; ${PLAIN}`);
  });

  it('cost of living: a C1 control (NEL) in source', () => {
    expect(refused('col', 'state,index,source,year\nNY,120.5,BEA\u0085 RPP,2023\n')).toBe(`line 2, column 13: control character U+0085 (NEL) in source; ${PLAIN}`);
  });

  it('a character in the header row is named as such', () => {
    expect(refused('col', 'state,index,sou\u200frce,year\nNY,120.5,BEA,2023\n')).toBe(`line 1, column 16: bidirectional control U+200F (RIGHT-TO-LEFT MARK) in the header row; ${PLAIN}`);
  });

  it('inside a quoted field over two lines: the physical line, the column within it, the field of its record', () => {
    const text = [INST_HEADER, inst('a-hospital', '"Mercy\nGeneral\tHospital"')].join('\n') + '\n';
    expect(refused('institutions', text)).toBe(`line 3, column 8: control character U+0009 (TAB) in institution_name; ${PLAIN}`);
  });

  it('the column counts characters, not bytes or UTF-16 units (an accented letter and an astral letter before it)', () => {
    const text = [INST_HEADER, inst('a-hospital', '"Hôpital 𝕄ercy \u2066x"')].join('\n') + '\n';
    // a-hospital," = 12 characters, then H ô p i t a l ␠ 𝕄 e r c y ␠ = 14, so U+2066 is the 27th
    expect(refused('institutions', text)).toBe(`line 2, column 27: bidirectional control U+2066 (LEFT-TO-RIGHT ISOLATE) in institution_name; ${PLAIN}`);
  });

  it('a carriage return that does not end a line, and DEL', () => {
    expect(refused('col', 'state,index,source,year\nNY,120.5,BEA\rX,2023\n')).toBe(`line 2, column 13: control character U+000D (CR) in source; ${PLAIN}`);
    expect(refused('col', 'state,index,source,year\nNY,120.5,BEA\u007f,2023\n')).toBe(`line 2, column 13: control character U+007F (DEL) in source; ${PLAIN}`);
  });
});

describe('what is refused besides C0/C1 controls and the bidi overrides', () => {
  it.each([
    ['\u061c', 'bidirectional control U+061C (ARABIC LETTER MARK)'],
    ['\u200e', 'bidirectional control U+200E (LEFT-TO-RIGHT MARK)'],
    ['\u2028', 'line break U+2028 (LINE SEPARATOR)'],
    ['\u2029', 'line break U+2029 (PARAGRAPH SEPARATOR)'],
    ['\ufdd0', 'noncharacter U+FDD0'],
    ['\ufdef', 'noncharacter U+FDEF'],
    ['\ufffe', 'noncharacter U+FFFE'],
    ['\uffff', 'noncharacter U+FFFF'],
    ['\u{1fffe}', 'noncharacter U+1FFFE'],
    ['\u{10ffff}', 'noncharacter U+10FFFF'],
  ])('%j', (ch, name) => {
    const text = [INST_HEADER, inst('a-hospital', `Mercy${ch} Hospital`)].join('\n') + '\n';
    expect(refused('institutions', text)).toBe(`line 2, column 17: ${name} in institution_name; ${PLAIN}`);
  });

  it('ordinary text in any script is imported: accents, dashes, curly quotes, CJK, Arabic and Hebrew letters, emoji with a joiner', () => {
    const names = ['Hôpital Saint-Luc – Montréal', '“Klinikum” Zürich', '東京大学医学部附属病院', 'مستشفى الملك', 'בית חולים', 'Hospital 👩‍⚕️'];
    const text = [INST_HEADER, ...names.map((name, i) => inst(`h-${i}`, `"${name}"`))].join('\r\n') + '\r\n';
    expect(importFile(db, 'institutions', file(text), { now }).rows).toBe(names.length);
    expect((db.prepare('SELECT name FROM institutions ORDER BY slug').all() as { name: string }[]).map((r) => r.name)).toEqual(names);
  });
});

describe('the CLI', () => {
  it('prints the one line and imports nothing (exit 1, like every import refusal)', async () => {
    const dbPath = join(dir, 'r.db');
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l), now, isTty: false };
    expect(await main(['node', 'physpay', 'init', '--db', dbPath], io)).toBe(0);
    const path = join(dir, 'evil.csv');
    writeFileSync(path, [INST_HEADER, inst('good-hospital', 'Good Hospital', 1), inst('good-hospital', 'Good Hospital', 2), inst('mercy-hospital', '"\u001b[31mMercy"')].join('\n') + '\n');
    err.length = 0;
    const code = await main(['node', 'physpay', 'import', 'institutions', '--db', dbPath, path], io);
    expect(err).toEqual([`physpay: evil.csv line 4, column 17: control character U+001B (ESC) in institution_name; ${PLAIN}; nothing was imported`]);
    expect(code).toBe(1);
    const check = openReportsDb(dbPath);
    try {
      expect((check.prepare('SELECT count(*) AS n FROM institutions').get() as { n: number }).n).toBe(0);
    } finally {
      check.close();
    }
  });
});
