import { SpecialtiesFeed } from '../../../build/contract/open-feeds.ts';
import { specialtiesDoc } from '../lookup.ts';
import { specialtiesText } from '../text.ts';
import { toolArgs } from '../schemas.ts';
import { defineTool } from '../tool-definition.ts';
import { feedLinks } from '../resources/links.ts';

export const listSpecialtiesTool = defineTool({
  name: 'list_specialties',
  title: 'List physician specialties',
  description: 'List every physician specialty with its slug, national median total compensation, 25th and 75th percentiles and report count (n). Use the slugs or names with get_specialty_pay, compare_specialties and get_wrvu_rate. Figures are from approved, self-reported salary reports (CC BY 4.0).',
  inputSchema: toolArgs('list_specialties', {}),
  outputSchema: SpecialtiesFeed,
  listed: { keep: ['count', 'specialties'], schemas: ['specialties'] },
  work: (_args, build, day) => {
    const doc = specialtiesDoc(build, day);
    return { text: specialtiesText(doc), structured: doc, links: feedLinks(build, doc) };
  },
});
