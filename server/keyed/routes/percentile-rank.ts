/**
 * GET /api/v1/percentile-rank?specialty&compensation[&state|region][&practice_setting][&employment_type][&fte]:
 * the estimated percentile of a compensation within the scope /benchmarks would use. Counted like
 * /benchmarks; `fte=true` (Professional and Enterprise) ranks among the FTE-normalized figures.
 */
import type { PercentileRankResponse } from '../../../build/contract/keyed-api.ts';
import { rateLimitMeta, type Answer, type KeyedLocals } from '../context.ts';
import { badRequest, forbidden } from '../errors.ts';
import { single, type Query } from '../params.ts';
import { benchmarkData } from '../benchmark.ts';
import { cellsFor, parseScopeQuery } from '../query.ts';
import { percentileRankData } from '../percentile-rank.ts';
import { annualPayIssue, MAX_ANNUAL_PAY } from '../../../build/contract/annual-pay.ts';

const PARAMS = ['specialty', 'compensation', 'state', 'region', 'practice_setting', 'employment_type', 'fte'];
export const MAX_COMPENSATION = MAX_ANNUAL_PAY;

export function parseCompensation(query: Query): number {
  const raw = single(query, 'compensation');
  if (raw === undefined) throw badRequest('parameter compensation is required: total annual compensation in dollars, e.g. 350000');
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(raw)) throw badRequest(`compensation must be a number of dollars such as 350000 or 350000.50, without commas or a currency sign (got "${raw.slice(0, 40)}")`);
  const v = Number(raw);
  if (v <= 0 || v > MAX_COMPENSATION) throw badRequest(`compensation must be more than 0 and at most ${MAX_COMPENSATION.toLocaleString('en-US')} (got ${raw})`);
  // one rule with the tool server: a figure under $10,000 is not a year's pay (420 for $420k, an hourly rate)
  const issue = annualPayIssue(v);
  if (issue !== null) throw badRequest(`compensation ${raw} ${issue}`);
  return v;
}

function parseFte(query: Query): boolean {
  const raw = single(query, 'fte');
  if (raw === undefined) return false;
  const v = raw.toLowerCase();
  if (v !== 'true' && v !== 'false') throw badRequest(`fte must be true or false (got "${raw.slice(0, 40)}")`);
  return v === 'true';
}

export async function percentileRankRoute(query: Query, l: KeyedLocals): Promise<Answer> {
  const build = l.build!;
  const plan = l.plan!;
  const q = parseScopeQuery(query, build, plan, PARAMS);
  const compensation = parseCompensation(query);
  const fte = parseFte(query);
  if (fte && !plan.professionalSections) throw forbidden(`fte=true (rank among FTE-normalized figures) is a Professional and Enterprise plan feature; this key is on the ${plan.label} plan`);
  const { cells, bls } = await cellsFor(build, q);
  const bench = benchmarkData({ index: build.keyedIndex, bls, cells, plan }, q);
  const body: PercentileRankResponse = {
    data: percentileRankData(bench, compensation, fte ? 'fte_normalized' : 'total_compensation'),
    meta: { request_id: l.requestId, rate_limit: rateLimitMeta(l) },
  };
  return { body, cacheControl: 'private, max-age=3600' };
}
