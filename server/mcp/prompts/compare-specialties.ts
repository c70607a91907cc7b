/**
 * compare_specialties: two specialties' pay side by side, nationally or in one state: the tools to call
 * with their arguments, and how to cite what they return.
 */
import { feedPaths } from '../../../build/contract/open-feeds.ts';
import type { LoadedBuild } from '../../builds/loaded-build.ts';
import { strictArgs } from '../schemas.ts';
import { compareSpecialtiesTool } from '../tools/compare-specialties.ts';
import { getWrvuRateTool } from '../tools/get-wrvu-rate.ts';
import {
  CITATION_RULES, INTRO, PromptInputError, call, given, resolveArg, specialtyArg, stateArg, type PromptText,
} from './common.ts';

export const COMPARE_SPECIALTIES = 'compare_specialties';

export interface CompareSpecialtiesArgs {
  specialty_a: string;
  specialty_b: string;
  state?: string | undefined;
}

export const compareSpecialtiesArgs = (build: LoadedBuild | null) => strictArgs(COMPARE_SPECIALTIES, {
  specialty_a: specialtyArg(build),
  specialty_b: specialtyArg(build),
  state: stateArg(build, 'Optional US state to compare in: name or two-letter code ("Texas", "TX"); empty for national figures'),
});

export const compareSpecialtiesMeta = {
  title: 'Compare two specialties',
  description: 'Compare the total compensation of two specialties, nationally or in one state: the tools to call (compare_specialties) with their arguments, and how to cite n, as_of, the citation_url and the attribution line.',
};

/** The prompt's text for these arguments (pure over the build's names and published files). */
export function compareSpecialtiesPrompt(build: LoadedBuild, args: CompareSpecialtiesArgs): PromptText {
  const a = resolveArg(build, 'specialty', 'specialty_a', args.specialty_a);
  const b = resolveArg(build, 'specialty', 'specialty_b', args.specialty_b);
  if (a.slug === b.slug) throw new PromptInputError(`specialty_a and specialty_b are both ${a.name}: give two different specialties.`);
  const st = given(args.state) ? resolveArg(build, 'state', 'state', args.state) : null;
  const missing = st ? [a, b].filter((sp) => !build.files.has(`/${feedPaths.specialtyState(sp.slug, st.slug)}`)) : [];
  const inState = st !== null && missing.length === 0;
  const pair = { specialty_a: a.slug, specialty_b: b.slug };
  const steps: string[] = [];
  if (st && inState) steps.push(`${call(compareSpecialtiesTool.name, { ...pair, state: st.slug })}: both specialties' ${st.name} figures and the difference of their medians.`);
  steps.push(`${call(compareSpecialtiesTool.name, pair)}: ${inState ? 'the same nationally, for context' : 'both specialties\' national figures and the difference of their medians'}.`);
  steps.push(`Only if productivity matters to the question: ${call(getWrvuRateTool.name, { specialty: a.slug })} and ${call(getWrvuRateTool.name, { specialty: b.slug })}, the national total compensation per wRVU.`);
  const text = [
    `How does physician pay in ${a.name} compare with ${b.name}${st ? ` in ${st.name}` : ''}?`,
    '',
    INTRO,
    ...(st && !inState ? ['', `No figures are published for ${missing.map((m) => m.name).join(' or ')} in ${st.name} (too few approved reports there): compare the national figures only, and say so.`] : []),
    '',
    'Call these tools, with exactly these arguments:',
    ...steps.map((s, i) => `${i + 1}. ${s}`),
    '',
    'Then answer:',
    '- Each specialty\'s median and middle half (25th-75th percentile) with its own n and as_of (in `specialty_a` and `specialty_b` of the result), and the difference of the medians in dollars and percent as the result\'s `comparison` gives it. When the comparison leaves the difference null (a median is withheld), give none: do not compute one.',
    '- Cite the comparison itself too: its citation_url and its attribution line.',
    '- Do not draw conclusions the figures do not support (hours, call or training length are not in them).',
    '',
    CITATION_RULES,
  ].join('\n');
  return { description: `${a.name} and ${b.name} compared${st ? ` in ${st.name}` : ''}`, text };
}
