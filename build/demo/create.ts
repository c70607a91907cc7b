/**
 * `physpay demo`: write a synthetic reports DB. The DB is built under a temporary name and renamed into
 * place at the end, so an interrupted run never leaves a half-written DB at the target path.
 */
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { migrate } from '../db/migrations.ts';
import { checkDbPath, expectKind, stampKind } from '../db/kind.ts';
import { DEFAULT_TOP_CODE } from '../import/bls.ts';
import { realReportsIn, realReportsRefusal } from './real-reports.ts';
import { DemoError, demoBlsRows, generateInstitutions, generateReports, type DemoOptions } from './generate.ts';
import { OFFER_COLUMNS } from '../contract/offer-terms.ts';

export interface DemoSummary {
  path: string;
  reports: number;
  byStatus: Record<string, number>;
  institutions: number;
  seconds: number;
}

export { DemoError };

function removeDbFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
}

export function demoSecret(seed: number): Buffer {
  return createHash('sha256').update(`physpay synthetic demo data, record keys of seed ${seed}`).digest();
}

export function createDemoDb(path: string, opts: DemoOptions & { force?: boolean; now?: () => Date }): DemoSummary {
  const started = performance.now();
  // A missing folder or a file that is not a reports DB (a service DB, a CSV) is refused even with --force:
  // --force replaces a reports DB of demo data, nothing else. A reports DB holding real reports
  // (real-reports.ts) is refused whatever the flags.
  if (checkDbPath(path, 'reports') === 'sqlite') {
    const existing = new Database(path, { readonly: true, fileMustExist: true });
    let refusal: string | null;
    try {
      expectKind(existing, path, 'reports', true);
      refusal = realReportsRefusal(path, realReportsIn(existing));
    } finally {
      existing.close();
    }
    if (refusal) throw new DemoError(refusal);
  }
  if (existsSync(path) && !opts.force) {
    throw new DemoError(`${path} already exists; pass --force to replace it with a new demo DB`);
  }
  const tmp = `${path}.tmp-${process.pid}`;
  removeDbFiles(tmp);
  const db = new Database(tmp);
  try {
    db.pragma('journal_mode = MEMORY');
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = ON');
    migrate(db, opts.now);
    stampKind(db, 'reports');
    // Synthetic data has nothing to protect, and its builds should be the same on every machine: the demo's
    // disclosure-control secret is derived from the seed (a real DB gets a random one at `physpay init`).
    db.prepare('UPDATE record_key_secret SET secret = ? WHERE id = 1').run(demoSecret(opts.seed));
    const specialtyId = new Map(
      (db.prepare('SELECT id, slug FROM specialties').all() as { id: number; slug: string }[]).map((r) => [r.slug, r.id]),
    );
    const byStatus: Record<string, number> = { approved: 0, pending: 0, rejected: 0 };
    const insReport = db.prepare(`INSERT INTO reports (specialty_id, state, year, total_compensation, base_salary, bonus,
      hours_per_week, years_in_practice, practice_setting, employment_type, wrvus, submitted_at, status, moderated_at,
      ${OFFER_COLUMNS.join(', ')})
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${OFFER_COLUMNS.map(() => '?').join(', ')})`);
    const institutions = generateInstitutions(opts.seed, opts.asOf);
    db.transaction(() => {
      generateReports(opts, (r) => {
        byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
        insReport.run(specialtyId.get(r.specialtySlug), r.state, r.year, r.total_compensation, r.base_salary, r.bonus,
          r.hours_per_week, r.years_in_practice, r.practice_setting, r.employment_type, r.wrvus, r.submitted_at, r.status,
          r.moderated_at, ...OFFER_COLUMNS.map((c) => r.offer[c]));
      });
      const insInst = db.prepare(`INSERT INTO institutions (slug, name, city, state, academic_year, checked_at, source_url)
        VALUES (?, ?, ?, ?, ?, ?, ?)`);
      const insPay = db.prepare('INSERT INTO institution_pay (institution_id, pgy, salary) VALUES (?, ?, ?)');
      for (const inst of institutions) {
        const id = insInst.run(inst.slug, inst.name, inst.city, inst.state, inst.academic_year, inst.checked_at, inst.source_url).lastInsertRowid;
        inst.pay.forEach((salary, i) => insPay.run(id, i + 1, salary));
      }
      const insBls = db.prepare('INSERT INTO bls_wages (soc_code, title, annual_median, top_coded, year) VALUES (?, ?, ?, ?, ?)');
      for (const w of demoBlsRows()) {
        const topCoded = w.a_median === '#';
        const median = topCoded ? DEFAULT_TOP_CODE : w.a_median === '*' ? null : Number(w.a_median);
        insBls.run(w.soc_code, `${w.title}`, median, topCoded ? 1 : 0, 2024);
      }
      const insMeta = db.prepare('INSERT INTO dataset_meta (key, value) VALUES (?, ?)');
      insMeta.run('synthetic', 'true');
      insMeta.run('description', 'Synthetic demo data generated by `physpay demo`; not real physician reports');
      insMeta.run('demo_seed', String(opts.seed));
      insMeta.run('demo_reports', String(opts.reports));
      insMeta.run('demo_as_of', opts.asOf);
    })();
    db.pragma('journal_mode = WAL');
    db.close();
    removeDbFiles(path);
    renameSync(tmp, path);
    return { path, reports: opts.reports, byStatus, institutions: institutions.length, seconds: (performance.now() - started) / 1000 };
  } catch (err) {
    if (db.open) db.close();
    removeDbFiles(tmp);
    throw err;
  }
}
