/**
 * schema.org `Dataset` metadata (JSON-LD) for search engines (pure: from feed documents only, no clock).
 * Google Dataset Search requires `name` and `description` (50 to 5,000 characters) and reads the others
 * used here: url, identifier, license, creator, publisher, isAccessibleForFree, keywords, temporalCoverage,
 * spatialCoverage, variableMeasured, distribution (DataDownload with contentUrl and encodingFormat) and
 * dateModified.
 *
 * dateModified is the document's `modified` (the date of the release in which its figures last changed),
 * never the build date, so a page's metadata changes exactly when its figures do (`as_of`, the newest report
 * behind them, stays put when the outlier fences or the headline years move the figures). Pages with nothing published (a withheld specialty or
 * state) carry none: a dataset with no values is not one to offer in search.
 */
import { feedPaths, type SpecialtiesFeed, type SpecialtyFeed, type StateFeed, type StatesFeed } from '../contract/open-feeds.ts';
import { ARCHIVE_PATH, DATA_PACKAGE_PATH } from '../compute/data-package.ts';
import { csvPaths } from '../compute/open-csv.ts';
import type { SiteContext } from './layout.ts';

type Json = Record<string, unknown>;

const SCHEMA_CONTEXT = 'https://schema.org/';

/** The pay figures every dataset holds (variableMeasured). */
const VARIABLES: [string, string][] = [
  ['median', 'median total annual compensation (base, bonus and incentives), US dollars'],
  ['mean', 'mean total annual compensation, US dollars'],
  ['p25', '25th percentile of total annual compensation, US dollars'],
  ['p75', '75th percentile of total annual compensation, US dollars'],
  ['p10', '10th percentile of total annual compensation, US dollars (published from 15 reports)'],
  ['p90', '90th percentile of total annual compensation, US dollars (published from 15 reports)'],
];

function variables(): Json[] {
  return [
    ...VARIABLES.map(([name, description]) => ({ '@type': 'PropertyValue', name, description, unitText: 'USD', unitCode: 'USD' })),
    { '@type': 'PropertyValue', name: 'n', description: 'approved self-reported salary reports behind the figures, after outlier exclusion' },
  ];
}

function organization(site: SiteContext): Json {
  return { '@type': 'Organization', name: site.publisher, url: `${site.baseUrl}/` };
}

function download(url: string, encodingFormat: string, name: string): Json {
  return { '@type': 'DataDownload', name, contentUrl: url, encodingFormat };
}

/** Every release's archive of the open data, and the data package describing its CSVs. */
function wholeData(site: SiteContext): Json[] {
  return [
    download(`${site.baseUrl}/${ARCHIVE_PATH}`, 'application/gzip', 'All feeds and CSVs of the latest release (tar.gz)'),
    download(`${site.baseUrl}/${DATA_PACKAGE_PATH}`, 'application/json', 'Frictionless Data Package describing the CSVs'),
  ];
}

const KEYWORDS = ['physician compensation', 'physician salary', 'doctor pay', 'medical specialties', 'United States', 'open data'];

function dataset(site: SiteContext, o: {
  name: string;
  description: string;
  url: string;
  identifier: string;
  dateModified: string;
  temporalCoverage: string | null;
  spatial: string;
  keywords: string[];
  distribution: Json[];
}): Json {
  return {
    '@context': SCHEMA_CONTEXT,
    '@type': 'Dataset',
    name: o.name,
    description: o.description,
    url: o.url,
    identifier: o.identifier,
    license: site.licenseUrl,
    isAccessibleForFree: true,
    creator: organization(site),
    publisher: organization(site),
    keywords: o.keywords,
    ...(o.temporalCoverage ? { temporalCoverage: o.temporalCoverage } : {}),
    spatialCoverage: { '@type': 'Place', name: o.spatial },
    variableMeasured: variables(),
    distribution: o.distribution,
    dateModified: o.dateModified,
  };
}

/** "2022/2026" from the years of published rows, or "2026" for one; null for none. */
export function yearSpan(years: number[]): string | null {
  if (!years.length) return null;
  const [first, last] = [Math.min(...years), Math.max(...years)];
  return first === last ? String(first) : `${first}/${last}`;
}

/** The compensation years of the open data: every year of the specialties' by_year rows. */
export function dataYears(specialties: Iterable<SpecialtyFeed>): number[] {
  const years = new Set<number>();
  for (const f of specialties) for (const r of f.by_year) years.add(r.year);
  return [...years].sort((a, b) => a - b);
}

const synthetic = (site: SiteContext) => (site.synthetic ? ' This build holds synthetic demo data, not real reports.' : '');

/** The whole open data (home page and the open data index). `years`: the compensation years of the open data. */
export function homeDatasetJsonLd(site: SiteContext, sp: SpecialtiesFeed, st: StatesFeed, years: number[]): Json {
  const published = sp.specialties.filter((s) => !s.withheld).length;
  const u = (p: string) => `${site.baseUrl}/${p}`;
  return dataset(site, {
    name: 'Physician compensation benchmarks: open data',
    description: `Median, mean and percentiles of the total annual compensation of US physicians by specialty and state, from ${sp.n ?? 0} moderated self-reported salary reports (${published} of ${sp.count} specialties published; figures below publication floors are withheld, never estimated), and the resident pay scales teaching hospitals publish. JSON feeds, CSV downloads and one archive, under CC BY 4.0.${synthetic(site)}`,
    url: `${site.baseUrl}/`,
    identifier: u('data/api/v1/'),
    dateModified: sp.modified,
    temporalCoverage: yearSpan(years),
    spatial: 'United States',
    keywords: KEYWORDS,
    distribution: [
      download(sp.feed_url, 'application/json', 'Specialties (JSON)'),
      download(u(csvPaths.specialties()), 'text/csv', 'Specialties (CSV)'),
      download(u(csvPaths.specialtyOffer()), 'text/csv', 'The rest of the offer by specialty: call pay, one-time payments, terms (CSV)'),
      download(st.feed_url, 'application/json', 'States (JSON)'),
      download(u(csvPaths.states()), 'text/csv', 'States (CSV)'),
      download(u(csvPaths.residencyLevels()), 'text/csv', 'Resident salaries by teaching hospital and PGY level (CSV)'),
      ...wholeData(site),
    ],
  });
}

/** One specialty nationally (its page). Null when the specialty is withheld. */
export function specialtyDatasetJsonLd(site: SiteContext, f: SpecialtyFeed): Json | null {
  if (f.withheld) return null;
  const name = f.specialty.name;
  return dataset(site, {
    name: `${name} salary data: physician compensation in the United States`,
    description: `Total annual compensation (base, bonus and incentives) of physicians in ${name} in the United States: median, mean and percentiles from ${f.n} moderated self-reported salary reports, with the figures by state, practice setting and compensation year, and compensation per wRVU. Figures below publication floors are withheld, never estimated. CC BY 4.0.${synthetic(site)}`,
    url: f.citation_url,
    identifier: f.feed_url,
    dateModified: f.modified,
    temporalCoverage: yearSpan(f.by_year.filter((r) => !r.withheld).map((r) => r.year)),
    spatial: 'United States',
    keywords: [name, ...KEYWORDS],
    distribution: [
      download(f.feed_url, 'application/json', `${name} (JSON)`),
      download(f.wrvu.feed_url, 'application/json', `${name}: compensation per wRVU (JSON)`),
      download(`${site.baseUrl}/${csvPaths.specialties()}`, 'text/csv', 'All specialties (CSV)'),
      download(`${site.baseUrl}/${csvPaths.specialtyOffer()}`, 'text/csv', 'The rest of the offer, every specialty (CSV)'),
      ...wholeData(site),
    ],
  });
}

/** One state, all specialties (its page). Null when the state is withheld. */
export function stateDatasetJsonLd(site: SiteContext, f: StateFeed): Json | null {
  if (f.withheld) return null;
  const st = f.state.name;
  return dataset(site, {
    name: `Physician compensation in ${st}`,
    description: `Total annual compensation (base, bonus and incentives) of physicians in ${st}, all specialties together and specialty by specialty: median, mean and percentiles from ${f.n} moderated self-reported salary reports, the top-paying specialties against their US medians, and the cost of living. Figures below publication floors are withheld, never estimated. CC BY 4.0.${synthetic(site)}`,
    url: f.citation_url,
    identifier: f.feed_url,
    dateModified: f.modified,
    // the state's figures are headline figures: the basis years only (a specialty's page also has its by-year rows)
    temporalCoverage: yearSpan([f.basis.compensation_years.from, f.basis.compensation_years.to]),
    spatial: `${st}, United States`,
    keywords: [st, ...KEYWORDS],
    distribution: [
      download(f.feed_url, 'application/json', `${st} (JSON)`),
      download(`${site.baseUrl}/${feedPaths.states()}`, 'application/json', 'All states (JSON)'),
      download(`${site.baseUrl}/${csvPaths.states()}`, 'text/csv', 'All states (CSV)'),
      ...wholeData(site),
    ],
  });
}

/**
 * The `<script type="application/ld+json">` block of a page. A data block is never executed (the pages'
 * Content-Security-Policy does not apply to it); `<`, `>` and `&` are written as \u escapes so no text in
 * it can close the element, and U+2028/2029 so it stays valid JavaScript too.
 */
export function jsonLdScript(obj: Json): string {
  const text = JSON.stringify(obj)
    .replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `<script type="application/ld+json">${text}</script>`;
}
