import { ComparisonFeed } from '../../../build/contract/open-feeds.ts';
import { comparisonDoc } from '../lookup.ts';
import { payText } from '../text.ts';
import { toolArgs } from '../schemas.ts';
import { defineTool } from '../tool-definition.ts';
import { feedLinks } from '../resources/links.ts';
import { specialtyArg, stateArg } from './get-specialty-pay.ts';

export const compareSpecialtiesTool = defineTool({
  name: 'compare_specialties',
  title: 'Compare two specialties',
  description: 'Compare total compensation of two different specialties (a specialty with itself is refused), nationally or within one state: both specialties\' published documents (as get_specialty_pay returns them) and the difference of their medians, with n, as_of and the citation of the comparison itself (/data/api/v1/compare/{a}/{b}.json). Withheld figures stay null; no difference is computed from them.',
  inputSchema: toolArgs('compare_specialties', { specialty_a: specialtyArg, specialty_b: specialtyArg, state: stateArg }),
  outputSchema: ComparisonFeed,
  listed: { keep: ['specialty_a', 'specialty_b', 'comparison'], schemas: ['comparison'] },
  work: ({ specialty_a, specialty_b, state }, build, day) => {
    const d = comparisonDoc(build, day, specialty_a, specialty_b, state);
    const a = d.specialty_a;
    const b = d.specialty_b;
    const diff = d.comparison.median_difference;
    const summary = diff === null
      ? 'No difference can be given: at least one median is withheld.'
      : `Median difference: ${a.specialty.name} minus ${b.specialty.name} = ${diff < 0 ? '-' : ''}$${Math.abs(diff).toLocaleString('en-US')} (${d.comparison.median_difference_pct}%), from n=${d.n} approved self-reported reports in all, data as of ${d.as_of}.`;
    return { text: `${summary}\n- ${payText(a)}\n- ${payText(b)}\nCite the comparison: ${d.attribution}`, structured: d, links: feedLinks(build, d) };
  },
});
