/**
 * evaluate_job_offer: how a job offer (specialty, optional state, total annual pay) compares with the
 * published figures: which tools to call with which arguments, and how to cite what they return.
 */
import { feedPaths } from '../../../build/contract/open-feeds.ts';
import type { LoadedBuild } from '../../builds/loaded-build.ts';
import { strictArgs } from '../schemas.ts';
import { evaluateCompensationTool } from '../tools/evaluate-compensation.ts';
import { getSpecialtyPayTool } from '../tools/get-specialty-pay.ts';
import { getWrvuRateTool } from '../tools/get-wrvu-rate.ts';
import { evaluateOfferTool } from '../tools/evaluate-offer.ts';
import { article } from '../text.ts';
import {
  CITATION_RULES, INTRO, call, given, parseTotalPay, resolveArg, specialtyArg, stateArg, text, usd, type PromptText,
} from './common.ts';

export const EVALUATE_JOB_OFFER = 'evaluate_job_offer';

export interface EvaluateJobOfferArgs {
  specialty: string;
  total_pay: string;
  state?: string | undefined;
}

export const evaluateJobOfferArgs = (build: LoadedBuild | null) => strictArgs(EVALUATE_JOB_OFFER, {
  specialty: specialtyArg(build),
  total_pay: text().min(1).max(60).describe('Annual total compensation offered (base, bonus and incentives) in US dollars: "350000", "$350,000" or "350k"'),
  state: stateArg(build, 'Optional US state of the job: name or two-letter code ("Texas", "TX"); empty for national figures only'),
});

export const evaluateJobOfferMeta = {
  title: 'Evaluate a job offer',
  description: 'How an offer\'s total annual pay compares with published physician compensation for the specialty, in its state and nationally: the tools to call (evaluate_compensation, get_specialty_pay) with their arguments, and how to cite n, as_of, the citation_url and the attribution line.',
};

/** The prompt's text for these arguments (pure over the build's names and published files). */
export function evaluateJobOfferPrompt(build: LoadedBuild, args: EvaluateJobOfferArgs): PromptText {
  const sp = resolveArg(build, 'specialty', 'specialty', args.specialty);
  const st = given(args.state) ? resolveArg(build, 'state', 'state', args.state) : null;
  const pay = parseTotalPay(args.total_pay);
  const inState = st !== null && build.files.has(`/${feedPaths.specialtyState(sp.slug, st.slug)}`);
  const specialty = sp.slug;
  const steps: string[] = [];
  if (st && inState) {
    steps.push(`${call(evaluateCompensationTool.name, { specialty, compensation: pay, state: st.slug })}: where ${usd(pay)} falls among the published percentiles of ${sp.name} in ${st.name}.`);
    steps.push(`${call(getSpecialtyPayTool.name, { specialty, state: st.slug })}: the ${st.name} figures themselves (median, mean, middle half, 10th-90th percentile).`);
  }
  steps.push(`${call(evaluateCompensationTool.name, { specialty, compensation: pay })}: where it falls nationally${inState ? ', for context' : ''}.`);
  steps.push(`${call(getSpecialtyPayTool.name, { specialty })}: the national figures (median, mean, middle half, 10th-90th percentile, top states, practice settings).`);
  steps.push(`Only if the offer pays on productivity: ${call(getWrvuRateTool.name, { specialty })}, the national total compensation per wRVU.`);
  steps.push(`Only if the offer states its parts (base salary and bonus, call pay, sign-on or retention bonus, relocation, loan repayment, CME money, weeks off, pay model, non-compete, partnership track): ${evaluateOfferTool.name} with the specialty${st ? ', the state' : ''} and those parts, for where each part falls, the first-year and steady-state value, and what most offers include that this one lacks.`);
  const text = [
    `I have a job offer as ${article(sp.name)} ${sp.name} physician${st ? ` in ${st.name}` : ''} with a total annual compensation of ${usd(pay)}. How does it compare with what ${sp.name} physicians are paid${inState && st ? ` in ${st.name} and nationally` : ' nationally'}?`,
    '',
    INTRO,
    ...(st && !inState ? ['', `No figures are published for ${sp.name} in ${st.name} (too few approved reports there): compare with the national figures only, and say so.`] : []),
    '',
    'Call these tools, with exactly these arguments:',
    ...steps.map((s, i) => `${i + 1}. ${s}`),
    '',
    'Then answer:',
    `- Where the offer falls${inState && st ? ` in ${st.name} and nationally` : ''}: its estimated percentile (outside the published percentiles only its band is known), next to the median and the middle half (25th-75th percentile).`,
    '- The percentile is an estimate, interpolated between the published percentiles (the result\'s `method`): say so.',
    `- The figures are total compensation (base salary, bonus and incentives): if ${usd(pay)} is the base salary only, say the offer's total may be higher.`,
    `- Do not draw conclusions the figures do not support: total compensation leaves out benefits, location and hours; the offer's other parts are compared only through ${evaluateOfferTool.name}.`,
    '',
    CITATION_RULES,
  ].join('\n');
  return { description: `A ${usd(pay)} ${sp.name} offer${st ? ` in ${st.name}` : ''} against published pay`, text };
}
