/**
 * What a model sees: the text block of every tool result holds the figures its description promises (a host
 * may pass only `content` to the model), and the weight of tools/list and of each tool's default result on
 * the golden build stays within the stated budget (README, "Tool server (MCP)").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import type { LoadedBuild } from '../../server/builds/loaded-build.ts';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { createMcpServer } from '../../server/mcp/server.ts';
import { feedDocument } from '../../server/mcp/lookup.ts';
import { article, ordinal, payText } from '../../server/mcp/text.ts';
import type { ComparisonFeed, SpecialtiesFeed, SpecialtyFeed, StateInstitutionsFeed, WrvuFeed } from '../../build/contract/open-feeds.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { closeAfterAll } from '../helpers/server.ts';
import { BOTH, callTool, errorText, inMemoryClient, okResult, rawPost, rpc, serveGolden, textOf } from './mcp-helpers.ts';

const DAY = '2026-12-01';
const work = useGoldenDir('mcp-size');
let build: LoadedBuild;
let client: Client;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ build, client, close } = await inMemoryClient(work.dist, DAY, 'size'));
}, 60_000);
afterAll(async () => close?.());

const bytes = (v: unknown) => Buffer.byteLength(JSON.stringify(v));
const dollars = (v: number) => `$${v.toLocaleString('en-US')}`;

describe('the text block holds the promised figures', () => {
  it('get_specialty_pay: national figures, every top state, practice setting, $/wRVU and by-year row', async () => {
    const slugs = okResult<SpecialtiesFeed>(await callTool(client, 'list_specialties', { limit: 100 })).doc.specialties.map((s) => s.slug);
    let found: { text: string; doc: SpecialtyFeed } | null = null;
    for (const s of slugs) {
      const r = okResult<SpecialtyFeed>(await callTool(client, 'get_specialty_pay', { specialty: s }));
      if (r.doc.top_states.length > 0) { found = r; break; }
    }
    expect(found).not.toBeNull();
    const { text, doc } = found!;
    for (const s of doc.top_states) expect(text).toContain(`${s.rank}. ${s.state.name} ${dollars(s.median)} (n=${s.n})`);
    for (const p of doc.practice_settings) expect(text).toContain(p.median === null ? `${p.practice_setting}: withheld` : `${p.practice_setting}: median ${dollars(p.median)}`);
    if (doc.wrvu.median !== null) expect(text).toContain(`per wRVU: median ${dollars(doc.wrvu.median)}`);
    for (const y of doc.by_year) expect(text).toContain(y.median === null ? `${y.year}: withheld` : `${y.year}: median ${dollars(y.median)}`);
  });

  it('list_specialties: every specialty with median, middle half and n', async () => {
    const { text, doc } = okResult<SpecialtiesFeed>(await callTool(client, 'list_specialties'));
    for (const s of doc.specialties) {
      expect(text).toContain(`${s.name} (${s.slug})`);
      if (s.median !== null) expect(text).toContain(`(${s.slug}): median ${dollars(s.median)}, middle half ${dollars(s.p25!)}-${dollars(s.p75!)}, n=${s.n}`);
    }
  });

  it('get_wrvu_rate and get_resident_pay (state): the figures and every hospital', async () => {
    const w = okResult<WrvuFeed>(await callTool(client, 'get_wrvu_rate', { specialty: 'cardiology' }));
    if (w.doc.median !== null) expect(w.text).toContain(`median total compensation per wRVU ${dollars(w.doc.median)}`);
    const r = okResult<StateInstitutionsFeed>(await callTool(client, 'get_resident_pay', { state: 'TX' }));
    for (const i of r.doc.institutions) expect(r.text).toContain(JSON.stringify(i.institution.name));
  });

  it('percentiles read as ordinals, "an" before a vowel, and a withheld figure says so once', async () => {
    expect([37.2, 41, 11, 12.5, 3.1, 22, 113, 50].map(ordinal)).toEqual(['37.2nd', '41st', '11th', '12.5th', '3.1st', '22nd', '113th', '50th']);
    expect(`${article('Anesthesiology')} Anesthesiology`).toBe('an Anesthesiology');
    expect(`${article('Cardiology')} Cardiology`).toBe('a Cardiology');
    const { text, doc } = okResult<{ percentile: number }>(await callTool(client, 'evaluate_compensation', { specialty: 'pediatrics', compensation: 251_234 }));
    expect(text).toContain(`about the ${ordinal(doc.percentile)} percentile`);
    const national = okResult<SpecialtyFeed>(await callTool(client, 'get_specialty_pay', { specialty: 'pediatrics' })).doc;
    const withheld = payText({ ...national, withheld: true, notice: 'Figures withheld: fewer than 5 approved reports remain.' });
    expect(withheld).toContain('Pediatrics (United States): Figures withheld: fewer than 5');
    expect(withheld).not.toMatch(/withheld\. Figures withheld/i);
  });
});

const KB15 = 15_000;
const KB8 = 8_000;
/** Every part of an offer: the widest evaluate_offer call (its result is bounded by what it is asked). */
const WHOLE_OFFER = { base_salary: 300_000, bonus: 20_000, call_pay: 30_000, signing_bonus: 10_000, retention_bonus: 10_000, relocation: 10_000, loan_repayment: 50_000, loan_repayment_years: 3, cme_allowance: 3_000, contract_years: 3, hours_per_week: 35, wrvus: 6_000, wrvu_conversion_rate: 50, pto_weeks: 5, call_nights_per_month: 4, non_compete_miles: 20, non_compete_years: 2, partnership_track_years: 3, compensation_model: 'production' };
const statesOf = (b: LoadedBuild) => (JSON.parse(Buffer.concat(b.files.get('/data/api/v1/states.json')!.parts).toString()) as { states: { state: { code: string } }[] }).states.map((s) => s.state.code);
/** The open feed at `url` as it is served on the test's day. */
const feedOf = <T>(b: LoadedBuild, url: string) => feedDocument<T>(b, new URL(url).pathname.slice(1), DAY);

describe('weight', () => {
  // Targets (README, "Weight"): tools/list under 15 kB, every default result (text + structuredContent +
  // links) under 8 kB, evaluate_offer's too (in a state, with every part of an offer); more only when asked
  // (limit, offset, detail: "full").
  it('tools/list is under 15 kB (2025-11-25, in process); the keyed list is measured', async () => {
    const size = bytes(await client.listTools());
    const keyedServer = createMcpServer({ build, day: DAY, limited: null, keyed: {} as never });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const keyedClient = new Client({ name: 'size-keyed', version: '1.0.0' });
    await keyedServer.connect(a);
    await keyedClient.connect(b);
    const keyed = bytes(await keyedClient.listTools());
    await keyedClient.close();
    console.log(`tools/list: ${size} bytes open, ${keyed} bytes with the keyed tools`);
    expect(size).toBeLessThan(KB15);
    expect(keyed).toBeLessThan(22_000);
  });

  it('every output schema in tools/list accepts the results (checked as the SDK clients check them)', async () => {
    const ajv = new AjvJsonSchemaValidator();
    const schemas = new Map((await client.listTools()).tools.map((t) => [t.name, t.outputSchema]));
    const check = (name: string, r: Awaited<ReturnType<typeof callTool>>) => {
      const v = ajv.getValidator(schemas.get(name) as never)(r.structuredContent);
      expect(v.valid, `${name}: ${v.valid ? '' : v.errorMessage}`).toBe(true);
    };
    for (const schema of schemas.values()) expect(JSON.stringify(schema)).not.toContain('$schema');
    check('list_specialties', await callTool(client, 'list_specialties'));
    check('list_specialties', await callTool(client, 'list_specialties', { limit: 100 }));
    check('get_specialty_pay', await callTool(client, 'get_specialty_pay', { specialty: 'cardiology' }));
    check('get_specialty_pay', await callTool(client, 'get_specialty_pay', { specialty: 'cardiology', detail: 'full' }));
    check('get_specialty_pay', await callTool(client, 'get_specialty_pay', { specialty: 'cardiology', state: 'TX' }));
    check('compare_specialties', await callTool(client, 'compare_specialties', { specialty_a: 'cardiology', specialty_b: 'pediatrics' }));
    check('compare_specialties', await callTool(client, 'compare_specialties', { specialty_a: 'cardiology', specialty_b: 'pediatrics', detail: 'full' }));
    check('get_wrvu_rate', await callTool(client, 'get_wrvu_rate', { specialty: 'cardiology' }));
    check('get_resident_pay', await callTool(client, 'get_resident_pay', { state: 'TX' }));
    check('evaluate_compensation', await callTool(client, 'evaluate_compensation', { specialty: 'cardiology', compensation: 300_000 }));
    check('evaluate_offer', await callTool(client, 'evaluate_offer', { specialty: 'cardiology', state: 'TX', ...WHOLE_OFFER }));
  });

  it('every default result is under 8 kB (every specialty, state and pair with the first; Texas and every state\'s hospitals; an offer of 4 parts and of every part, in a state)', async () => {
    const specialties = okResult<SpecialtiesFeed>(await callTool(client, 'list_specialties', { limit: 100 })).doc.specialties.map((s) => s.slug);
    const sizes: Record<string, number> = {};
    const note = (name: string, r: Awaited<ReturnType<typeof callTool>>) => {
      expect(r.isError ?? false, `${name}: ${JSON.stringify(r.content).slice(0, 200)}`).toBe(false);
      sizes[name] = Math.max(sizes[name] ?? 0, bytes(r));
    };
    note('list_specialties', await callTool(client, 'list_specialties'));
    const states = statesOf(build);
    for (const s of specialties) {
      const other = s === specialties[0] ? specialties[1]! : specialties[0]!;
      note('get_specialty_pay', await callTool(client, 'get_specialty_pay', { specialty: s }));
      for (const st of ['TX', 'CA', 'NY']) {
        const r = await callTool(client, 'get_specialty_pay', { specialty: s, state: st });
        if (!r.isError) note('get_specialty_pay', r);
        const c = await callTool(client, 'compare_specialties', { specialty_a: s, specialty_b: other, state: st });
        if (!c.isError) note('compare_specialties', c);
      }
      note('get_wrvu_rate', await callTool(client, 'get_wrvu_rate', { specialty: s }));
      note('evaluate_compensation', await callTool(client, 'evaluate_compensation', { specialty: s, compensation: 300_000, state: 'CA' }));
      // the widest pair: each specialty against the first, both national
      note('compare_specialties', await callTool(client, 'compare_specialties', { specialty_a: s, specialty_b: other }));
      note('evaluate_offer (4 parts)', await callTool(client, 'evaluate_offer', { specialty: s, base_salary: 300_000, bonus: 20_000, signing_bonus: 10_000, wrvus: 6000 }));
      note('evaluate_offer (4 parts, in a state)', await callTool(client, 'evaluate_offer', { specialty: s, state: 'TX', base_salary: 300_000, bonus: 20_000, signing_bonus: 10_000, wrvus: 6000 }));
      note('evaluate_offer (every part, in a state)', await callTool(client, 'evaluate_offer', { specialty: s, state: 'CA', ...WHOLE_OFFER }));
    }
    for (const st of states) {
      const r = await callTool(client, 'get_resident_pay', { state: st });
      if (!r.isError) note('get_resident_pay', r);
    }
    console.log(JSON.stringify(sizes));
    expect(sizes['get_resident_pay']).toBeGreaterThan(0);
    expect(Object.keys(sizes).filter((k) => k.startsWith('evaluate_offer'))).toHaveLength(3);
    for (const [name, size] of Object.entries(sizes)) expect(size, name).toBeLessThan(KB8);
  });
});

describe('paging and detail', () => {
  /** Every page of a paged call, following page.next from the first call's arguments. */
  async function allPages<T>(tool: string, args: Record<string, unknown>, list: (d: Record<string, unknown>) => T[]) {
    const pages: { items: T[]; doc: Record<string, unknown>; text: string }[] = [];
    let next: Record<string, unknown> | undefined = args;
    while (next) {
      const r: { doc: Record<string, unknown>; text: string } = okResult<Record<string, unknown>>(await callTool(client, tool, next));
      const { doc, text } = r;
      pages.push({ items: list(doc), doc, text });
      next = (doc.page as { next?: Record<string, unknown> } | undefined)?.next;
      expect(pages.length).toBeLessThan(100);
    }
    return pages;
  }

  it('list_specialties pages join to the whole feed list, in order, with no gap or duplicate; next is absent on the last page', async () => {
    const whole = feedOf<SpecialtiesFeed>(build, okResult<SpecialtiesFeed>(await callTool(client, 'list_specialties')).doc.feed_url);
    const pages = await allPages('list_specialties', { limit: 7 }, (d) => (d as unknown as SpecialtiesFeed).specialties);
    expect(pages.flatMap((p) => p.items)).toEqual(whole.specialties);
    expect(pages.length).toBe(Math.ceil(whole.specialties.length / 7));
    for (const [i, p] of pages.entries()) {
      expect(p.doc.truncated).toBe(true);
      const page = p.doc.page as { offset: number; limit: number; returned: number; total: number; next?: unknown; feed_url: string; csv_url?: string };
      expect(page).toMatchObject({ offset: i * 7, limit: 7, returned: p.items.length, total: whole.specialties.length, feed_url: whole.feed_url });
      expect(page.csv_url).toBe(whole.feed_url.replace(/\.json$/, '.csv'));
      expect('next' in page).toBe(i < pages.length - 1);
      // the text is cut the same way: these specialties and no other
      for (const s of whole.specialties) expect(p.text.includes(`(${s.slug}):`), s.slug).toBe(p.items.some((x) => x.slug === s.slug));
      expect(p.text).toContain(`of ${whole.specialties.length} here`);
      // every other field is the feed's own
      const { specialties: _s, truncated: _t, page: _p, ...rest } = p.doc;
      const { specialties: _w, ...wholeRest } = whole;
      expect(rest).toEqual(wholeRest);
    }
    // asking for more gives more: the whole list, not cut, the feed's document
    const all = okResult<SpecialtiesFeed>(await callTool(client, 'list_specialties', { limit: 100 }));
    expect(all.doc).toEqual(whole);
  });

  it('get_resident_pay for Texas pages the same way, and the default page says how to get the rest', async () => {
    const first = okResult<StateInstitutionsFeed & { truncated?: boolean; page?: { next?: Record<string, unknown>; total: number } }>(await callTool(client, 'get_resident_pay', { state: 'TX' }));
    const whole = feedOf<StateInstitutionsFeed>(build, first.doc.feed_url);
    expect(whole.institutions.length).toBeGreaterThan(first.doc.institutions.length);
    expect(first.doc.truncated).toBe(true);
    expect(first.doc.page).toMatchObject({ total: whole.institutions.length, next: { state: 'TX', offset: first.doc.institutions.length } });
    expect(first.text).toContain('Next page: the same call with "offset":');
    const pages = await allPages('get_resident_pay', { state: 'Texas', limit: 5, offset: 0 }, (d) => (d as unknown as StateInstitutionsFeed).institutions);
    const joined = pages.flatMap((p) => p.items);
    expect(joined).toEqual(whole.institutions);
    expect(new Set(joined.map((i) => i.institution.slug)).size).toBe(joined.length);
    expect(pages.at(-1)!.text).toContain('This is the last page.');
  });

  it('a limit over the maximum, an offset past the end and paging one hospital are clear errors', async () => {
    const over = await callTool(client, 'list_specialties', { limit: 101 });
    expect(over.isError).toBe(true);
    expect(textOf(over)).toContain('limit is at most 100');
    expect(errorText(await callTool(client, 'list_specialties', { offset: 1000 }))).toMatch(/offset 1000 is past the end: there are \d+ specialties/);
    expect(errorText(await callTool(client, 'get_resident_pay', { state: 'TX', limit: 0 }))).toBeTruthy();
    const inst = okResult<StateInstitutionsFeed>(await callTool(client, 'get_resident_pay', { state: 'TX' })).doc.institutions[0]!.institution.slug;
    expect(errorText(await callTool(client, 'get_resident_pay', { institution: inst, limit: 5 }))).toContain('leave them out with `institution`');
  });

  it('detail: "full" gives the whole feed document; the summary says what it left out, in text and structuredContent', async () => {
    const sum = okResult<SpecialtyFeed & { truncated?: boolean; page?: { left_out: string[]; next: Record<string, unknown> } }>(await callTool(client, 'get_specialty_pay', { specialty: 'cardiology' }));
    const whole = feedOf<SpecialtyFeed>(build, sum.doc.feed_url);
    expect(sum.doc.truncated).toBe(true);
    expect(sum.doc.page!.next).toEqual({ specialty: 'cardiology', detail: 'full' });
    expect('components' in sum.doc).toBe(false);
    expect(sum.doc.top_states).toEqual(whole.top_states.slice(0, 3));
    expect(sum.text).toContain('"detail": "full"');
    const { truncated: _t, page: _p, ...kept } = sum.doc;
    for (const [k, v] of Object.entries(kept)) if (k !== 'top_states') expect(v, k).toEqual((whole as Record<string, unknown>)[k]);
    const full = okResult<SpecialtyFeed>(await callTool(client, 'get_specialty_pay', sum.doc.page!.next));
    expect(full.doc).toEqual(whole);
    const cmp = okResult<ComparisonFeed & { page: { next: Record<string, unknown>; left_out: string[] } }>(await callTool(client, 'compare_specialties', { specialty_a: 'cardiology', specialty_b: 'pediatrics' }));
    const wholeCmp = okResult<ComparisonFeed>(await callTool(client, 'compare_specialties', cmp.doc.page.next)).doc;
    expect('truncated' in wholeCmp).toBe(false);
    expect(cmp.doc.comparison).toEqual(wholeCmp.comparison);
    expect(cmp.doc.page.left_out.join('; ')).toContain('practice_settings');
    expect(cmp.text).toContain(`left out here: ${cmp.doc.page.left_out.join('; ')}`);
    for (const side of ['specialty_a', 'specialty_b'] as const) {
      for (const [k, v] of Object.entries(cmp.doc[side])) expect(v, `${side}.${k}`).toEqual((wholeCmp[side] as Record<string, unknown>)[k]);
      expect(cmp.text).toContain(`median total compensation ${dollars(wholeCmp[side].median!)}`);
    }
    expect(bytes(wholeCmp)).toBeGreaterThan(bytes(cmp.doc));
  });
});

describe('weight on the wire (HTTP, both eras)', () => {
  const closeLater = closeAfterAll();
  const MODERN = '2026-07-28';
  const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': { name: 'size', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };

  it('tools/list answers under 15 kB in 2026-07-28 (after server/discover) and in 2025-11-25; limits work in both eras', async () => {
    const server = closeLater(await serveGolden(work.path, work.dist, 'size', () => new Date('2026-12-01T12:00:00Z')));
    const discover = await rawPost(server.url, rpc(1, 'server/discover', { _meta: envelope }), { ...BOTH, 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' });
    expect(discover.status).toBe(200);
    const modern = await rawPost(server.url, rpc(2, 'tools/list', { _meta: envelope }), { ...BOTH, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' });
    const legacy = await rawPost(server.url, rpc(3, 'tools/list'), { ...BOTH, 'mcp-protocol-version': '2025-11-25' });
    for (const r of [modern, legacy]) {
      expect(r.status).toBe(200);
      expect(r.json<{ result: { tools: unknown[] } }>().result.tools).toHaveLength(7);
    }
    const resultBytes = (r: typeof modern) => bytes(r.json<{ result: unknown }>().result);
    console.log(`server/discover ${discover.body.length} B; tools/list result 2026-07-28 ${resultBytes(modern)} B (${modern.body.length} B with the envelope), 2025-11-25 ${resultBytes(legacy)} B (${legacy.body.length} B)`);
    expect(resultBytes(modern)).toBeLessThan(KB15);
    expect(resultBytes(legacy)).toBeLessThan(KB15);
    // one page, in either era
    const call = { name: 'list_specialties', arguments: { limit: 5, offset: 5 } };
    const pageModern = await rawPost(server.url, rpc(4, 'tools/call', { ...call, _meta: envelope }), { ...BOTH, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'list_specialties' });
    const pageLegacy = await rawPost(server.url, rpc(5, 'tools/call', call), { ...BOTH, 'mcp-protocol-version': '2025-11-25' });
    type Paged = { structuredContent: SpecialtiesFeed & { truncated: boolean; page: { offset: number; returned: number; next: unknown } } };
    const docs = [pageModern, pageLegacy].map((r) => r.json<{ result: Paged }>().result.structuredContent);
    for (const d of docs) expect(d).toMatchObject({ truncated: true, page: { offset: 5, returned: 5, next: { offset: 10, limit: 5 } } });
    expect(docs[1]).toEqual(docs[0]);
    const tooMany = await rawPost(server.url, rpc(6, 'tools/call', { name: 'list_specialties', arguments: { limit: 1000 }, _meta: envelope }), { ...BOTH, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'list_specialties' });
    expect(tooMany.text).toContain('limit is at most 100');
  });
});
