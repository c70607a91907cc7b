/**
 * `physpay backup` (issue 18 item 10, backup part): consistent online copies of the reports DB and the
 * SQLite service DB (better-sqlite3's db.backup() inside one read transaction), made while a server runs and
 * another process writes; each copy verified (integrity_check, kind, schema version, row counts) before it is
 * kept. Restoring is copying a file into place: the restored reports DB builds the same files as the
 * original, and a key from the restored service DB authenticates.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLICATION_IDS } from '../../build/db/kind.ts';
import { readManifest } from '../../build/emit/store.ts';
import { goldenBuild, goldenBuildIn } from '../helpers/golden-build.ts';
import { runCliText } from '../helpers/cli.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import type { BuildResult } from '../../build/run-build.ts';
import { spawnServe, type ServeProcess } from '../server/serve-process.ts';
import { call } from '../keyed/harness.ts';
import { request } from '../helpers/http.ts';

const run = (...args: string[]) => runCliText(args, { now: () => new Date() });

const count = (path: string, sql: string): number => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

/** A separate process inserting pending reports into the reports DB as fast as it can (until killed). */
function startWriter(db: string): ChildProcess {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.pragma('busy_timeout = 10000');
    const sid = db.prepare('SELECT id FROM specialties ORDER BY id LIMIT 1').get().id;
    const ins = db.prepare("INSERT INTO reports (specialty_id, state, year, total_compensation, submitted_at, status) VALUES (?, 'NY', 2025, 300000, '2026-11-01', 'pending')");
    process.send('ready');
    for (;;) ins.run(sid);
  `;
  return spawn(process.execPath, ['-e', script, db], { cwd: process.cwd(), stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
}

const tmp = useTempDir('backup');
let work: string;
let reportsDb: string;
let serviceDb: string;
let dist: string;
let serve: ServeProcess | undefined;
let key: string;
let original: Pick<BuildResult, 'id' | 'dir'>;

beforeAll(async () => {
  work = tmp.path;
  const golden = goldenBuildIn(work);
  ({ db: reportsDb, dist } = golden);
  original = { id: golden.buildId, dir: golden.buildDir };
  serviceDb = join(work, 'service.db');
  const made = await run('keys', 'create', '--plan', 'enterprise', '--label', 'backup test', '--service-db', serviceDb, '--json');
  expect(made.code, made.err).toBe(0);
  key = (JSON.parse(made.out) as { key: string }).key;
  serve = await spawnServe(['--data', dist, '--service-db', serviceDb, '--port', '0', '--poll-ms', '60000', '--log-level', 'warn']);
}, 90_000);

afterAll(async () => {
  await serve?.stop();
});

describe('physpay backup', () => {
  it('copies both DBs while the server serves and another process writes; each copy is verified', { timeout: 120_000 }, async () => {
    const writer = startWriter(reportsDb);
    await new Promise((res) => writer.once('message', res));
    let traffic = true;
    let served = 0;
    const load = (async () => {
      while (traffic) {
        const r = await call(serve!.url, '/specialties', key);
        expect(r.status).toBe(200);
        await call(serve!.url, '/data/api/v1/specialties.json');
        served++;
      }
    })();
    const out = join(work, 'backup-1');
    let r;
    try {
      await new Promise((res) => setTimeout(res, 300));
      r = await run('backup', '--db', reportsDb, '--service-db', serviceDb, '--backup-dir', out, '--out', dist);
    } finally {
      traffic = false;
      await load;
      writer.kill('SIGKILL');
    }
    expect(r.code, r.err).toBe(0);
    expect(served).toBeGreaterThan(0);
    const lines = r.out.split('\n');
    expect(lines).toHaveLength(3);
    const reportsCopy = join(out, 'reports.db');
    const serviceCopy = join(out, 'service.db');
    const n = count(reportsCopy, 'SELECT count(*) AS n FROM reports');
    expect(lines[0]).toMatch(new RegExp(
      `^backed up the reports DB ${reportsDb} to ${reportsCopy}: [\\d.]+ (kB|MB), schema v\\d+, integrity ok, ${n.toLocaleString('en-US')} reports, \\d+ institutions, [\\d,]+ rows in \\d+ tables$`,
    ));
    expect(lines[1]).toMatch(new RegExp(
      `^backed up the service DB ${serviceDb} to ${serviceCopy}: [\\d.]+ (kB|MB), schema v\\d+, integrity ok, 1 API keys, [\\d,]+ rows in \\d+ tables$`,
    ));
    expect(lines[2]).toMatch(new RegExp(
      `^backed up the builds of ${dist} to ${join(out, 'dist-data')}: 1 build \\(current ${original.id}, release history 2026-11-16 \\(1 release\\)\\), [\\d,]+ files, [\\d.]+ MB, each verified against its manifest$`,
    ));
    // the writer went on writing during and after the copy: the copy is one consistent moment of it
    expect(count(reportsDb, 'SELECT count(*) AS n FROM reports')).toBeGreaterThan(n);
    for (const copy of [reportsCopy, serviceCopy]) {
      expect(statSync(copy).mode & 0o777).toBe(0o600);
      const db = new Database(copy, { readonly: true });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('journal_mode', { simple: true })).toBe('delete'); // one self-contained file
      db.close();
    }
    expect(readdirSync(out).sort()).toEqual(['dist-data', 'reports.db', 'service.db']);
    const appId = (p: string) => {
      const db = new Database(p, { readonly: true });
      const v = db.pragma('application_id', { simple: true });
      db.close();
      return v;
    };
    expect(appId(reportsCopy)).toBe(APPLICATION_IDS.reports);
    expect(appId(serviceCopy)).toBe(APPLICATION_IDS.service);
    expect(count(serviceCopy, 'SELECT count(*) AS n FROM api_keys')).toBe(1);
    expect(count(serviceCopy, 'SELECT coalesce(sum(day_count), 0) AS n FROM quota_usage')).toBeGreaterThan(0);

    // restore, as the README says: copy the backup files into place (cp -a keeps the pointer and the links)
    const restored = join(work, 'restored');
    mkdirSync(restored);
    copyFileSync(reportsCopy, join(restored, 'reports.db'));
    copyFileSync(serviceCopy, join(restored, 'service.db'));
    expect(spawnSync('cp', ['-a', join(out, 'dist-data'), join(restored, 'dist-data')]).status).toBe(0);
    // a build from the restored reports DB equals the one made from the original before the backup (the
    // writer added pending reports only, which are not published)
    const fromOriginal = original;
    const fromRestored = goldenBuild(join(restored, 'reports.db'), join(work, 'dist-restored'), { precompress: true }); // as the original
    expect(fromRestored.id).toBe(fromOriginal.id);
    expect(readManifest(fromRestored.dir)).toEqual(readManifest(fromOriginal.dir));
    // the restored builds keep the release history: the next release is added to it, the cited one kept
    const releases = (dir: string) => (JSON.parse(readFileSync(join(dir, 'public', 'data', 'api', 'v1', 'releases.json'), 'utf8')) as { releases: { release: string; archive_sha256: string }[] }).releases;
    const before = releases(original.dir);
    const db = new Database(join(restored, 'reports.db'));
    db.prepare("UPDATE reports SET status = 'approved' WHERE id IN (SELECT id FROM reports WHERE status = 'pending' ORDER BY id LIMIT 40)").run();
    db.close();
    const next = goldenBuild(join(restored, 'reports.db'), join(restored, 'dist-data'), { buildDate: '2026-11-17', now: () => new Date('2026-11-17T03:00:00.000Z') });
    expect(next.status).toBe('published');
    expect(releases(next.dir).map((x) => x.release)).toEqual(['2026-11-17', '2026-11-16']);
    expect(releases(next.dir)[1]).toEqual(before[0]); // the release cited before the backup, unchanged
    // a key from the restored service DB authenticates, with its usage; the restored data is served
    await serve!.stop();
    serve = await spawnServe(['--data', join(restored, 'dist-data'), '--service-db', join(restored, 'service.db'), '--port', '0', '--poll-ms', '60000', '--log-level', 'warn']);
    const usage = await call(serve.url, '/me/usage', key);
    expect(usage.status).toBe(200);
    expect(usage.json<{ usage: { requests_today: number } }>().usage.requests_today).toBeGreaterThan(0);
    expect((await call(serve.url, '/specialties', key)).status).toBe(200);
    // the release published before the backup is still served whole
    const archive = await request(serve.url, "/data/api/v1/releases/2026-11-16/datapackage.json");
    expect(archive.status, archive.text).toBe(200);

    // a second backup holds both builds; the files the second build reused are hard links in the copy too
    const again = await run('backup', '--db', join(restored, 'reports.db'), '--service-db', join(restored, 'service.db'), '--backup-dir', join(work, 'backup-2'), '--out', join(restored, 'dist-data'), '--json');
    expect(again.code, again.err).toBe(0);
    const b = (JSON.parse(again.out) as { builds: { builds: string[]; current: string; releases: string[]; files: number; bytes: number } }).builds;
    expect(b.builds).toEqual([next.id, original.id]);
    expect(b.current).toBe(next.id);
    expect(b.releases).toEqual(['2026-11-17', '2026-11-16']);
    const feed = join('public', 'data', 'api', 'v1', 'states.json');
    const inode = (dir: string) => statSync(join(work, 'backup-2', 'dist-data', 'builds', dir, feed)).ino;
    if (statSync(join(next.dir, feed)).ino === statSync(join(original.dir, feed)).ino) expect(inode(next.id)).toBe(inode(original.id));
    const single = (JSON.parse((await run('backup', '--db', reportsDb, '--service-db', serviceDb, '--backup-dir', join(work, 'backup-3'), '--out', dist, '--json')).out) as { builds: { bytes: number } }).builds.bytes;
    expect(b.bytes).toBeLessThan(1.5 * single); // two builds, most files shared
  });

  it('--json prints one object describing both copies', { timeout: 60_000 }, async () => {
    const out = join(work, 'backup-json');
    const r = await run('backup', '--db', reportsDb, '--service-db', serviceDb, '--backup-dir', out, '--out', dist, '--json');
    expect(r.code, r.err).toBe(0);
    expect(r.out.split('\n')).toHaveLength(1);
    const j = JSON.parse(r.out) as { backup_dir: string; reports: Record<string, unknown>; service: Record<string, unknown>; builds: Record<string, unknown> };
    expect(j.builds).toMatchObject({ source: dist, dir: join(out, 'dist-data'), current: original.id, builds: [original.id], pinned: [], releases: ['2026-11-16'], vanished: [] });
    expect(j.builds.files).toEqual(expect.any(Number));
    expect(j.backup_dir).toBe(out);
    expect(Object.keys(j.reports).sort()).toEqual(['bytes', 'file', 'integrity', 'kind', 'schema_version', 'source', 'tables']);
    expect(j.reports).toMatchObject({ source: reportsDb, file: join(out, 'reports.db'), kind: 'reports', integrity: 'ok' });
    expect(j.service).toMatchObject({ source: serviceDb, file: join(out, 'service.db'), kind: 'service', integrity: 'ok' });
    expect((j.reports.tables as Record<string, number>).reports).toBe(count(join(out, 'reports.db'), 'SELECT count(*) AS n FROM reports'));
    expect((j.service.tables as Record<string, number>).api_keys).toBe(1);
    expect(j.reports.schema_version).toBe(count(reportsDb, 'SELECT max(version) AS n FROM schema_migrations'));
    expect(j.service.schema_version).toBe(count(serviceDb, 'SELECT max(version) AS n FROM service_migrations'));
  });

  it('a postgres:// service store is skipped with a sentence naming pg_dump (exit 0); the reports DB is still copied', async () => {
    const out = join(work, 'backup-pg');
    const r = await run('backup', '--db', reportsDb, '--service-db', 'postgres://alice:s3cret@db.example:5432/physpay', '--backup-dir', out, '--out', join(work, 'no-builds'));
    expect(r.code, r.err).toBe(0);
    const lines = r.out.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('skipped the builds: no published build there (--out, PHYSPAY_OUT): only the DBs were copied');
    expect(lines[0]).toMatch(/^backed up the reports DB /);
    expect(lines[1]).toBe('skipped the service store postgres://alice@db.example:5432/physpay: physpay backup copies SQLite files only; back up PostgreSQL with pg_dump (e.g. pg_dump --format=custom --file=service.dump <URL>)');
    expect(r.out + r.err).not.toContain('s3cret');
    expect(readdirSync(out)).toEqual(['reports.db']);
  });

  it('refusals: exit 2, one sentence, nothing written', async () => {
    // the copies of a folder that already holds them are never overwritten
    const out = join(work, 'backup-exists');
    mkdirSync(out);
    writeFileSync(join(out, 'service.db'), 'keep me');
    const exists = await run('backup', '--db', reportsDb, '--service-db', serviceDb, '--backup-dir', out);
    expect(exists.code).toBe(2);
    expect(exists.err).toBe(`physpay: --backup-dir ${out} already holds service.db; give an empty or new folder (a backup never overwrites one)`);
    expect(readdirSync(out)).toEqual(['service.db']);
    // nor a copy of the builds
    const withBuilds = join(work, 'backup-builds-exist');
    mkdirSync(join(withBuilds, 'dist-data'), { recursive: true });
    const buildsExist = await run('backup', '--db', reportsDb, '--service-db', serviceDb, '--backup-dir', withBuilds, '--out', dist);
    expect(buildsExist.code).toBe(2);
    expect(buildsExist.err).toBe(`physpay: --backup-dir ${withBuilds} already holds dist-data; give an empty or new folder (a backup never overwrites one)`);
    expect(readdirSync(withBuilds)).toEqual(['dist-data']);
    // wrong kinds
    const swapped = await run('backup', '--db', serviceDb, '--service-db', reportsDb, '--backup-dir', join(work, 'backup-swapped'));
    expect(swapped.code).toBe(2);
    expect(swapped.err).toMatch(/^physpay: --db .* is a physpay service DB \(API keys and counters\), not a reports DB; /);
    expect(existsSync(join(work, 'backup-swapped'))).toBe(false);
    // a missing source
    const missing = await run('backup', '--db', join(work, 'nope.db'), '--service-db', serviceDb, '--backup-dir', join(work, 'backup-missing'));
    expect(missing.code).toBe(2);
    expect(missing.err).toBe(`physpay: --db ${join(work, 'nope.db')}: no reports DB there; give the reports DB made by physpay init or physpay demo`);
    expect(existsSync(join(work, 'backup-missing'))).toBe(false);
    // --backup-dir is required
    const noOut = await run('backup', '--db', reportsDb);
    expect(noOut.code).toBe(2);
    expect(noOut.err).toMatch(/--backup-dir/);
  });
});
