/**
 * Comparisons of two specialties (compare/{a}/{b}[/states/{state}].json and the /compare/... page): looked
 * up by name, slug or alias, and derived from the build's own two documents (build/compute/comparison.ts)
 * as files of the build (LoadedBuild.derived), so they are served, cached and revalidated like any feed.
 */
import type { LoadedBuild, ServedFile } from '../builds/loaded-build.ts';
import { feedPaths, pagePaths, type ComparisonFeed, type SpecialtyPayDocument } from '../../build/contract/open-feeds.ts';
import { comparisonDocument } from '../../build/compute/comparison.ts';
import { canonicalJson } from '../../build/emit/json.ts';
import { renderComparisonPage } from '../../build/pages/comparison.ts';
import { LICENSE, LICENSE_URL } from '../../build/contract/open-feeds.ts';
import type { Entity, EntityKind } from './resolve.ts';
import { DEFAULT_TOP_CODE } from '../../build/import/bls.ts';

/** On the raw (undecoded) path, so that a slug may hold an encoded slash. */
export const COMPARISON_FEED_PATH = /^\/data\/api\/v1\/compare\/([^/]+)\/([^/]+?)(?:\/states\/([^/]+))?\.json$/i;
export const COMPARISON_PAGE_PATH = /^\/compare\/([^/]+)\/([^/]+)(?:\/([^/]+))?\/?$/i;

export type ComparisonLookup =
  | { ok: true; a: Entity; b: Entity; state: Entity | null; aliased: boolean }
  | { ok: false; kind: EntityKind | null; raw: string | null; suggestions: Entity[]; message?: string };

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/**
 * A specialty compared with itself (cardiology/cardiology, or an alias and its name: obgyn/ob-gyn) is no
 * comparison: its reports would count twice in n. The feed, the page, the tool and the resource all refuse it.
 */
export const sameSpecialty = (sp: Entity) => `a comparison needs two different specialties; both are ${sp.name}`;

export function lookupComparison(build: LoadedBuild, m: RegExpExecArray): ComparisonLookup {
  const wanted: [EntityKind, string | undefined][] = [['specialty', m[1]], ['specialty', m[2]], ['state', m[3]]];
  const found: (Entity | null)[] = [];
  let aliased = false;
  for (const [kind, raw] of wanted) {
    if (raw === undefined) {
      found.push(null);
      continue;
    }
    const r = build.resolver.resolve(kind, decode(raw));
    if (!r.found) return { ok: false, kind, raw: decode(raw), suggestions: r.suggestions };
    if (!r.canonical) aliased = true;
    found.push(r.entity);
  }
  const [a, b, state] = found as [Entity, Entity, Entity | null];
  if (a.slug === b.slug) {
    const inState = state ? feedPaths.specialtyState(a.slug, state.slug) : null;
    const own = inState && build.files.has(`/${inState}`) ? inState : feedPaths.specialty(a.slug);
    return { ok: false, kind: null, raw: null, suggestions: [], message: `${sameSpecialty(a)}: its own figures are at ${build.baseUrl}/${own}` };
  }
  for (const sp of [a, b]) {
    const path = state ? feedPaths.specialtyState(sp.slug, state.slug) : feedPaths.specialty(sp.slug);
    if (!build.files.has(`/${path}`)) return { ok: false, kind: null, raw: null, suggestions: [], message: `no published figures for ${sp.name}${state ? ` in ${state.name}` : ''}` };
  }
  return { ok: true, a, b, state, aliased };
}

/** The two documents as the build wrote them (access date = build date). */
function comparisonOf(build: LoadedBuild, a: Entity, b: Entity, state: Entity | null, accessDate: string): ComparisonFeed {
  const doc = (sp: Entity) => {
    const file = build.files.get(`/${state ? feedPaths.specialtyState(sp.slug, state.slug) : feedPaths.specialty(sp.slug)}`)!;
    return JSON.parse(build.render(file, accessDate).body.toString('utf8')) as SpecialtyPayDocument;
  };
  return comparisonDocument(doc(a), doc(b), { baseUrl: build.baseUrl, publisher: doc(a).publisher, accessDate });
}

export function comparisonFeedFile(build: LoadedBuild, a: Entity, b: Entity, state: Entity | null): ServedFile {
  return build.derived(`/${feedPaths.comparison(a.slug, b.slug, state?.slug)}`, 'application/json; charset=utf-8', (day) => canonicalJson(comparisonOf(build, a, b, state, day)));
}

export function comparisonPageFile(build: LoadedBuild, a: Entity, b: Entity, state: Entity | null): ServedFile {
  return build.derived(pagePaths.comparison(a.slug, b.slug, state?.slug), 'text/html; charset=utf-8', (day) => {
    const d = comparisonOf(build, a, b, state, day);
    const m = build.keyedIndex.methodology;
    return renderComparisonPage(
      { baseUrl: build.baseUrl, publisher: d.publisher, synthetic: d.synthetic, license: LICENSE, licenseUrl: LICENSE_URL, winsorLower: m.winsor_lower, winsorUpper: m.winsor_upper, blsTopCode: DEFAULT_TOP_CODE },
      d,
    );
  });
}
