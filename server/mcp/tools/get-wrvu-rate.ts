import { WrvuFeed } from '../../../build/contract/open-feeds.ts';
import { wrvuDoc } from '../lookup.ts';
import { wrvuText } from '../text.ts';
import { feedSchema, toolArgs } from '../schemas.ts';
import { defineTool } from '../tool-definition.ts';
import { feedLinks } from '../resources/links.ts';
import { specialtyArg } from './get-specialty-pay.ts';

export const getWrvuRateTool = defineTool({
  name: 'get_wrvu_rate',
  title: 'Compensation per wRVU',
  description: 'Total compensation per work RVU (wRVU) for one specialty, nationally: median, mean, 25th/75th (10th/90th when n >= 15) percentiles and n, from self-reported reports that gave annual wRVUs.',
  inputSchema: toolArgs('get_wrvu_rate', { specialty: specialtyArg }),
  outputSchema: WrvuFeed,
  listed: { keep: ['specialty', 'median', 'withheld'], see: feedSchema('wrvu') },
  work: ({ specialty }, build, day) => {
    const doc = wrvuDoc(build, day, specialty);
    return { text: wrvuText(doc), structured: doc, links: feedLinks(build, doc) };
  },
});
