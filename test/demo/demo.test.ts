import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoError, createDemoDb } from '../../build/demo/create.ts';
import { DEFAULT_DEMO, generateInstitutions, generateReports, type DemoReport } from '../../build/demo/generate.ts';
import { SPECIALTY_PROFILES } from '../../build/demo/profiles.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { SPECIALTIES } from '../../build/db/reference/specialties.ts';
import { OFFER_RANGES, hasOfferTerms, offerTermsIssue } from '../../build/contract/offer-terms.ts';

/** sha256 of the first 500 demo reports of seed 42 (without the whole offer), as generated before the offer fields existed (commit cbdd4be) */
const BEFORE_OFFER_SHA256 = '5ca161bb52e9188153c298f064c10c6af0e60c8176705b0bfb17aa9d67e0f5cd';

const NOW = () => new Date('2026-11-16T00:00:00.000Z');
const SMALL = { reports: 3_000, asOf: '2026-11-15' };
const DUMPED_TABLES = ['reports', 'institutions', 'institution_pay', 'bls_wages', 'dataset_meta'];

const tmp = useTempDir('demo');
let dir: string;
beforeAll(() => {
  dir = tmp.path;
});

/** sha256 per table of an ordered SELECT * dump. */
function dump(path: string): Record<string, string> {
  const db = new Database(path, { readonly: true });
  try {
    const out: Record<string, string> = {};
    for (const t of DUMPED_TABLES) {
      const rows = db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all();
      expect(rows.length, t).toBeGreaterThan(0);
      out[t] = createHash('sha256').update(JSON.stringify(rows)).digest('hex');
    }
    return out;
  } finally {
    db.close();
  }
}

function collect(opts: { reports: number; seed: number; asOf: string }): DemoReport[] {
  const out: DemoReport[] = [];
  generateReports(opts, (r) => out.push(r));
  return out;
}

describe('determinism', () => {
  it('the same seed and options give identical DB content; another seed differs', () => {
    const a = join(dir, 'a.db');
    const b = join(dir, 'b.db');
    const c = join(dir, 'c.db');
    createDemoDb(a, { ...SMALL, seed: 7, now: NOW });
    createDemoDb(b, { ...SMALL, seed: 7, now: () => new Date('2030-01-01T00:00:00Z') });
    createDemoDb(c, { ...SMALL, seed: 8, now: NOW });
    const da = dump(a);
    expect(dump(b)).toEqual(da);
    const dc = dump(c);
    expect(dc.reports).not.toBe(da.reports);
    expect(dc.institutions).not.toBe(da.institutions);
    expect(dc.institution_pay).not.toBe(da.institution_pay);
  });

  it('generateReports and generateInstitutions are pure functions of their inputs', () => {
    const opts = { reports: 500, seed: 123, asOf: '2026-11-15' };
    expect(collect(opts)).toEqual(collect(opts));
    expect(collect({ ...opts, seed: 124 })).not.toEqual(collect(opts));
    expect(generateInstitutions(5, '2026-11-15')).toEqual(generateInstitutions(5, '2026-11-15'));
    expect(generateInstitutions(5, '2026-11-15')).not.toEqual(generateInstitutions(6, '2026-11-15'));
  });

  it.each(['2026-11-15', '2024-06-30', '2019-03-01'])(
    'no report is submitted after the as-of date (%s) or before its compensation year',
    (asOf) => {
      const end = Date.parse(`${asOf}T23:59:59.999Z`);
      const reports = collect({ reports: 2_000, seed: 1, asOf });
      for (const r of reports) {
        const submitted = Date.parse(r.submitted_at);
        expect(submitted).toBeLessThanOrEqual(end);
        expect(Number(r.submitted_at.slice(0, 4))).toBeGreaterThanOrEqual(r.year);
        if (r.moderated_at !== null) expect(Date.parse(r.moderated_at)).toBeLessThanOrEqual(end);
        if (r.base_salary !== null) expect(r.base_salary + (r.bonus ?? 0)).toBeLessThanOrEqual(r.total_compensation + 1);
      }
      expect(Math.max(...reports.map((r) => r.year))).toBe(Math.min(2026, Number(asOf.slice(0, 4))));
    },
  );

  it('refuses an as-of date before the first demo year', () => {
    expect(() => collect({ reports: 10, seed: 1, asOf: '2018-12-31' })).toThrow(/as-of/);
  });
});

describe('the default demo dataset (60,000 reports, seed 42)', () => {
  let db: Database.Database;
  let summary: ReturnType<typeof createDemoDb>;
  const one = <T = number>(sql: string): T => (db.prepare(sql).get() as { v: T }).v;

  beforeAll(() => {
    summary = createDemoDb(join(dir, 'default.db'), { ...DEFAULT_DEMO, now: NOW });
    db = new Database(summary.path, { readonly: true });
  });
  afterAll(() => db?.close());

  it('has the requested number of reports', () => {
    expect(DEFAULT_DEMO).toMatchObject({ reports: 60_000, seed: 42 });
    expect(one('SELECT count(*) AS v FROM reports')).toBe(60_000);
    expect(summary.reports).toBe(60_000);
    expect(summary.byStatus.approved! + summary.byStatus.pending! + summary.byStatus.rejected!).toBe(60_000);
  });

  it('is labelled synthetic in dataset_meta', () => {
    const meta = Object.fromEntries(
      (db.prepare('SELECT key, value FROM dataset_meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]),
    );
    expect(meta['synthetic']).toBe('true');
    expect(meta['description']).toMatch(/synthetic/i);
    expect(meta['demo_seed']).toBe('42');
    expect(meta['demo_reports']).toBe('60000');
  });

  it('per-specialty approved medians are within +-12% of the profile median (specialties with >= 200 approved reports)', () => {
    const rows = db
      .prepare(
        `SELECT s.slug, r.total_compensation AS t FROM reports r JOIN specialties s ON s.id = r.specialty_id
         WHERE r.status = 'approved' ORDER BY s.slug, r.total_compensation`,
      )
      .all() as { slug: string; t: number }[];
    const bySlug = new Map<string, number[]>();
    for (const r of rows) {
      const list = bySlug.get(r.slug) ?? [];
      list.push(r.t);
      bySlug.set(r.slug, list);
    }
    let checked = 0;
    for (const [slug, values] of bySlug) {
      if (values.length < 200) continue;
      const mid = values.length / 2;
      const median = values.length % 2 ? values[Math.floor(mid)]! : (values[mid - 1]! + values[mid]!) / 2;
      const target = SPECIALTY_PROFILES[slug]!.median;
      expect(median / target, `${slug}: median ${median} vs target ${target}`).toBeGreaterThanOrEqual(0.88);
      expect(median / target, `${slug}: median ${median} vs target ${target}`).toBeLessThanOrEqual(1.12);
      checked++;
    }
    // The band must bind on most of the catalog, not on a handful of specialties.
    expect(checked).toBeGreaterThanOrEqual(35);
  });

  it('covers every specialty of the catalog with a profile', () => {
    for (const s of SPECIALTIES) expect(SPECIALTY_PROFILES[s.slug], s.slug).toBeDefined();
    expect(one('SELECT count(DISTINCT specialty_id) AS v FROM reports')).toBe(SPECIALTIES.length);
  });

  it('has pending and rejected reports (each more than 0.5%)', () => {
    const total = one('SELECT count(*) AS v FROM reports');
    expect(one("SELECT count(*) AS v FROM reports WHERE status = 'pending'") / total).toBeGreaterThan(0.005);
    expect(one("SELECT count(*) AS v FROM reports WHERE status = 'rejected'") / total).toBeGreaterThan(0.005);
    expect(one("SELECT count(*) AS v FROM reports WHERE status = 'approved'") / total).toBeGreaterThan(0.9);
    // Moderated reports carry their moderation date, pending ones none.
    expect(one("SELECT count(*) AS v FROM reports WHERE status = 'pending' AND moderated_at IS NOT NULL")).toBe(0);
    expect(one("SELECT count(*) AS v FROM reports WHERE status <> 'pending' AND moderated_at IS NULL")).toBe(0);
  });

  it('has wRVUs on 35-45% of reports', () => {
    const share = one<number>('SELECT avg(wrvus IS NOT NULL) AS v FROM reports');
    expect(share).toBeGreaterThanOrEqual(0.35);
    expect(share).toBeLessThanOrEqual(0.45);
    // $45-$90 per wRVU for the bulk of them
    const perWrvu = one<number>(
      "SELECT avg(total_compensation / wrvus BETWEEN 35 AND 110) AS v FROM reports WHERE wrvus IS NOT NULL AND status = 'approved'",
    );
    expect(perWrvu).toBeGreaterThan(0.9);
  });

  it('has every year 2019..2026 and nothing else', () => {
    const years = (db.prepare('SELECT DISTINCT year FROM reports ORDER BY year').all() as { year: number }[]).map((r) => r.year);
    expect(years).toEqual([2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026]);
  });

  it('has approved reports in all 50 states and DC', () => {
    expect(one("SELECT count(DISTINCT state) AS v FROM reports WHERE status = 'approved'")).toBe(51);
    expect(one("SELECT count(*) AS v FROM reports WHERE state = 'DC' AND status = 'approved'")).toBeGreaterThan(0);
  });

  it('has thin cells: specialty-state cells with fewer than 3 approved reports, and a specialty with fewer than 5 nationally', () => {
    const thinCells = one(
      `SELECT count(*) AS v FROM (SELECT specialty_id, state, count(*) AS n FROM reports WHERE status = 'approved'
       GROUP BY specialty_id, state HAVING n < 3)`,
    );
    expect(thinCells).toBeGreaterThan(0);
    const thinSpecialties = one(
      `SELECT count(*) AS v FROM (SELECT specialty_id, count(*) AS n FROM reports WHERE status = 'approved'
       GROUP BY specialty_id HAVING n < 5)`,
    );
    expect(thinSpecialties).toBeGreaterThanOrEqual(1);
  });

  it('has outliers: approved totals below $50,000 and above $3,000,000', () => {
    expect(one("SELECT count(*) AS v FROM reports WHERE status = 'approved' AND total_compensation < 50000")).toBeGreaterThan(0);
    expect(one("SELECT count(*) AS v FROM reports WHERE status = 'approved' AND total_compensation > 3000000")).toBeGreaterThan(0);
    // ... but only a few
    expect(one("SELECT avg(total_compensation < 50000 OR total_compensation > 3000000) AS v FROM reports")).toBeLessThan(0.01);
  });

  it('has a few hundred teaching hospitals, PGY-1 pay within $60,000-$88,000 and scales PGY 1..k with 3 <= k <= 7', () => {
    const institutions = one('SELECT count(*) AS v FROM institutions');
    expect(institutions).toBeGreaterThanOrEqual(200);
    expect(institutions).toBeLessThanOrEqual(500);
    expect(summary.institutions).toBe(institutions);
    expect(one('SELECT count(DISTINCT state) AS v FROM institutions')).toBe(51);

    const pgy1 = db.prepare('SELECT min(salary) AS lo, max(salary) AS hi, count(*) AS n FROM institution_pay WHERE pgy = 1').get() as {
      lo: number;
      hi: number;
      n: number;
    };
    expect(pgy1.n).toBe(institutions);
    expect(pgy1.lo).toBeGreaterThanOrEqual(60_000);
    expect(pgy1.hi).toBeLessThanOrEqual(88_000);

    const scales = db
      .prepare(
        `SELECT institution_id AS id, count(*) AS k, min(pgy) AS lo, max(pgy) AS hi FROM institution_pay GROUP BY institution_id`,
      )
      .all() as { id: number; k: number; lo: number; hi: number }[];
    expect(scales).toHaveLength(institutions);
    for (const s of scales) {
      expect(s.lo).toBe(1);
      expect(s.hi).toBe(s.k); // no gaps: 1..k
      expect(s.k).toBeGreaterThanOrEqual(3);
      expect(s.k).toBeLessThanOrEqual(7);
    }
    // Pay rises with each PGY level.
    expect(
      one(`SELECT count(*) AS v FROM institution_pay a JOIN institution_pay b
           ON a.institution_id = b.institution_id AND b.pgy = a.pgy + 1 WHERE b.salary <= a.salary`),
    ).toBe(0);
  });

  it('has OEWS rows for every SOC code of the catalog', () => {
    const socs = new Set(SPECIALTIES.map((s) => s.soc));
    expect(one('SELECT count(*) AS v FROM bls_wages')).toBe(socs.size);
    expect(one('SELECT count(*) AS v FROM bls_wages WHERE top_coded = 1 AND annual_median = 239200')).toBeGreaterThan(0);
  });
});

describe('createDemoDb file handling', () => {
  it('refuses an existing target without force and leaves it untouched; replaces it with force', () => {
    const path = join(dir, 'existing.db');
    createDemoDb(path, { ...SMALL, reports: 50, seed: 2, now: NOW });
    const before = readFileSync(path);
    expect(() => createDemoDb(path, { ...SMALL, reports: 100, seed: 1, now: NOW })).toThrow(DemoError);
    expect(() => createDemoDb(path, { ...SMALL, reports: 100, seed: 1, now: NOW })).toThrow(/already exists.*--force/);
    expect(readFileSync(path).equals(before)).toBe(true);

    // --force replaces a reports DB, never a file that is something else (issue 18 item 3)
    const text = join(dir, 'not-a-db.db');
    writeFileSync(text, 'not a database');
    expect(() => createDemoDb(text, { ...SMALL, reports: 100, seed: 1, now: NOW, force: true })).toThrow(/is not a SQLite database \(it looks like a CSV or text file\)/);
    expect(readFileSync(text, 'utf8')).toBe('not a database');

    createDemoDb(path, { ...SMALL, reports: 100, seed: 1, now: NOW, force: true });
    const db = new Database(path, { readonly: true });
    try {
      expect((db.prepare('SELECT count(*) AS n FROM reports').get() as { n: number }).n).toBe(100);
    } finally {
      db.close();
    }
  });

  it('a generator error leaves no file at the target path and no temporary files', () => {
    const sub = mkdtempSync(join(dir, 'fail-'));
    const path = join(sub, 'demo.db');
    expect(() => createDemoDb(path, { reports: 100, seed: 1, asOf: 'not-a-date', now: NOW })).toThrow();
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(sub)).toEqual([]);
  });

  it('a generator error with force keeps the existing DB', () => {
    const sub = mkdtempSync(join(dir, 'keep-'));
    const path = join(sub, 'demo.db');
    createDemoDb(path, { ...SMALL, reports: 50, seed: 3, now: NOW });
    const before = dump(path);
    expect(() => createDemoDb(path, { reports: 100, seed: 1, asOf: 'not-a-date', now: NOW, force: true })).toThrow();
    expect(dump(path)).toEqual(before);
    expect(readdirSync(sub).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});

describe('the whole offer (offer-terms.ts)', () => {
  const reports = collect({ reports: 20_000, seed: 42, asOf: '2026-11-15' });
  const share = (pred: (r: DemoReport) => boolean, of: (r: DemoReport) => boolean) => {
    const base = reports.filter(of);
    return base.filter(pred).length / base.length;
  };

  it('every report\'s values are within the importer\'s ranges and agree with each other', () => {
    for (const r of reports) {
      expect(offerTermsIssue(r.offer, r.total_compensation), JSON.stringify(r.offer)).toBeNull();
      for (const [c, range] of Object.entries(OFFER_RANGES)) {
        const v = r.offer[c as keyof typeof OFFER_RANGES];
        if (v === null) continue;
        expect(v, c).toBeGreaterThanOrEqual(range.min);
        expect(v, c).toBeLessThanOrEqual(range.max);
        if (range.int) expect(Number.isInteger(v), c).toBe(true);
      }
    }
  });

  it('about a third answer none of it, and the levels are the documented ones', () => {
    expect(share((r) => !hasOfferTerms(r.offer), () => true)).toBeCloseTo(0.35, 1);
    const employed = (r: DemoReport) => r.offer.cme_allowance !== null && r.employment_type !== 'Partner/Owner';
    expect(share((r) => r.offer.cme_allowance! > 0, employed)).toBeCloseTo(0.85, 1);
    const cme = reports.map((r) => r.offer.cme_allowance).filter((v): v is number => v !== null && v > 0);
    expect(Math.min(...cme)).toBeGreaterThanOrEqual(2_500);
    expect(Math.max(...cme)).toBeLessThanOrEqual(6_000);
    const models = new Set(reports.map((r) => r.offer.compensation_model).filter((m) => m !== null));
    expect(models.size).toBe(5);
  });

  it('come from a stream of their own: the other fields are what they were without them', () => {
    expect(reports[0]!.offer).toBeDefined();
    expect(createHash('sha256').update(JSON.stringify(reports.slice(0, 500).map(({ offer: _o, ...r }) => r))).digest('hex'))
      .toBe(BEFORE_OFFER_SHA256);
  });
});
