/**
 * CSV downloads of the open data (pure), written beside the JSON feeds from the same finished documents:
 *
 *   data/api/v1/specialties.csv              one row per specialty (national figures)
 *   data/api/v1/specialty-states.csv         one row per specialty and state, every pair (most withheld)
 *   data/api/v1/states.csv                   one row per state (all specialties)
 *   data/api/v1/residency/institutions.csv   one row per teaching hospital (its PGY scale, wide)
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
import type { HeadlineBasis, InstitutionFeed, InstitutionsFeed, SpecialtiesFeed, SpecialtyFeed, SpecialtyStateFeed, StateFeed, StatesFeed } from '../contract/open-feeds.ts';
import type { FeedFile } from './open-feeds.ts';

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

export const csvPaths = {
  specialties: () => 'data/api/v1/specialties.csv',
  specialtyStates: () => 'data/api/v1/specialty-states.csv',
  states: () => 'data/api/v1/states.csv',
  institutions: () => 'data/api/v1/residency/institutions.csv',
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
  }
  return out;
}
