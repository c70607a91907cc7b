/**
 * Every public page of a build, rendered from the finished feed documents (pure: no fs, no clock), so a
 * page shows exactly the figures of its feed. Returns public-tree paths -> HTML (and the site search
 * index, search-index.json: enhance.ts).
 *
 * File naming: the page at URL path /a/b is written to a/b.html (and / to index.html): one file per page,
 * no directory per page (a build is ~5,400 files; a folder per page would add ~2,700 more entries to
 * write, verify and delete). The server maps a/b.html back to /a/b (server/builds/loaded-build.ts), as
 * GitHub Pages, Cloudflare Pages and Netlify do by default; other static hosts need that one rewrite.
 */
import {
  LICENSE, LICENSE_URL, pagePaths,
  type InstitutionFeed, type InstitutionsFeed, type ResidencyLevelFeed, type SpecialtiesFeed, type SpecialtyFeed, type SpecialtyStateFeed, type StateFeed, type StateInstitutionsFeed, type StatesFeed, type WrvuFeed,
} from '../contract/open-feeds.ts';
import type { FeedFile } from '../compute/open-feeds.ts';
import type { KeyedOpenRow } from '../compute/compare.ts';
import type { SiteContext } from './layout.ts';
import { renderHomePage } from './home.ts';
import { renderInstitutionsIndex, renderSpecialtiesIndex, renderStatesIndex } from './indexes.ts';
import { renderInstitutionPage } from './institution.ts';
import { renderResidencyLevelPages } from './residency-levels.ts';
import { renderLicensePage } from './license.ts';
import { renderMethodologyPage } from './methodology.ts';
import type { AccuracyRow } from '../compute/disclosure-accuracy.ts';
import { renderSpecialtyStatePage } from './specialty-state.ts';
import { renderSpecialtyPage } from './specialty.ts';
import { renderStatePage } from './state.ts';
import { dataYears } from './jsonld.ts';
import { SEARCH_INDEX_FILE, searchIndex, searchIndexJson } from './enhance.ts';

export interface SiteOptions {
  baseUrl: string;
  publisher: string;
  winsorLower: number;
  winsorUpper: number;
  blsTopCode: number;
  /** keyed API vs open data, national figures per specialty (methodology page); empty when not computed */
  keyedVsOpen?: KeyedOpenRow[];
  /** how far the disclosure control moved percentiles, by cell size (methodology page); empty when not computed */
  disclosureAccuracy?: AccuracyRow[];
  /** specialty slug -> its spellings in the reports DB (what the tool server resolves), for the site search; none when absent */
  specialtyAliases?: ReadonlyMap<string, readonly string[]>;
}

/** Public-tree file of the page at URL path `urlPath` ("/salaries/x" -> "salaries/x.html", "/" -> "index.html"). */
export function pageFile(urlPath: string): string {
  const p = urlPath.replace(/^\/+|\/+$/g, '');
  return p ? `${p}.html` : 'index.html';
}

function one<T>(feeds: FeedFile[], kind: FeedFile['kind']): T {
  const f = feeds.find((x) => x.kind === kind);
  if (!f) throw new Error(`no ${kind} feed to render pages from`);
  return f.doc as T;
}

/** The context every page is rendered with. */
export function siteContextFor(o: SiteOptions, synthetic: boolean): SiteContext {
  return {
    baseUrl: o.baseUrl,
    publisher: o.publisher,
    synthetic,
    license: LICENSE,
    licenseUrl: LICENSE_URL,
    winsorLower: o.winsorLower,
    winsorUpper: o.winsorUpper,
    blsTopCode: o.blsTopCode,
  };
}

export function renderSite(feeds: FeedFile[], o: SiteOptions): Map<string, string> {
  const specialties = one<SpecialtiesFeed>(feeds, 'specialties');
  const states = one<StatesFeed>(feeds, 'states');
  const institutions = one<InstitutionsFeed>(feeds, 'institutions');
  const site = siteContextFor(o, specialties.synthetic);

  const bySpecialty = new Map<string, SpecialtyFeed>();
  const wrvu = new Map<string, WrvuFeed>();
  const cellsBySpecialty = new Map<string, SpecialtyStateFeed[]>();
  const cellsByState = new Map<string, SpecialtyStateFeed[]>();
  const stateFeeds: StateFeed[] = [];
  const institutionFeeds: InstitutionFeed[] = [];
  const residencyByState = new Map<string, StateInstitutionsFeed>();
  for (const f of feeds) {
    if (f.kind === 'stateInstitutions') residencyByState.set((f.doc as StateInstitutionsFeed).state.slug, f.doc as StateInstitutionsFeed);
    if (f.kind === 'specialty') bySpecialty.set((f.doc as SpecialtyFeed).specialty.slug, f.doc as SpecialtyFeed);
    else if (f.kind === 'wrvu') wrvu.set((f.doc as WrvuFeed).specialty.slug, f.doc as WrvuFeed);
    else if (f.kind === 'specialtyState') {
      const d = f.doc as SpecialtyStateFeed;
      push(cellsBySpecialty, d.specialty.slug, d);
      push(cellsByState, d.state.slug, d);
    } else if (f.kind === 'state') stateFeeds.push(f.doc as StateFeed);
    else if (f.kind === 'institution') institutionFeeds.push(f.doc as InstitutionFeed);
  }
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

  const years = dataYears(bySpecialty.values());
  const out = new Map<string, string>();
  out.set(SEARCH_INDEX_FILE, searchIndexJson(searchIndex(o.baseUrl, specialties, states, institutions, {
    specialtyAliases: o.specialtyAliases ?? new Map(),
    cells: new Map([...bySpecialty.keys()].map((slug) => [slug, (cellsBySpecialty.get(slug) ?? []).map((c) => c.state.code)])),
    residencyStates: new Set(residencyByState.keys()),
    maxPgy: Math.max(1, ...feeds.filter((f) => f.kind === 'residencyLevel').map((f) => (f.doc as ResidencyLevelFeed).pgy)),
  })));
  out.set(pageFile('/'), renderHomePage(site, specialties, states, institutions, bySpecialty));
  out.set(pageFile(pagePaths.specialtiesIndex()), renderSpecialtiesIndex(site, specialties));
  out.set(pageFile(pagePaths.statesIndex()), renderStatesIndex(site, states, specialties));
  out.set(pageFile(pagePaths.institutionsIndex()), renderInstitutionsIndex(site, institutions));
  out.set(pageFile(pagePaths.methodology()), renderMethodologyPage(site, o.keyedVsOpen ?? [], o.disclosureAccuracy ?? [], specialties.basis));
  out.set(pageFile(pagePaths.license()), renderLicensePage(site, specialties));
  for (const [slug, feed] of bySpecialty) {
    const w = wrvu.get(slug);
    if (!w) throw new Error(`no wRVU feed for ${slug}`);
    const cells = [...(cellsBySpecialty.get(slug) ?? [])].sort((a, b) => byName(a.state.name, b.state.name));
    out.set(pageFile(pagePaths.specialty(slug)), renderSpecialtyPage(site, { feed, wrvu: w, states: cells }));
    for (const c of cells) out.set(pageFile(pagePaths.specialtyState(slug, c.state.slug)), renderSpecialtyStatePage(site, c));
  }
  const levels = feeds.filter((f) => f.kind === 'residencyLevel').map((f) => f.doc as ResidencyLevelFeed);
  const levelPages = renderResidencyLevelPages(site, institutions, levels);
  for (const f of stateFeeds) {
    const cells = [...(cellsByState.get(f.state.slug) ?? [])].sort((a, b) => byName(a.specialty.name, b.specialty.name));
    // the state's hospitals at every PGY level, when their scales go past PGY-1
    const levelsPath = pagePaths.residencyLevelsState(f.state.slug);
    const levelsUrl = levelPages.has(levelsPath) ? `${o.baseUrl}${levelsPath}` : undefined;
    out.set(pageFile(pagePaths.state(f.state.slug)), renderStatePage(site, f, cells, residencyByState.get(f.state.slug), levelsUrl));
  }
  for (const f of institutionFeeds) out.set(pageFile(pagePaths.institution(f.institution.slug)), renderInstitutionPage(site, f));
  for (const [path, html] of levelPages) out.set(pageFile(path), html);
  return out;
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}
