/**
 * Each DB knows its kind (issue 18 item 3): a reports DB carries SQLite application_id 'PPRD', a service DB
 * 'PPSV'. A reports command pointed at a service DB, a service command pointed at a reports DB, a file that
 * is not SQLite, or a path whose folder does not exist is refused in one sentence (exit 2) before anything is
 * written; DBs from before application_id (0) are recognised by their tables and stamped.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { APPLICATION_IDS } from '../../build/db/kind.ts';
import { SqliteServiceStore } from '../../server/store/sqlite.ts';
import { PG_URL } from '../helpers/pg.ts';
import { runCliText } from '../helpers/cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { BIN } from '../server/serve-process.ts';

const run = (...args: string[]) => runCliText(args, { now: new Date('2026-11-23T08:30:00.123Z') });

const tmp = useTempDir('db-kinds', { each: true });
let dir: string;
beforeEach(() => {
  dir = tmp.path;
});

const appId = (path: string): number => {
  const db = new Database(path, { readonly: true });
  try {
    return db.pragma('application_id', { simple: true }) as number;
  } finally {
    db.close();
  }
};
const tables = (path: string): string[] => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((r) => r.name);
  } finally {
    db.close();
  }
};
/** One sentence: one line, no stack, no raw SQLite error name. */
function expectOneSentence(err: string): void {
  expect(err.split('\n')).toHaveLength(1);
  expect(err).not.toMatch(/SqliteError|unexpected error|\n\s+at /);
}

async function reportsDb(): Promise<string> {
  const path = join(dir, 'reports.db');
  expect((await run('init', '--db', path)).code).toBe(0);
  return path;
}
async function serviceDb(): Promise<string> {
  const path = join(dir, 'service.db');
  expect((await run('keys', 'create', '--plan', 'starter', '--service-db', path)).code).toBe(0);
  return path;
}

describe('application_id marks the kind of each DB', () => {
  it('init stamps a reports DB with PPRD; the service store stamps its file with PPSV', async () => {
    expect(APPLICATION_IDS.reports).toBe(Buffer.from('PPRD').readUInt32BE(0));
    expect(APPLICATION_IDS.service).toBe(Buffer.from('PPSV').readUInt32BE(0));
    expect(appId(await reportsDb())).toBe(APPLICATION_IDS.reports);
    expect(appId(await serviceDb())).toBe(APPLICATION_IDS.service);
    const demo = join(dir, 'demo.db');
    expect((await run('demo', '--db', demo, '--reports', '300')).code).toBe(0);
    expect(appId(demo)).toBe(APPLICATION_IDS.reports);
  });

  it('DBs made before application_id (0) are recognised by their tables and stamped when next opened for writing', async () => {
    const reports = await reportsDb();
    const service = await serviceDb();
    for (const p of [reports, service]) {
      const db = new Database(p);
      db.pragma('application_id = 0');
      db.close();
    }
    expect(appId(reports)).toBe(0);
    // read-only use works unchanged
    expect((await run('stats', '--db', reports)).code).toBe(0);
    // a writing command stamps it
    expect((await run('init', '--db', reports)).code).toBe(0);
    expect(appId(reports)).toBe(APPLICATION_IDS.reports);
    const list = await run('keys', 'list', '--service-db', service);
    expect(list.code, list.err).toBe(0);
    expect(appId(service)).toBe(APPLICATION_IDS.service);
    // an old reports DB is still refused as a service store, and the reverse
    const db = new Database(reports);
    db.pragma('application_id = 0');
    db.close();
    expect((await run('keys', 'list', '--service-db', reports)).code).toBe(2);
    const db2 = new Database(service);
    db2.pragma('application_id = 0');
    db2.close();
    expect((await run('stats', '--db', service)).code).toBe(2);
  });
});

describe('refusals, before anything is written', () => {
  it('keys pointed at a reports DB: exit 2, one sentence, no service tables written into it', async () => {
    const reports = await reportsDb();
    const before = tables(reports);
    const bytes = readFileSync(reports);
    for (const args of [['list'], ['create', '--plan', 'starter'], ['revoke', '1'], ['set-status', '1', 'active'], ['set-plan', '1', 'starter'], ['rotate', '1']]) {
      const r = await run('keys', ...args, '--service-db', reports);
      expect(r.code, `keys ${args.join(' ')}: ${r.err}`).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toBe(`physpay: --service-db ${reports} is a physpay reports DB (salary reports), not a service DB; give the service DB file (API keys and counters, default service.db) or a postgres:// URL`);
      expectOneSentence(r.err);
    }
    expect(tables(reports)).toEqual(before);
    expect(tables(reports)).not.toContain('api_keys');
    expect(readFileSync(reports).equals(bytes)).toBe(true);
  });

  it('reports commands pointed at a service DB: exit 2, one sentence; a refused build leaves no dist-data folder', async () => {
    const service = await serviceDb();
    const before = tables(service);
    const out = join(dir, 'dist');
    const b = await run('build', '--db', service, '--out', out);
    expect(b.code, b.err).toBe(2);
    expect(b.err).toBe(`physpay: --db ${service} is a physpay service DB (API keys and counters), not a reports DB; give the reports DB made by physpay init or physpay demo`);
    expectOneSentence(b.err);
    expect(existsSync(out)).toBe(false);
    writeFileSync(join(dir, 'col.csv'), 'state,index,source,year\nNY,120,test,2024\n');
    for (const args of [['init'], ['stats'], ['moderate', 'list'], ['import', 'col', join(dir, 'col.csv')], ['demo', '--reports', '300', '--force']]) {
      const r = await run(...args, '--db', service);
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(2);
      expect(r.err).toMatch(/is a physpay service DB \(API keys and counters\), not a reports DB/);
      expectOneSentence(r.err);
    }
    expect(tables(service)).toEqual(before);
    expect(appId(service)).toBe(APPLICATION_IDS.service);
  });

  it('a CSV or text file is not a DB: exit 2 naming the file; the file is untouched', async () => {
    const csv = join(dir, 'file.csv');
    writeFileSync(csv, 'specialty,state\ncardiology,NY\n');
    for (const args of [['init', '--db', csv], ['build', '--db', csv, '--out', join(dir, 'dist')], ['stats', '--db', csv], ['keys', 'list', '--service-db', csv]]) {
      const r = await run(...args);
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(2);
      expect(r.err).toMatch(new RegExp(`^physpay: --(service-)?db ${csv} is not a SQLite database \\(it looks like a CSV or text file\\); give the `));
      expectOneSentence(r.err);
    }
    expect(readFileSync(csv, 'utf8')).toBe('specialty,state\ncardiology,NY\n');
    expect(existsSync(`${csv}-wal`)).toBe(false);
    expect(existsSync(join(dir, 'dist'))).toBe(false);
  });

  it('a path whose folder does not exist: exit 2 naming the folder; nothing is created', async () => {
    const missing = join(dir, 'missing', 'dir', 'x.db');
    for (const [args, flag] of [[['init', '--db', missing], '--db'], [['demo', '--db', missing, '--reports', '300'], '--db'], [['keys', 'create', '--plan', 'starter', '--service-db', missing], '--service-db']] as const) {
      const r = await run(...args);
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(2);
      expect(r.err).toBe(`physpay: ${flag} ${missing}: the folder ${join(dir, 'missing', 'dir')} does not exist; create it first or give another path`);
      expectOneSentence(r.err);
    }
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('keys other than create do not create a missing service DB', async () => {
    const path = join(dir, 'typo.db');
    const r = await run('keys', 'list', '--service-db', path);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`physpay: --service-db ${path}: no service DB there; give the service DB file (API keys and counters, default service.db) or a postgres:// URL`);
    expect(existsSync(path)).toBe(false);
  });

  it('a SQLite DB of another application is refused', async () => {
    const other = join(dir, 'other.db');
    const db = new Database(other);
    db.exec('CREATE TABLE notes (x TEXT)');
    db.close();
    const r = await run('stats', '--db', other);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/is a SQLite database without physpay's tables, not a reports DB/);
    const s = await run('keys', 'list', '--service-db', other);
    expect(s.code).toBe(2);
    expect(s.err).toMatch(/is a SQLite database without physpay's tables, not a service DB/);
    expect(tables(other)).toEqual(['notes']);
  });

  it('physpay serve with a reports DB as --service-db exits 2 with the sentence', { timeout: 30_000 }, async () => {
    const reports = await reportsDb();
    for (const extra of [[], ['--workers', '2']]) {
      const r = spawnSync(process.execPath, [BIN, 'serve', '--service-db', reports, '--data', join(dir, 'dist'), '--port', '0', '--log-level', 'silent', ...extra], { encoding: 'utf8', timeout: 20_000 });
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr.trim()).toBe(`physpay: --service-db ${reports} is a physpay reports DB (salary reports), not a service DB; give the service DB file (API keys and counters, default service.db) or a postgres:// URL`);
    }
    expect(tables(reports)).not.toContain('api_keys');
  });

  it('the SQLite service store refuses a reports DB when opened directly', async () => {
    const reports = await reportsDb();
    expect(() => new SqliteServiceStore(reports)).toThrow(/is a physpay reports DB/);
    expect(tables(reports)).not.toContain('ip_counters');
  });
});

describe('keys create names the store it wrote to', () => {
  it('a SQLite file: its path, on stderr and in --json', async () => {
    const path = join(dir, 'service.db');
    const r = await run('keys', 'create', '--plan', 'starter', '--service-db', path);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(new RegExp(`^created key pcb_live_...\\.\\.\\. \\(id 1, starter, active\\) in the service DB ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; store it now: it cannot be shown again$`));
    const j = await run('keys', 'create', '--plan', 'starter', '--service-db', path, '--json');
    expect(JSON.parse(j.out).store).toBe(path);
  });

  it('a postgres:// URL is shown without its password', async () => {
    const { describeStore } = await import('../../build/cli/commands/keys.ts');
    expect(describeStore('postgres://alice:s3cret@db.example:5432/physpay?sslmode=require&password=x')).toBe('postgres://alice@db.example:5432/physpay?sslmode=require');
    expect(describeStore(PG_URL)).toBe(PG_URL);
  });
});
