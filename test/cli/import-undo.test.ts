/**
 * `physpay import undo` of moderated work (issue 28, item 4): it asks first (count per status and share of
 * the DB shown; --yes, --expect-count, a terminal question; --dry-run changes nothing), keeps the decisions
 * moderators made, and importing the same rows again restores them under the same ids (so the moderation
 * log points at reports that exist; a pending report comes back with a new id), unless --no-restore-decisions. `physpay reclaim` gives the space back.
 */
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { REPORT_COLUMNS } from '../../build/import/reports.ts';
import { runCli } from '../helpers/cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const NOW = new Date('2026-01-15T12:00:00.000Z');

const run = (args: string[], confirm?: (q: string) => Promise<boolean>) => runCli(args, { now: NOW, ...(confirm ? { confirm } : {}) });

const tmp = useTempDir('undo', { each: true });
let dir: string;
let db: string;
let csv: string;
beforeEach(() => {
  dir = tmp.path;
  db = join(dir, 'reports.db');
  csv = join(dir, 'survey.csv');
});

function rows<T>(sql: string): T[] {
  const conn = new Database(db, { readonly: true });
  try {
    return conn.prepare(sql).all() as T[];
  } finally {
    conn.close();
  }
}

/** n pending reports, all different. */
function writeSurvey(n: number): void {
  const lines = Array.from({ length: n }, (_, i) => `cardiology,NY,2025,${400_000 + i},,,50,10,,,,2025-12-01,`);
  writeFileSync(csv, `${[REPORT_COLUMNS.join(','), ...lines].join('\n')}\n`);
}

async function importAndModerate(): Promise<void> {
  expect((await run(['init', '--db', db])).code).toBe(0);
  writeSurvey(5);
  expect((await run(['import', 'reports', '--db', db, csv])).code).toBe(0);
  expect((await run(['moderate', 'approve', '--db', db, '1', '2', '3', '--moderator', 'alice', '--reason', 'checked'])).code).toBe(0);
  expect((await run(['moderate', 'reject', '--db', db, '4', '--moderator', 'bob', '--reason', 'implausible'])).code).toBe(0);
}

const statuses = () => rows<{ id: number; status: string; moderated_by: string | null }>('SELECT id, status, moderated_by FROM reports ORDER BY id');

describe('import undo asks first', () => {
  it('refuses without --yes or --expect-count when nobody can be asked, showing the count per status and the share of the DB', async () => {
    await importAndModerate();
    const r = await run(['import', 'undo', '1', '--db', db]);
    expect(r.code).toBe(2);
    expect(r.err).toEqual([
      `physpay: refusing to undo batch 1 without confirmation: batch 1 (survey.csv, imported ${NOW.toISOString()}) would remove 5 reports (1 pending, 3 approved, 1 rejected), 100% of the 5 reports in the DB; pass --yes, or --expect-count 5 to go ahead only if exactly 5 match (--dry-run shows what would change); nothing changed`,
    ]);
    expect(statuses()).toHaveLength(5);
  });

  it('--dry-run and a wrong --expect-count change nothing; a terminal question answered no changes nothing', async () => {
    await importAndModerate();
    const dry = await run(['import', 'undo', '1', '--db', db, '--dry-run']);
    expect(dry.out).toEqual([`dry run: undoing batch 1 (survey.csv, imported ${NOW.toISOString()}) would remove 5 reports (1 pending, 3 approved, 1 rejected), 100% of the 5 reports in the DB; nothing changed`]);
    const wrong = await run(['import', 'undo', '1', '--db', db, '--expect-count', '4']);
    expect(wrong.code).toBe(2);
    expect(wrong.err[0]).toMatch(/^physpay: refusing to undo batch 1: --expect-count is 4 but batch 1 .* would remove 5 reports/);
    const no = await run(['import', 'undo', '1', '--db', db], async () => false);
    expect(no.asked).toEqual([`Undo batch 1: batch 1 (survey.csv, imported ${NOW.toISOString()}) would remove 5 reports (1 pending, 3 approved, 1 rejected), 100% of the 5 reports in the DB? [y/N] `]);
    expect(no.code).toBe(2);
    expect(no.err).toEqual(['physpay: not confirmed; nothing changed']);
    expect(statuses()).toHaveLength(5);
    expect(rows('SELECT status FROM import_batches')).toEqual([{ status: 'imported' }]);
  });

  it('goes ahead with the matching --expect-count, a yes at the terminal, or --yes', async () => {
    await importAndModerate();
    const r = await run(['import', 'undo', '1', '--db', db, '--expect-count', '5']);
    expect(r.code).toBe(0);
    expect(r.out).toEqual([
      `batch 1 (survey.csv, imported ${NOW.toISOString()}) undone: 5 reports removed (1 pending, 3 approved, 1 rejected); 4 moderation decisions kept: importing the same rows again restores them`,
    ]);
    expect(statuses()).toEqual([]);
    await run(['import', 'reports', '--db', db, csv]);
    expect((await run(['import', 'undo', '2', '--db', db], async () => true)).code).toBe(0);
    await run(['import', 'reports', '--db', db, csv]);
    expect((await run(['import', 'undo', '3', '--db', db, '--yes'])).code).toBe(0);
    expect(statuses()).toEqual([]);
  });
});

describe('re-importing undone rows', () => {
  it('restores their last moderation decisions under the same ids, so the moderation log points at existing reports', async () => {
    await importAndModerate();
    const before = statuses();
    await run(['import', 'undo', '1', '--db', db, '--yes']);
    const again = await run(['import', 'reports', '--db', db, csv]);
    expect(again.code).toBe(0);
    expect(again.out).toEqual([
      "5 reports imported from survey.csv (1 pending, 3 approved, 1 rejected); 4 moderation decisions restored from an undone import (3 approved, 1 rejected; --no-restore-decisions takes the file's status instead); batch 2",
    ]);
    // the pending report had no decision: it comes back pending, with a new id
    expect(statuses()).toEqual([...before.slice(0, 4), { ...before[4]!, id: 6 }]);
    expect(rows('SELECT moderation_reason FROM reports WHERE id = 4')).toEqual([{ moderation_reason: 'implausible' }]);
    const orphans = rows('SELECT l.report_id FROM moderation_log l LEFT JOIN reports r ON r.id = l.report_id WHERE r.id IS NULL');
    expect(orphans).toEqual([]);
    expect(rows('SELECT count(*) AS n FROM undone_decisions')).toEqual([{ n: 0 }]); // each decision is used once
  });

  it('takes the file status with --no-restore-decisions, and keeps the decisions for a later import', async () => {
    await importAndModerate();
    await run(['import', 'undo', '1', '--db', db, '--yes']);
    const plain = await run(['import', 'reports', '--db', db, csv, '--no-restore-decisions']);
    expect(plain.out).toEqual(['5 reports imported from survey.csv (5 pending); batch 2']);
    expect(statuses().map((r) => r.status)).toEqual(['pending', 'pending', 'pending', 'pending', 'pending']);
    expect(statuses().map((r) => r.id)).toEqual([6, 7, 8, 9, 10]);
    await run(['import', 'undo', '2', '--db', db, '--yes']);
    const restored = await run(['import', 'reports', '--db', db, csv]);
    expect(restored.out[0]).toMatch(/; 4 moderation decisions restored/);
  });

  it('does not keep a status the file gave (the file gives it again)', async () => {
    expect((await run(['init', '--db', db])).code).toBe(0);
    writeFileSync(csv, `${REPORT_COLUMNS.join(',')}\ncardiology,NY,2025,400000,,,50,10,,,,2025-12-01,approved\n`);
    await run(['import', 'reports', '--db', db, csv]);
    const undo = await run(['import', 'undo', '1', '--db', db, '--yes']);
    expect(undo.out).toEqual([`batch 1 (survey.csv, imported ${NOW.toISOString()}) undone: 1 report removed (1 approved)`]);
    expect(rows('SELECT count(*) AS n FROM undone_decisions')).toEqual([{ n: 0 }]);
  });
});

describe('physpay reclaim', () => {
  it('gives back the space an undo of many reports left in the file', async () => {
    expect((await run(['init', '--db', db])).code).toBe(0);
    writeSurvey(20_000);
    await run(['import', 'reports', '--db', db, csv]);
    const undo = await run(['import', 'undo', '1', '--db', db, '--yes']);
    expect(undo.code).toBe(0);
    const size = () => statSync(db).size + (() => { try { return statSync(`${db}-wal`).size; } catch { return 0; } })();
    const before = size();
    const r = await run(['reclaim', '--db', db]);
    expect(r.code).toBe(0);
    expect(r.out[0]).toMatch(new RegExp(`^${db.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: [\\d.,]+ MB -> [\\d.,]+ MB \\([\\d.,]+ MB given back\\)$`));
    expect(size()).toBeLessThan(before / 2);
  });
});

describe('import undo --json', () => {
  it('prints one JSON object: the dry run, then the undo', async () => {
    await importAndModerate();
    const dry = await run(['import', 'undo', '1', '--db', db, '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(dry.out).toHaveLength(1);
    expect(JSON.parse(dry.out[0]!)).toEqual({
      status: 'dry_run', db, batch_id: 1, file_name: 'survey.csv', imported_at: NOW.toISOString(),
      removed: 5, by_status: { pending: 1, approved: 3, rejected: 1 }, reports_in_db: 5, decisions_kept: null,
      reclaim: null,
      message: `dry run: undoing batch 1 (survey.csv, imported ${NOW.toISOString()}) would remove 5 reports (1 pending, 3 approved, 1 rejected), 100% of the 5 reports in the DB; nothing changed`,
    });
    const done = await run(['import', 'undo', '1', '--db', db, '--expect-count', '5', '--json']);
    expect(done.code).toBe(0);
    expect(done.out).toHaveLength(1);
    expect(JSON.parse(done.out[0]!)).toMatchObject({
      status: 'undone', batch_id: 1, removed: 5, by_status: { pending: 1, approved: 3, rejected: 1 }, reports_in_db: 5, decisions_kept: 4,
      message: `batch 1 (survey.csv, imported ${NOW.toISOString()}) undone: 5 reports removed (1 pending, 3 approved, 1 rejected); 4 moderation decisions kept: importing the same rows again restores them`,
    });
    expect(statuses()).toEqual([]);
  });

  it('a refusal prints nothing on stdout (exit 2, the reason on stderr)', async () => {
    await importAndModerate();
    const r = await run(['import', 'undo', '1', '--db', db, '--json']);
    expect(r.code).toBe(2);
    expect(r.out).toEqual([]);
    expect(r.err[0]).toMatch(/^physpay: refusing to undo batch 1 without confirmation/);
    const unknown = await run(['import', 'undo', '99', '--db', db, '--json']);
    expect(unknown.code).toBe(2);
    expect(unknown.out).toEqual([]);
  });
});
