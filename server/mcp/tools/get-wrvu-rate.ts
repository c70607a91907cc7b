import { WrvuFeed } from '../../../build/contract/open-feeds.ts';
import { wrvuDoc } from '../lookup.ts';
import { wrvuText } from '../text.ts';
import { toolArgs } from '../schemas.ts';
import { defineTool } from '../tool-definition.ts';
import { feedLinks } from '../resources/links.ts';
import { specialtyArg } from './get-specialty-pay.ts';

export const getWrvuRateTool = defineTool({
  name: 'get_wrvu_rate',
  title: 'Compensation per wRVU',
  description: 'Total compensation per work relative value unit (wRVU) for one specialty, nationally: median, mean, 25th/75th (and 10th/90th when n >= 15) percentiles and n, from approved self-reported reports that gave annual wRVUs.',
  inputSchema: toolArgs('get_wrvu_rate', { specialty: specialtyArg }),
  outputSchema: WrvuFeed,
  listed: { keep: ['specialty', 'median', 'withheld'], schemas: ['wrvu'] },
  work: ({ specialty }, build, day) => {
    const doc = wrvuDoc(build, day, specialty);
    return { text: wrvuText(doc), structured: doc, links: feedLinks(build, doc) };
  },
});
