/**
 * Releases (pure): the next release's id, the cells of a feed whose publication and figures a release
 * compares, what changed between two releases, and the releases.json document.
 *
 * A change is computed from published documents only (the previous release's feed files and this one's),
 * so it tells nothing a reader could not find by comparing the two releases' feeds.
 */
import { DISCLOSURE_METHOD_VERSION } from './disclosure.ts';
import type { SpecialtyFeed, SpecialtyStateFeed, StateFeed, SpecialtiesFeed } from '../contract/open-feeds.ts';
import { parseRelease, releaseFilePath } from '../contract/release-id.ts';
import { ARCHIVE_PATH, DATA_PACKAGE_PATH } from './data-package.ts';
import { RELEASE_LIST_LIMIT, type Release, type ReleaseChanges, type ReleasesFeed } from '../contract/releases.ts';

/** The id of a release built on `buildDate`: the date, or `date.N` after the highest N of that date already used. */
export function nextReleaseId(used: readonly { release: string }[], buildDate: string): string {
  let max = 0;
  for (const { release } of used) {
    const r = parseRelease(release);
    if (r.date === buildDate) max = Math.max(max, r.seq);
  }
  return max === 0 ? buildDate : `${buildDate}.${max + 1}`;
}

const FIGURES = ['median', 'mean', 'p10', 'p25', 'p75', 'p90'] as const;
type Figure = (typeof FIGURES)[number];

/** One cell whose publication and figures a release compares: a specialty nationally, in a state, or a state. */
export interface CellFigures {
  /** the feed's path in the public tree: the cell's identity */
  path: string;
  name: string;
  feed_url: string;
  citation_url: string;
  withheld: boolean;
  rounded: boolean;
  figures: Record<Figure, number | null>;
}

type CellDoc = SpecialtyFeed | SpecialtyStateFeed | StateFeed;

export function cellFigures(path: string, doc: CellDoc): CellFigures {
  const name = !('specialty' in doc) ? `${doc.state.name} (all specialties)`
    : doc.scope === 'state' ? `${doc.specialty.name} in ${(doc as SpecialtyStateFeed).state.name}` : doc.specialty.name;
  const figures = Object.fromEntries(FIGURES.map((f) => [f, doc[f]])) as Record<Figure, number | null>;
  return { path, name, feed_url: doc.feed_url, citation_url: doc.citation_url, withheld: doc.withheld, rounded: doc.rounded, figures };
}

const ref = (c: CellFigures) => ({ name: c.name, feed_url: c.feed_url, citation_url: c.citation_url });
const listed = (cells: CellFigures[]) => ({
  count: cells.length,
  cells: [...cells].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).slice(0, RELEASE_LIST_LIMIT).map(ref),
});
/** a published figure's rounding unit: $1,000 when it comes from 24 or fewer reports, otherwise $1 */
const unit = (c: CellFigures) => (c.rounded ? 1000 : 1);
const pct = (from: number, to: number) => Math.round(((to - from) / from) * 1000) / 10;

/**
 * What changed from `before` to `after`, cell by cell (cells absent from one side are compared with
 * nothing: a new cell published is newly published). Only cells given on both sides can move; pass the
 * cells of the feeds whose content changed (an unchanged feed moved nothing).
 */
export function releaseChanges(
  previous: string,
  before: readonly CellFigures[],
  after: readonly CellFigures[],
  reports: { before: number; after: number },
): ReleaseChanges {
  const old = new Map(before.map((c) => [c.path, c]));
  const published: CellFigures[] = [];
  const withheld: CellFigures[] = [];
  const moves: ReleaseChanges['largest_moves'] = [];
  let moved = 0;
  for (const c of after) {
    const b = old.get(c.path);
    const wasPublished = b ? !b.withheld : false;
    if (!c.withheld && !wasPublished) published.push(c);
    else if (c.withheld && wasPublished) withheld.push(c);
    else if (!c.withheld && b) {
      const u = Math.max(unit(b), unit(c));
      const any = FIGURES.some((f) => {
        const [x, y] = [b.figures[f], c.figures[f]];
        return x !== null && y !== null && Math.abs(y - x) > u;
      });
      if (!any) continue;
      moved++;
      const [x, y] = [b.figures.median, c.figures.median];
      if (x !== null && y !== null && x !== 0 && Math.abs(y - x) > u) moves.push({ cell: ref(c), figure: 'median', from: x, to: y, change_pct: pct(x, y) });
    }
  }
  const now = new Set(after.map((c) => c.path));
  for (const b of before) if (!now.has(b.path) && !b.withheld) withheld.push(b); // a cell that is gone
  moves.sort((a, b) => Math.abs(b.change_pct) - Math.abs(a.change_pct) || Math.abs(b.to - b.from) - Math.abs(a.to - a.from) || (a.cell.name < b.cell.name ? -1 : 1));
  return {
    previous,
    reports_added: reports.after - reports.before,
    newly_published: listed(published),
    newly_withheld: listed(withheld),
    figures_moved: moved,
    largest_moves: moves.slice(0, RELEASE_LIST_LIMIT),
  };
}

/** The release entry of this build. */
export function releaseEntry(o: {
  release: string;
  date: string;
  dataAsOf: string;
  specialties: SpecialtiesFeed;
  archiveSha256: string;
  changes: ReleaseChanges | null;
  /** the build's base URL, for the release's own URLs */
  baseUrl: string;
  datapackageSha256: string;
}): Release {
  return {
    release: o.release,
    date: o.date,
    data_as_of: o.dataAsOf,
    reports_used: o.specialties.n ?? 0,
    specialties_published: o.specialties.specialties.filter((s) => !s.withheld).length,
    specialties: o.specialties.count,
    archive_sha256: o.archiveSha256,
    disclosure_method: DISCLOSURE_METHOD_VERSION,
    changes: o.changes,
    urls: releaseUrls(o.baseUrl, o.release),
    datapackage_sha256: o.datapackageSha256,
    basis: o.specialties.basis.compensation_years,
  };
}

/** Where a release's files are served (data/api/v1/releases/<release>/...). */
export function releaseUrls(baseUrl: string, release: string): NonNullable<Release['urls']> {
  const at = (path: string) => `${baseUrl}/${releaseFilePath(release, path)}`;
  return { files: at('data/api/v1/'), archive: at(ARCHIVE_PATH), datapackage: at(DATA_PACKAGE_PATH), citation_cff: at(RELEASE_CITATION_CFF_PATH) };
}

/** Each release's own CITATION.cff (citing that release's archive), beside its files. */
export const RELEASE_CITATION_CFF_PATH = 'data/api/v1/CITATION.cff';

/** How long releases stay here: the README's "Releases" section says the same. */
export function retentionNote(keep: number): string {
  return `Every kept release is served whole at data/api/v1/releases/<release>/ (each release's urls): every feed, CSV, datapackage.json, CITATION.cff and the archive, as that release published them, and the same bytes for as long as it is kept. `
    + `The publisher keeps the last ${keep} releases and any it pins (\`kept\` lists them); a document unchanged since an older release is still served at that release's URL while a kept release holds it. `
    + `This list keeps each release's entry and its archive's SHA-256 for good, so a copy archived elsewhere can be checked against archive_sha256.`;
}

export function releasesDocument(o: {
  baseUrl: string;
  publisher: string;
  synthetic: boolean;
  keep: number;
  /** the releases served when this one is published, newest first */
  kept: string[];
  entry: Release;
  history: readonly Release[];
  feedPath: string;
  changelogPath: string;
  methodologyPath: string;
  license: ReleasesFeed['license'];
  licenseUrl: ReleasesFeed['license_url'];
}): ReleasesFeed {
  return {
    title: `${o.publisher} open data releases`,
    publisher: o.publisher,
    license: o.license,
    license_url: o.licenseUrl,
    feed_url: `${o.baseUrl}/${o.feedPath}`,
    citation_url: `${o.baseUrl}${o.changelogPath}`,
    methodology_url: `${o.baseUrl}${o.methodologyPath}`,
    synthetic: o.synthetic,
    latest: o.entry.release,
    retention: retentionNote(o.keep),
    kept: o.kept,
    // a kept release listed before releases had URLs is served all the same: its entry gets them
    releases: [o.entry, ...o.history.filter((r) => r.release !== o.entry.release)]
      .map((r) => (r.urls || !o.kept.includes(r.release) ? r : { ...r, urls: releaseUrls(o.baseUrl, r.release) }))
      .map((r, k) => (k < RELEASES_IN_DETAIL ? r : summarised(r))),
  };
}

/** releases listed with their changed cells and moves; older ones keep only their counts, so the list stays small */
export const RELEASES_IN_DETAIL = 30;

function summarised(r: Release): Release {
  if (!r.changes) return r;
  const c = r.changes;
  return {
    ...r,
    changes: { ...c, newly_published: { count: c.newly_published.count, cells: [] }, newly_withheld: { count: c.newly_withheld.count, cells: [] }, largest_moves: [] },
  };
}
