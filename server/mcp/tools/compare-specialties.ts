import { ComparisonFeed } from '../../../build/contract/open-feeds.ts';
import { comparisonDoc } from '../lookup.ts';
import { basisText, payText } from '../text.ts';
import { feedSchema, toolArgs } from '../schemas.ts';
import { defineTool } from '../tool-definition.ts';
import { feedLinks } from '../resources/links.ts';
import { detailArg, sidesSummary, type DetailCut } from '../detail.ts';
import { fullLinks } from '../paging.ts';
import { specialtyArg, stateArg } from './get-specialty-pay.ts';

export const compareSpecialtiesTool = defineTool({
  name: 'compare_specialties',
  title: 'Compare two specialties',
  description: 'Compare total compensation of two different specialties, nationally or in one state: each one\'s headline figures (as get_specialty_pay) and the difference of their medians, with the comparison\'s own n, as_of and citation. Withheld figures stay null; no difference is computed from them.',
  inputSchema: toolArgs('compare_specialties', { specialty_a: specialtyArg, specialty_b: specialtyArg, state: stateArg, detail: detailArg }),
  outputSchema: ComparisonFeed,
  listed: { keep: ['specialty_a', 'specialty_b', 'comparison', 'truncated'], see: feedSchema('comparison') },
  work: ({ specialty_a, specialty_b, state, detail }, build, day) => {
    const full = comparisonDoc(build, day, specialty_a, specialty_b, state);
    const links = feedLinks(build, full);
    const sides = sidesSummary([full.specialty_a, full.specialty_b], full.basis);
    const left_out = detail === 'full' ? [] : sides.left_out;
    const cut: DetailCut | null = left_out.length
      ? { left_out, next: { specialty_a, specialty_b, ...(state ? { state } : {}), detail: 'full' }, ...fullLinks(build.baseUrl, links) }
      : null;
    const d = cut ? { ...full, specialty_a: sides.docs[0]!, specialty_b: sides.docs[1]!, truncated: true as const, page: cut } : full;
    const diff = d.comparison.median_difference;
    const summary = diff === null
      ? 'No difference can be given: at least one median is withheld.'
      : `Median difference: ${d.specialty_a.specialty.name} minus ${d.specialty_b.specialty.name} = ${diff < 0 ? '-' : ''}$${Math.abs(diff).toLocaleString('en-US')} (${d.comparison.median_difference_pct}%), from n=${d.n} approved self-reported reports in all${basisText(d)}, data as of ${d.as_of}.`;
    const lines = [summary, `- ${payText(d.specialty_a)}`, `- ${payText(d.specialty_b)}`];
    if (cut) lines.push(`Truncated: left out here: ${cut.left_out.join('; ')}. Everything: the same call with "detail": "full", get_specialty_pay for one specialty, or ${cut.feed_url}.`);
    return { text: `${lines.join('\n')}\nCite the comparison: ${d.attribution}`, structured: d, links };
  },
});
