/**
 * Where a report's pay falls, in words for the person who sent it (pure): the thank-you page's sentence.
 * The percentile is rounded to a whole one (an estimate; "the 50th", not "the 50.2nd"). The tool server's text
 * (server/mcp/text.ts) is written for an assistant to quote, with a "NOTE:" and a
 * "Cite:" line; a page for people says the same in sentences and leaves the citation to the figures' page.
 */
import type { PayEvaluation } from '../mcp/tools/evaluate-compensation.ts';
import { ordinal } from '../mcp/text.ts';

const dollars = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const usd = (v: number) => `$${dollars.format(v)}`;
const band = (b: string) => b.replace('-', '\u2013');

/** The sentence, or null when the figures are withheld (no band). */
export function payPlacementText(e: PayEvaluation): string | null {
  if (e.band === null || e.n === null) return null;
  const where = e.state ? `${e.specialty.name} in ${e.state.name}` : `${e.specialty.name} (United States)`;
  const at = e.percentile !== null
    ? `at about the ${ordinal(Math.round(e.percentile))} percentile, in the ${band(e.band)} band`
    : `${e.band} (${e.band.startsWith('below') ? 'under the lowest' : 'over the highest'} published percentile, so only the band can be given)`;
  const { from, to } = e.basis.compensation_years;
  const years = from === to ? `${from}` : `${from}\u2013${to}`;
  return `${where}: a total compensation of ${usd(e.compensation)} falls ${at}. `
    + `This is an estimate between the published percentiles of ${dollars.format(e.n)} approved self-reported reports of full-time pay in ${years} (data as of ${e.as_of}${e.rounded ? ', rounded to $1,000' : ''}), all experience levels together.`;
}
