/**
 * The alias redirects of a static export (pure): for every feed and page of the build whose path names
 * an entity, the known other spellings of that entity (Resolver.aliases: two-letter state codes in upper
 * and lower case, specialty aliases and names, institution names) that are valid URL segments, each
 * checked against the server's own answer for that path (matchFeed for feeds, lookupPage for pages) so
 * the export redirects exactly where physpay serve would.
 *
 * One segment is aliased at a time: /salaries/ob-gyn/texas and /salaries/obstetrics-gynecology/TX are
 * listed, /salaries/ob-gyn/TX is not (the list would multiply). Other letter cases cannot be listed.
 */
import { slugify } from '../../build/contract/names.ts';
import { pagePaths } from '../../build/contract/open-feeds.ts';
import { FEED_ROUTES, matchFeed } from '../open-data/routes.ts';
import type { Alias, EntityKind } from '../open-data/resolve.ts';
import { lookupPage, type PageSource } from '../pages/not-found.ts';
import type { ExportRedirect } from './plan.ts';

export interface AliasSource extends PageSource {
  aliases(kind: EntityKind): readonly Alias[];
}

interface AliasRoute {
  kinds: EntityKind[];
  pattern: RegExp;
  /** the path with these segments */
  path: (...segments: string[]) => string;
  /** where physpay serve sends this path (the canonical path), or null */
  answer: (src: AliasSource, path: string) => string | null;
}

const HOLE = '\u0000';
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A route's pattern from its path function: each segment becomes a capture. */
const patternOf = (path: (...s: string[]) => string, n: number) =>
  new RegExp(`^${escapeRe(path(...Array.from({ length: n }, () => HOLE))).replaceAll(HOLE, '([^/]+)')}$`);

const pageRoute = (kinds: EntityKind[], path: (...s: string[]) => string): AliasRoute => ({
  kinds,
  pattern: patternOf(path, kinds.length),
  path,
  answer: (src, p) => lookupPage(src, p).redirect,
});

const ROUTES: AliasRoute[] = [
  ...FEED_ROUTES.map((r): AliasRoute => ({
    kinds: r.kinds,
    pattern: r.pattern,
    path: r.canonical,
    answer: (src, p) => {
      const m = matchFeed(p, (k, raw) => src.resolve(k, raw));
      return m.ok && src.has(m.canonicalPath) ? m.canonicalPath : null;
    },
  })),
  pageRoute(['specialty', 'state'], (a, b) => pagePaths.specialtyState(a!, b!)),
  pageRoute(['specialty'], (a) => pagePaths.specialty(a!)),
  pageRoute(['state'], (a) => pagePaths.state(a!)),
  pageRoute(['institution'], (a) => pagePaths.institution(a!)),
];

/** A path segment a static host matches as is: letters, digits and inner hyphens. */
const URL_SEGMENT = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;

/**
 * The URL segments of a spelling: the spelling itself when it is one ("TX"), and its slug ("tx",
 * "ob-gyn" for "ob gyn", "obstetrics-and-gynecology" for "Obstetrics & Gynecology"). A segment that is the
 * canonical slug in another letter case is left out: hosts that match paths without regard to case would
 * redirect the canonical URL to itself.
 */
export function aliasSegments(alias: Alias): string[] {
  const out = new Set<string>();
  for (const s of [alias.spelling, slugify(alias.spelling)]) {
    if (URL_SEGMENT.test(s) && s.toLowerCase() !== alias.slug.toLowerCase()) out.add(s);
  }
  return [...out];
}

/** Every alias redirect of the files at `urlPaths`, sorted by the path redirected from. */
export function aliasRedirects(src: AliasSource, urlPaths: Iterable<string>): ExportRedirect[] {
  const segments = new Map<EntityKind, Map<string, string[]>>();
  const segmentsOf = (kind: EntityKind, slug: string): string[] => {
    let bySlug = segments.get(kind);
    if (!bySlug) {
      bySlug = new Map();
      for (const a of src.aliases(kind)) bySlug.set(a.slug, [...new Set([...(bySlug.get(a.slug) ?? []), ...aliasSegments(a)])]);
      segments.set(kind, bySlug);
    }
    return bySlug.get(slug) ?? [];
  };
  const out = new Map<string, string>();
  for (const to of urlPaths) {
    for (const route of ROUTES) {
      const m = route.pattern.exec(to);
      if (!m) continue;
      const slugs = m.slice(1);
      route.kinds.forEach((kind, i) => {
        for (const seg of segmentsOf(kind, slugs[i]!)) {
          const from = route.path(...slugs.map((s, j) => (j === i ? seg : s)));
          if (out.has(from) || src.has(from)) continue;
          if (route.answer(src, from) === to) out.set(from, to);
        }
      });
    }
  }
  return [...out].map(([from, to]) => ({ from, to })).sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
}
