/**
 * Versioned migrations of the reports DB. Append only: never edit a migration that has shipped; add the
 * next one. Each runs in its own transaction and records itself in `schema_migrations`.
 */
import type Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { SPECIALTIES } from './reference/specialties.ts';
import { DEFAULT_COL_SOURCE, DEFAULT_COL_YEAR, STATES } from './reference/states.ts';
import { normalizeName, slugify } from '../contract/names.ts';
import { fillMissingFingerprints } from './fingerprint.ts';

interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}

const SCHEMA_V1 = `
CREATE TABLE specialties (
  id        INTEGER PRIMARY KEY,
  slug      TEXT NOT NULL UNIQUE,
  name      TEXT NOT NULL UNIQUE,
  soc_code  TEXT CHECK (soc_code GLOB '[0-9][0-9]-[0-9][0-9][0-9][0-9]'),
  soc_match TEXT NOT NULL DEFAULT 'exact' CHECK (soc_match IN ('exact', 'broad'))
) STRICT;

-- Every accepted spelling of a specialty, normalised (see build/contract/names.ts): slug, name, aliases.
CREATE TABLE specialty_aliases (
  alias        TEXT PRIMARY KEY,
  specialty_id INTEGER NOT NULL REFERENCES specialties(id) ON DELETE CASCADE
) STRICT;

CREATE TABLE states (
  code       TEXT PRIMARY KEY CHECK (length(code) = 2),
  slug       TEXT NOT NULL UNIQUE,
  name       TEXT NOT NULL UNIQUE,
  region     TEXT NOT NULL CHECK (region IN ('Northeast', 'Midwest', 'South', 'West')),
  col_index  REAL CHECK (col_index > 0),
  col_source TEXT,
  col_year   INTEGER
) STRICT;

CREATE TABLE reports (
  id                 INTEGER PRIMARY KEY,
  specialty_id       INTEGER NOT NULL REFERENCES specialties(id),
  state              TEXT NOT NULL REFERENCES states(code),
  year               INTEGER NOT NULL,
  total_compensation REAL NOT NULL CHECK (total_compensation > 0),
  base_salary        REAL CHECK (base_salary >= 0),
  bonus              REAL CHECK (bonus >= 0),
  hours_per_week     REAL CHECK (hours_per_week > 0),
  years_in_practice  INTEGER CHECK (years_in_practice >= 0),
  practice_setting   TEXT,
  employment_type    TEXT,
  wrvus              REAL CHECK (wrvus > 0),
  submitted_at       TEXT NOT NULL,
  status             TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  moderated_at       TEXT,
  import_id          INTEGER REFERENCES imports(id)
) STRICT;
CREATE INDEX reports_by_status ON reports (status, specialty_id);

-- One row per imported file: re-importing the same reports file is a no-op.
CREATE TABLE imports (
  id          INTEGER PRIMARY KEY,
  kind        TEXT NOT NULL,
  file_name   TEXT NOT NULL,
  sha256      TEXT NOT NULL,
  rows        INTEGER NOT NULL,
  imported_at TEXT NOT NULL,
  UNIQUE (kind, sha256)
) STRICT;

CREATE TABLE institutions (
  id            INTEGER PRIMARY KEY,
  slug          TEXT NOT NULL UNIQUE,
  name          TEXT NOT NULL,
  city          TEXT NOT NULL,
  state         TEXT NOT NULL REFERENCES states(code),
  academic_year TEXT NOT NULL,
  checked_at    TEXT NOT NULL,
  source_url    TEXT NOT NULL
) STRICT;

CREATE TABLE institution_pay (
  institution_id INTEGER NOT NULL REFERENCES institutions(id) ON DELETE CASCADE,
  pgy            INTEGER NOT NULL CHECK (pgy BETWEEN 1 AND 10),
  salary         REAL NOT NULL CHECK (salary > 0),
  PRIMARY KEY (institution_id, pgy)
) STRICT;

-- BLS Occupational Employment and Wage Statistics, national. annual_median is NULL when BLS marks it
-- missing ('*'); top_coded = 1 when BLS marks it '#' (the value stored is then the top-code threshold).
CREATE TABLE bls_wages (
  soc_code      TEXT PRIMARY KEY CHECK (soc_code GLOB '[0-9][0-9]-[0-9][0-9][0-9][0-9]'),
  title         TEXT NOT NULL,
  annual_median REAL,
  top_coded     INTEGER NOT NULL DEFAULT 0 CHECK (top_coded IN (0, 1)),
  year          INTEGER NOT NULL
) STRICT;

-- Facts about the dataset as a whole, e.g. synthetic = 'true' for demo data.
CREATE TABLE dataset_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;
`;

function seedReferenceData(db: Database.Database): void {
  const insSpecialty = db.prepare('INSERT INTO specialties (slug, name, soc_code, soc_match) VALUES (?, ?, ?, ?)');
  const insAlias = db.prepare('INSERT OR IGNORE INTO specialty_aliases (alias, specialty_id) VALUES (?, ?)');
  for (const s of SPECIALTIES) {
    const id = Number(insSpecialty.run(s.slug, s.name, s.soc, s.socMatch).lastInsertRowid);
    for (const a of [s.slug, s.name, ...s.aliases]) insAlias.run(normalizeName(a), id);
  }
  const insState = db.prepare(
    'INSERT INTO states (code, slug, name, region, col_index, col_source, col_year) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  for (const st of STATES) {
    insState.run(st.code, slugify(st.name), st.name, st.region, st.col, DEFAULT_COL_SOURCE, DEFAULT_COL_YEAR);
  }
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'schema and reference data',
    up(db) {
      db.exec(SCHEMA_V1);
      seedReferenceData(db);
    },
  },
  {
    version: 2,
    name: 'disclosure-control secret',
    up(db) {
      // The per-DB secret of the record keys (build/source/record-keys.ts). It never leaves this DB: no
      // build file, log line, error or CLI output holds it, and no command prints it.
      db.exec(`CREATE TABLE record_key_secret (
        id     INTEGER PRIMARY KEY CHECK (id = 1),
        secret BLOB NOT NULL CHECK (length(secret) = 32)
      ) STRICT`);
      db.prepare('INSERT INTO record_key_secret (id, secret) VALUES (1, ?)').run(randomBytes(32));
    },
  },
  {
    version: 3,
    name: 'import batches and report fingerprints',
    up(db) {
      // Every import (of any kind) is a batch, refused ones included; reports point at theirs, and a
      // batch of reports can be undone. `imports` (v1) is superseded: its rows become batches with the
      // same ids and it is no longer written (SQLite cannot drop a table that reports.import_id references).
      // last_report_id: the highest report id a batch assigned, so that ids freed by an undo are never reused.
      // fingerprint: build/db/fingerprint.ts, for finding reports that are already in the DB.
      db.exec(`
        CREATE TABLE import_batches (
          id                 INTEGER PRIMARY KEY,
          kind               TEXT NOT NULL CHECK (kind IN ('reports', 'institutions', 'bls', 'col')),
          file_name          TEXT NOT NULL,
          sha256             TEXT NOT NULL,
          imported_at        TEXT NOT NULL,
          rows_read          INTEGER NOT NULL CHECK (rows_read >= 0),
          rows_imported      INTEGER NOT NULL CHECK (rows_imported >= 0),
          duplicates_skipped INTEGER NOT NULL DEFAULT 0 CHECK (duplicates_skipped >= 0),
          rows_refused       INTEGER NOT NULL DEFAULT 0 CHECK (rows_refused >= 0),
          status             TEXT NOT NULL CHECK (status IN ('imported', 'refused', 'undone')),
          undone_at          TEXT,
          reports_removed    INTEGER,
          last_report_id     INTEGER
        ) STRICT;
        CREATE INDEX import_batches_by_file ON import_batches (kind, sha256);
        ALTER TABLE reports ADD COLUMN batch_id INTEGER REFERENCES import_batches(id);
        ALTER TABLE reports ADD COLUMN fingerprint TEXT;
        CREATE INDEX reports_by_batch ON reports (batch_id);
        CREATE INDEX reports_by_fingerprint ON reports (fingerprint);
        INSERT INTO import_batches (id, kind, file_name, sha256, imported_at, rows_read, rows_imported, status, last_report_id)
          SELECT i.id, i.kind, i.file_name, i.sha256, i.imported_at, i.rows, i.rows, 'imported',
                 (SELECT max(r.id) FROM reports r WHERE r.import_id = i.id)
          FROM imports i;
        UPDATE reports SET batch_id = import_id WHERE import_id IS NOT NULL;
      `);
      fillMissingFingerprints(db);
    },
  },
  {
    version: 4,
    name: 'moderation decisions: moderator, reason and log',
    up(db) {
      // Who decided and why (physpay moderate --moderator, --reason), next to moderated_at; and every
      // decision in order, deletions included (`report` keeps the deleted row as JSON).
      db.exec(`
        ALTER TABLE reports ADD COLUMN moderated_by TEXT;
        ALTER TABLE reports ADD COLUMN moderation_reason TEXT;
        CREATE TABLE moderation_log (
          id          INTEGER PRIMARY KEY,
          report_id   INTEGER NOT NULL,
          action      TEXT NOT NULL CHECK (action IN ('approve', 'reject', 'delete')),
          from_status TEXT NOT NULL CHECK (from_status IN ('pending', 'approved', 'rejected')),
          to_status   TEXT CHECK (to_status IN ('approved', 'rejected')),
          moderator   TEXT,
          reason      TEXT,
          at          TEXT NOT NULL,
          report      TEXT
        ) STRICT;
        CREATE INDEX moderation_log_by_report ON moderation_log (report_id);
      `);
    },
  },
  {
    version: 5,
    name: 'moderation decisions kept across an undone import',
    up(db) {
      // physpay import undo removes a batch's reports; the decisions made on them (not the reports) stay
      // here, by content fingerprint, so that importing the same rows again restores them, under the same
      // report ids (the moderation log keeps pointing at them). A decision is used once, then dropped.
      db.exec(`
        CREATE TABLE undone_decisions (
          id                INTEGER PRIMARY KEY,
          fingerprint       TEXT NOT NULL,
          report_id         INTEGER NOT NULL,
          batch_id          INTEGER NOT NULL,
          status            TEXT NOT NULL CHECK (status IN ('approved', 'rejected')),
          moderated_at      TEXT,
          moderated_by      TEXT,
          moderation_reason TEXT,
          undone_at         TEXT NOT NULL
        ) STRICT;
        CREATE INDEX undone_decisions_by_fingerprint ON undone_decisions (fingerprint);
      `);
    },
  },
  {
    version: 6,
    name: 'reports sent through /contribute',
    up(db) {
      // source: 'web' for a report a physician sent through /contribute (physpay import submissions), NULL for
      // a CSV import. submission_id: its id in the service store, unique, so that no submission is ever
      // imported twice (an import killed between the two stores finds it here). intake_signals: how it
      // arrived (JSON: the proof of work or the form, seconds to fill, the client's count that day, the same
      // report from other clients), shown by physpay moderate list.
      db.exec(`
        ALTER TABLE reports ADD COLUMN source TEXT CHECK (source IS NULL OR source = 'web');
        ALTER TABLE reports ADD COLUMN submission_id TEXT;
        ALTER TABLE reports ADD COLUMN intake_signals TEXT;
        CREATE UNIQUE INDEX reports_by_submission ON reports (submission_id) WHERE submission_id IS NOT NULL;
      `);
    },
  },
  {
    version: 7,
    name: 'disclosure method 3: a new secret',
    up(db) {
      // A new disclosure method (record-level noise factors and secret-keyed draws: build/compute/disclosure.ts)
      // gets a new secret, so that no draw or factor of the new method can be related to the old method's.
      // The secret records the method version it was made for; a build refuses a secret of another version.
      db.exec('ALTER TABLE record_key_secret ADD COLUMN method_version INTEGER NOT NULL DEFAULT 2');
      db.prepare('UPDATE record_key_secret SET secret = ?, method_version = 3 WHERE id = 1').run(randomBytes(32));
    },
  },
  {
    version: 8,
    name: 'the whole offer: call pay, one-time payments, time off, pay model and contract terms',
    up(db) {
      // build/contract/offer-terms.ts: every column optional (NULL = unknown; 0 = none). Old reports keep NULLs.
      db.exec(`
        ALTER TABLE reports ADD COLUMN call_pay REAL CHECK (call_pay >= 0);
        ALTER TABLE reports ADD COLUMN call_nights_per_month REAL CHECK (call_nights_per_month BETWEEN 0 AND 31);
        ALTER TABLE reports ADD COLUMN signing_bonus REAL CHECK (signing_bonus >= 0);
        ALTER TABLE reports ADD COLUMN retention_bonus REAL CHECK (retention_bonus >= 0);
        ALTER TABLE reports ADD COLUMN relocation REAL CHECK (relocation >= 0);
        ALTER TABLE reports ADD COLUMN loan_repayment REAL CHECK (loan_repayment >= 0);
        ALTER TABLE reports ADD COLUMN loan_repayment_years INTEGER CHECK (loan_repayment_years BETWEEN 1 AND 10);
        ALTER TABLE reports ADD COLUMN cme_allowance REAL CHECK (cme_allowance >= 0);
        ALTER TABLE reports ADD COLUMN pto_weeks REAL CHECK (pto_weeks BETWEEN 0 AND 26);
        ALTER TABLE reports ADD COLUMN compensation_model TEXT
          CHECK (compensation_model IN ('salary', 'salary_plus_productivity', 'production', 'collections', 'shift'));
        ALTER TABLE reports ADD COLUMN wrvu_conversion_rate REAL CHECK (wrvu_conversion_rate > 0);
        ALTER TABLE reports ADD COLUMN non_compete_miles REAL CHECK (non_compete_miles >= 0);
        ALTER TABLE reports ADD COLUMN non_compete_years REAL CHECK (non_compete_years >= 0);
        ALTER TABLE reports ADD COLUMN partnership_track_years REAL CHECK (partnership_track_years >= 0);
      `);
    },
  },
];

/** A DB written by a newer physpay: its schema is not one this code knows, so it is neither read nor migrated. */
export class SchemaTooNewError extends Error {
  constructor(
    readonly current: number,
    readonly latest: number,
  ) {
    super(`reports DB schema version ${current} is newer than this physpay (${latest}); upgrade physpay`);
  }
}

const LATEST = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/** Throws SchemaTooNewError when the DB's schema is newer than this code's migrations. */
export function assertKnownSchema(db: Database.Database): void {
  const current = schemaVersion(db);
  if (current > LATEST) throw new SchemaTooNewError(current, LATEST);
}

/** Apply every migration newer than the DB's version. Returns the versions applied. */
export function migrate(db: Database.Database, now: () => Date = () => new Date()): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT`);
  assertKnownSchema(db);
  const current = schemaVersion(db);
  const applied: number[] = [];
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    db.transaction(() => {
      m.up(db);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        now().toISOString(), // when the schema changed; no figure is ever derived from it
      );
    }).immediate();
    applied.push(m.version);
  }
  return applied;
}

export function schemaVersion(db: Database.Database): number {
  return (db.prepare('SELECT coalesce(max(version), 0) AS v FROM schema_migrations').get() as { v: number }).v;
}
