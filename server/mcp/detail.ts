/**
 * get_specialty_pay and compare_specialties without `detail: "full"`: a national specialty document without
 * its longest parts, so the result stays under 8 kB (README, "Weight"). What is left out is named in `page`
 * (with the arguments that give everything, and the full feed); every figure that is kept is the feed's own.
 */
import { z } from 'zod';
import type { SpecialtyFeed, SpecialtyPayDocument } from '../../build/contract/open-feeds.ts';

export const detailArg = z.enum(['summary', 'full']).optional().describe('"full": every part of the national document (about 10 kB); default "summary" leaves out the offer components and all but the top 3 states');

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

/** The parts of a national document that compare_specialties' summary leaves out of each side. */
const SIDE_LEFT_OUT = ['top_states', 'ranking', 'states_with_data', 'states_with_data_min_n', 'practice_settings', 'wrvu', 'by_year', 'components'] as const;

/**
 * compare_specialties' summary of one side: its headline figures, without the lists of a national document
 * (nor its basis when it is the comparison's own, said once at the top).
 */
export function sideSummary(d: SpecialtyPayDocument, side: string, basis: unknown): { doc: SpecialtyPayDocument; left_out: string[] } {
  const same = JSON.stringify(d.basis) === JSON.stringify(basis);
  const drop = [...(national(d) ? SIDE_LEFT_OUT : []), ...(same ? ['basis'] : [])];
  if (!drop.length) return { doc: d, left_out: [] };
  const doc = Object.fromEntries(Object.entries(d).filter(([k]) => !drop.includes(k)));
  return { doc: doc as unknown as SpecialtyPayDocument, left_out: drop.map((k) => `${side}.${k}${k === 'basis' ? ' (the same as basis)' : ''}`) };
}
