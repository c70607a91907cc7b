/**
 * The fixed resources of a build: the three index feeds with their CSV downloads, the CSV of the rest of the
 * offer, the methodology and the licence pages (the `methodology_url` of every document, and the site's
 * licence and citation terms).
 */
import type { LoadedBuild } from '../../builds/loaded-build.ts';
import { feedPaths, pagePaths } from '../../../build/contract/open-feeds.ts';
import { csvPaths } from '../../../build/compute/open-csv.ts';
import { annotationsOf, mimeOf, nameOf, readFile, titleOf, uriOf, type Registration } from './common.ts';

interface StaticResource {
  path: string;
  /** used when the document has no title of its own (CSV: the JSON feed's title + " (CSV)") */
  title: string;
  description: string;
  /** CSV beside this JSON feed: its title is taken from the feed */
  csvOf?: string;
}

const json = (p: string) => `/${p}`;
const csv = (p: string) => `/${p.replace(/\.json$/, '.csv')}`;

export const STATIC_RESOURCES: readonly StaticResource[] = [
  { path: json(feedPaths.specialties()), title: 'Physician pay by specialty', description: 'Every specialty: national median, P25, P75 and n (approved self-reported reports), with the feed_url and citation_url of each specialty.' },
  { path: csv(feedPaths.specialties()), csvOf: json(feedPaths.specialties()), title: 'Physician pay by specialty (CSV)', description: 'The specialties as CSV (RFC 4180, header row; licence, citation URL and as-of date on every row).' },
  { path: `/${csvPaths.specialtyOffer()}`, title: 'The rest of the offer by specialty (CSV)', description: 'One row per specialty and item of the offer beyond base and bonus (call pay, sign-on, retention, relocation, loan repayment, CME money, weeks off, call nights, pay models with their $/wRVU, non-compete, partnership track): share of reports with it, n, P25, median, P75 in the row\'s unit; licence, citation URL and as-of date on every row.' },
  { path: json(feedPaths.states()), title: 'Physician pay by state', description: 'Every state: median, percentiles and n of all attending reports there, cost of living, feed_url and citation_url.' },
  { path: csv(feedPaths.states()), csvOf: json(feedPaths.states()), title: 'Physician pay by state (CSV)', description: 'The states as CSV (RFC 4180, header row; licence, citation URL and as-of date on every row).' },
  { path: json(feedPaths.institutions()), title: 'Resident pay by teaching hospital', description: 'Every teaching hospital\'s published PGY pay scale with its cost-of-living-adjusted PGY-1 pay and rank.' },
  { path: csv(feedPaths.institutions()), csvOf: json(feedPaths.institutions()), title: 'Resident pay by teaching hospital (CSV)', description: 'The teaching hospitals as CSV (RFC 4180, header row; licence, citation URL and as-of date on every row).' },
  { path: pagePaths.methodology(), title: 'Methodology', description: 'How the figures are collected, moderated, excluded, floored, rounded and compared (the methodology_url of every document).' },
  { path: pagePaths.license(), title: 'Licence and citation', description: 'The CC BY 4.0 terms in short and how to cite a figure (n, as_of, citation_url, the attribution line).' },
];

/** The fixed resources this build publishes, read for `day`. */
export function staticResources(build: LoadedBuild, day: string): Registration[] {
  const out: Registration[] = [];
  for (const r of STATIC_RESOURCES) {
    const file = build.files.get(r.path);
    if (!file) continue; // not part of this build
    const title = r.csvOf ? `${titleOf(build, r.csvOf, day, r.title.replace(/ \(CSV\)$/, ''))} (CSV)` : titleOf(build, r.path, day, r.title);
    out.push({
      name: nameOf(r.path),
      uri: uriOf(build, r.path),
      config: { title, description: r.description, mimeType: mimeOf(file), annotations: annotationsOf(build) },
      read: () => readFile(build, file, day),
    });
  }
  return out;
}
