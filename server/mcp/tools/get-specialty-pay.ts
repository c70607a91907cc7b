import { z } from 'zod';
import { specialtyPayDoc } from '../lookup.ts';
import { payText } from '../text.ts';
import { SpecialtyPayOutput, toolArgs } from '../schemas.ts';
import { defineTool } from '../tool-definition.ts';
import { feedLinks } from '../resources/links.ts';

export const specialtyArg = z.string().min(1).max(100).describe('Specialty name, slug or common spelling, e.g. "Cardiology", "orthopedic-surgery", "OB/GYN", "ENT"');
export const stateArg = z.string().min(1).max(60).optional().describe('Optional US state: two-letter code ("TX"), slug ("new-york") or name ("New York")');

export const getSpecialtyPayTool = defineTool({
  name: 'get_specialty_pay',
  title: 'Physician pay by specialty',
  description: 'Attending physician total compensation (base, bonus, incentives) for one specialty: national median, mean and percentiles, top states, practice settings and compensation per wRVU; or, with a state, the figures for that specialty in that state. Figures below publication floors are null with a notice (never estimated). Quote n, as_of and the attribution, and say the data is self-reported.',
  inputSchema: toolArgs('get_specialty_pay', { specialty: specialtyArg, state: stateArg }),
  outputSchema: SpecialtyPayOutput,
  listed: { keep: ['specialty', 'scope', 'state', 'median', 'p25', 'p75', 'withheld'], schemas: ['specialty', 'specialtyState'] },
  meta: { ui: { resourceUri: 'ui://physpay/pay-chart.html' }, 'ui/resourceUri': 'ui://physpay/pay-chart.html' },
  work: ({ specialty, state }, build, day) => {
    const doc = specialtyPayDoc(build, day, specialty, state);
    return { text: payText(doc), structured: doc, links: feedLinks(build, doc) };
  },
});
