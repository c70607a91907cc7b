import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { roundPct } from '../../../build/compute/stats.ts';
import { specialtyPayDoc } from '../lookup.ts';
import { payText } from '../text.ts';
import { CompareOutput } from '../schemas.ts';
import { runTool, type ToolDeps } from '../tool-result.ts';
import { specialtyArg, stateArg } from './get-specialty-pay.ts';

export function registerCompareSpecialtiesTool(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'compare_specialties',
    {
      title: 'Compare two specialties',
      description: 'Compare total compensation of two specialties, nationally or within one state: both specialties\' published documents (as get_specialty_pay returns them) and the difference of their medians. Withheld figures stay null; no difference is computed from them.',
      inputSchema: { specialty_a: specialtyArg, specialty_b: specialtyArg, state: stateArg },
      outputSchema: CompareOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ specialty_a, specialty_b, state }) => runTool(deps, (build, day) => {
      const a = specialtyPayDoc(build, day, specialty_a, state);
      const b = specialtyPayDoc(build, day, specialty_b, state);
      const diff = a.median !== null && b.median !== null ? a.median - b.median : null;
      const comparison = {
        median_difference: diff,
        median_difference_pct: diff !== null && b.median ? roundPct((diff / b.median) * 100) : null,
        higher: diff === null || diff === 0 ? null : diff > 0 ? a.specialty.slug : b.specialty.slug,
      };
      const summary = diff === null
        ? 'No difference can be given: at least one median is withheld.'
        : `Median difference: ${a.specialty.name} minus ${b.specialty.name} = ${diff < 0 ? '-' : ''}$${Math.abs(diff).toLocaleString('en-US')} (${comparison.median_difference_pct}%).`;
      return { text: `${summary}\n- ${payText(a)}\n- ${payText(b)}`, structured: { specialty_a: a, specialty_b: b, comparison } };
    }),
  );
}
