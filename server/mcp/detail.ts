/**
 * get_specialty_pay and compare_specialties without `detail: "full"`: a national specialty document without
 * its longest parts, so the result stays under 8 kB (README, "Weight"). What is left out is named in `page`
 * (with the arguments that give everything, and the full feed); every figure that is kept is the feed's own.
 */
import { z } from 'zod';
import type { SpecialtyFeed, SpecialtyPayDocument } from '../../build/contract/open-feeds.ts';

export const detailArg = z.enum(['summary', 'full']).optional().describe('"full": the whole document; default: a summary saying what it left out');

/** Top states kept in a summary of get_specialty_pay. */
export const SUMMARY_TOP_STATES = 3;

/** What a summary says it left out, with how to get everything. */
export interface DetailCut {
  left_out: string[];
  next: Record<string, unknown>;
  feed_url: string;
  csv_url?: string;
}

const national = (d: SpecialtyPayDocument): d is SpecialtyFeed => d.scope === 'national';

/** get_specialty_pay's summary: the offer components left out, the top states cut to the first 3. */
export function specialtySummary(d: SpecialtyPayDocument): { doc: SpecialtyPayDocument; left_out: string[] } {
  if (!national(d)) return { doc: d, left_out: [] };
  const { components: _, ...rest } = d;
  const left_out = ['components (the offer components: call pay, one-time payments, weeks off, call nights, pay models, non-competes, partnership tracks)'];
  if (d.top_states.length > SUMMARY_TOP_STATES) left_out.push(`top_states ${SUMMARY_TOP_STATES + 1}-${d.top_states.length} of ${d.top_states.length}`);
  return { doc: { ...rest, top_states: d.top_states.slice(0, SUMMARY_TOP_STATES) } as unknown as SpecialtyPayDocument, left_out };
}

/** The lists of a national document that compare_specialties' summary leaves out of each side. */
const SIDE_LISTS = ['top_states', 'ranking', 'states_with_data', 'states_with_data_min_n', 'practice_settings', 'wrvu', 'by_year', 'components'];
/** Each side's own citation fields: the comparison's (at its top) cite both; each side keeps n, as_of and feed_url. */
const SIDE_CITATION = ['attribution', 'title', 'publisher', 'citation_url', 'methodology_url', 'license', 'license_url', 'release', 'release_url', 'modified', 'synthetic'];

/**
 * compare_specialties' summary of both sides: each side's headline figures with its n, as_of and feed_url,
 * without the lists of a national document, its own citation fields (the comparison's cite both) and its
 * basis when it is the comparison's own (said once at the top). What is left out is named once for both sides.
 */
export function sidesSummary(sides: SpecialtyPayDocument[], basis: unknown): { docs: SpecialtyPayDocument[]; left_out: string[] } {
  const left_out = new Set<string>();
  const docs = sides.map((d) => {
    const drop = new Set(SIDE_CITATION);
    if (national(d)) for (const k of SIDE_LISTS) drop.add(k);
    if (JSON.stringify(d.basis) === JSON.stringify(basis)) drop.add('basis');
    for (const k of Object.keys(d)) {
      if (!drop.has(k)) continue;
      left_out.add(SIDE_LISTS.includes(k) ? 'each national side\'s lists (top_states, ranking, states_with_data, practice_settings, wrvu, by_year, components)'
        : k === 'basis' ? 'each side\'s basis (the same as basis)' : 'each side\'s own citation fields (attribution, title, citation_url, license, release...; the comparison\'s cite both)');
    }
    return Object.fromEntries(Object.entries(d).filter(([k]) => !drop.has(k))) as unknown as SpecialtyPayDocument;
  });
  return { docs, left_out: [...left_out] };
}
