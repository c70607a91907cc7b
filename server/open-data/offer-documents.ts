/**
 * The published documents an offer is checked against (build/compute/offer-check.ts): the specialty's open
 * feed with its components, and the specialty-in-state feed when the offer names a state and one is
 * published, exactly as /data/api/v1 serves them on `day` (the attribution's access date). The keyed API's
 * /offer-check and the tool server's evaluate_offer both read them here, so both give the same answer.
 */
import type { LoadedBuild } from '../builds/loaded-build.ts';
import { feedPaths, type SpecialtyFeed, type SpecialtyStateFeed } from '../../build/contract/open-feeds.ts';
import type { OfferDocuments } from '../../build/compute/offer-check.ts';
import type { Entity } from './resolve.ts';

function served<T>(build: LoadedBuild, path: string, day: string): T | null {
  const file = build.files.get(`/${path}`);
  return file ? (JSON.parse(build.render(file, day).body.toString('utf8')) as T) : null;
}

/** The documents of `specialty` (and `state`, when given) in `build`, rendered for `day`. */
export function offerDocuments(build: LoadedBuild, day: string, specialty: Entity, state: Entity | null): OfferDocuments {
  const doc = served<SpecialtyFeed>(build, feedPaths.specialty(specialty.slug), day);
  if (!doc) throw new Error(`build ${build.id} has no feed for the specialty ${specialty.slug}`);
  return {
    specialty: doc,
    state: state === null ? null : { slug: state.slug, name: state.name, document: served<SpecialtyStateFeed>(build, feedPaths.specialtyState(specialty.slug, state.slug), day) },
  };
}
