/**
 * CSV downloads of the open data (pure), written beside the JSON feeds from the same finished documents:
 *
 *   data/api/v1/specialties.csv              one row per specialty (national figures)
 *   data/api/v1/specialty-states.csv         one row per specialty and state, every pair (most withheld)
 *   data/api/v1/states.csv                   one row per state (all specialties)
 *   data/api/v1/residency/institutions.csv   one row per teaching hospital (its PGY scale, wide)
 *   data/api/v1/residency/pgy-levels.csv     one row per teaching hospital and PGY level (long)
 *   data/api/v1/specialty-offer-components.csv   one row per specialty and item of the rest of the offer
 *                                            (the `components` of specialties/{slug}.json, long: OFFER_ITEMS)
 *
 * RFC 4180: CRLF line ends, a header row, fields quoted only when they hold a comma, quote, CR or LF
 * (quotes doubled); UTF-8 without a byte-order mark. Numbers are written exactly as in the JSON; text that
 * a spreadsheet would run as a formula is neutralised (csvField).
 * A withheld figure is an empty cell and the row's `withheld` column is true (P10/P90 may also be empty
 * on a published row: they need 15 reports). The licence travels with every row: `license`,
 * `license_url`, `citation_url` (the row's page), `as_of` (the row's own data date), plus `feed_url`,
 * `methodology_url`, `publisher` and `synthetic`, so any extract of rows still says how to credit it. Rows
 * of reported pay also carry their basis (`compensation_year_from`, `compensation_year_to`,
 * `full_time_basis`), so an extract still says which years and which basis its figures count.
 */
import type { HeadlineBasis, InstitutionFeed, InstitutionsFeed, ResidencyLevelFeed, SpecialtiesFeed, SpecialtyFeed, SpecialtyStateFeed, StateFeed, StatesFeed } from '../contract/open-feeds.ts';
import type { FeedFile } from './open-feeds.ts';
import type { OfferComponents } from '../contract/offer-figures.ts';
import { ROUNDING_MAX_N } from './stats.ts';

export type CsvCell = string | number | boolean | null;

/**
 * One RFC 4180 field. A text cell that a spreadsheet would run as a formula (it starts with `=`, `+`, `-`,
 * `@`, a tab or a carriage return: OWASP's CSV-injection rule) is written with a leading apostrophe and
 * quoted, so it shows as the text it is; numbers are never touched (a negative number stays -12.5).
 */
export function csvField(v: CsvCell): string {
  if (v === null) return '';
  if (typeof v === 'number') return numberText(v);
  const formula = typeof v === 'string' && /^[=+\-@\t\r]/.test(v);
  const s = formula ? `'${v}` : String(v);
  return formula || /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function numberText(v: number): string {
  if (!Number.isFinite(v)) throw new Error(`non-finite number in a CSV: ${v}`);
  return JSON.stringify(v);
}

export function csvText(header: string[], rows: CsvCell[][]): string {
  for (const r of rows) if (r.length !== header.length) throw new Error(`CSV row has ${r.length} fields, header has ${header.length}`);
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** The headline basis of a row (headline.ts): its compensation years and the full-time basis. */
const BASIS_COLUMNS = ['compensation_year_from', 'compensation_year_to', 'full_time_basis'] as const;
const basisCells = (d: { basis: HeadlineBasis }): CsvCell[] => [d.basis.compensation_years.from, d.basis.compensation_years.to, d.basis.full_time_equivalent];

const LICENCE_COLUMNS = ['as_of', 'citation_url', 'feed_url', 'methodology_url', 'license', 'license_url', 'publisher', 'synthetic'] as const;
type Licensed = { as_of: string; citation_url: string; feed_url: string; methodology_url: string; license: string; license_url: string; publisher: string; synthetic: boolean };
const licence = (d: Licensed): CsvCell[] => LICENCE_COLUMNS.map((k) => d[k]);

export const SPECIALTIES_CSV_HEADER = ['slug', 'name', 'n', 'median', 'mean', 'p10', 'p25', 'p75', 'p90', 'rounded', 'withheld', ...BASIS_COLUMNS, ...LICENCE_COLUMNS];
export const SPECIALTY_STATES_CSV_HEADER = ['specialty_slug', 'specialty_name', 'state_code', 'state_slug', 'state_name', 'region', 'n', 'median', 'mean', 'p10', 'p25', 'p75', 'p90', 'rounded', 'withheld', 'national_median', 'difference_from_national_pct', ...BASIS_COLUMNS, ...LICENCE_COLUMNS];
export const STATES_CSV_HEADER = ['code', 'slug', 'name', 'region', 'n', 'median', 'mean', 'p10', 'p25', 'p75', 'p90', 'rounded', 'withheld', 'cost_of_living_index', 'col_adjusted_median', ...BASIS_COLUMNS, ...LICENCE_COLUMNS];

export const SPECIALTY_OFFER_CSV_HEADER = ['specialty_slug', 'specialty_name', 'item', 'label', 'unit', 'share_pct', 'answered', 'n', 'p25', 'median', 'p75', 'rounded_to', 'withheld', ...BASIS_COLUMNS, ...LICENCE_COLUMNS];

/** One row of the offer CSV before its specialty, basis and licence cells: the figures of one item. */
interface OfferRow {
  item: string;
  label: string;
  unit: string;
  share_pct: number | null;
  answered: number | null;
  n: number | null;
  p25: number | null;
  median: number | null;
  p75: number | null;
  /** the rounding step of the figures (in the row's unit), null when withheld */
  rounded_to: number | null;
  withheld: boolean;
}

/**
 * The items of a specialty's `components`, one row each, in a fixed order: every money component, weeks off,
 * call nights, every pay model (its share and the median $/wRVU of its contracts), the non-compete (radius and
 * length: two rows with the same share) and the partnership track. `n` is the count behind the row's figures
 * (n_with for an item one has or not); the rounding step follows it (a published count stays on its side of 24).
 */
export function offerItems(c: OfferComponents): OfferRow[] {
  const small = (n: number | null) => n !== null && n <= ROUNDING_MAX_N;
  const step = (n: number | null, fewReports: number, many: number) => (n === null ? null : small(n) ? fewReports : many);
  const rows: OfferRow[] = c.money.map((m) => ({
    item: m.component, label: m.label, unit: m.unit, share_pct: m.share_with_pct, answered: m.answered, n: m.n_with,
    p25: m.p25, median: m.median, p75: m.p75, rounded_to: m.withheld ? null : m.rounded ? 1000 : 1, withheld: m.withheld,
  }));
  for (const [item, label, q] of [['pto_weeks', 'Weeks off (paid time off)', c.pto_weeks], ['call_nights_per_month', 'Call nights (among those who take call)', c.call_nights_per_month]] as const) {
    rows.push({ item, label, unit: q.unit, share_pct: null, answered: null, n: q.n, p25: q.p25, median: q.median, p75: q.p75, rounded_to: q.withheld ? null : 0.5, withheld: q.withheld });
  }
  for (const m of c.compensation_models.models) {
    const r = m.conversion_rate;
    rows.push({
      item: `compensation_model_${m.model}`, label: `Pay model: ${m.label}`, unit: 'USD per wRVU', share_pct: m.share_pct, answered: c.compensation_models.answered,
      n: r.n, p25: null, median: r.median, p75: null, rounded_to: step(r.n, 1, 0.01), withheld: r.withheld,
    });
  }
  const nc = c.non_compete;
  rows.push({ item: 'non_compete_miles', label: 'Non-compete: radius', unit: 'miles', share_pct: nc.share_with_pct, answered: nc.answered, n: nc.n_with, p25: null, median: nc.median_miles, p75: null, rounded_to: nc.median_miles === null ? null : small(nc.n_with) ? 5 : 1, withheld: nc.median_miles === null });
  rows.push({ item: 'non_compete_years', label: 'Non-compete: length', unit: 'years', share_pct: nc.share_with_pct, answered: nc.answered, n: nc.n_with, p25: null, median: nc.median_years, p75: null, rounded_to: nc.median_years === null ? null : 0.5, withheld: nc.median_years === null });
  const pt = c.partnership_track;
  rows.push({ item: 'partnership_track_years', label: 'Partnership track: years to partner', unit: 'years', share_pct: pt.share_with_pct, answered: pt.answered, n: pt.n_with, p25: null, median: pt.median_years, p75: null, rounded_to: pt.median_years === null ? null : 0.5, withheld: pt.median_years === null });
  return rows;
}

export const csvPaths = {
  specialties: () => 'data/api/v1/specialties.csv',
  specialtyOffer: () => 'data/api/v1/specialty-offer-components.csv',
  specialtyStates: () => 'data/api/v1/specialty-states.csv',
  states: () => 'data/api/v1/states.csv',
  institutions: () => 'data/api/v1/residency/institutions.csv',
  residencyLevels: () => 'data/api/v1/residency/pgy-levels.csv',
};

function index<T>(feeds: FeedFile[], kind: FeedFile['kind'], key: (d: T) => string): Map<string, T> {
  const m = new Map<string, T>();
  for (const f of feeds) if (f.kind === kind) m.set(key(f.doc as T), f.doc as T);
  return m;
}

/** Every CSV download: public-tree path -> text. Rows follow the order of the JSON list feeds. */
export function buildOpenCsv(feeds: FeedFile[]): Map<string, string> {
  const out = new Map<string, string>();
  const list = <T>(kind: FeedFile['kind']) => feeds.find((f) => f.kind === kind)?.doc as T | undefined;

  const specialties = list<SpecialtiesFeed>('specialties');
  if (specialties) {
    const docs = index<SpecialtyFeed>(feeds, 'specialty', (d) => d.specialty.slug);
    const rows = specialties.specialties.map((e) => {
      const d = docs.get(e.slug);
      if (!d) throw new Error(`specialties.csv: no feed for ${e.slug}`);
      return [d.specialty.slug, d.specialty.name, d.n, d.median, d.mean, d.p10, d.p25, d.p75, d.p90, d.rounded, d.withheld, ...basisCells(d), ...licence(d)];
    });
    out.set(csvPaths.specialties(), csvText(SPECIALTIES_CSV_HEADER, rows));
    // the rest of the offer: every specialty (a withheld one's rows withheld), every item, in a fixed order
    const offerRows = specialties.specialties.flatMap((e) => {
      const d = docs.get(e.slug)!;
      return offerItems(d.components).map((r) => [
        d.specialty.slug, d.specialty.name, r.item, r.label, r.unit, r.share_pct, r.answered, r.n, r.p25, r.median, r.p75, r.rounded_to, r.withheld,
        ...basisCells(d), ...licence(d),
      ]);
    });
    out.set(csvPaths.specialtyOffer(), csvText(SPECIALTY_OFFER_CSV_HEADER, offerRows));
  }

  // every specialty x state pair, in the order of specialties.json, then states.json
  const states = list<StatesFeed>('states');
  if (specialties && states) {
    const docs = index<SpecialtyStateFeed>(feeds, 'specialtyState', (d) => `${d.specialty.slug}/${d.state.slug}`);
    const rows = specialties.specialties.flatMap((sp) => states.states.map((e) => {
      const d = docs.get(`${sp.slug}/${e.state.slug}`);
      if (!d) throw new Error(`specialty-states.csv: no feed for ${sp.slug} in ${e.state.slug}`);
      const s = d.state;
      return [d.specialty.slug, d.specialty.name, s.code, s.slug, s.name, s.region, d.n, d.median, d.mean, d.p10, d.p25, d.p75, d.p90, d.rounded, d.withheld, d.national_median, d.difference_from_national_pct, ...basisCells(d), ...licence(d)];
    }));
    out.set(csvPaths.specialtyStates(), csvText(SPECIALTY_STATES_CSV_HEADER, rows));
  }

  if (states) {
    const docs = index<StateFeed>(feeds, 'state', (d) => d.state.slug);
    const rows = states.states.map((e) => {
      const d = docs.get(e.state.slug);
      if (!d) throw new Error(`states.csv: no feed for ${e.state.slug}`);
      const s = d.state;
      return [s.code, s.slug, s.name, s.region, d.n, d.median, d.mean, d.p10, d.p25, d.p75, d.p90, d.rounded, d.withheld, d.cost_of_living.index, d.col_adjusted_median, ...basisCells(d), ...licence(d)];
    });
    out.set(csvPaths.states(), csvText(STATES_CSV_HEADER, rows));
  }

  const institutions = list<InstitutionsFeed>('institutions');
  if (institutions) {
    const docs = index<InstitutionFeed>(feeds, 'institution', (d) => d.institution.slug);
    const levels = Math.max(1, ...[...docs.values()].map((d) => d.pgy_scale.length));
    const pgyCols = Array.from({ length: levels }, (_, k) => `pgy${k + 1}_salary`);
    const header = ['slug', 'name', 'city', 'state_code', 'state', 'academic_year', ...pgyCols, 'pgy1_col_adjusted', 'rank', 'rank_of', 'cost_of_living_index', 'source_url', ...LICENCE_COLUMNS];
    const rows = institutions.institutions.map((e) => {
      const d = docs.get(e.institution.slug);
      if (!d) throw new Error(`institutions.csv: no feed for ${e.institution.slug}`);
      const pay = pgyCols.map((_, k) => d.pgy_scale.find((p) => p.pgy === k + 1)?.salary ?? null);
      const i = d.institution;
      return [i.slug, i.name, i.city, i.state.code, i.state.name, d.academic_year, ...pay, d.pgy1_col_adjusted, d.rank?.position ?? null, d.rank?.of ?? null, d.cost_of_living.index, d.source_url, ...licence(d)];
    });
    out.set(csvPaths.institutions(), csvText(header, rows));
    out.set(csvPaths.residencyLevels(), residencyLevelsCsv(institutions, docs, feeds));
  }
  return out;
}

export const RESIDENCY_LEVELS_CSV_HEADER = [
  'slug', 'name', 'city', 'state_code', 'state', 'academic_year', 'pgy', 'salary', 'col_adjusted', 'rank', 'rank_of', 'state_rank', 'state_rank_of',
  'cost_of_living_index', 'source_url', ...LICENCE_COLUMNS,
];

/**
 * residency/pgy-levels.csv: every teaching hospital at every PGY level from 1 to the highest any scale has
 * (long: one row per hospital and level, in the order of institutions.json, then by level). PGY-1's figures
 * are those of residency/institutions.json, the others those of residency/pgy/{n}.json; a level the scale
 * does not have is a row with salary, adjustment and ranks empty (never 0). Each row cites its level's page
 * and feed, with the hospital's check date as as_of.
 */
function residencyLevelsCsv(list: InstitutionsFeed, docs: Map<string, InstitutionFeed>, feeds: FeedFile[]): string {
  const levels = new Map<number, ResidencyLevelFeed>();
  for (const f of feeds) if (f.kind === 'residencyLevel') levels.set((f.doc as ResidencyLevelFeed).pgy, f.doc as ResidencyLevelFeed);
  const rowOf = new Map([...levels.values()].flatMap((l) => l.institutions.map((r) => [`${l.pgy}/${r.institution.slug}`, r] as const)));
  const top = Math.max(1, ...levels.keys());
  const rows = list.institutions.flatMap((e) => {
    const d = docs.get(e.institution.slug)!;
    const i = d.institution;
    return Array.from({ length: top }, (_, k) => {
      const pgy = k + 1;
      const level = pgy === 1 ? list : levels.get(pgy)!;
      let figures: CsvCell[];
      if (pgy === 1) figures = [d.pgy1_salary, d.pgy1_col_adjusted, d.rank?.position ?? null, d.rank?.of ?? null, d.state_rank?.position ?? null, d.state_rank?.of ?? null];
      else {
        const r = rowOf.get(`${pgy}/${i.slug}`);
        figures = r ? [r.salary, r.col_adjusted, r.rank_position, r.rank_of, r.state_rank, r.state_rank_of] : [null, null, null, null, null, null];
      }
      return [i.slug, i.name, i.city, i.state.code, i.state.name, d.academic_year, pgy, ...figures, d.cost_of_living.index, d.source_url,
        ...licence({ ...level, as_of: d.as_of })];
    });
  });
  return csvText(RESIDENCY_LEVELS_CSV_HEADER, rows);
}
