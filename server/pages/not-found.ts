/**
 * What the site answers for a page path that is not a file of the build (pure, given the build's file
 * list and slug resolver):
 *
 *  - a known alias, code or letter case of a page (`/salaries/ob-gyn`, `/states/TX`, `/salaries/cardiology/tx`)
 *    -> a permanent redirect to the canonical page (the query string is dropped);
 *  - anything else -> a 404 page in the site's look (`noindex`) with close matches from the slug resolver
 *    (server/open-data/resolve.ts) that link pages which exist.
 */
import { pagePaths } from '../../build/contract/open-feeds.ts';
import { esc } from '../../build/pages/html.ts';
import { link, page, type SiteContext } from '../../build/pages/layout.ts';
import type { Entity, EntityKind, Resolution } from '../open-data/resolve.ts';

export interface Suggestion {
  path: string;
  text: string;
}

export type PageLookup = { redirect: string } | { redirect: null; suggestions: Suggestion[] };

export interface PageSource {
  /** is there a page (a file of the build) at this URL path? */
  has(path: string): boolean;
  resolve(kind: EntityKind, raw: string): Resolution;
}

const TEXT: Record<EntityKind, (e: Entity) => string> = {
  specialty: (e) => `${e.name} salary`,
  state: (e) => `Physician salaries in ${e.name}`,
  institution: (e) => `${e.name}: resident pay`,
};
const PAGE: Record<EntityKind, (slug: string) => string> = {
  specialty: pagePaths.specialty,
  state: pagePaths.state,
  institution: pagePaths.institution,
};

/** First path segment -> the kind of entity its pages name (a Map: `constructor` is no section). */
const SECTIONS = new Map<string, EntityKind>([['salaries', 'specialty'], ['states', 'state'], ['residency', 'institution']]);

/** The canonical page of a missed path, or close matches that exist (at most 6). */
export function lookupPage(src: PageSource, path: string): PageLookup {
  const p = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const lower = p.toLowerCase();
  if (lower !== path && src.has(lower)) return { redirect: lower };
  const segs = p.split('/').filter(Boolean);
  const top = segs[0]?.toLowerCase();
  const out: Suggestion[] = [];
  const add = (s: Suggestion) => {
    if (src.has(s.path) && !out.some((o) => o.path === s.path) && out.length < 6) out.push(s);
  };
  const one = (kind: EntityKind, raw: string) => {
    const r = src.resolve(kind, raw);
    return r.found ? { entity: r.entity, list: [r.entity] } : { entity: null, list: r.suggestions };
  };

  if (top === 'salaries' && segs.length === 3) {
    const sp = one('specialty', segs[1]!);
    const st = one('state', segs[2]!);
    if (sp.entity && st.entity) {
      const target = pagePaths.specialtyState(sp.entity.slug, st.entity.slug);
      if (src.has(target)) return { redirect: target };
    }
    for (const a of sp.list) for (const b of st.list) add({ path: pagePaths.specialtyState(a.slug, b.slug), text: `${a.name} salary in ${b.name}` });
    for (const a of sp.list) add({ path: PAGE.specialty(a.slug), text: TEXT.specialty(a) });
    for (const b of st.list) add({ path: PAGE.state(b.slug), text: TEXT.state(b) });
    return { redirect: null, suggestions: out };
  }
  const kind: EntityKind | null = segs.length === 2 ? SECTIONS.get(top ?? '') ?? null : null;
  if (kind) {
    const r = one(kind, segs[1]!);
    if (r.entity && src.has(PAGE[kind](r.entity.slug))) return { redirect: PAGE[kind](r.entity.slug) };
    for (const e of r.list) add({ path: PAGE[kind](e.slug), text: TEXT[kind](e) });
    return { redirect: null, suggestions: out };
  }
  // any other path: its last segment may name a specialty, a state or a teaching hospital (/cardiology, /texas)
  const last = segs[segs.length - 1];
  if (last && last.length >= 3) {
    // close matches only when they share the first three letters (a stray path is rarely a typo of a slug)
    const stem = last.toLowerCase().slice(0, 3);
    for (const k of ['specialty', 'state', 'institution'] as const) {
      const r = one(k, last);
      for (const e of (r.entity ? r.list : r.list.filter((x) => x.slug.startsWith(stem))).slice(0, 3)) add({ path: PAGE[k](e.slug), text: TEXT[k](e) });
    }
  }
  return { redirect: null, suggestions: out };
}

/** The 404 page: what was asked for, close matches, and the ways into the site. */
export function notFoundHtml(site: SiteContext, path: string, suggestions: Suggestion[]): string {
  const u = (p: string) => `${site.baseUrl}${p}`;
  const shown = path.length > 120 ? `${path.slice(0, 120)}…` : path;
  const body = `<article>
<h1>Page not found</h1>
<p class="lead">There is no page at <code>${esc(shown)}</code>.</p>
${suggestions.length ? `<h2>Did you mean</h2>\n<ul class="links">${suggestions.map((s) => `<li>${link(site, u(s.path), s.text)}</li>`).join('')}</ul>\n` : ''}<h2>Browse the data</h2>
<ul class="links">
<li>${link(site, u(pagePaths.specialtiesIndex()), 'Salaries by specialty')}</li>
<li>${link(site, u(pagePaths.statesIndex()), 'Salaries by state')}</li>
<li>${link(site, u(pagePaths.institutionsIndex()), 'Resident salaries by teaching hospital')}</li>
<li>${link(site, u('/data/api/v1/'), 'Open data API')} &middot; ${link(site, u(pagePaths.methodology()), 'Methodology')}</li>
</ul>
</article>`;
  return page(site, { title: 'Page not found', description: 'This page does not exist.', canonical: u('/'), body, noindex: true });
}

/** Before any build is published: every page is "not ready yet" (503), not "not found". */
export function notReadyHtml(): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Starting up</title>
<style>body{margin:0 auto;max-width:40rem;padding:2rem 1rem;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1b1f24}</style>
</head>
<body>
<h1>Starting up</h1>
<p>No data has been published on this server yet. Please try again in a few seconds.</p>
</body>
</html>
`;
}
