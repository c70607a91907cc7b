/**
 * One resource template per kind of open feed: a specialty, a specialty in a state, a state, a wRVU rate,
 * a teaching hospital, a state's teaching hospitals and the comparisons of two specialties. A variable takes
 * a slug, or any spelling the feeds resolve (code, name, common spelling: the result's `uri` is then the
 * canonical one); unknown names are the SDK's resource-not-found error with close matches. Every variable
 * completes from the build (completeEntity: slugs, matched against every known spelling).
 */
import { ResourceNotFoundError, ResourceTemplate, type ListResourcesResult, type ReadResourceResult } from '@modelcontextprotocol/server';
import type { LoadedBuild, ServedFile } from '../../builds/loaded-build.ts';
import { feedPaths, type SpecialtiesFeed } from '../../../build/contract/open-feeds.ts';
import type { Entity, EntityKind } from '../../open-data/resolve.ts';
import { comparisonFeedFile, sameSpecialty } from '../../open-data/comparison.ts';
import { redactSecrets } from '../../http/redact.ts';
import { completeEntity } from '../complete.ts';
import { ToolInputError, feedDocument, resolveEntity } from '../lookup.ts';
import { escapeHidden } from '../text.ts';
import { FEED_ROOT, annotationsOf, decodeVar, nameOf, readFile, titleOf, uriOf, type Registration } from './common.ts';

interface Variable {
  name: string;
  kind: EntityKind;
}

interface FeedTemplate {
  name: string;
  title: string;
  description: string;
  /** path under /data/api/v1 with {variables}, e.g. `specialties/{specialty}/states/{state}.json` */
  path: string;
  vars: Variable[];
  /** the served file for the resolved entities (in `vars` order); throws ToolInputError when none is published */
  file(build: LoadedBuild, e: Entity[]): ServedFile;
  /** which values of variable `v` have a document, given the entities already chosen (completion filter) */
  published?(build: LoadedBuild, v: string, slug: string, chosen: Record<string, Entity>): boolean;
}

const has = (build: LoadedBuild, path: string) => build.files.has(`/${path}`);

function fileAt(build: LoadedBuild, path: string, missing: string): ServedFile {
  const f = build.files.get(`/${path}`);
  if (!f) throw new ToolInputError(missing);
  return f;
}

const specialty: Variable = { name: 'specialty', kind: 'specialty' };
const state: Variable = { name: 'state', kind: 'state' };

function comparisonFile(build: LoadedBuild, a: Entity, b: Entity, st: Entity | null): ServedFile {
  if (a.slug === b.slug) throw new ToolInputError(`${sameSpecialty(a).replace(/^a/, 'A')}: read ${st ? `specialties/${a.slug}/states/${st.slug}.json` : `specialties/${a.slug}.json`} for its own figures.`);
  for (const sp of [a, b]) {
    if (!has(build, st ? feedPaths.specialtyState(sp.slug, st.slug) : feedPaths.specialty(sp.slug))) {
      throw new ToolInputError(`No figures are published for ${sp.name}${st ? ` in ${st.name}` : ''}.`);
    }
  }
  return comparisonFeedFile(build, a, b, st);
}

/** A state completes only where the chosen specialty (or both) have figures there. */
const stateWith = (...spVars: string[]) => (build: LoadedBuild, v: string, slug: string, chosen: Record<string, Entity>) =>
  v !== 'state' || spVars.every((s) => !chosen[s] || has(build, feedPaths.specialtyState(chosen[s]!.slug, slug)));

/** specialty_b completes to every specialty but the chosen specialty_a (no comparison with itself). */
const notSame = (v: string, slug: string, chosen: Record<string, Entity>) => v !== 'specialty_b' || chosen.specialty_a?.slug !== slug;

export const FEED_TEMPLATES: readonly FeedTemplate[] = [
  {
    name: 'specialty',
    title: 'Physician pay for one specialty (national)',
    description: 'Attending total compensation for one specialty nationally: median, mean, percentiles, n, top states, practice settings, $/wRVU and years (the document get_specialty_pay returns).',
    path: 'specialties/{specialty}.json',
    vars: [specialty],
    file: (build, [sp]) => fileAt(build, feedPaths.specialty(sp!.slug), `No figures are published for ${sp!.name}.`),
  },
  {
    name: 'specialty-in-state',
    title: 'Physician pay for one specialty in one state',
    description: 'One specialty in one state: median, percentiles, n and the difference from the national median (get_specialty_pay with a state).',
    path: 'specialties/{specialty}/states/{state}.json',
    vars: [specialty, state],
    file: (build, [sp, st]) => fileAt(build, feedPaths.specialtyState(sp!.slug, st!.slug), `No figures are published for ${sp!.name} in ${st!.name} (no approved reports there).`),
    published: stateWith('specialty'),
  },
  {
    name: 'state',
    title: 'Physician pay in one state',
    description: 'All attending pay in one state: median, percentiles, n, its specialties, cost of living.',
    path: 'states/{state}.json',
    vars: [state],
    file: (build, [st]) => fileAt(build, feedPaths.state(st!.slug), `No figures are published for ${st!.name}.`),
  },
  {
    name: 'wrvu',
    title: 'Compensation per wRVU for one specialty',
    description: 'Total compensation per work RVU for one specialty nationally: median, mean, percentiles and n (get_wrvu_rate).',
    path: 'wrvu/{specialty}.json',
    vars: [specialty],
    file: (build, [sp]) => fileAt(build, feedPaths.wrvu(sp!.slug), `No compensation per wRVU is published for ${sp!.name}.`),
  },
  {
    name: 'teaching-hospital',
    title: 'Resident pay at one teaching hospital',
    description: 'One teaching hospital\'s published PGY pay scale with its cost-of-living-adjusted PGY-1 pay and rank (get_resident_pay with institution).',
    path: 'residency/institutions/{institution}.json',
    vars: [{ name: 'institution', kind: 'institution' }],
    file: (build, [i]) => fileAt(build, feedPaths.institution(i!.slug), `No pay scale is published for ${JSON.stringify(i!.name)}.`),
  },
  {
    name: 'state-teaching-hospitals',
    title: 'Resident pay at the teaching hospitals of one state',
    description: 'A state\'s teaching hospitals, newest academic year first, each year ranked by cost-of-living-adjusted PGY-1 pay (get_resident_pay with state).',
    path: 'residency/states/{state}.json',
    vars: [state],
    file: (build, [st]) => fileAt(build, feedPaths.stateInstitutions(st!.slug), `No teaching hospital pay scales are published for ${st!.name}.`),
    published: (build, _v, slug) => has(build, feedPaths.stateInstitutions(slug)),
  },
  {
    name: 'comparison',
    title: 'Two specialties compared (national)',
    description: 'Two specialties side by side nationally with the difference of their medians (compare_specialties).',
    path: 'compare/{specialty_a}/{specialty_b}.json',
    vars: [{ name: 'specialty_a', kind: 'specialty' }, { name: 'specialty_b', kind: 'specialty' }],
    file: (build, [a, b]) => comparisonFile(build, a!, b!, null),
    published: (_build, v, slug, chosen) => notSame(v, slug, chosen),
  },
  {
    name: 'comparison-in-state',
    title: 'Two specialties compared in one state',
    description: 'Two specialties side by side in one state with the difference of their medians (compare_specialties with a state).',
    path: 'compare/{specialty_a}/{specialty_b}/states/{state}.json',
    vars: [{ name: 'specialty_a', kind: 'specialty' }, { name: 'specialty_b', kind: 'specialty' }, state],
    file: (build, [a, b, st]) => comparisonFile(build, a!, b!, st!),
    published: (build, v, slug, chosen) => notSame(v, slug, chosen) && stateWith('specialty_a', 'specialty_b')(build, v, slug, chosen),
  },
];

/** Every specialty with a national document: the listed instances of the specialty template. */
function listSpecialties(build: LoadedBuild, day: string): ListResourcesResult {
  const doc = feedDocument<SpecialtiesFeed>(build, feedPaths.specialties(), day);
  const resources = [];
  for (const s of doc.specialties) {
    const path = `/${feedPaths.specialty(s.slug)}`;
    if (!build.files.has(path)) continue;
    resources.push({
      uri: uriOf(build, path),
      name: nameOf(path),
      title: titleOf(build, path, day, s.name),
      description: `${s.name}: national attending pay (median, percentiles, n, top states, practice settings, $/wRVU).`,
      mimeType: 'application/json',
      annotations: annotationsOf(build),
    });
  }
  return { resources };
}

/** The error of an unknown or unpublished variable: the SDK's resource-not-found, with the close matches. */
function notFound(uri: string, err: ToolInputError): ResourceNotFoundError {
  return new ResourceNotFoundError(uri, escapeHidden(redactSecrets(err.message)));
}

function read(t: FeedTemplate, build: LoadedBuild, day: string, uri: URL, variables: Record<string, string | string[]>): ReadResourceResult {
  try {
    const entities = t.vars.map((v) => {
      const raw = decodeVar(variables[v.name]).trim();
      if (!raw) throw new ToolInputError(`Give a ${v.kind === 'institution' ? 'teaching hospital' : v.kind} for {${v.name}}.`);
      return resolveEntity(build, v.kind, raw);
    });
    return readFile(build, t.file(build, entities), day);
  } catch (err) {
    if (err instanceof ToolInputError) throw notFound(uri.href, err);
    throw err;
  }
}

/** Completion values (slugs) for one variable, narrowed by the variables already given where that matters. */
function completer(t: FeedTemplate, v: Variable, build: LoadedBuild) {
  return (typed: string, context?: { arguments?: Record<string, string> }): string[] => {
    const { values } = completeEntity(build.resolver, v.kind, typed, 'slug');
    if (!t.published) return values;
    const chosen: Record<string, Entity> = {};
    for (const other of t.vars) {
      const given = context?.arguments?.[other.name];
      if (other === v || !given) continue;
      const r = build.resolver.resolve(other.kind, given);
      if (r.found) chosen[other.name] = r.entity;
    }
    return values.filter((slug) => t.published!(build, v.name, slug, chosen));
  };
}

/** The templates of this build, read for `day`. */
export function feedTemplates(build: LoadedBuild, day: string): Registration[] {
  return FEED_TEMPLATES.map((t): Registration => ({
    name: t.name,
    template: new ResourceTemplate(uriOf(build, `${FEED_ROOT}/${t.path}`), {
      list: t.name === 'specialty' ? () => listSpecialties(build, day) : undefined,
      complete: Object.fromEntries(t.vars.map((v) => [v.name, completer(t, v, build)])),
    }),
    config: { title: t.title, description: t.description, mimeType: 'application/json', annotations: annotationsOf(build) },
    read: (uri: URL, variables: Record<string, string | string[]>) => read(t, build, day, uri, variables),
  }));
}
