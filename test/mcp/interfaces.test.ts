/**
 * The tool server and the open feeds to the letter: every tool result carries the common fields and
 * equals a feed with exactly its figures (the comparison and a state's residency list have their own
 * feeds; the comparison has its own page); strict arguments name the accepted ones; an unknown tool is the
 * JSON-RPC error the MCP specification prescribes and is not counted; evaluate_compensation interpolates
 * the published percentiles; and the open feeds' consistency fields, the ob%2Fgyn alias and the close
 * matches for words that are not names ("crna", "eye").
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningServer } from '../../server/main.ts';
import type {
  ComparisonFeed, InstitutionFeed, InstitutionsFeed, SpecialtyFeed, SpecialtyStateFeed, StateFeed, StateInstitutionsFeed, StatesFeed,
} from '../../build/contract/open-feeds.ts';
import { ComparisonFeed as ComparisonSchema, StateInstitutionsFeed as StateInstitutionsSchema } from '../../build/contract/open-feeds.ts';
import { payPosition, standardGrid } from '../../build/compute/pay-position.ts';
import { get } from '../helpers/http.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { closeAfterAll } from '../helpers/server.ts';
import {
  JSON_ONLY, V1, callTool, connectClient, errorText, feed, okResult, rawPost, rpcErrorOf, serveGolden, toolCallBody,
} from './mcp-helpers.ts';

const work = useGoldenDir('mcp-letter');
const closeLater = closeAfterAll();
let server: RunningServer;
let client: Client;
const clock = () => new Date('2026-12-01T12:00:15.000Z');

beforeAll(async () => {
  server = closeLater(await serveGolden(work.path, work.dist, 'letter', clock));
  client = closeLater(await connectClient(server.url));
}, 60_000);

const COMMON = ['n', 'as_of', 'citation_url', 'methodology_url', 'license', 'license_url', 'attribution', 'title', 'publisher', 'feed_url', 'synthetic'];

function expectCommon(doc: Record<string, unknown>, label: string) {
  for (const k of COMMON) expect(doc, `${label}: ${k}`).toHaveProperty(k);
  expect(doc.license).toBe('CC BY 4.0');
  expect(String(doc.attribution)).toContain(String(doc.citation_url));
  expect(String(doc.attribution)).toContain('accessed 2026-12-01)');
}

/** The feed a result points at: same document, and its citation page answers 200 HTML. */
async function expectOwnFeed(doc: Record<string, unknown>, label: string) {
  const path = new URL(String(doc.feed_url)).pathname;
  const r = await get(server.url, path);
  expect(r.status, `${label}: ${path}`).toBe(200);
  expect(r.json(), label).toEqual(doc);
  const page = await get(server.url, new URL(String(doc.citation_url)).pathname);
  expect(page.status, `${label}: ${doc.citation_url}`).toBe(200);
  expect(page.headers['content-type']).toMatch(/^text\/html/);
  return page.text;
}

describe('every tool result carries the common fields and points at a feed with exactly its figures', () => {
  it('compare_specialties: its own feed (national and in a state) and its own page', async () => {
    // the whole document (detail: "full"); the default summary's figures are checked against it in result-size.test.ts
    for (const args of [{ specialty_a: 'Cardiology', specialty_b: 'family medicine', detail: 'full' }, { specialty_a: 'family-medicine', specialty_b: 'Internal Medicine', state: 'CA', detail: 'full' }]) {
      const { doc, text } = okResult<ComparisonFeed>(await callTool(client, 'compare_specialties', args));
      ComparisonSchema.parse(doc);
      expectCommon(doc as unknown as Record<string, unknown>, 'compare');
      const a = doc.specialty_a;
      const b = doc.specialty_b;
      expect(a.withheld || b.withheld, 'both published').toBe(false);
      expect(doc.n).toBe(a.n! + b.n!);
      expect(doc.as_of).toBe(a.as_of > b.as_of ? a.as_of : b.as_of);
      expect(doc.comparison.median_difference).toBe(a.median! - b.median!);
      // the two sides are the published documents
      const side = async (d: typeof a) => feed(server.url, new URL(d.feed_url).pathname.slice(V1.length));
      expect(a).toEqual(await side(a));
      expect(b).toEqual(await side(b));
      const html = await expectOwnFeed(doc as unknown as Record<string, unknown>, 'compare');
      expect(html).toContain(`data-field="comparison.median_difference"`);
      expect(html).toContain(`data-value="${doc.comparison.median_difference}"`);
      expect(text).toContain(`n=${doc.n}`);
      expect(text).toContain(doc.attribution);
    }
  });

  it('compare_specialties with a withheld side: n null, a notice, no difference', async () => {
    const specialties = await feed<{ specialties: { slug: string; withheld: boolean }[] }>(server.url, '/specialties.json');
    const withheld = specialties.specialties.find((s) => s.withheld)!;
    const { doc } = okResult<ComparisonFeed>(await callTool(client, 'compare_specialties', { specialty_a: 'Cardiology', specialty_b: withheld.slug, detail: 'full' }));
    expect(doc.n).toBeNull();
    expect(doc.notice).toMatch(/withheld/);
    expect(doc.comparison).toEqual({ median_difference: null, median_difference_pct: null, higher: null });
    await expectOwnFeed(doc as unknown as Record<string, unknown>, 'compare withheld');
  });

  it('get_resident_pay({state}): residency/states/{state}.json, whose as_of is that state\'s newest check', async () => {
    const { doc } = okResult<StateInstitutionsFeed>(await callTool(client, 'get_resident_pay', { state: 'TX', limit: 100 }));
    StateInstitutionsSchema.parse(doc);
    expectCommon(doc as unknown as Record<string, unknown>, 'resident state');
    expect(doc.feed_url).toMatch(/\/data\/api\/v1\/residency\/states\/texas\.json$/);
    const index = await feed<InstitutionsFeed>(server.url, '/residency/institutions.json');
    const tx = index.institutions.filter((i) => i.institution.state.code === 'TX');
    expect(doc.count).toBe(tx.length);
    const asOfs = await Promise.all(tx.map(async (i) => (await feed<InstitutionFeed>(server.url, new URL(i.feed_url).pathname.slice(V1.length))).as_of));
    expect(doc.as_of).toBe(asOfs.sort().at(-1));
    expect(doc.as_of <= index.as_of).toBe(true);
    for (const row of doc.institutions) {
      const own = await feed<InstitutionFeed>(server.url, new URL(row.feed_url).pathname.slice(V1.length));
      expect(row.state_rank).toBe(own.state_rank?.position ?? null);
      expect(row.rank).toBe(own.rank_position);
      expect(row.pgy1_col_adjusted).toBe(own.pgy1_col_adjusted);
    }
    const html = await expectOwnFeed(doc as unknown as Record<string, unknown>, 'resident state');
    expect(html).toContain(`data-feed="${doc.feed_url}"`);
  });

  it('every other tool result has the common fields at its top level', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['list_specialties', {}], ['get_specialty_pay', { specialty: 'Cardiology' }], ['get_specialty_pay', { specialty: 'Cardiology', state: 'Texas' }],
      ['get_wrvu_rate', { specialty: 'Cardiology' }], ['evaluate_compensation', { specialty: 'Cardiology', compensation: 500000 }],
    ];
    for (const [name, args] of calls) expectCommon(okResult(await callTool(client, name, args)).doc, name);
  });
});

describe('evaluate_compensation', () => {
  it('interpolates between the published percentiles of the document get_specialty_pay returns', async () => {
    for (const [specialty, state] of [['Cardiology', undefined], ['Family Medicine', 'CA'], ['Pediatrics', 'florida']] as const) {
      const { doc: pay } = okResult<SpecialtyFeed | SpecialtyStateFeed>(await callTool(client, 'get_specialty_pay', { specialty, ...(state ? { state } : {}) }));
      const grid = standardGrid({ p10: pay.p10, p25: pay.p25, p50: pay.median, p75: pay.p75, p90: pay.p90 });
      for (const x of [grid[0]!.value - 1, grid[0]!.value, (grid[0]!.value + grid[1]!.value) / 2, pay.median!, pay.median! + 777, grid.at(-1)!.value + 1]) {
        const { doc, text } = okResult<Record<string, unknown>>(await callTool(client, 'evaluate_compensation', { specialty, compensation: x, ...(state ? { state } : {}) }));
        const want = payPosition(grid, x);
        expect({ percentile: doc.percentile, band: doc.band }, `${specialty} ${state} ${x}`).toEqual({ percentile: want.percentile, band: want.band });
        for (const k of COMMON) expect(doc[k], k).toEqual((pay as unknown as Record<string, unknown>)[k]);
        expect(doc.compensation).toBe(x);
        expect(text).toContain(`n=${pay.n}`);
        expect(text).toContain(pay.attribution);
      }
    }
  });

  it('withheld figures give no estimate; bad amounts are argument errors', async () => {
    const specialties = await feed<{ specialties: { slug: string; withheld: boolean }[] }>(server.url, '/specialties.json');
    const withheld = specialties.specialties.find((s) => s.withheld)!;
    const { doc } = okResult<Record<string, unknown>>(await callTool(client, 'evaluate_compensation', { specialty: withheld.slug, compensation: 300000 }));
    expect(doc.band).toBeNull();
    expect(doc.percentile).toBeNull();
    expect(doc.withheld).toBe(true);
    expect(doc.notice).toMatch(/withheld/);
    expect(errorText(await callTool(client, 'evaluate_compensation', { specialty: 'Cardiology', compensation: -5 }))).toMatch(/compensation/);
    expect(errorText(await callTool(client, 'evaluate_compensation', { specialty: 'Cardiology', compensation: '300000' }))).toMatch(/compensation/);
  });
});

describe('arguments and tool names', () => {
  it('input schemas are strict: an argument a tool does not take is an error naming the accepted ones', async () => {
    const { tools } = await client.listTools();
    for (const t of tools) expect(t.inputSchema.additionalProperties, t.name).toBe(false);
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['get_wrvu_rate', { specialty: 'Cardiology', state: 'TX' }, /get_wrvu_rate does not take "state"; it takes specialty, release/],
      ['list_specialties', { verbose: true }, /list_specialties does not take "verbose"; it takes limit, offset, release/],
      ['get_specialty_pay', { specialty: 'Cardiology', year: 2024 }, /does not take "year"; it takes specialty, state, detail, release/],
      ['compare_specialties', { specialty_a: 'x', specialty_b: 'y', specialty_c: 'z' }, /it takes specialty_a, specialty_b, state, detail, release/],
      ['get_resident_pay', { hospital: 'x' }, /it takes institution, state, limit, offset, release/],
      ['evaluate_compensation', { specialty: 'Cardiology', compensation: 1, salary: 2 }, /it takes specialty, compensation, state, release/],
    ];
    for (const [name, args, msg] of cases) expect(errorText(await callTool(client, name, args)), name).toMatch(msg);
  });

  it('an unknown tool is the JSON-RPC error -32602 (not a tool result), and it is not counted', async () => {
    const limitedServer = await serveGolden(work.path, work.dist, 'letter-limits', clock, { ipLimits: { perMinute: 2, perDay: 100 } });
    try {
      for (let i = 0; i < 5; i++) {
        const r = await rawPost(limitedServer.url, toolCallBody(i, 'get_salary', { specialty: 'Cardiology' }), JSON_ONLY);
        expect(r.status).toBe(200);
        expect(r.json()).not.toHaveProperty('result');
        const e = rpcErrorOf(r);
        expect(e.code).toBe(-32602);
        expect(e.id).toBe(i);
        expect(e.message).toBe('Tool get_salary not found');
      }
      // the two calls of this minute are still there
      for (let i = 0; i < 2; i++) {
        const ok = await rawPost(limitedServer.url, toolCallBody(10 + i, 'get_wrvu_rate', { specialty: 'Cardiology' }), JSON_ONLY);
        expect(ok.json<{ result: { isError?: boolean } }>().result.isError ?? false).toBe(false);
      }
      const third = await rawPost(limitedServer.url, toolCallBody(20, 'get_wrvu_rate', { specialty: 'Cardiology' }), JSON_ONLY);
      expect(third.json<{ result: { isError?: boolean; content: { text: string }[] } }>().result.content[0]!.text).toMatch(/Rate limit exceeded/);
    } finally {
      await limitedServer.close();
    }
  });
});

describe('open feeds: consistent fields, aliases and close matches', () => {
  it('states.json rows carry cost_of_living like the state documents; institutions carry rank_position and rank_of in both places', async () => {
    const states = await feed<StatesFeed>(server.url, '/states.json');
    for (const row of states.states.slice(0, 10)) {
      const st = await feed<StateFeed>(server.url, `/states/${row.state.slug}.json`);
      expect(row.cost_of_living).toEqual(st.cost_of_living);
      expect(row.cost_of_living_index).toBe(st.cost_of_living.index);
      expect(st.cost_of_living_index).toBe(st.cost_of_living.index);
    }
    const index = await feed<InstitutionsFeed>(server.url, '/residency/institutions.json');
    for (const row of index.institutions.slice(0, 20)) {
      const own = await feed<InstitutionFeed>(server.url, new URL(row.feed_url).pathname.slice(V1.length));
      expect(row.rank_position).toBe(row.rank);
      expect(own.rank_position).toBe(own.rank?.position ?? null);
      expect(row.rank_position).toBe(own.rank_position);
      expect(row.rank_of).toBe(own.rank_of);
      expect(row.cost_of_living_index).toBe(own.cost_of_living_index);
      expect(own.cost_of_living_index).toBe(own.cost_of_living.index);
    }
    const cardio = await feed<SpecialtyFeed>(server.url, '/specialties/cardiology.json');
    expect(cardio.states_with_data_min_n).toBe(3);
  });

  it('specialties/ob%2Fgyn.json answers the canonical document with a canonical link', async () => {
    for (const path of ['/specialties/ob%2Fgyn.json', '/specialties/OB%2FGYN.json', '/wrvu/ob%2Fgyn.json', '/specialties/ob%2Fgyn/states/tx.json']) {
      const r = await get(server.url, `${V1}${path}`);
      expect(r.status, path).toBe(200);
      expect(r.headers.link, path).toMatch(/obstetrics-gynecology.*rel="canonical"/);
    }
  });

  it('words that are not names still get close matches ("crna", "eye", "kids")', async () => {
    for (const [raw, slug] of [['crna', 'anesthesiology'], ['eye', 'ophthalmology'], ['kids', 'pediatrics'], ['eye-doctor', 'ophthalmology']]) {
      const r = await get(server.url, `${V1}/specialties/${raw}.json`);
      expect(r.status).toBe(404);
      const body = r.json<{ did_you_mean: { slug: string }[] }>();
      expect(body.did_you_mean.map((d) => d.slug), raw).toContain(slug);
      expect(body.did_you_mean[0]!.slug, raw).toBe(slug);
      // never resolved as a name
      expect(errorText(await callTool(client, 'get_specialty_pay', { specialty: raw }))).toMatch(new RegExp(`Unknown specialty.*${slug}`));
    }
  });
});
