/**
 * What the tools look up (plain functions over a loaded build, tested directly): the same open-feed
 * documents /data/api/v1 serves, rendered for the same day, resolved from names, slugs or codes.
 */
import type { LoadedBuild } from '../builds/loaded-build.ts';
import {
  feedPaths,
  type ComparisonFeed, type InstitutionFeed, type SpecialtiesFeed, type SpecialtyFeed, type SpecialtyStateFeed, type StateInstitutionsFeed, type WrvuFeed,
} from '../../build/contract/open-feeds.ts';
import { comparisonFeedFile } from '../open-data/comparison.ts';
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
  // imported hospital names are quoted: data, never the tool's own words (specialties and states are reference data)
  const name = (n: string) => (kind === 'institution' ? JSON.stringify(n) : n);
  const hint = r.suggestions.length ? ` Close matches: ${r.suggestions.map((s) => `${name(s.name)} (${s.slug})`).join(', ')}.` : '';
  throw new ToolInputError(`Unknown ${what} "${raw.slice(0, 100)}".${hint} ${wayForward(build, kind)}`);
}

/** What exists and how to name it, after any close matches: an unknown name never ends the conversation. */
function wayForward(build: LoadedBuild, kind: EntityKind): string {
  if (kind === 'specialty') return 'list_specialties lists every specialty with its slug.';
  if (kind === 'state') return 'Figures are published for the 50 states and DC (no territories): give a two-letter code ("TX", "DC"), a name ("Texas") or a slug ("new-york").';
  return `get_resident_pay with a state ("TX") lists that state's teaching hospitals; ${build.baseUrl}/${feedPaths.institutions()} lists them all.`;
}

export function specialtiesDoc(build: LoadedBuild, day: string): SpecialtiesFeed {
  return feedDocument(build, feedPaths.specialties(), day);
}

export function specialtyPayDoc(build: LoadedBuild, day: string, specialty: string, state?: string): SpecialtyFeed | SpecialtyStateFeed {
  const sp = resolveEntity(build, 'specialty', specialty);
  if (state === undefined || state.trim() === '') return feedDocument(build, feedPaths.specialty(sp.slug), day);
  const st = resolveEntity(build, 'state', state);
  const path = feedPaths.specialtyState(sp.slug, st.slug);
  if (!build.files.has(`/${path}`)) throw new ToolInputError(`No figures are published for ${sp.name} in ${st.name} (no approved reports there); ask without a state for the national figures.`);
  return feedDocument(build, path, day);
}

export function wrvuDoc(build: LoadedBuild, day: string, specialty: string): WrvuFeed {
  return feedDocument(build, feedPaths.wrvu(resolveEntity(build, 'specialty', specialty).slug), day);
}

export function institutionDoc(build: LoadedBuild, day: string, institution: string): InstitutionFeed {
  return feedDocument(build, feedPaths.institution(resolveEntity(build, 'institution', institution).slug), day);
}

/** A state's teaching hospitals: residency/states/{state}.json (newest academic year first, ranked within a year). */
export function stateInstitutionsDoc(build: LoadedBuild, day: string, state: string): StateInstitutionsFeed {
  const st = resolveEntity(build, 'state', state);
  const path = feedPaths.stateInstitutions(st.slug);
  if (!build.files.has(`/${path}`)) throw new ToolInputError(`No teaching hospital pay scales are published for ${st.name}.`);
  return feedDocument(build, path, day);
}

/** compare/{a}/{b}[/states/{state}].json, derived from the two published documents of this build. */
export function comparisonDoc(build: LoadedBuild, day: string, a: string, b: string, state?: string): ComparisonFeed {
  const ea = resolveEntity(build, 'specialty', a);
  const eb = resolveEntity(build, 'specialty', b);
  if (ea.slug === eb.slug) throw new ToolInputError(`specialty_a and specialty_b are both ${ea.name}: give two different specialties (get_specialty_pay gives one specialty's own figures).`);
  const st = state === undefined || state.trim() === '' ? null : resolveEntity(build, 'state', state);
  for (const sp of [ea, eb]) {
    if (st && !build.files.has(`/${feedPaths.specialtyState(sp.slug, st.slug)}`)) throw new ToolInputError(`No figures are published for ${sp.name} in ${st.name} (no approved reports there).`);
  }
  return JSON.parse(build.render(comparisonFeedFile(build, ea, eb, st), day).body.toString('utf8')) as ComparisonFeed;
}
