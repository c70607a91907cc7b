/**
 * The synthetic demo dataset, as pure functions of (seed, size, as-of date). README: Demo data and Input files sets what
 * it must look like: ~40 specialties at realistic national levels, lognormal spread, state effects, the
 * 4 Census regions, years 2019-2026, wRVUs for ~40% of reports, outliers, pending and rejected reports, thin
 * specialties and states, and a few hundred teaching hospitals with PGY scales.
 */
import { SPECIALTIES, SOC_TITLES } from '../db/reference/specialties.ts';
import { STATES } from '../db/reference/states.ts';
import { EMPLOYMENT_TYPES, PRACTICE_SETTINGS, type ReportStatus } from '../contract/vocab.ts';
import { slugify } from '../contract/names.ts';
import { cumulative, createRng, type Rng } from './rng.ts';
import { DEMO_BLS, SPECIALTY_PROFILES, STATE_CITIES, STATE_WEIGHTS } from './profiles.ts';
import { demoOfferTerms } from './offer-terms.ts';
import type { OfferTerms } from '../contract/offer-terms.ts';

/** A demo request that cannot make sense (reported to the operator as one line). */
export class DemoError extends Error {}

export interface DemoReport {
  specialtySlug: string;
  state: string;
  year: number;
  total_compensation: number;
  base_salary: number | null;
  bonus: number | null;
  hours_per_week: number | null;
  years_in_practice: number | null;
  practice_setting: string | null;
  employment_type: string | null;
  wrvus: number | null;
  submitted_at: string;
  status: ReportStatus;
  moderated_at: string | null;
  /** call pay, one-time payments, time off, pay model and contract terms (offer-terms.ts) */
  offer: OfferTerms;
}

export interface DemoOptions {
  reports: number;
  seed: number;
  /** The demo's "today": no report is submitted after it. */
  asOf: string;
}

export const DEFAULT_DEMO: DemoOptions = { reports: 60_000, seed: 42, asOf: '2026-11-15' };

const YEARS = [2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026];
const YEAR_WEIGHTS = [6, 7, 9, 11, 13, 16, 20, 18];
const SETTING_WEIGHTS = [40, 22, 15, 12, 6, 5];
const SETTING_EFFECT = [0, 0.06, -0.14, 0.03, -0.1, -0.03];
const EMPLOYMENT_WEIGHTS = [65, 8, 12, 15];
const EMPLOYMENT_EFFECT = [0, 0, 0.05, 0.12];
const PART_TIME = 1; // index of 'Part-Time (W-2)'
const DAY = 86_400_000;

/** log-scale pay effect of experience (years in practice). */
function experienceEffect(years: number): number {
  if (years <= 2) return -0.12;
  if (years <= 5) return -0.04;
  if (years <= 10) return 0.02;
  if (years <= 20) return 0.05;
  return 0.01;
}

const round100 = (x: number) => Math.round(x / 100) * 100;

/** Calls `emit` once per report, in a fixed order. Memory stays flat for any N. */
export function generateReports(opts: DemoOptions, emit: (r: DemoReport) => void): void {
  const rng = createRng(opts.seed);
  // The whole offer's values come from a stream of their own: the other fields stay as they were before them.
  const offerRng = createRng((opts.seed ^ 0x0ffe2) >>> 0);
  const specialties = SPECIALTIES.map((s) => ({ slug: s.slug, ...SPECIALTY_PROFILES[s.slug]! }));
  const specialtyCum = cumulative(specialties.map((s) => s.weight));
  const stateCum = cumulative(STATES.map((s) => STATE_WEIGHTS[s.code]!));
  // Each state's pay level: a little higher where living is cheaper (recruiting), plus its own noise.
  const stateEffect = STATES.map((s) => -0.4 * ((s.col - 100) / 100) + 0.04 * rng.normal());
  const asOf = Date.parse(`${opts.asOf}T23:59:59Z`);
  // Only the years whose submission window (from March 1) has opened by the as-of date.
  const years = YEARS.filter((y) => Date.UTC(y, 2, 1) <= asOf);
  if (years.length === 0) throw new DemoError(`--as-of (PHYSPAY_DEMO_AS_OF) must be ${YEARS[0]}-03-01 or later (got "${opts.asOf}")`);
  const yearCum = cumulative(YEAR_WEIGHTS.slice(0, years.length));
  const settingCum = cumulative(SETTING_WEIGHTS);
  const employmentCum = cumulative(EMPLOYMENT_WEIGHTS);

  for (let i = 0; i < opts.reports; i++) {
    const sp = specialties[rng.pick(specialtyCum)]!;
    const si = rng.pick(stateCum);
    const year = years[rng.pick(yearCum)]!;
    const setting = rng.pick(settingCum);
    const employment = rng.pick(employmentCum);
    const experience = Math.min(45, Math.floor(Math.exp(2.2 + 0.8 * rng.normal())));

    let logPay = Math.log(sp.median) + 0.045 + stateEffect[si]! + 0.03 * (year - 2024) + SETTING_EFFECT[setting]! +
      EMPLOYMENT_EFFECT[employment]! + experienceEffect(experience) + sp.sigma * rng.normal();
    let hours: number | null;
    if (employment === PART_TIME) {
      hours = rng.int(16, 34);
      logPay += Math.log(hours / 50);
    } else {
      hours = Math.max(36, Math.min(80, Math.round(52 + 6 * rng.normal())));
    }
    // Entry mistakes and genuine extremes: ~1% of reports.
    const outlier = rng.next();
    const isOutlier = outlier < 0.01;
    if (outlier < 0.005) logPay += Math.log(rng.uniform(2.5, 5.5));
    else if (outlier < 0.01) logPay += Math.log(rng.uniform(0.12, 0.4));
    const total = Math.max(1_000, round100(Math.exp(logPay)));

    const hoursKnown = rng.next();
    if (hoursKnown < 0.12) hours = null;
    else if (hoursKnown < 0.123) hours = rng.chance(0.5) ? rng.int(2, 8) : rng.int(105, 120);

    let base: number | null = null;
    let bonus: number | null = null;
    if (rng.chance(0.85)) {
      const share = employment >= 2 ? rng.uniform(0.55, 0.9) : rng.uniform(0.72, 0.96);
      base = round100(total * share);
      bonus = round100((total - base) * rng.uniform(0.3, 1));
    }
    const wrvus = rng.chance(0.4) ? Math.round(total / (sp.wrvuRate * Math.exp(0.12 * rng.normal()))) : null;

    // Submitted during the compensation year or the one after, never after the as-of date.
    const from = Date.UTC(year, 2, 1);
    const to = Math.min(Date.UTC(year + 1, 3, 1), asOf);
    const submitted = Math.floor(from + rng.next() * (to - from));
    const recent = asOf - submitted < 30 * DAY;
    let status: ReportStatus = 'approved';
    if ((recent && rng.chance(0.6)) || rng.chance(0.01)) status = 'pending';
    else if ((isOutlier && rng.chance(0.4)) || rng.chance(0.015)) status = 'rejected';

    emit({
      specialtySlug: sp.slug,
      state: STATES[si]!.code,
      year,
      total_compensation: total,
      base_salary: base,
      bonus,
      hours_per_week: hours,
      years_in_practice: rng.chance(0.92) ? experience : null,
      practice_setting: rng.chance(0.96) ? PRACTICE_SETTINGS[setting]! : null,
      employment_type: rng.chance(0.95) ? EMPLOYMENT_TYPES[employment]! : null,
      wrvus: wrvus !== null && wrvus > 0 ? wrvus : null,
      submitted_at: new Date(submitted).toISOString(),
      status,
      moderated_at: status === 'pending' ? null : new Date(Math.min(submitted + rng.int(1, 9) * DAY, asOf)).toISOString(),
      offer: demoOfferTerms(offerRng, { specialtySlug: sp.slug, total, setting, employment, experience, wrvuRate: sp.wrvuRate }),
    });
  }
}

export interface DemoInstitution {
  slug: string;
  name: string;
  city: string;
  state: string;
  academic_year: string;
  checked_at: string;
  source_url: string;
  pay: number[]; // index 0 = PGY-1
}

const STEMS = ['University', 'Memorial', 'Mercy', 'Riverside', 'St. Luke\'s', 'Providence', 'Lakeview', 'Baptist',
  'Methodist', 'Presbyterian', 'Good Samaritan', 'Sinai', 'Valley', 'Summit', 'Harbor', 'Union', 'Regional',
  'Saint Joseph\'s', 'Children\'s', 'Veterans'];
const KINDS = ['Medical Center', 'Hospital', 'Health System', 'General Hospital', 'Medical Center'];

/** About `count` teaching hospitals, spread over the states by population (every state gets one). */
export function generateInstitutions(seed: number, asOf: string, count = 300): DemoInstitution[] {
  const rng = createRng(seed ^ 0x5eed);
  const weights = STATES.map((s) => STATE_WEIGHTS[s.code]!);
  const sum = weights.reduce((a, b) => a + b, 0);
  const asOfYear = Number(asOf.slice(0, 4));
  const out: DemoInstitution[] = [];
  const used = new Set<string>();
  STATES.forEach((st, si) => {
    const n = Math.max(1, Math.round((weights[si]! / sum) * (count - STATES.length)) + 1);
    for (let k = 0; k < n; k++) {
      const city = STATE_CITIES[st.code]![k % 2]!;
      let name = '';
      let slug = '';
      do {
        name = `${STEMS[rng.int(0, STEMS.length - 1)]} ${KINDS[rng.int(0, KINDS.length - 1)]}`;
        slug = slugify(`${name} ${city}`);
      } while (used.has(slug));
      used.add(slug);
      const levels = rng.int(3, 7);
      const pgy1 = Math.max(60_000, Math.min(88_000, 62_000 + ((st.col - 86) / 27) * 21_000 + 2_000 * rng.normal()));
      const pay: number[] = [];
      let salary = pgy1;
      for (let l = 0; l < levels; l++) {
        pay.push(round100(salary));
        salary += rng.uniform(2_000, 3_500);
      }
      const current = rng.chance(0.8);
      const ay = current ? asOfYear : asOfYear - 1;
      const checked = Date.UTC(ay, 5, 1) + rng.int(0, 140) * DAY;
      out.push({
        slug,
        name: `${name} (${city})`,
        city,
        state: st.code,
        academic_year: `${ay}-${ay + 1}`,
        checked_at: new Date(Math.min(checked, Date.parse(`${asOf}T00:00:00Z`))).toISOString().slice(0, 10),
        source_url: `https://gme.example.org/${slug}/resident-salaries`,
        pay,
      });
    }
  });
  return out;
}

export interface DemoBlsRow {
  soc_code: string;
  title: string;
  a_median: string;
}

/** OEWS-shaped rows (synthetic) for every SOC code of the catalog, as the BLS file would spell them. */
export function demoBlsRows(): DemoBlsRow[] {
  return Object.entries(DEMO_BLS).map(([soc, v]) => ({
    soc_code: soc,
    title: SOC_TITLES[soc]!,
    a_median: typeof v === 'number' ? String(v) : v,
  }));
}
