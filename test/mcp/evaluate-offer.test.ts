/**
 * evaluate_offer with the official MCP client over real HTTP on the golden build, on the same server as the
 * keyed API: tools/list (read-only, strict input schema, output schema without $ref), the structuredContent
 * equal to /api/v1/offer-check's data for the same offer (A and C agree), a text that states every figure of
 * the answer and its citation lines, withheld figures, and tool errors (unknown names with close matches,
 * bad numbers, contradictions, arguments the tool does not take).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { OfferCheckResponse } from '../../build/contract/keyed-api.ts';
import { OFFER_NUMBER_FIELDS, OfferCheck } from '../../build/contract/offer-check.ts';
import type { PlanKeys } from '../helpers/keys.ts';
import { closeAfterAll } from '../helpers/server.ts';
import { call, qs, useKeyedServer, type KeyedServer } from '../keyed/harness.ts';
import { callTool, connectClient, errorText, textOf, usd } from './mcp-helpers.ts';
import { ordinal } from '../../server/mcp/text.ts';

let ks: KeyedServer;
let keys: PlanKeys;
let client: Client;
const closeLater = closeAfterAll();
useKeyedServer({ now: '2026-12-01T12:00:15Z', prefix: 'mcp-offer' }, (k, pk) => {
  ks = k;
  keys = pk;
});
beforeAll(async () => {
  client = closeLater(await connectClient(ks.url));
});

/** The keyed API's parameters for a tool's arguments (state by its full name, numbers as text). */
function keyedParams(args: Record<string, unknown>, stateName?: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(args)) out[k] = k === 'state' ? stateName! : String(v);
  return out;
}

async function both(args: Record<string, unknown>, stateName?: string): Promise<{ result: CallToolResult; doc: OfferCheck; text: string; keyed: OfferCheck }> {
  const result = await callTool(client, 'evaluate_offer', { ...args, detail: 'full' });
  expect(result.isError ?? false, JSON.stringify(result.content).slice(0, 300)).toBe(false);
  const doc = OfferCheck.parse(result.structuredContent);
  const r = await call(ks.url, `/offer-check?${qs(keyedParams(args, stateName))}`, keys.starter.key);
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  return { result, doc, text: textOf(result), keyed: OfferCheckResponse.parse(r.json()).data };
}

/** Every figure of the answer must be in the text (dollar figures as the text writes them). */
function expectEveryFigure(text: string, a: OfferCheck): void {
  const has = (s: string, what: string) => expect(text, `${what}: ${s}`).toContain(s);
  has(usd(a.total_compensation), 'total');
  if (a.fte_total_compensation !== null) has(usd(a.fte_total_compensation), 'FTE total');
  if (a.position) {
    const p = a.position;
    if (p.percentile !== null) has(`${ordinal(p.percentile)} percentile (band ${p.band}`, 'percentile');
    else has(p.band, 'band');
    for (const v of Object.values(p.percentiles)) if (v !== null) has(usd(v), 'published percentile');
    has(`n=${p.n}`, 'n of the scope');
  }
  if (a.scope_note) has(a.scope_note, 'scope note');
  for (const c of a.components) {
    if (c.amount !== null && c.amount > 0) has(`${c.label} ${usd(c.amount)}`, c.component);
    if (c.band !== null) has(c.band, `${c.component} band`);
    for (const v of [c.p25, c.median, c.p75]) if (v !== null) has(usd(v), `${c.component} quartile`);
    if (c.share_with_pct !== null) has(`${c.share_with_pct}%`, `${c.component} share`);
  }
  const t = a.terms;
  for (const q of [t.pto_weeks, t.call_nights_per_month]) {
    if (q.band !== null) has(q.band, 'quantity band');
    for (const v of [q.p25, q.median, q.p75]) if (v !== null) has(String(v), 'quantity quartile');
  }
  if (t.non_compete.miles_vs_median) has(`radius ${t.non_compete.miles_vs_median}`, 'non-compete');
  if (t.partnership_track.years_vs_median) has(t.partnership_track.years_vs_median, 'partnership');
  for (const v of [a.value.yearly, a.value.one_time, a.value.first_year, a.value.steady_state_yearly]) has(usd(v), 'value');
  has(`${a.value.contract_years}-year contract`, 'contract years');
  const pr = a.productivity;
  if (pr.implied_per_wrvu !== null) has(usd(pr.implied_per_wrvu), 'implied $/wRVU');
  if (pr.specialty_per_wrvu.position?.percentile != null) has(`${ordinal(pr.specialty_per_wrvu.position.percentile)} percentile`, '$/wRVU percentile');
  if (pr.compensation_model?.median_conversion_rate != null) has(usd(pr.compensation_model.median_conversion_rate), 'model rate');
  if (pr.implied_vs_model_median_pct !== null) has(`${Math.abs(pr.implied_vs_model_median_pct)}%`, 'implied vs model');
  if (pr.conversion_rate_vs_model_median_pct !== null) has(`${Math.abs(pr.conversion_rate_vs_model_median_pct)}%`, 'rate vs model');
  for (const m of a.missing) has(m.text, 'missing');
  has(a.as_of, 'as_of');
  has('self-reported', 'self-reported');
  has(a.attribution, 'attribution');
  if (a.state_source) has(a.state_source.attribution, 'state attribution');
  expect(a.attribution).toContain('accessed 2026-12-01)');
}

describe('evaluate_offer', () => {
  it('is listed read-only, with a strict input schema (base_salary and specialty required) and an output schema without $ref', async () => {
    const { tools } = await client.listTools();
    const t = tools.find((x) => x.name === 'evaluate_offer')!;
    expect(t).toBeDefined();
    expect(t.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(t.inputSchema.additionalProperties).toBe(false);
    expect(Object.keys(t.inputSchema.properties ?? {}).sort()).toEqual(['specialty', 'state', ...OFFER_NUMBER_FIELDS, 'compensation_model', 'detail', 'release'].sort());
    expect([...(t.inputSchema.required ?? [])].sort()).toEqual(['base_salary', 'specialty']);
    expect(t.outputSchema?.type).toBe('object');
    expect(JSON.stringify(t)).not.toMatch(/\$ref|\$defs/);
    expect(t.description!.length).toBeGreaterThan(200);
  });

  it('gives the same answer as /api/v1/offer-check for the same offer, and a text with every figure and the citation', async () => {
    const cases: [Record<string, unknown>, string?][] = [
      [{ specialty: 'Family Medicine', base_salary: 250000 }],
      [{ specialty: 'family-medicine', state: 'CA', base_salary: 245000.5, bonus: 20000, call_pay: 12000, signing_bonus: 25000, relocation: 10000, cme_allowance: 0, contract_years: 2, pto_weeks: 5, call_nights_per_month: 4, partnership_track_years: 3 }, 'California'],
      [{ specialty: 'Family Medicine', state: 'wyoming', base_salary: 230000, hours_per_week: 32, wrvus: 4800, compensation_model: 'salary_plus_productivity', wrvu_conversion_rate: 51.5, loan_repayment: 60000, loan_repayment_years: 5, retention_bonus: 15000, non_compete_miles: 25, non_compete_years: 2 }, 'Wyoming'],
      [{ specialty: 'Cardiology', state: 'Texas', base_salary: 520000, bonus: 80000, wrvus: 9000, compensation_model: 'production', non_compete_miles: 0, pto_weeks: 6 }, 'Texas'],
    ];
    for (const [args, stateName] of cases) {
      const { doc, keyed, text, result } = await both(args, stateName);
      expect(doc, JSON.stringify(args)).toEqual(keyed);
      expectEveryFigure(text, doc);
      const links = result.content.slice(1) as { type: string; uri: string }[];
      expect(links[0]).toMatchObject({ type: 'resource_link', uri: doc.feed_url });
      if (doc.state_source) expect(links.map((l) => l.uri)).toContain(doc.state_source.feed_url);
    }
  });

  it('a withheld specialty: no position, the text says why (the keyed API answers 404 there)', async () => {
    const r = await callTool(client, 'evaluate_offer', { specialty: 'Medical Genetics', base_salary: 300000, cme_allowance: 2000, detail: 'full' });
    const doc = OfferCheck.parse(r.structuredContent);
    expect(doc.position).toBeNull();
    const text = textOf(r);
    expect(text).toContain('The national figures for Medical Genetics are withheld (fewer than 5 reports): no position can be given.');
    expect(text).toContain(doc.attribution);
    expect(text).toContain('CME allowance $2,000 a year: no published range');
  });

  it('by default a summary: each part\'s band, median and share, the total\'s position and the values, both citations; what it leaves out is named, and page.next gives the full answer', async () => {
    const args = { specialty: 'family-medicine', state: 'CA', base_salary: 245000, bonus: 20000, call_pay: 12000, signing_bonus: 25000, relocation: 10000, loan_repayment: 40000, cme_allowance: 3000, hours_per_week: 36, wrvus: 5000, wrvu_conversion_rate: 50, compensation_model: 'production', pto_weeks: 5, call_nights_per_month: 4, non_compete_miles: 20, non_compete_years: 2, partnership_track_years: 3 };
    const r = await callTool(client, 'evaluate_offer', args);
    expect(r.isError ?? false).toBe(false);
    const sum = r.structuredContent as Record<string, unknown> & { truncated: boolean; page: { left_out: string[]; next: Record<string, unknown> }; components: Record<string, unknown>[]; state_source: Record<string, unknown> };
    const text = textOf(r);
    const fullResult = await callTool(client, 'evaluate_offer', sum.page.next);
    const full = OfferCheck.parse(fullResult.structuredContent);
    expect(sum.page.next).toEqual({ ...args, detail: 'full' });
    expect(full.state_source).not.toBeNull();
    expect(sum.truncated).toBe(true);
    // what is kept is the full answer's own
    for (const k of ['n', 'as_of', 'attribution', 'citation_url', 'license', 'feed_url', 'specialty', 'state_asked', 'scope_used', 'total_compensation', 'fte_total_compensation', 'missing', 'experience_levels'] as const) expect(sum[k], k).toEqual(full[k]);
    const { method: _m, ...position } = full.position!;
    expect(sum.position).toEqual(position);
    const { parts: _p, ...value } = full.value;
    expect(sum.value).toEqual(value);
    expect(sum.state_source).toEqual({ feed_url: full.state_source!.feed_url, attribution: full.state_source!.attribution, n: full.state_source!.n, as_of: full.state_source!.as_of });
    const given = full.components.filter((c) => c.amount !== null);
    expect(sum.components).toEqual(given.map((c) => ({ component: c.component, label: c.label, amount: c.amount, band: c.band, median: c.median, share_with_pct: c.share_with_pct })));
    for (const k of ['offer', 'rules', 'basis', 'title', 'release_url']) expect(k in sum, k).toBe(false);
    // the text: the total's position, each part's band, median and share, the values, both citations
    const p = full.position!;
    if (p.percentile !== null) expect(text).toContain(`${ordinal(p.percentile)} percentile (band ${p.band}`);
    else expect(text).toContain(p.band);
    for (const v of Object.values(p.percentiles)) if (v !== null) expect(text).toContain(usd(v));
    for (const c of given.filter((x) => x.amount! > 0)) {
      expect(text).toContain(`${c.label} ${usd(c.amount!)}`);
      expect(text).toContain(c.band === 'no published range' ? `${c.label} ${usd(c.amount!)} ${c.unit.replace(/^USD,? /, '')}: no published range` : `${c.band} (median ${usd(c.median!)})`);
      if (c.share_with_pct !== null) expect(text).toContain(`${c.share_with_pct}% have it`);
    }
    for (const v of [full.value.yearly, full.value.one_time, full.value.first_year, full.value.steady_state_yearly]) expect(text).toContain(usd(v));
    expect(text).toContain(full.attribution);
    expect(text).toContain(`State figures: PhysPay, ${full.state_source!.feed_url} (data as of ${full.state_source!.as_of}).`);
    expect(text).toContain('self-reported');
    // what is left out, the same in text and structuredContent
    expect(sum.page.left_out.join('; ')).toMatch(/p25, p75.*offer.*value\.parts.*position\.method.*rules.*release_url/);
    expect(text).toContain(`Truncated: left out here: ${sum.page.left_out.join('; ')}. Everything: the same call with "detail": "full".`);
    // the full answer: the keyed API's, with its text and both feeds linked
    expect(textOf(fullResult)).toContain(full.state_source!.attribution);
    expect((fullResult.content.slice(1) as { uri: string }[]).map((l) => l.uri)).toEqual([full.feed_url, full.state_source!.feed_url]);
    expect((r.content.slice(1) as { uri: string }[]).map((l) => l.uri)).toEqual([full.feed_url]);
  });

  it('tool errors: unknown names with close matches, bad numbers, contradictions, arguments it does not take', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ specialty: 'Cardiologee', base_salary: 1 }, /Unknown specialty "Cardiologee"\. Close matches: Cardiology/],
      [{ specialty: 'Cardiology', state: 'Texass', base_salary: 1 }, /Unknown state "Texass"/],
      [{ specialty: 'Cardiology' }, /base_salary/],
      [{ specialty: 'Cardiology', base_salary: -5 }, /base_salary/],
      [{ specialty: 'Cardiology', base_salary: 300000, contract_years: 2.5 }, /contract_years/],
      [{ specialty: 'Cardiology', base_salary: 300000, hours_per_week: 5 }, /hours_per_week/],
      [{ specialty: 'Cardiology', base_salary: 300000, compensation_model: 'piecework' }, /compensation_model/],
      [{ specialty: 'Cardiology', base_salary: 300000, loan_repayment_years: 3 }, /loan_repayment_years needs a loan_repayment amount above 0\./],
      [{ specialty: 'Cardiology', base_salary: 300000, salary: 1 }, /evaluate_offer does not take "salary"; it takes specialty, state, base_salary, bonus, .*compensation_model, detail, release/],
    ];
    for (const [args, msg] of cases) expect(errorText(await callTool(client, 'evaluate_offer', args)), JSON.stringify(args)).toMatch(msg);
  });
});
