/**
 * A seeded reports DB made for differencing attacks: few specialties in a few states, so that cells sit at
 * every publication boundary (keyed API: n = 1..6 around its floor of 5; open data: n = 1..4 around the
 * specialty-in-state floor of 3), with every report giving its practice setting, employment type and
 * years in practice (so breakdown rows add up to their scope exactly, the attacker's best case).
 *
 * Values stay inside the keyed API's winsorization bounds and, all but one, inside each specialty's national
 * Tukey fences (lognormal, truncated at +-2 sd of the log), so the values an attacker wants are exactly the
 * report totals: `reports` is the ground truth the attack test scores against. The one exception (seed 2026:
 * a dermatology report of 752,100 in WA, a cell of 26, above that specialty's upper fence of 733,138) is left
 * out of the open feeds; the open attacks use cells it is not in, or compute the fences themselves.
 */
import { openReportsDb } from '../../build/db/open.ts';
import { createRng, type Rng } from '../../build/demo/rng.ts';
import { EMPLOYMENT_TYPES, PRACTICE_SETTINGS } from '../../build/contract/vocab.ts';
import { recordKeys } from '../../build/source/record-keys.ts';
import { recordFactor } from '../../build/compute/disclosure.ts';

export interface ThinReport {
  specialty: string;
  state: string;
  year: number;
  total: number;
  setting: string;
  employment: string;
  experience: number;
  submittedAt: string;
}

export const THIN_SPECIALTIES: Record<string, number> = {
  'family-medicine': 280_000,
  cardiology: 520_000,
  'critical-care': 390_000,
  dermatology: 450_000,
  'infectious-disease': 270_000,
};
/** Northeast and West: two regions, every state of each, so region - its states is a complete difference. */
export const THIN_STATES = ['CT', 'MA', 'ME', 'NH', 'NJ', 'NY', 'PA', 'RI', 'VT', 'AK', 'AZ', 'CA', 'CO', 'HI', 'ID', 'MT', 'NM', 'NV', 'OR', 'UT', 'WA', 'WY'];
export const THIN_YEARS = [2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026];
const CELL_SIZES = [1, 1, 2, 2, 3, 4, 5, 6, 7, 9, 12, 18, 26];

/**
 * One report of a cell, drawn as the seeded data draws it (lognormal around the specialty's level times the
 * cell's state effect, truncated at +-2 sd of the log; compensation year, month, setting, employment,
 * experience). `generateThinReports` calls it, so a second night's extra reports (attack test) are drawn
 * the same way.
 */
export function drawThinReport(rng: Rng, specialty: string, state: string, stateEffect: number): ThinReport {
  const level = THIN_SPECIALTIES[specialty]!;
  let z = rng.normal();
  while (Math.abs(z) > 2) z = rng.normal();
  const year = THIN_YEARS[rng.int(0, THIN_YEARS.length - 1)]!;
  const month = year === 2026 ? rng.int(3, 10) : rng.int(1, 12);
  return {
    specialty,
    state,
    year,
    total: Math.round((level * Math.exp(stateEffect + 0.22 * z)) / 100) * 100,
    setting: PRACTICE_SETTINGS[rng.int(0, 2)]!,
    employment: EMPLOYMENT_TYPES[rng.chance(0.7) ? 0 : 3]!,
    experience: rng.int(0, 30),
    submittedAt: `${year === 2026 ? 2026 : year + 1}-${String(month).padStart(2, '0')}-15`,
  };
}

/** The seeded reports; `effects`, when given, receives each cell's state effect (key `specialty|state`). */
export function generateThinReports(seed: number, effects?: Map<string, number>): ThinReport[] {
  const rng = createRng(seed);
  const out: ThinReport[] = [];
  for (const specialty of Object.keys(THIN_SPECIALTIES)) {
    for (const state of THIN_STATES) {
      const n = CELL_SIZES[rng.int(0, CELL_SIZES.length - 1)]!;
      const stateEffect = 0.08 * rng.normal();
      effects?.set(`${specialty}|${state}`, stateEffect);
      for (let k = 0; k < n; k++) out.push(drawThinReport(rng, specialty, state, stateEffect));
    }
  }
  return out;
}

/** Write the reports (all approved) into a fresh reports DB at `path` (with `secret` as its record-key secret when given). */
export function writeThinDb(path: string, reports: ThinReport[], secret?: Buffer): void {
  const db = openReportsDb(path, { create: true });
  try {
    if (secret) db.prepare('UPDATE record_key_secret SET secret = ? WHERE id = 1').run(secret);
    const ids = new Map((db.prepare('SELECT id, slug FROM specialties').all() as { id: number; slug: string }[]).map((r) => [r.slug, r.id]));
    const ins = db.prepare(`INSERT INTO reports (specialty_id, state, year, total_compensation, base_salary, bonus, hours_per_week,
      years_in_practice, practice_setting, employment_type, wrvus, submitted_at, status, moderated_at)
      VALUES (?, ?, ?, ?, NULL, NULL, 50, ?, ?, ?, NULL, ?, 'approved', ?)`);
    db.transaction(() => {
      for (const r of reports) ins.run(ids.get(r.specialty), r.state, r.year, r.total, r.experience, r.setting, r.employment, r.submittedAt, r.submittedAt);
    })();
  } finally {
    db.close();
  }
}

/**
 * Each report's total as the build sees it (README: Disclosure control): times its secret record factor, to a
 * dollar, with ids 1..N in the order writeThinDb inserts them. Only the open feeds' outlier fences need it (they
 * apply to these values); attacks are always scored against the true totals.
 */
export function distortedTotals(reports: ThinReport[], secret: Buffer): number[] {
  const n = reports.length;
  const factor = new Uint32Array(n);
  recordKeys(secret, Float64Array.from({ length: n }, (_, i) => i + 1), { lo: new Uint32Array(n), hi: new Uint32Array(n), factor });
  return reports.map((r, i) => Math.round(r.total * recordFactor(factor[i]!)));
}
