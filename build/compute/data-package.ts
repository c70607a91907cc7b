/**
 * The open data as a Frictionless Data Package (v2) and one archive (pure): `datapackage.json` describes every
 * CSV download (fields, types, units, missing values, primary key, licence, sources, the publication floors
 * and the disclosure control), and the archive holds every feed and CSV of the build with that descriptor.
 * Both are written by the build beside the feeds (data/api/v1/) and served like them.
 */
import { createHash } from 'node:crypto';
import { LICENSE_URL } from '../contract/open-feeds.ts';
import { accessDateToken } from '../contract/manifest.ts';
import { FLOORS, ROUNDING_MAX_N } from './stats.ts';
import { DEFINITIONS_PATH, definitionText } from '../contract/definitions.ts';
import { tarGz } from './tar.ts';

export const DATA_PACKAGE_PATH = 'data/api/v1/datapackage.json';
export const ARCHIVE_NAME = 'physpay-open-data.tar.gz';
export const ARCHIVE_PATH = `data/api/v1/${ARCHIVE_NAME}`;
export const ARCHIVE_SHA256_PATH = `${ARCHIVE_PATH}.sha256`;

type Json = Record<string, unknown>;
interface FieldSpec { type: 'string' | 'integer' | 'number' | 'boolean' | 'date'; description: string; format?: string; unit?: string }


/** A money column with its definition (definitions.ts: the same words as definitions.json and the methodology page). */
const DEFINED_USD = (figure: string, empty = 'empty when withheld'): FieldSpec => ({
  type: 'number', unit: 'USD',
  description: `${definitionText(figure)} The row's compensation_year_from and compensation_year_to name its years; ${empty}.`,
});

/** What every column of the CSV downloads means (columns named pgyN_salary are matched by pattern). */
const FIELDS: Record<string, FieldSpec> = {
  slug: { type: 'string', description: 'stable identifier used in URLs' },
  name: { type: 'string', description: 'name' },
  code: { type: 'string', description: 'two-letter USPS code (DC included)' },
  region: { type: 'string', description: 'US Census region: Northeast, Midwest, South or West' },
  city: { type: 'string', description: 'city of the teaching hospital' },
  state_code: { type: 'string', description: 'two-letter USPS code of the state' },
  state: { type: 'string', description: 'state name' },
  academic_year: { type: 'string', description: 'academic year of the pay scale, e.g. 2025-2026' },
  n: { type: 'integer', description: `${definitionText('n')} Empty below the publication floor.` },
  median: DEFINED_USD('median'),
  mean: DEFINED_USD('mean'),
  p10: DEFINED_USD('p10'),
  p25: DEFINED_USD('p25'),
  p75: DEFINED_USD('p75'),
  p90: DEFINED_USD('p90'),
  compensation_year_from: { type: 'integer', description: 'first compensation year the row\'s figures count: they count the most recent complete years (the year of the newest submission is still being reported and is left out)' },
  compensation_year_to: { type: 'integer', description: 'last compensation year the row\'s figures count' },
  full_time_basis: { type: 'boolean', description: 'true: pay is on a full-time basis (part-time pay of 10-39 hours a week scaled to 40 hours; reports without hours count as full-time unless their employment type is Part-Time (W-2), which is left out; hours outside 10-100 left out)' },
  rounded: { type: 'boolean', description: `true when the figures come from ${ROUNDING_MAX_N} reports or fewer and are rounded to $1,000` },
  withheld: { type: 'boolean', description: 'true when the row is below its publication floor: its figures are empty' },
  cost_of_living_index: { type: 'number', description: 'cost-of-living index of the state (US average = 100)', unit: 'index' },
  col_adjusted_median: DEFINED_USD('col_adjusted_median'),
  pgy1_col_adjusted: { type: 'number', unit: 'USD', description: definitionText('pgy1_col_adjusted') },
  rank: { type: 'integer', description: 'national rank of the cost-of-living-adjusted PGY-1 salary (pgy1_col_adjusted) among the pay scales of the same academic year, every state (1 = highest; ties share a rank); empty when the state has no cost-of-living index' },
  rank_of: { type: 'integer', description: 'how many pay scales of that academic year are ranked nationally; empty when the row is not ranked' },
  specialty_slug: { type: 'string', description: 'stable identifier of the specialty, used in URLs' },
  specialty_name: { type: 'string', description: 'name of the specialty' },
  state_slug: { type: 'string', description: 'stable identifier of the state, used in URLs' },
  state_name: { type: 'string', description: 'state name' },
  national_median: DEFINED_USD('national_median', 'empty when the national figures are withheld'),
  difference_from_national_pct: { type: 'number', description: `${definitionText('difference_from_national_pct')} Empty when either median is withheld.`, unit: '%' },
  source_url: { type: 'string', format: 'uri', description: 'where the hospital publishes its pay scale' },
  as_of: { type: 'date', description: 'data date of the row: the newest submission (reports) or the scale\'s check date (residency)' },
  citation_url: { type: 'string', format: 'uri', description: 'the page to cite for this row' },
  feed_url: { type: 'string', format: 'uri', description: 'the JSON feed with this row\'s figures' },
  methodology_url: { type: 'string', format: 'uri', description: 'how the figures are made' },
  license: { type: 'string', description: 'licence of the figures (CC BY 4.0)' },
  license_url: { type: 'string', format: 'uri', description: 'the licence deed' },
  publisher: { type: 'string', description: 'who publishes the figures (credit them)' },
  synthetic: { type: 'boolean', description: 'true when the figures are synthetic demo data, not real reports' },
};

/**
 * The columns of specialty-offer-components.csv whose meaning differs from the same name in the other CSVs (its
 * figures are of the row's item, in the row's unit, not total compensation); the rest are as in FIELDS.
 */
const OFFER_SHARE = `percent (one decimal): for an item one has or not, the share of the reports answering the question that have it; for a pay model, the share of the reports naming a pay model that name this one. Each count behind it is perturbed like n, and a count below ${FLOORS.national} counts as ${FLOORS.national / 2} whatever it is (0 to 4), so a share never tells how many of fewer than ${FLOORS.national} reports have it or lack it. Empty when fewer than ${FLOORS.national} answered, and on the weeks off and call nights rows`;
const offerFigure = (what: string): FieldSpec => ({
  type: 'number',
  description: `${what} of the row's item, in the row's unit (unit column), among the reports that have it (weeks off: every answer; call nights: those who take call); amounts as reported, not scaled to full time; rounded to rounded_to. Empty when withheld (fewer than ${FLOORS.national} reports behind it) and where the item has no such figure. ${definitionText('components')}`,
});
const OFFER_FIELDS: Record<string, FieldSpec> = {
  item: { type: 'string', description: 'the item: a money component (call_pay, signing_bonus, retention_bonus, relocation, loan_repayment, cme_allowance), pto_weeks, call_nights_per_month, compensation_model_<model> (salary, salary_plus_productivity, production, collections, shift: its share and the median $/wRVU conversion rate of its contracts), non_compete_miles and non_compete_years (the non-compete\'s radius and length; the same share on both rows), partnership_track_years' },
  label: { type: 'string', description: 'the item in words' },
  unit: { type: 'string', description: 'unit of p25, median and p75 on this row: USD a year, USD once, USD in all (loan repayment over the contract), weeks a year, nights a month, USD per wRVU, miles or years' },
  share_pct: { type: 'number', unit: '%', description: OFFER_SHARE },
  answered: { type: 'integer', description: `reports that answered the question (for an item one has or not, 0 = none counts as an answer; for a pay model, those naming a pay model), perturbed like n; empty below ${FLOORS.national} and on the weeks off and call nights rows` },
  n: { type: 'integer', description: `reports behind the row's p25, median and p75: those that have the item (n_with in the feed), every answer for weeks off, those who take call for call nights, the rated contracts of the pay model for $/wRVU; perturbed by up to 2 within its class (${FLOORS.national}-${FLOORS.tails - 1}, ${FLOORS.tails}-${ROUNDING_MAX_N}, ${ROUNDING_MAX_N + 1}+); empty below ${FLOORS.national}` },
  p25: offerFigure('25th percentile (type 7)'),
  median: offerFigure('Median (type 7)'),
  p75: offerFigure('75th percentile (type 7)'),
  rounded_to: { type: 'number', description: `the rounding step of the row's figures, in its unit: 1000 (USD) from ${ROUNDING_MAX_N} reports or fewer, else 1; $/wRVU 1 from ${ROUNDING_MAX_N} or fewer, else 0.01; miles 5 from ${ROUNDING_MAX_N} or fewer, else 1; weeks, nights and years 0.5 (half units) at any n. Empty when withheld` },
  withheld: { type: 'boolean', description: `true when fewer than ${FLOORS.national} reports are behind the row's figures (p25, median, p75 empty); its share and answered may still be published` },
  full_time_basis: { type: 'boolean', description: 'true: the rows count the reports of the headline figures (the compensation years named, the full-time basis population, outliers left out); the amounts, weeks and nights themselves are as reported, not scaled to full time' },
};

/** The columns of residency/pgy-levels.csv whose meaning differs from institutions.csv's (figures of the row's level). */
const LEVEL_FIELDS: Record<string, FieldSpec> = {
  pgy: { type: 'integer', description: 'postgraduate year (PGY) level of the row' },
  salary: { type: 'number', unit: 'USD', description: `${definitionText('pgy_salary')} Empty when the scale has no such level.` },
  col_adjusted: { type: 'number', unit: 'USD', description: `${definitionText('col_adjusted')} Empty when the scale has no such level or the state no index.` },
  rank: { type: 'integer', description: 'national rank of col_adjusted among the pay scales of the same academic year with this level, every state (1 = highest; ties share a rank); empty when not ranked' },
  rank_of: { type: 'integer', description: 'how many pay scales of that academic year with this level are ranked nationally; empty when the row is not ranked' },
  state_rank: { type: 'integer', description: 'rank of col_adjusted among the same state\'s pay scales of that academic year with this level; empty when not ranked' },
  state_rank_of: { type: 'integer', description: 'how many of the state\'s pay scales of that academic year with this level are ranked; empty when not ranked' },
  citation_url: { type: 'string', format: 'uri', description: 'the page of the row\'s level to cite (/residency for PGY-1, /residency/pgy/{n} above)' },
  feed_url: { type: 'string', format: 'uri', description: 'the JSON feed of the row\'s level (residency/institutions.json for PGY-1, residency/pgy/{n}.json above)' },
};

function field(name: string, own: Record<string, FieldSpec> = {}): Json {
  const pgy = /^pgy(\d+)_salary$/.exec(name);
  const spec = pgy ? { type: 'number' as const, unit: 'USD', description: `PGY-${pgy[1]}: ${definitionText('pgy_salary')} Empty when the scale has no PGY-${pgy[1]} level.` } : own[name] ?? FIELDS[name];
  if (!spec) throw new Error(`data package: no description of CSV column ${name}`);
  return { name, type: spec.type, description: spec.description, ...(spec.format ? { format: spec.format } : {}), ...(spec.unit ? { unit: spec.unit } : {}) };
}

/** One CSV download to describe: its path under data/api/v1/, its text, title and primary key. */
interface CsvResource { name: string; path: string; title: string; description: string; primaryKey: string[]; fields?: Record<string, FieldSpec> }

const RESOURCES: CsvResource[] = [
  { name: 'specialties', path: 'specialties.csv', title: 'Specialties: national figures', description: 'One row per specialty: national total compensation of approved self-reported reports.', primaryKey: ['slug'] },
  { name: 'specialty-states', path: 'specialty-states.csv', title: 'Specialties by state', description: 'One row per specialty and state (DC included), every pair: total compensation of that specialty in that state, beside its national median. Most rows are withheld (fewer than the floor of reports).', primaryKey: ['specialty_slug', 'state_code'] },
  { name: 'states', path: 'states.csv', title: 'States: all specialties', description: 'One row per state and DC: total compensation of all specialties, with the cost-of-living index.', primaryKey: ['code'] },
  {
    name: 'specialty-offer-components', path: 'specialty-offer-components.csv', title: 'The rest of the offer by specialty',
    description: `One row per specialty and item of the whole offer beyond pay (the components section of specialties/{slug}.json), nationally: how common each money component is (call pay, sign-on and retention bonuses, relocation, loan repayment, CME allowance) and its quartiles among the reports that have it; weeks off and call nights; each pay model's share and the median $/wRVU conversion rate of its contracts; non-competes (radius, length) and partnership tracks. The same reports and compensation years as the specialty's headline figures; amounts as reported, not scaled to full time. A row's figures need ${FLOORS.national} reports behind them (else empty and withheld = true); shares come from perturbed counts, a count below ${FLOORS.national} counting as ${FLOORS.national / 2}.`,
    primaryKey: ['specialty_slug', 'item'], fields: OFFER_FIELDS,
  },
  { name: 'residency-institutions', path: 'residency/institutions.csv', title: 'Resident salaries by teaching hospital', description: 'One row per teaching hospital: its published PGY pay scale (wide), from the hospital\'s own publication.', primaryKey: ['slug'] },
  {
    name: 'residency-pgy-levels', path: 'residency/pgy-levels.csv', title: 'Resident salaries by teaching hospital and PGY level',
    description: 'One row per teaching hospital and PGY level, from PGY-1 to the highest level any scale has: the published salary, the salary adjusted for the state\'s cost of living, and its national and state rank among the scales of the same academic year with that level. A level the hospital\'s scale does not have is a row with those cells empty (not 0).',
    primaryKey: ['slug', 'pgy'], fields: LEVEL_FIELDS,
  },
];

export interface PackageInput {
  baseUrl: string;
  publisher: string;
  /** the data date (newest submission behind the build): the package's version, so a rebuild of the same data is the same package */
  dataAsOf: string;
  /** data/api/v1/<path> -> CSV text, for the CSVs the build wrote */
  csv: ReadonlyMap<string, string>;
}

/** The datapackage.json document (pure). */
export function dataPackage(p: PackageInput): Json {
  const resources = RESOURCES.filter((r) => p.csv.has(`data/api/v1/${r.path}`)).map((r) => {
    const text = p.csv.get(`data/api/v1/${r.path}`)!;
    const headerLine = text.slice(0, text.indexOf('\r\n'));
    const header = headerLine.split(',');
    return {
      name: r.name, path: r.path, title: r.title, description: r.description,
      format: 'csv', mediatype: 'text/csv', encoding: 'utf-8', bytes: Buffer.byteLength(text), hash: `sha256:${createHash('sha256').update(text).digest('hex')}`,
      dialect: { delimiter: ',', lineTerminator: '\r\n', quoteChar: '"', doubleQuote: true, header: true },
      schema: { fields: header.map((h) => field(h, r.fields)), primaryKey: r.primaryKey, missingValues: [''] },
    };
  });
  return {
    $schema: 'https://datapackage.org/profiles/2.0/datapackage.json',
    name: 'physpay-open-data',
    title: `${p.publisher} physician compensation open data`,
    description: `US physician total compensation by specialty and by state, from moderated self-reported salary reports, and resident salaries from the pay scales teaching hospitals publish. Publication floors: a figure is published only from ${FLOORS.national} approved reports nationally and per state, ${FLOORS.specialtyInState} for a specialty in a state, and P10/P90 from ${FLOORS.tails}; below a floor the row is kept with its figures empty and withheld = true. Reported pay counts the most recent complete compensation years on a full-time basis (each row says which years). Outliers (outside the Tukey fences of a specialty's national full-time pay) are left out. Disclosure control: every report's pay carries a permanent noise factor, every figure and count is perturbed by a small deterministic amount, and figures from ${ROUNDING_MAX_N} reports or fewer are rounded to $1,000, so that no single report can be read off or isolated by comparing cells or builds (${p.baseUrl}/methodology). Every figure is defined (population, n, rounding, disclosure noise, unit) in ${p.baseUrl}/${DEFINITIONS_PATH}. Version ${p.dataAsOf} is the data date (the newest approved submission).`,
    homepage: `${p.baseUrl}/data/api/v1/`,
    version: p.dataAsOf,
    created: `${p.dataAsOf}T00:00:00Z`,
    keywords: ['physician compensation', 'salary', 'healthcare workforce', 'residency', 'open data'],
    licenses: [{ name: 'CC-BY-4.0', path: LICENSE_URL, title: 'Creative Commons Attribution 4.0 International' }],
    contributors: [{ title: p.publisher, roles: ['publisher'], path: p.baseUrl }],
    sources: [
      { title: 'Approved self-reported salary reports (moderated)', path: `${p.baseUrl}/methodology` },
      { title: 'Teaching hospitals\' published resident pay scales', path: `${p.baseUrl}/residency` },
      { title: 'BLS Occupational Employment and Wage Statistics (comparison only)', path: 'https://www.bls.gov/oes/' },
    ],
    resources,
  };
}

/** What an archived file's attribution says in place of "accessed <date>": when the archive was built. */
export function archivedToken(buildDate: string): string {
  return `archive built ${buildDate})`;
}

/**
 * The archive of the open data (pure): every feed and CSV of `files` (paths under data/api/v1/, as the build
 * wrote them for `buildDate`) and the data package, under one folder, and its SHA-256 line (`sha256sum -c`
 * reads it). A served file's attribution says when it was accessed (the server writes the day); an
 * archived one says when the archive was built (`archive built <buildDate>`), and the files' times are that
 * day. The build makes a new archive only when one of its files changed: otherwise it keeps the earlier
 * archive, which still says when it was built.
 */
export function openDataArchive(files: ReadonlyMap<string, Buffer>, buildDate: string): { archive: Buffer; sha256Line: string } {
  const accessed = accessDateToken(buildDate);
  const archived = archivedToken(buildDate);
  const entries = [...files.keys()].sort().map((path) => {
    const bytes = files.get(path)!;
    return { path: `physpay-open-data/${path.slice('data/api/v1/'.length)}`, bytes: bytes.includes(accessed) ? Buffer.from(bytes.toString('utf8').split(accessed).join(archived)) : bytes };
  });
  const archive = tarGz(entries, Date.parse(`${buildDate}T00:00:00Z`) / 1000);
  return { archive, sha256Line: `${createHash('sha256').update(archive).digest('hex')}  ${ARCHIVE_NAME}\n` };
}
