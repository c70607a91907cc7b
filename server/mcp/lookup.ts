/**
 * What the tools look up (plain functions over a loaded build, tested directly): the same open-feed
 * documents /data/api/v1 serves, rendered for the same day, resolved from names, slugs or codes.
 */
import type { LoadedBuild } from '../builds/loaded-build.ts';
import {
  feedPaths,
  type InstitutionFeed, type InstitutionsFeed, type SpecialtiesFeed, type SpecialtyFeed, type SpecialtyStateFeed, type WrvuFeed,
} from '../../build/contract/open-feeds.ts';
import type { EntityKind, Entity } from '../open-data/resolve.ts';

/** An input the tool cannot answer (unknown name): becomes a tool error with close matches. */
export class ToolInputError extends Error {}

/** The feed document at a path, exactly as /data/api/v1 serves it today (`day` = access date). */
export function feedDocument<T>(build: LoadedBuild, feedPath: string, day: string): T {
  const file = build.files.get(`/${feedPath}`);
  if (!file) throw new ToolInputError(`no published document at /${feedPath}`);
  return JSON.parse(build.render(file, day).body.toString('utf8')) as T;
}

export function resolveEntity(build: LoadedBuild, kind: EntityKind, raw: string): Entity {
  const r = build.resolver.resolve(kind, raw);
  if (r.found) return r.entity;
  const what = kind === 'institution' ? 'teaching hospital' : kind;
  const hint = r.suggestions.length ? ` Close matches: ${r.suggestions.map((s) => `${s.name} (${s.slug})`).join(', ')}.` : '';
  throw new ToolInputError(`Unknown ${what} "${raw.slice(0, 100)}".${hint}`);
}

export function specialtiesDoc(build: LoadedBuild, day: string): SpecialtiesFeed {
  return feedDocument(build, feedPaths.specialties(), day);
}

export function specialtyPayDoc(build: LoadedBuild, day: string, specialty: string, state?: string): SpecialtyFeed | SpecialtyStateFeed {
  const sp = resolveEntity(build, 'specialty', specialty);
  if (state === undefined || state.trim() === '') return feedDocument(build, feedPaths.specialty(sp.slug), day);
  const st = resolveEntity(build, 'state', state);
  return feedDocument(build, feedPaths.specialtyState(sp.slug, st.slug), day);
}

export function wrvuDoc(build: LoadedBuild, day: string, specialty: string): WrvuFeed {
  return feedDocument(build, feedPaths.wrvu(resolveEntity(build, 'specialty', specialty).slug), day);
}

export function institutionDoc(build: LoadedBuild, day: string, institution: string): InstitutionFeed {
  return feedDocument(build, feedPaths.institution(resolveEntity(build, 'institution', institution).slug), day);
}

/**
 * The institutions index, restricted to one state: newest academic year first, and within a year ranked by
 * cost-of-living-adjusted PGY-1 pay (scales of different academic years are not compared).
 */
export function institutionsOfState(build: LoadedBuild, day: string, state: string): InstitutionsFeed {
  const st = resolveEntity(build, 'state', state);
  const all = feedDocument<InstitutionsFeed>(build, feedPaths.institutions(), day);
  const list = all.institutions
    .filter((i) => i.institution.state.slug === st.slug)
    .sort((a, b) => b.academic_year.localeCompare(a.academic_year) || (b.pgy1_col_adjusted ?? 0) - (a.pgy1_col_adjusted ?? 0) || a.institution.slug.localeCompare(b.institution.slug));
  return { ...all, institutions: list, count: list.length };
}
