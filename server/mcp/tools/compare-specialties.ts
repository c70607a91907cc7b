import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ComparisonFeed } from '../../../build/contract/open-feeds.ts';
import { comparisonDoc } from '../lookup.ts';
import { payText } from '../text.ts';
import { strictArgs } from '../schemas.ts';
import { runTool, type ToolDeps } from '../tool-result.ts';
import { specialtyArg, stateArg } from './get-specialty-pay.ts';

export function registerCompareSpecialtiesTool(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'compare_specialties',
    {
      title: 'Compare two specialties',
      description: 'Compare total compensation of two specialties, nationally or within one state: both specialties\' published documents (as get_specialty_pay returns them) and the difference of their medians, with n, as_of and the citation of the comparison itself (/data/api/v1/compare/{a}/{b}.json). Withheld figures stay null; no difference is computed from them.',
      inputSchema: strictArgs('compare_specialties', { specialty_a: specialtyArg, specialty_b: specialtyArg, state: stateArg }),
      outputSchema: ComparisonFeed,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ specialty_a, specialty_b, state }) => runTool(deps, (build, day) => {
      const d = comparisonDoc(build, day, specialty_a, specialty_b, state);
      const a = d.specialty_a;
      const b = d.specialty_b;
      const diff = d.comparison.median_difference;
      const summary = diff === null
        ? 'No difference can be given: at least one median is withheld.'
        : `Median difference: ${a.specialty.name} minus ${b.specialty.name} = ${diff < 0 ? '-' : ''}$${Math.abs(diff).toLocaleString('en-US')} (${d.comparison.median_difference_pct}%), from n=${d.n} approved self-reported reports in all, data as of ${d.as_of}.`;
      return { text: `${summary}\n- ${payText(a)}\n- ${payText(b)}\nCite the comparison: ${d.attribution}`, structured: d };
    }),
  );
}
