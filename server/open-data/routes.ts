/**
 * The feed paths of the open data API (pure): which entity each path segment names, and the canonical
 * path once the entities are resolved.
 */
import { feedPaths } from '../../build/contract/open-feeds.ts';
import type { EntityKind, Entity } from './resolve.ts';

export interface FeedRoute {
  /** entity kinds of the captured segments, in order */
  kinds: EntityKind[];
  pattern: RegExp;
  canonical: (...slugs: string[]) => string;
}

const SEG = '([^/]+)';
export const FEED_ROUTES: FeedRoute[] = [
  { kinds: ['specialty', 'state'], pattern: new RegExp(`^/data/api/v1/specialties/${SEG}/states/${SEG}\\.json$`), canonical: (a, b) => `/${feedPaths.specialtyState(a!, b!)}` },
  { kinds: ['specialty'], pattern: new RegExp(`^/data/api/v1/specialties/${SEG}\\.json$`), canonical: (a) => `/${feedPaths.specialty(a!)}` },
  { kinds: ['state'], pattern: new RegExp(`^/data/api/v1/states/${SEG}\\.json$`), canonical: (a) => `/${feedPaths.state(a!)}` },
  { kinds: ['specialty'], pattern: new RegExp(`^/data/api/v1/wrvu/${SEG}\\.json$`), canonical: (a) => `/${feedPaths.wrvu(a!)}` },
  { kinds: ['institution'], pattern: new RegExp(`^/data/api/v1/residency/institutions/${SEG}\\.json$`), canonical: (a) => `/${feedPaths.institution(a!)}` },
  { kinds: ['state'], pattern: new RegExp(`^/data/api/v1/residency/states/${SEG}\\.json$`), canonical: (a) => `/${feedPaths.stateInstitutions(a!)}` },
];

export const FEED_INDEX = [
  '/data/api/v1/specialties.json',
  '/data/api/v1/specialties/{slug}.json',
  '/data/api/v1/specialties/{slug}/states/{state}.json',
  '/data/api/v1/states.json',
  '/data/api/v1/states/{state}.json',
  '/data/api/v1/wrvu/{slug}.json',
  '/data/api/v1/residency/institutions.json',
  '/data/api/v1/residency/institutions/{slug}.json',
  '/data/api/v1/residency/states/{state}.json',
  '/data/api/v1/residency/pgy/{pgy}.json',
  '/data/api/v1/compare/{slug}/{other}.json',
  '/data/api/v1/compare/{slug}/{other}/states/{state}.json',
  '/data/api/v1/specialties.csv',
  '/data/api/v1/specialty-states.csv',
  '/data/api/v1/states.csv',
  '/data/api/v1/specialty-offer-components.csv',
  '/data/api/v1/residency/institutions.csv',
  '/data/api/v1/residency/pgy-levels.csv',
  '/data/api/v1/releases.json',
];

export type RouteMatch =
  | { ok: true; canonicalPath: string; entities: Entity[]; aliased: boolean }
  | { ok: false; status: 404; kind: EntityKind | null; raw: string | null; suggestions: Entity[] };

/**
 * Resolve a path that is not a file of the build as is. `decodeSegment` decodes each captured segment on
 * its own, so that matching on the raw path lets a slug hold an encoded slash (`specialties/ob%2Fgyn.json`).
 */
export function matchFeed(
  path: string,
  resolve: (kind: EntityKind, raw: string) => import('./resolve.ts').Resolution,
  decodeSegment: (segment: string) => string = (s) => s,
): RouteMatch {
  for (const route of FEED_ROUTES) {
    const m = route.pattern.exec(path);
    if (!m) continue;
    const entities: Entity[] = [];
    let aliased = false;
    for (let i = 0; i < route.kinds.length; i++) {
      const raw = decodeSegment(m[i + 1]!);
      const r = resolve(route.kinds[i]!, raw);
      if (!r.found) return { ok: false, status: 404, kind: route.kinds[i]!, raw, suggestions: r.suggestions };
      entities.push(r.entity);
      if (!r.canonical) aliased = true;
    }
    return { ok: true, canonicalPath: route.canonical(...entities.map((e) => e.slug)), entities, aliased };
  }
  return { ok: false, status: 404, kind: null, raw: null, suggestions: [] };
}
