import { z } from 'zod';
import { institutionDoc, stateInstitutionsDoc, ToolInputError } from '../lookup.ts';
import { institutionText, institutionsText } from '../text.ts';
import { feedSchema, ResidentPayOutput, toolArgs } from '../schemas.ts';
import { defineTool } from '../tool-definition.ts';
import { feedLinks } from '../resources/links.ts';
import { fullLinks, pageArgs, pageOf } from '../paging.ts';

/** A state's teaching hospitals per page: the default keeps the result under 8 kB (README, "Weight"). */
export const HOSPITALS_PAGE = { def: 7, max: 100 } as const;

export const getResidentPayTool = defineTool({
  name: 'get_resident_pay',
  title: 'Resident pay scales',
  description: `Resident (PGY) pay published by teaching hospitals. \`institution\`: one hospital's scale by postgraduate year, its cost-of-living-adjusted PGY-1 pay and rank. \`state\`: that state's teaching hospitals, newest academic year first, each year ranked by adjusted PGY-1 pay, a page at a time (default ${HOSPITALS_PAGE.def}; truncated and page.next when there are more).`,
  inputSchema: toolArgs('get_resident_pay', {
    institution: z.string().min(1).max(200).optional().describe('Teaching hospital slug or name'),
    state: z.string().min(1).max(60).optional().describe('US state: code, slug or name'),
    ...pageArgs('hospitals', HOSPITALS_PAGE.def, HOSPITALS_PAGE.max),
  }),
  outputSchema: ResidentPayOutput,
  listed: { keep: ['institution', 'pgy_scale', 'state', 'count', 'institutions', 'truncated'], see: feedSchema('institution', 'stateInstitutions') },
  work: ({ institution, state, limit, offset }, build, day) => {
    if (institution) {
      if (limit !== undefined || offset !== undefined) throw new ToolInputError('limit and offset page a state\'s list of hospitals: leave them out with `institution`.');
      const doc = institutionDoc(build, day, institution);
      return { text: institutionText(doc), structured: doc, links: feedLinks(build, doc) };
    }
    if (state) {
      const doc = stateInstitutionsDoc(build, day, state);
      const links = feedLinks(build, doc);
      const { items, page } = pageOf(doc.institutions, { state, limit, offset }, HOSPITALS_PAGE.def, fullLinks(build.baseUrl, links), 'hospitals');
      const out = page ? { ...doc, institutions: items, truncated: true as const, page } : doc;
      return { text: institutionsText(out, page), structured: out, links };
    }
    throw new ToolInputError('Give `institution` (a teaching hospital slug or name) or `state` (to list that state\'s teaching hospitals).');
  },
});
