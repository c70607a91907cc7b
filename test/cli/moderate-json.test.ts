/**
 * `moderate approve|reject|delete --json`: one JSON object on stdout for scripts (the flags of an approved
 * report in it, nothing on stderr).
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCliText } from '../helpers/cli.ts';
import { makeGoldenDb } from '../helpers/golden-build.ts';
import { useTempDir } from '../helpers/temp-dir.ts';

const tmp = useTempDir('moderate-json');

describe('moderate --json', () => {
  it('approve, reject (by id and --all-pending) and delete each print one object', async () => {
    const db = makeGoldenDb(tmp.path);
    const sql = new Database(db, { readonly: true });
    const pending = (sql.prepare("SELECT id FROM reports WHERE status = 'pending' ORDER BY id").pluck().all() as number[]);
    const approved = (sql.prepare("SELECT id FROM reports WHERE status = 'approved' ORDER BY id LIMIT 1").pluck().all() as number[]);
    sql.close();
    const approve = await runCliText(['moderate', 'approve', '--db', db, String(pending[0]), String(approved[0]), '--moderator', 'ann', '--json']);
    expect(approve.code, approve.err).toBe(0);
    expect(approve.err).toBe('');
    expect(JSON.parse(approve.out)).toMatchObject({ action: 'approve', changed: 1, moderator: 'ann', already: [approved[0]], flagged: { count: expect.any(Number), first: expect.any(Array) } });
    const reject = await runCliText(['moderate', 'reject', '--db', db, String(pending[1]), '--moderator', 'ann', '--json']);
    expect(JSON.parse(reject.out)).toEqual({ action: 'reject', changed: 1, moderator: 'ann', already: [], flagged: { count: 0, first: [] } });
    const all = await runCliText(['moderate', 'reject', '--db', db, '--all-pending', '--yes', '--moderator', 'ann', '--json']);
    expect(all.code, all.err).toBe(0);
    expect(JSON.parse(all.out)).toMatchObject({ action: 'reject', changed: pending.length - 2 });
    const none = await runCliText(['moderate', 'approve', '--db', db, '--all-pending', '--yes', '--moderator', 'ann', '--json']);
    expect(JSON.parse(none.out)).toMatchObject({ action: 'approve', changed: 0 });
    const del = await runCliText(['moderate', 'delete', '--db', db, String(pending[0]), '--reason', 'test', '--moderator', 'ann', '--json']);
    expect(del.code, del.err).toBe(0);
    expect(JSON.parse(del.out)).toMatchObject({ action: 'delete', changed: 1, moderator: 'ann' });
  });
});
