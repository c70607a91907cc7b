import { z } from 'zod';
import { payPosition, payPositionMethod, standardGrid } from '../../../build/compute/pay-position.ts';
import type { SpecialtyPayDocument } from '../../../build/contract/open-feeds.ts';
import { specialtyPayDoc, ToolInputError } from '../lookup.ts';
import { annualPayIssue, MAX_ANNUAL_PAY, MIN_ANNUAL_PAY } from '../../../build/contract/annual-pay.ts';
import { feedSchema, PayEvaluationOutput, toolArgs } from '../schemas.ts';
import { evaluationText } from '../text.ts';
import { defineTool } from '../tool-definition.ts';
import { feedLinks } from '../resources/links.ts';
import { specialtyArg, stateArg } from './get-specialty-pay.ts';

export type PayEvaluation = z.infer<typeof PayEvaluationOutput>;

/** Where `compensation` falls among the document's published percentiles (pure: the figures of `d` only). */
export function evaluateAgainst(d: SpecialtyPayDocument, compensation: number): PayEvaluation {
  const { n, as_of, citation_url, methodology_url, license, license_url, attribution, notice, title, publisher, feed_url, synthetic, release, modified, release_url } = d;
  const grid = standardGrid({ p10: d.p10, p25: d.p25, p50: d.median, p75: d.p75, p90: d.p90 });
  const position = grid.length >= 2 ? payPosition(grid, compensation) : null;
  return {
    n, as_of, citation_url, methodology_url, license, license_url, attribution, ...(notice ? { notice } : {}), title, publisher, feed_url, synthetic, release, modified, ...(release_url ? { release_url } : {}),
    specialty: d.specialty,
    basis: d.basis,
    scope: d.scope,
    state: d.scope === 'state' && 'state' in d ? d.state : null,
    compensation,
    experience_levels: 'all',
    percentile: position?.percentile ?? null,
    band: position?.band ?? null,
    band_lower_percentile: position?.band_lower_percentile ?? null,
    band_upper_percentile: position?.band_upper_percentile ?? null,
    band_lower_value: position?.band_lower_value ?? null,
    band_upper_value: position?.band_upper_value ?? null,
    percentiles: { p10: d.p10, p25: d.p25, median: d.median, p75: d.p75, p90: d.p90 },
    ...(d.scope === 'state' && 'national_median' in d ? { national_median: d.national_median } : {}),
    rounded: d.rounded,
    withheld: d.withheld,
    method: grid.length >= 2 ? payPositionMethod(grid) : 'No estimate: the figures are withheld below the publication floor (never estimated).',
  };
}

export const evaluateCompensationTool = defineTool({
  name: 'evaluate_compensation',
  title: 'Where does this pay fall?',
  description: 'Where an annual total compensation falls for a specialty, nationally or in a state: its percentile, interpolated between the published P10, P25, median, P75 and P90 (as get_specialty_pay), and its band; outside them only the band. Figures pool all experience levels (none by years in practice): say so when the asker gave theirs.',
  inputSchema: toolArgs('evaluate_compensation', {
    specialty: specialtyArg,
    compensation: z.number().positive().max(MAX_ANNUAL_PAY).describe(`USD a year, e.g. 350000 (not 350 for $350k, not hourly): from ${MIN_ANNUAL_PAY}`),
    state: stateArg,
  }),
  outputSchema: PayEvaluationOutput,
  listed: { keep: ['specialty', 'scope', 'state', 'compensation', 'experience_levels', 'percentile', 'band', 'percentiles', 'withheld'], see: `the common fields of ${feedSchema('specialty')}, basis, band bounds, method` },
  meta: { ui: { resourceUri: 'ui://physpay/pay-chart.html' }, 'ui/resourceUri': 'ui://physpay/pay-chart.html' },
  work: ({ specialty, compensation, state }, build, day) => {
    const issue = annualPayIssue(compensation);
    if (issue !== null) throw new ToolInputError(`compensation ${compensation} ${issue}.`);
    const e = evaluateAgainst(specialtyPayDoc(build, day, specialty, state), compensation);
    return { text: evaluationText(e), structured: e, links: feedLinks(build, e) };
  },
});
