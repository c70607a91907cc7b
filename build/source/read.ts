/**
 * Read-only SQL: the only code that reads the reports DB. Produces the build's Dataset.
 * Only approved reports are read.
 */
import type { Db } from '../db/open.ts';
import { EMPLOYMENT_TYPES, PRACTICE_SETTINGS, type Region } from '../contract/vocab.ts';
import { readSecret, recordKeys } from './record-keys.ts';
import { drawKeyOf } from '../compute/disclosure.ts';
import { infuseRecordNoise } from '../compute/record-noise.ts';
import { ascendingOrder } from '../compute/keyed-layout.ts';
import { COMPENSATION_MODEL_VALUES } from '../contract/offer-terms.ts';
import {
  OFFER_NUMERIC_COLUMNS, copyOffer, emptyReportColumns, specialtyRanges,
  type BlsRow, type Dataset, type InstitutionRow, type SpecialtyRow, type StateRow,
} from '../compute/dataset.ts';

export function readDataset(db: Db): Dataset {
  const specialtiesRaw = db.prepare('SELECT id, slug, name, soc_code, soc_match FROM specialties ORDER BY slug').all() as
    { id: number; slug: string; name: string; soc_code: string | null; soc_match: 'exact' | 'broad' }[];
  const aliasRows = db.prepare('SELECT alias, specialty_id FROM specialty_aliases ORDER BY alias').all() as { alias: string; specialty_id: number }[];
  const specialties: SpecialtyRow[] = specialtiesRaw.map((s) => ({
    slug: s.slug, name: s.name, soc_code: s.soc_code, soc_match: s.soc_match,
    aliases: aliasRows.filter((a) => a.specialty_id === s.id).map((a) => a.alias),
  }));
  const specialtyIndex = new Map(specialtiesRaw.map((s, i) => [s.id, i]));

  const states = (db.prepare('SELECT code, slug, name, region, col_index, col_source, col_year FROM states ORDER BY code').all() as StateRow[]).map(
    (s) => ({ ...s, region: s.region as Region }),
  );
  const stateIndex = new Map(states.map((s, i) => [s.code, i]));

  const bls = new Map<string, BlsRow>();
  for (const b of db.prepare('SELECT soc_code, title, annual_median, top_coded, year FROM bls_wages ORDER BY soc_code').all() as
    (Omit<BlsRow, 'top_coded'> & { top_coded: number })[]) {
    bls.set(b.soc_code, { ...b, top_coded: b.top_coded === 1 });
  }

  const payRows = db.prepare('SELECT institution_id, pgy, salary FROM institution_pay ORDER BY institution_id, pgy').all() as
    { institution_id: number; pgy: number; salary: number }[];
  const payBy = new Map<number, number[]>();
  for (const p of payRows) {
    const list = payBy.get(p.institution_id) ?? [];
    list[p.pgy - 1] = p.salary;
    payBy.set(p.institution_id, list);
  }
  const institutions: InstitutionRow[] = (db
    .prepare('SELECT id, slug, name, city, state, academic_year, checked_at, source_url FROM institutions ORDER BY slug')
    .all() as (Omit<InstitutionRow, 'pay'> & { id: number })[])
    .map(({ id, ...i }) => ({ ...i, pay: payBy.get(id) ?? [] }))
    .filter((i) => i.pay.length > 0);

  const count = (db.prepare("SELECT count(*) AS n FROM reports WHERE status = 'approved'").get() as { n: number }).n;
  const r = emptyReportColumns(count);
  const settingIndex = new Map<string, number>(PRACTICE_SETTINGS.map((s, i) => [s, i]));
  const employmentIndex = new Map<string, number>(EMPLOYMENT_TYPES.map((s, i) => [s, i]));
  const modelIndex = new Map<string, number>(COMPENSATION_MODEL_VALUES.map((m, k) => [m, k]));
  const secret = readSecret(db);
  const ids = new Float64Array(count);
  const stmt = db
    .prepare(`SELECT id, specialty_id, state, year, total_compensation, base_salary, bonus, hours_per_week, years_in_practice,
                     practice_setting, employment_type, wrvus,
                     CAST(floor(julianday(submitted_at) - 2440587.5) AS INTEGER) AS submitted_day,
                     ${OFFER_NUMERIC_COLUMNS.join(', ')}, compensation_model
              FROM reports NOT INDEXED WHERE status = 'approved' ORDER BY id`)
    .raw(true);
  // A plain scan in id order (no index: a sequential read), then order by (specialty, total, id) in memory.
  let i = 0;
  for (const row of stmt.iterate() as Iterable<unknown[]>) {
    if (i >= count) break;
    const [id, sid, st, year, total, base, bonus, hours, exp, setting, employment, wrvus, submitted] = row as [
      number, number, string, number, number, number | null, number | null, number | null, number | null,
      string | null, string | null, number | null, number,
    ];
    r.specialty[i] = specialtyIndex.get(sid)!;
    r.state[i] = stateIndex.get(st)!;
    r.year[i] = year;
    r.total[i] = total;
    r.base[i] = base ?? NaN;
    r.bonus[i] = bonus ?? NaN;
    r.hours[i] = hours ?? NaN;
    r.experience[i] = exp ?? -1;
    r.setting[i] = setting === null ? -1 : (settingIndex.get(setting) ?? -1);
    r.employment[i] = employment === null ? -1 : (employmentIndex.get(employment) ?? -1);
    r.wrvus[i] = wrvus ?? NaN;
    r.submittedDay[i] = submitted;
    for (let c = 0; c < OFFER_NUMERIC_COLUMNS.length; c++) r.offer[OFFER_NUMERIC_COLUMNS[c]!][i] = (row[13 + c] as number | null) ?? NaN;
    const model = row[13 + OFFER_NUMERIC_COLUMNS.length] as string | null;
    r.offer.compensation_model[i] = model === null ? -1 : modelIndex.get(model) ?? -1;
    ids[i] = id;
    i++;
  }
  const factorWords = new Uint32Array(i);
  recordKeys(secret, ids.subarray(0, i), { lo: r.keyLo, hi: r.keyHi, factor: factorWords });
  const exact = Float64Array.from(r.total.subarray(0, i));
  infuseRecordNoise(r, factorWords);
  const { reports, order } = sortReports(r, i);
  const exactTotal = Float64Array.from(order, (k) => exact[k]!);
  const synthetic = (db.prepare("SELECT value FROM dataset_meta WHERE key = 'synthetic'").get() as { value: string } | undefined)?.value === 'true';
  return {
    specialties, states, bls, institutions, reports, specialtyRange: specialtyRanges(reports.specialty, specialties.length), synthetic,
    drawKey: drawKeyOf(secret), exactTotal,
  };
}

/**
 * Reorder columns by (specialty, total as distorted, then original order): a stable, deterministic order. Reports are
 * bucketed by specialty (counting sort), then each bucket is ordered by total with a native numeric sort
 * (ascendingOrder keeps equal totals in bucket order, which is the original order).
 */
function sortReports(r: ReturnType<typeof emptyReportColumns>, count: number) {
  let buckets = 0;
  for (let i = 0; i < count; i++) buckets = Math.max(buckets, r.specialty[i]! + 1);
  const starts = new Int32Array(buckets + 1);
  for (let i = 0; i < count; i++) starts[r.specialty[i]! + 1]!++;
  for (let b = 0; b < buckets; b++) starts[b + 1]! += starts[b]!;
  const bySpecialty = new Int32Array(count);
  const fill = starts.slice(0, buckets);
  for (let i = 0; i < count; i++) bySpecialty[fill[r.specialty[i]!]!++] = i;
  const order = new Uint32Array(count);
  for (let b = 0; b < buckets; b++) {
    const from = starts[b]!;
    const members = bySpecialty.subarray(from, starts[b + 1]!);
    const ranked = ascendingOrder(Float64Array.from(members, (i) => r.total[i]!));
    for (let k = 0; k < ranked.length; k++) order[from + k] = members[ranked[k]!]!;
  }
  const out = emptyReportColumns(count);
  const cols = ['specialty', 'state', 'year', 'total', 'base', 'bonus', 'hours', 'experience', 'setting', 'employment', 'wrvus', 'submittedDay',
    'keyLo', 'keyHi'] as const;
  for (const c of cols) {
    const src = r[c] as unknown as { [k: number]: number };
    const dst = out[c] as unknown as { [k: number]: number };
    for (let i = 0; i < count; i++) dst[i] = src[order[i]!]!;
  }
  for (let i = 0; i < count; i++) copyOffer(r.offer, order[i]!, out.offer, i);
  return { reports: out, order };
}
