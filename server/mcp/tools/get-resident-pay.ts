import { z } from 'zod';
import { institutionDoc, stateInstitutionsDoc, ToolInputError } from '../lookup.ts';
import { institutionText, institutionsText } from '../text.ts';
import { ResidentPayOutput, toolArgs } from '../schemas.ts';
import { defineTool } from '../tool-definition.ts';
import { feedLinks } from '../resources/links.ts';

export const getResidentPayTool = defineTool({
  name: 'get_resident_pay',
  title: 'Resident pay scales',
  description: 'Resident (PGY) pay published by teaching hospitals. Give `institution` (slug or name) for one hospital\'s scale by postgraduate year with its cost-of-living-adjusted PGY-1 pay and rank; or give `state` (code, slug or name) for that state\'s teaching hospitals (residency/states/{state}.json), newest academic year first, each year ranked by cost-of-living-adjusted PGY-1 pay.',
  inputSchema: toolArgs('get_resident_pay', {
    institution: z.string().min(1).max(200).optional().describe('Teaching hospital slug or name'),
    state: z.string().min(1).max(60).optional().describe('US state: two-letter code, slug or name'),
  }),
  outputSchema: ResidentPayOutput,
  listed: { keep: ['institution', 'pgy_scale', 'state', 'institutions'], schemas: ['institution', 'stateInstitutions'] },
  work: ({ institution, state }, build, day) => {
    if (institution) {
      const doc = institutionDoc(build, day, institution);
      return { text: institutionText(doc), structured: doc, links: feedLinks(build, doc) };
    }
    if (state) {
      const doc = stateInstitutionsDoc(build, day, state);
      return { text: institutionsText(doc), structured: doc, links: feedLinks(build, doc) };
    }
    throw new ToolInputError('Give `institution` (a teaching hospital slug or name) or `state` (to list that state\'s teaching hospitals).');
  },
});
