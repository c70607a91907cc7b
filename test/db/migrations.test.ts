import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTempDir } from '../helpers/temp-dir.ts';
import { DbError, openReportsDb, type Db } from '../../build/db/open.ts';
import { MIGRATIONS, migrate, schemaVersion } from '../../build/db/migrations.ts';
import { SPECIALTIES } from '../../build/db/reference/specialties.ts';
import { normalizeName } from '../../build/contract/names.ts';
import { NO_OFFER_TERMS, OFFER_COLUMNS } from '../../build/contract/offer-terms.ts';
import { reportFingerprint } from '../../build/db/fingerprint.ts';

const EXPECTED_TABLES = [
  'bls_wages',
  'dataset_meta',
  'imports',
  'institution_pay',
  'institutions',
  'reports',
  'schema_migrations',
  'specialties',
  'specialty_aliases',
  'states',
];

function tableNames(db: Db): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map(
    (r) => r.name,
  );
}

function specialtyOf(db: Db, spelling: string): string | undefined {
  const row = db
    .prepare('SELECT s.slug FROM specialty_aliases a JOIN specialties s ON s.id = a.specialty_id WHERE a.alias = ?')
    .get(normalizeName(spelling)) as { slug: string } | undefined;
  return row?.slug;
}

describe('migrations on an empty in-memory DB', () => {
  let db: Db;
  beforeEach(() => {
    db = openReportsDb(':memory:');
  });
  afterEach(() => db.close());

  it('creates every table', () => {
    expect(tableNames(db)).toEqual(expect.arrayContaining(EXPECTED_TABLES));
  });

  it('records every schema version in schema_migrations (1: schema, 2: disclosure secret)', () => {
    const rows = db.prepare('SELECT version, name, applied_at FROM schema_migrations ORDER BY version').all() as {
      version: number;
      name: string;
      applied_at: string;
    }[];
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(rows[0]!.version).toBe(1);
    expect(rows[0]!.name.length).toBeGreaterThan(0);
    expect(Number.isNaN(Date.parse(rows[0]!.applied_at))).toBe(false);
    expect(schemaVersion(db)).toBe(MIGRATIONS.at(-1)!.version);
  });

  it('loads the specialty catalog: about 44 specialties, each with slug, name and a NN-NNNN SOC code', () => {
    const rows = db.prepare('SELECT slug, name, soc_code, soc_match FROM specialties ORDER BY slug').all() as {
      slug: string;
      name: string;
      soc_code: string | null;
      soc_match: string;
    }[];
    expect(rows.length).toBe(SPECIALTIES.length);
    expect(rows.length).toBeGreaterThanOrEqual(40);
    expect(rows.length).toBeLessThanOrEqual(50);
    for (const r of rows) {
      expect(r.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(r.name.trim().length).toBeGreaterThan(0);
      expect(r.soc_code).toMatch(/^\d{2}-\d{4}$/);
      expect(['exact', 'broad']).toContain(r.soc_match);
    }
    expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length);
  });

  it('resolves every slug and display name to its own specialty', () => {
    for (const s of SPECIALTIES) {
      expect(specialtyOf(db, s.slug)).toBe(s.slug);
      expect(specialtyOf(db, s.name)).toBe(s.slug);
    }
  });

  it.each([
    ['ob-gyn', 'obstetrics-gynecology'],
    ['obgyn', 'obstetrics-gynecology'],
    ['OB/GYN', 'obstetrics-gynecology'],
    ['ent', 'otolaryngology'],
    ['ENT', 'otolaryngology'],
    ['cardiologist', 'cardiology'],
    ['PM&R', 'physical-medicine-rehabilitation'],
    ['Orthopaedic Surgery', 'orthopedic-surgery'],
  ])('alias %j resolves through normalizeName to %s', (spelling, slug) => {
    expect(specialtyOf(db, spelling)).toBe(slug);
  });

  it('does not resolve an unknown spelling', () => {
    expect(specialtyOf(db, 'astrology')).toBeUndefined();
  });

  it('loads 50 states and DC, each in one of the 4 Census regions with a cost-of-living index, source and year', () => {
    const rows = db.prepare('SELECT code, slug, name, region, col_index, col_source, col_year FROM states').all() as {
      code: string;
      slug: string;
      name: string;
      region: string;
      col_index: number | null;
      col_source: string | null;
      col_year: number | null;
    }[];
    expect(rows).toHaveLength(51);
    const codes = new Set(rows.map((r) => r.code));
    expect(codes.size).toBe(51);
    expect(codes.has('DC')).toBe(true);
    for (const r of rows) {
      expect(r.code).toMatch(/^[A-Z]{2}$/);
      expect(r.slug).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(['Northeast', 'Midwest', 'South', 'West']).toContain(r.region);
      expect(r.col_index).toBeGreaterThan(50);
      expect(r.col_index).toBeLessThan(200);
      expect(r.col_source?.trim().length).toBeGreaterThan(0);
      expect(Number.isInteger(r.col_year)).toBe(true);
      expect(r.col_year).toBeGreaterThanOrEqual(2015);
    }
    const dc = rows.find((r) => r.code === 'DC')!;
    expect(dc.name).toBe('District of Columbia');
    expect(dc.slug).toBe('district-of-columbia');
    // The Census Bureau's regions: 9 + 12 + 16 (and DC) + 13.
    const perRegion: Record<string, number> = {};
    for (const r of rows) perRegion[r.region] = (perRegion[r.region] ?? 0) + 1;
    expect(perRegion).toEqual({ Northeast: 9, Midwest: 12, South: 17, West: 13 });
  });

  it('starts with no reports, institutions, wages or dataset facts', () => {
    for (const t of ['reports', 'imports', 'institutions', 'institution_pay', 'bls_wages', 'dataset_meta']) {
      expect((db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n, t).toBe(0);
    }
  });

  it('migrating again is a no-op', () => {
    const before = {
      specialties: (db.prepare('SELECT count(*) AS n FROM specialties').get() as { n: number }).n,
      aliases: (db.prepare('SELECT count(*) AS n FROM specialty_aliases').get() as { n: number }).n,
      states: (db.prepare('SELECT count(*) AS n FROM states').get() as { n: number }).n,
      migrations: db.prepare('SELECT * FROM schema_migrations').all(),
    };
    expect(migrate(db)).toEqual([]);
    expect(migrate(db)).toEqual([]);
    expect((db.prepare('SELECT count(*) AS n FROM specialties').get() as { n: number }).n).toBe(before.specialties);
    expect((db.prepare('SELECT count(*) AS n FROM specialty_aliases').get() as { n: number }).n).toBe(before.aliases);
    expect((db.prepare('SELECT count(*) AS n FROM states').get() as { n: number }).n).toBe(before.states);
    expect(db.prepare('SELECT * FROM schema_migrations').all()).toEqual(before.migrations);
  });

  it('refuses a DB whose schema is newer than the code', () => {
    db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, 'future', '2030-01-01T00:00:00.000Z')").run();
    expect(() => migrate(db)).toThrow(/newer/);
  });
});

describe('migrate() on a bare connection', () => {
  it('applies each version once and stamps it with the given clock', () => {
    const db = new Database(':memory:');
    try {
      const at = new Date('2026-02-03T04:05:06.000Z');
      const all = MIGRATIONS.map((m) => m.version);
      expect(migrate(db, () => at)).toEqual(all);
      expect(db.prepare('SELECT version, applied_at FROM schema_migrations').all()).toEqual(all.map((version) => ({ version, applied_at: at.toISOString() })));
      expect(migrate(db, () => new Date('2027-01-01T00:00:00Z'))).toEqual([]);
      expect(db.prepare('SELECT version, applied_at FROM schema_migrations').all()).toEqual(all.map((version) => ({ version, applied_at: at.toISOString() })));
    } finally {
      db.close();
    }
  });
});

describe('migrations on a DB file', () => {
  const tmp = useTempDir('migrations', { each: true });
  let dir: string;
  beforeEach(() => {
    dir = tmp.path;
  });

  it('refuses to open a missing file unless asked to create it', () => {
    const path = join(dir, 'missing.db');
    expect(() => openReportsDb(path)).toThrow(DbError);
    expect(() => openReportsDb(path)).toThrow(/physpay init/);
  });

  it('creates the file with reference data, and reopening it changes nothing', () => {
    const path = join(dir, 'reports.db');
    const first = openReportsDb(path, { create: true });
    const tables = tableNames(first);
    const specialties = first.prepare('SELECT * FROM specialties ORDER BY id').all();
    const states = first.prepare('SELECT * FROM states ORDER BY code').all();
    const migrations = first.prepare('SELECT * FROM schema_migrations').all();
    first.close();

    const second = openReportsDb(path);
    try {
      expect(tableNames(second)).toEqual(tables);
      expect(tables).toEqual(expect.arrayContaining(EXPECTED_TABLES));
      expect(second.prepare('SELECT * FROM specialties ORDER BY id').all()).toEqual(specialties);
      expect(second.prepare('SELECT * FROM states ORDER BY code').all()).toEqual(states);
      expect(second.prepare('SELECT * FROM schema_migrations').all()).toEqual(migrations);
      expect(migrations).toHaveLength(MIGRATIONS.length);
      expect(migrate(second)).toEqual([]);
    } finally {
      second.close();
    }
  });
});

describe('the disclosure-control secret (migration 2)', () => {
  it('is 32 random bytes, one row, different for every DB, and kept when the DB is reopened', () => {
    const a = new Database(':memory:');
    const b = new Database(':memory:');
    try {
      migrate(a);
      migrate(b);
      const sa = (a.prepare('SELECT secret FROM record_key_secret').all() as { secret: Buffer }[]);
      const sb = (b.prepare('SELECT secret FROM record_key_secret').all() as { secret: Buffer }[]);
      expect(sa).toHaveLength(1);
      expect(sa[0]!.secret.length).toBe(32);
      expect(sa[0]!.secret.equals(sb[0]!.secret)).toBe(false);
      expect(migrate(a)).toEqual([]);
      expect((a.prepare('SELECT secret FROM record_key_secret').get() as { secret: Buffer }).secret.equals(sa[0]!.secret)).toBe(true);
      expect(() => a.prepare('INSERT INTO record_key_secret (id, secret) VALUES (2, ?)').run(Buffer.alloc(32))).toThrow();
    } finally {
      a.close();
      b.close();
    }
  });

  it('an existing v1 DB gets its secret when migrated', () => {
    const db = new Database(':memory:');
    try {
      db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT');
      MIGRATIONS[0]!.up(db);
      db.prepare("INSERT INTO schema_migrations VALUES (1, 'schema and reference data', '2026-01-01T00:00:00Z')").run();
      expect(schemaVersion(db)).toBe(1);
      expect(migrate(db)).toEqual(MIGRATIONS.map((m) => m.version).filter((v) => v >= 2));
      expect((db.prepare('SELECT length(secret) AS n FROM record_key_secret').get() as { n: number }).n).toBe(32);
    } finally {
      db.close();
    }
  });
});

describe('the whole offer (migration 8)', () => {
  /** a DB migrated up to `version`, with one report (fingerprint filled by migration 3 when it runs after the insert) */
  function dbAt(version: number): Database.Database {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT');
    for (const m of MIGRATIONS.filter((m) => m.version <= version)) {
      m.up(db);
      db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(m.version, m.name, '2026-01-01T00:00:00Z');
      if (m.version === 1) {
        db.prepare(`INSERT INTO reports (specialty_id, state, year, total_compensation, base_salary, bonus, submitted_at, status)
          VALUES ((SELECT id FROM specialties WHERE slug = 'cardiology'), 'NY', 2025, 520000, 450000, 70000, '2025-12-01T00:00:00.000Z', 'approved')`).run();
      }
    }
    return db;
  }

  it('an old report keeps null offer values and the fingerprint it had (a v1 DB with a report migrates to the end)', () => {
    const old = dbAt(7);
    const before = old.prepare('SELECT fingerprint FROM reports').pluck().get() as string;
    expect(before).toMatch(/^[0-9a-f]{32}$/);
    expect(migrate(old)).toEqual([8]);
    const row = old.prepare(`SELECT fingerprint, ${OFFER_COLUMNS.join(', ')} FROM reports`).get() as Record<string, unknown>;
    expect(row.fingerprint).toBe(before);
    for (const c of OFFER_COLUMNS) expect(row[c], c).toBeNull();
    old.close();

    const v1 = dbAt(1);
    expect(migrate(v1)).toEqual(MIGRATIONS.map((m) => m.version).filter((v) => v >= 2));
    expect(v1.prepare('SELECT fingerprint FROM reports').pluck().get()).toBe(before);
    v1.close();
  });

  it('refuses values out of range or outside the pay models', () => {
    const db = dbAt(8);
    const insert = (col: string, v: unknown) => () =>
      db.prepare(`INSERT INTO reports (specialty_id, state, year, total_compensation, submitted_at, ${col}) VALUES (1, 'NY', 2025, 300000, '2025-12-01', ?)`).run(v);
    expect(insert('compensation_model', 'hourly')).toThrow(/CHECK/);
    expect(insert('call_pay', -1)).toThrow(/CHECK/);
    expect(insert('pto_weeks', 27)).toThrow(/CHECK/);
    expect(insert('compensation_model', 'salary_plus_productivity')).not.toThrow();
    db.close();
  });

  it('a report with offer values gets another fingerprint than the same report without them', () => {
    const r = { specialty_id: 3, state: 'NY', year: 2025, total_compensation: 520000, base_salary: null, bonus: null, hours_per_week: null,
      years_in_practice: null, practice_setting: null, employment_type: null, wrvus: null, submitted_at: '2025-12-01T00:00:00.000Z' };
    expect(reportFingerprint({ ...r, ...NO_OFFER_TERMS })).toBe(reportFingerprint(r));
    expect(reportFingerprint({ ...r, signing_bonus: 20000 })).not.toBe(reportFingerprint(r));
    expect(reportFingerprint({ ...r, signing_bonus: 0 })).not.toBe(reportFingerprint({ ...r, signing_bonus: 20000 }));
  });
});
