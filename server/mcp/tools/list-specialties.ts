import { SpecialtiesFeed } from '../../../build/contract/open-feeds.ts';
import { specialtiesDoc } from '../lookup.ts';
import { specialtiesText } from '../text.ts';
import { feedSchema, toolArgs } from '../schemas.ts';
import { defineTool } from '../tool-definition.ts';
import { feedLinks } from '../resources/links.ts';
import { fullLinks, pageArgs, pageOf } from '../paging.ts';

/** Specialties per page: the default keeps the result under 8 kB (README, "Weight"). */
export const SPECIALTIES_PAGE = { def: 10, max: 100 } as const;

export const listSpecialtiesTool = defineTool({
  name: 'list_specialties',
  title: 'List physician specialties',
  description: `Physician specialties by name with slug, national median total compensation, 25th/75th percentiles and n, a page at a time (default ${SPECIALTIES_PAGE.def}; truncated and page.next when there are more). Use a slug or name in the other tools.`,
  inputSchema: toolArgs('list_specialties', pageArgs('specialties', SPECIALTIES_PAGE.def, SPECIALTIES_PAGE.max)),
  outputSchema: SpecialtiesFeed,
  listed: { keep: ['count', 'specialties', 'truncated'], see: feedSchema('specialties') },
  work: (args, build, day) => {
    const doc = specialtiesDoc(build, day);
    const links = feedLinks(build, doc);
    const { items, page } = pageOf(doc.specialties, args, SPECIALTIES_PAGE.def, fullLinks(build.baseUrl, links), 'specialties');
    const out = page ? { ...doc, specialties: items, truncated: true as const, page } : doc;
    return { text: specialtiesText(out, page), structured: out, links };
  },
});
