import { z } from 'zod';
import { specialtyPayDoc } from '../lookup.ts';
import { payText } from '../text.ts';
import { feedSchema, SpecialtyPayOutput, toolArgs } from '../schemas.ts';
import { defineTool } from '../tool-definition.ts';
import { feedLinks } from '../resources/links.ts';
import { detailArg, specialtySummary, type DetailCut } from '../detail.ts';
import { fullLinks } from '../paging.ts';

export const specialtyArg = z.string().min(1).max(100).describe('Specialty name or slug, e.g. "Cardiology", "OB/GYN", "ENT"');
export const stateArg = z.string().min(1).max(60).optional().describe('Optional US state: code, slug or name ("TX", "new-york")');

export const getSpecialtyPayTool = defineTool({
  name: 'get_specialty_pay',
  title: 'Physician pay by specialty',
  description: 'Attending physician total compensation (base, bonus, incentives) for one specialty: national median, mean, percentiles, top states, practice settings, $/wRVU and by-year figures; or, with a state, that state\'s figures beside the national median. Withheld figures are null with a notice (never estimate them). Say the data is self-reported.',
  inputSchema: toolArgs('get_specialty_pay', { specialty: specialtyArg, state: stateArg, detail: detailArg }),
  outputSchema: SpecialtyPayOutput,
  listed: { keep: ['specialty', 'scope', 'state', 'median', 'p25', 'p75', 'withheld', 'truncated'], see: feedSchema('specialty', 'specialtyState') },
  meta: { ui: { resourceUri: 'ui://physpay/pay-chart.html' }, 'ui/resourceUri': 'ui://physpay/pay-chart.html' },
  work: ({ specialty, state, detail }, build, day) => {
    const full = specialtyPayDoc(build, day, specialty, state);
    const links = feedLinks(build, full);
    if (detail === 'full') return { text: payText(full), structured: full, links };
    const { doc, left_out } = specialtySummary(full);
    if (!left_out.length) return { text: payText(full), structured: full, links };
    const cut: DetailCut = { left_out, next: { specialty, ...(state ? { state } : {}), detail: 'full' }, ...fullLinks(build.baseUrl, links) };
    const out = { ...doc, truncated: true as const, page: cut };
    return { text: payText(doc, cut), structured: out, links };
  },
});
