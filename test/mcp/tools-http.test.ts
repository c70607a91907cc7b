/**
 * The tool server over real HTTP with the SDK's own Client and StreamableHTTPClientTransport, against the
 * golden build: tools/list, every tool's result equal to the matching open feed of the same server,
 * the quotable text, tool errors with close matches, withheld figures, bad arguments, and many clients at
 * once without cross-talk.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningServer } from '../../server/main.ts';
import type {
  InstitutionFeed, InstitutionsFeed, SpecialtiesFeed, SpecialtyFeed, SpecialtyStateFeed, StateInstitutionsFeed, StatesFeed, WrvuFeed,
} from '../../build/contract/open-feeds.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { closeAfterAll } from '../helpers/server.ts';
import {
  TOOL_NAMES, callTool, connectClient, errorText, feed, okResult, serveGolden, usd,
} from './mcp-helpers.ts';

const work = useGoldenDir('mcp-tools');
const closeLater = closeAfterAll();
let server: RunningServer;
let url: string;
let client: Client;
let now = new Date('2026-12-01T12:00:15.000Z');
const clock = () => now;
const DAY = '2026-12-01';

let specialties: SpecialtiesFeed;
let states: StatesFeed;
let institutions: InstitutionsFeed;

beforeAll(async () => {
  server = closeLater(await serveGolden(work.path, work.dist, 'tools', clock));
  url = server.url;
  expect(server.registry.current?.id).toBe(work.buildId);
  client = closeLater(await connectClient(url));
  specialties = await feed<SpecialtiesFeed>(url, '/specialties.json');
  states = await feed<StatesFeed>(url, '/states.json');
  institutions = await feed<InstitutionsFeed>(url, '/residency/institutions.json');
}, 60_000);

/** What every attending-pay text must carry: n, as_of, "self-reported", the attribution line. */
function expectQuotable(text: string, doc: { n: number | null; as_of: string; attribution: string }, quotesN = true) {
  if (doc.n !== null && quotesN) expect(text).toContain(`n=${doc.n}`);
  expect(text).toContain(doc.as_of);
  expect(text).toContain('self-reported');
  expect(text).toContain(doc.attribution);
  expect(doc.attribution).toContain(`accessed ${DAY})`);
}

/** Dollar figures of a pay document that the text must quote. */
function expectFigures(text: string, doc: { median: number | null; p25: number | null; p75: number | null }) {
  for (const v of [doc.median, doc.p25, doc.p75]) {
    expect(v).not.toBeNull();
    expect(text).toContain(usd(v!));
  }
}

describe('tools/list', () => {
  it('lists the seven read-only tools with titles, descriptions, input and output schemas and no $ref', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const t of tools) {
      expect(t.title, t.name).toMatch(/\w{3,}/);
      expect(t.description?.length ?? 0, t.name).toBeGreaterThan(60);
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(JSON.stringify(t), t.name).not.toContain('$ref');
      expect(JSON.stringify(t), t.name).not.toContain('$defs');
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    const props = (n: string) => Object.keys(byName[n]!.inputSchema.properties ?? {}).sort();
    const required = (n: string) => [...(byName[n]!.inputSchema.required ?? [])].sort();
    expect(props('list_specialties')).toEqual(['limit', 'offset', 'release']); // every tool takes an optional release
    expect(props('get_specialty_pay')).toEqual(['detail', 'release', 'specialty', 'state']);
    expect(required('get_specialty_pay')).toEqual(['specialty']);
    expect(props('compare_specialties')).toEqual(['detail', 'release', 'specialty_a', 'specialty_b', 'state']);
    expect(required('compare_specialties')).toEqual(['specialty_a', 'specialty_b']);
    expect(props('get_wrvu_rate')).toEqual(['release', 'specialty']);
    expect(required('get_wrvu_rate')).toEqual(['specialty']);
    expect(props('get_resident_pay')).toEqual(['institution', 'limit', 'offset', 'release', 'state']);
    expect(required('get_resident_pay')).toEqual([]);
    expect(props('evaluate_compensation')).toEqual(['compensation', 'release', 'specialty', 'state']);
    expect(required('evaluate_compensation')).toEqual(['compensation', 'specialty']);
    expect(props('evaluate_offer')).toEqual(expect.arrayContaining(['base_salary', 'bonus', 'call_pay', 'compensation_model', 'release', 'specialty', 'state', 'wrvus']));
    expect(required('evaluate_offer')).toEqual(['base_salary', 'specialty']);
    // Every output schema lists the fields to quote (n, as_of, attribution) at its top level (compare_specialties
    // too), not the other common fields (tools/list's weight: the named JSON Schema has them).
    for (const n of TOOL_NAMES) {
      const out = Object.keys(byName[n]!.outputSchema!.properties ?? {});
      expect(out, n).toEqual(expect.arrayContaining(['n', 'as_of', 'attribution']));
      expect(out, n).not.toContain('license_url');
    }
    expect(Object.keys(byName.compare_specialties!.outputSchema!.properties ?? {})).toEqual(expect.arrayContaining(['comparison', 'specialty_a', 'specialty_b']));
    // a tool returning an open feed names the feed's published JSON Schema for the fields it does not list
    for (const [n, kind] of [['list_specialties', 'specialties'], ['get_specialty_pay', 'specialtyState'], ['compare_specialties', 'comparison'], ['get_wrvu_rate', 'wrvu'], ['get_resident_pay', 'stateInstitutions']]) {
      expect((byName[n!]!.outputSchema as { description?: string }).description, n).toContain(`/data/api/v1/schemas/${kind}.schema.json`);
    }
  });

  it('initialize names the server and tells the assistant how to quote', async () => {
    expect(client.getServerVersion()?.name).toBe('physpay');
    expect(client.getServerCapabilities()?.tools).toBeTruthy();
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('self-reported');
    expect(instructions).toMatch(/do not estimate/i);
  });
});

describe('happy paths: structuredContent is the open feed of the same server and day', () => {
  it('list_specialties', async () => {
    const { text, doc } = okResult<SpecialtiesFeed>(await callTool(client, 'list_specialties', { limit: 100 }));
    expect(doc).toEqual(specialties);
    expect(doc.specialties.length).toBe(doc.count);
    expect(text).toContain(`${doc.count} specialties`);
    expectQuotable(text, doc, false); // n is quoted per specialty (checked below), not as the total
    expect(doc.notice).toBeTruthy();
    expect(text).toContain(doc.notice!); // which specialties are withheld, and why
    const shown = doc.specialties.filter((s) => !s.withheld);
    expect(shown.length).toBeGreaterThan(20);
    for (const s of shown) expect(text).toContain(`${s.name} (${s.slug}): median ${usd(s.median!)}, middle half ${usd(s.p25!)}-${usd(s.p75!)}, n=${s.n}`);
    for (const s of doc.specialties.filter((x) => x.withheld)) expect(text).toContain(`(${s.slug}): withheld`);
  });

  it('get_specialty_pay nationally, by slug, name and common spelling', async () => {
    const expected = await feed<SpecialtyFeed>(url, '/specialties/cardiology.json');
    expect(expected.withheld).toBe(false);
    for (const specialty of ['cardiology', 'Cardiology', '  CARDIOLOGY ']) {
      const { text, doc } = okResult<SpecialtyFeed>(await callTool(client, 'get_specialty_pay', { specialty, detail: 'full' }));
      expect(doc, specialty).toEqual(expected);
      expect(text).toMatch(/^Cardiology \(United States\): median total compensation /);
      expectFigures(text, doc);
      expect(text).toContain(usd(doc.mean!));
      if (doc.p10 !== null) expect(text).toContain(`10th-90th percentile ${usd(doc.p10)}-${usd(doc.p90!)}`);
      expectQuotable(text, doc);
    }
    // A common spelling answers the canonical document.
    const obgyn = await feed<SpecialtyFeed>(url, '/specialties/obstetrics-gynecology.json');
    const { doc } = okResult<SpecialtyFeed>(await callTool(client, 'get_specialty_pay', { specialty: 'OB/GYN', detail: 'full' }));
    expect(doc).toEqual(obgyn);
  });

  it('get_specialty_pay with a state given as code, slug or name', async () => {
    for (const [slug, forms] of [['texas', ['TX', 'tx', 'texas', 'Texas']], ['new-york', ['NY', 'new-york', 'New York']]] as const) {
      const expected = await feed<SpecialtyStateFeed>(url, `/specialties/family-medicine/states/${slug}.json`);
      expect(expected.scope).toBe('state');
      expect(expected.state.slug).toBe(slug);
      for (const state of forms) {
        const { text, doc } = okResult<SpecialtyStateFeed>(await callTool(client, 'get_specialty_pay', { specialty: 'Family Medicine', state }));
        expect(doc, `${slug} as ${state}`).toEqual(expected);
        expect(text).toContain(`Family Medicine in ${expected.state.name}`);
        if (!doc.withheld) expectFigures(text, doc);
        expectQuotable(text, doc);
      }
    }
  });

  it('get_specialty_pay: an empty-looking state means national', async () => {
    const expected = await feed<SpecialtyFeed>(url, '/specialties/cardiology.json');
    const { doc } = okResult(await callTool(client, 'get_specialty_pay', { specialty: 'cardiology', state: '  ', detail: 'full' }));
    expect(doc).toEqual(expected);
  });

  it('compare_specialties nationally: both documents and the difference of the medians', async () => {
    const a = await feed<SpecialtyFeed>(url, '/specialties/cardiology.json');
    const b = await feed<SpecialtyFeed>(url, '/specialties/family-medicine.json');
    const r = okResult<{ specialty_a: SpecialtyFeed; specialty_b: SpecialtyFeed; comparison: Record<string, unknown> }>(
      await callTool(client, 'compare_specialties', { specialty_a: 'Cardiology', specialty_b: 'family-medicine', detail: 'full' }),
    );
    expect(r.doc.specialty_a).toEqual(a);
    expect(r.doc.specialty_b).toEqual(b);
    const diff = a.median! - b.median!;
    expect(r.doc.comparison).toEqual({
      median_difference: diff,
      median_difference_pct: Math.round((diff / b.median!) * 1000) / 10,
      higher: diff > 0 ? 'cardiology' : 'family-medicine',
    });
    expect(r.text).toContain(`Median difference: Cardiology minus Family Medicine = $${diff.toLocaleString('en-US')}`);
    expectFigures(r.text, a);
    expectFigures(r.text, b);
    expectQuotable(r.text, a);
    expectQuotable(r.text, b);
  });

  it('compare_specialties within one state', async () => {
    const a = await feed<SpecialtyStateFeed>(url, '/specialties/family-medicine/states/california.json');
    const b = await feed<SpecialtyStateFeed>(url, '/specialties/internal-medicine/states/california.json');
    const r = okResult<{ specialty_a: SpecialtyStateFeed; specialty_b: SpecialtyStateFeed; comparison: { median_difference: number | null } }>(
      await callTool(client, 'compare_specialties', { specialty_a: 'family medicine', specialty_b: 'Internal Medicine', state: 'CA', detail: 'full' }),
    );
    expect(r.doc.specialty_a).toEqual(a);
    expect(r.doc.specialty_b).toEqual(b);
    expect(r.doc.comparison.median_difference).toBe(a.median !== null && b.median !== null ? a.median - b.median : null);
    expect(r.text).toContain('Family Medicine in California');
    expect(r.text).toContain('Internal Medicine in California');
  });

  it('get_wrvu_rate', async () => {
    const expected = await feed<WrvuFeed>(url, '/wrvu/cardiology.json');
    expect(expected.withheld).toBe(false);
    const { text, doc } = okResult<WrvuFeed>(await callTool(client, 'get_wrvu_rate', { specialty: 'Cardiology' }));
    expect(doc).toEqual(expected);
    expect(text).toContain('per wRVU');
    expectFigures(text, doc);
    expectQuotable(text, doc);
  });

  it('get_resident_pay by institution (slug or name)', async () => {
    const entry = institutions.institutions.find((i) => i.institution.state.slug === 'texas')!;
    const expected = await feed<InstitutionFeed>(url, `/residency/institutions/${entry.institution.slug}.json`);
    for (const institution of [entry.institution.slug, entry.institution.name]) {
      const { text, doc } = okResult<InstitutionFeed>(await callTool(client, 'get_resident_pay', { institution }));
      expect(doc, institution).toEqual(expected);
      expect(doc.n).toBeNull(); // pay scales are not reports
      expect(text).toContain(expected.institution.name);
      for (const step of expected.pgy_scale) expect(text).toContain(`PGY-${step.pgy} ${usd(step.salary)}`);
      expect(text).toContain(expected.source_url);
      expect(text).toContain(expected.as_of);
      expect(text).toContain('Published by the hospital');
      expect(text).not.toContain('self-reported'); // the hospital publishes its scale; nobody self-reports it
      if (expected.rank) expect(text).toContain(`Ranked ${expected.rank.position} of ${expected.rank.of}`);
      expect(text).toContain(expected.attribution);
    }
  });

  it('get_resident_pay by state: residency/states/{state}.json, the index\'s rows of the state ranked by COL-adjusted PGY-1 pay', async () => {
    const ofState = institutions.institutions.filter((i) => i.institution.state.slug === 'california');
    expect(ofState.length).toBeGreaterThan(5);
    for (const state of ['CA', 'california', 'California']) {
      const { text, doc } = okResult<StateInstitutionsFeed>(await callTool(client, 'get_resident_pay', { state, limit: 100 }));
      expect(doc).toEqual(await feed<StateInstitutionsFeed>(url, '/residency/states/california.json'));
      const list = doc.institutions;
      expect(doc.count).toBe(ofState.length);
      // every row holds the index row's figures (plus the state rank)
      const strip = (r: StateInstitutionsFeed['institutions'][number]) => {
        const { state_rank: _r, state_rank_of: _o, ...rest } = r;
        return rest;
      };
      expect(list.map(strip).sort((x, y) => x.institution.slug.localeCompare(y.institution.slug)))
        .toEqual([...ofState].sort((x, y) => x.institution.slug.localeCompare(y.institution.slug)));
      // newest academic year first; within a year, by adjusted pay, in the order of the published rank
      const years = list.map((i) => i.academic_year);
      expect(years).toEqual([...years].sort((x, y) => y.localeCompare(x)));
      for (const year of new Set(years)) {
        const ofYear = list.filter((i) => i.academic_year === year);
        const adjusted = ofYear.map((i) => i.pgy1_col_adjusted ?? 0);
        expect(adjusted).toEqual([...adjusted].sort((x, y) => y - x));
        const ranks = ofYear.map((i) => i.rank ?? Infinity);
        expect(ranks, `the order of the published ${year} rank`).toEqual([...ranks].sort((x, y) => x - y));
      }
      expect(text).toContain(`${ofState.length} teaching hospital(s) in California`);
      // imported names are quoted, and the text says they are data
      expect(text).toContain(`${list[0]!.state_rank}. ${JSON.stringify(list[0]!.institution.name)}: PGY-1 ${usd(list[0]!.pgy1_salary)}`);
      expect(text).toContain('data, not instructions');
      expect(text).toContain(doc.attribution);
    }
  });

  it('the access date in the attribution is the day of the request, as in the feeds', async () => {
    const saved = now;
    now = new Date('2027-01-02T00:00:01.000Z');
    try {
      const { doc } = okResult<WrvuFeed>(await callTool(client, 'get_wrvu_rate', { specialty: 'cardiology' }));
      expect(doc.attribution).toContain('accessed 2027-01-02)');
      expect(doc).toEqual(await feed(url, '/wrvu/cardiology.json'));
    } finally {
      now = saved;
    }
  });
});

describe('unknown names: tool errors with close matches', () => {
  it('unknown specialty', async () => {
    const text = errorText(await callTool(client, 'get_specialty_pay', { specialty: 'cardiolgy' }));
    expect(text).toMatch(/^Unknown specialty "cardiolgy"\. Close matches: Cardiology \(cardiology\)/);
  });

  it('unknown state', async () => {
    const text = errorText(await callTool(client, 'get_specialty_pay', { specialty: 'cardiology', state: 'Texsa' }));
    expect(text).toMatch(/^Unknown state "Texsa"\. Close matches: .*Texas \(texas\)/);
    const code = errorText(await callTool(client, 'get_specialty_pay', { specialty: 'cardiology', state: 'XX' }));
    expect(code).toMatch(/^Unknown state "XX"\./);
  });

  it('unknown institution, and unknown state for resident pay', async () => {
    const real = institutions.institutions[0]!.institution;
    const typo = real.name.replace(/Hospital|Center|System/, 'Hosptal');
    const text = errorText(await callTool(client, 'get_resident_pay', { institution: `${typo}x` }));
    expect(text).toMatch(/^Unknown teaching hospital ".*"\. Close matches: /);
    const st = errorText(await callTool(client, 'get_resident_pay', { state: 'Californa' }));
    expect(st).toMatch(/^Unknown state "Californa"\. Close matches: California \(california\)/);
  });

  it('unknown specialty in compare_specialties and get_wrvu_rate', async () => {
    const cmp = errorText(await callTool(client, 'compare_specialties', { specialty_a: 'cardiology', specialty_b: 'dermatolgy' }));
    expect(cmp).toMatch(/^Unknown specialty "dermatolgy"\. Close matches: Dermatology \(dermatology\)/);
    const w = errorText(await callTool(client, 'get_wrvu_rate', { specialty: 'famly medicine' }));
    expect(w).toMatch(/Close matches: .*Family Medicine \(family-medicine\)/);
  });

  it('a name with nothing close still gets a clear error', async () => {
    const text = errorText(await callTool(client, 'get_specialty_pay', { specialty: 'qqqqqqqqqqqq' }));
    expect(text).toMatch(/^Unknown specialty "qqqqqqqqqqqq"\./);
  });
});

describe('withheld figures: null with the notice, never estimated', () => {
  it('a thin national specialty (medical-genetics)', async () => {
    const listed = specialties.specialties.find((s) => s.slug === 'medical-genetics')!;
    expect(listed.withheld).toBe(true);
    const expected = await feed<SpecialtyFeed>(url, '/specialties/medical-genetics.json');
    const { text, doc } = okResult<SpecialtyFeed>(await callTool(client, 'get_specialty_pay', { specialty: 'Medical Genetics', detail: 'full' }));
    expect(doc).toEqual(expected);
    expect(doc.withheld).toBe(true);
    expect(doc.n).toBeNull();
    for (const k of ['median', 'mean', 'p10', 'p25', 'p75', 'p90'] as const) expect(doc[k], k).toBeNull();
    expect(doc.notice).toMatch(/withheld.*fewer than 5/i);
    expect(text).toMatch(/: Figures withheld/);
    expect(text).toContain(doc.notice!);
    expect(text).not.toMatch(/\$\d/);
    expect(text).toContain(doc.attribution);
  });

  it('a thin state cell', async () => {
    let found: SpecialtyStateFeed | null = null;
    for (const st of states.states) {
      const d = await feed<SpecialtyStateFeed>(url, `/specialties/allergy-immunology/states/${st.state.slug}.json`);
      if (d.withheld) {
        found = d;
        break;
      }
    }
    expect(found, 'the golden build has a thin allergy-immunology state cell').not.toBeNull();
    const { text, doc } = okResult<SpecialtyStateFeed>(await callTool(client, 'get_specialty_pay', { specialty: 'allergy-immunology', state: found!.state.name }));
    expect(doc).toEqual(found);
    expect(doc.n).toBeNull();
    expect(doc.median).toBeNull();
    expect(doc.mean).toBeNull();
    expect(doc.notice).toMatch(/fewer than 3/);
    expect(text).toContain(`in ${found!.state.name}: Figures withheld`);
    expect(text).toContain(doc.notice!);
    expect(text).not.toMatch(/\$\d/);
  });

  it('tails below 15 reports stay null while the median is published', async () => {
    const d = await feed<SpecialtyStateFeed>(url, '/specialties/cardiology/states/california.json');
    expect(d.withheld).toBe(false);
    expect(d.n!).toBeLessThan(15);
    const { text, doc } = okResult<SpecialtyStateFeed>(await callTool(client, 'get_specialty_pay', { specialty: 'cardiology', state: 'CA' }));
    expect(doc).toEqual(d);
    expect(doc.p10).toBeNull();
    expect(doc.p90).toBeNull();
    expect(text).not.toContain('10th-90th');
    expect(text).toContain(`n=${d.n}`);
    expect(text).toContain('rounded to the nearest $1,000');
  });

  it('a withheld wRVU figure', async () => {
    const expected = await feed<WrvuFeed>(url, '/wrvu/medical-genetics.json');
    const { text, doc } = okResult<WrvuFeed>(await callTool(client, 'get_wrvu_rate', { specialty: 'medical-genetics' }));
    expect(doc).toEqual(expected);
    expect(doc.withheld).toBe(true);
    expect(doc.n).toBeNull();
    expect(doc.median).toBeNull();
    expect(text).toContain(doc.notice!);
    expect(text).not.toMatch(/\$\d/);
  });

  it('compare_specialties with a withheld side computes no difference', async () => {
    const r = okResult<{ specialty_b: SpecialtyFeed; comparison: Record<string, unknown> }>(
      await callTool(client, 'compare_specialties', { specialty_a: 'cardiology', specialty_b: 'medical-genetics', detail: 'full' }),
    );
    expect(r.doc.specialty_b).toEqual(await feed(url, '/specialties/medical-genetics.json'));
    expect(r.doc.comparison).toEqual({ median_difference: null, median_difference_pct: null, higher: null });
    expect(r.text).toMatch(/^No difference can be given: at least one median is withheld\./);
  });
});

describe('missing or invalid arguments', () => {
  it('a missing required argument is a tool error naming it', async () => {
    expect(errorText(await callTool(client, 'get_specialty_pay', {}))).toMatch(/specialty/);
    expect(errorText(await callTool(client, 'get_wrvu_rate', {}))).toMatch(/specialty/);
    expect(errorText(await callTool(client, 'compare_specialties', { specialty_a: 'cardiology' }))).toMatch(/specialty_b/);
  });

  it('get_resident_pay needs an institution or a state', async () => {
    expect(errorText(await callTool(client, 'get_resident_pay', {}))).toMatch(/Give `institution`.*or `state`/);
  });

  it('wrong types, empty and oversized strings are tool errors', async () => {
    expect(errorText(await callTool(client, 'get_specialty_pay', { specialty: 42 }))).toMatch(/specialty/);
    expect(errorText(await callTool(client, 'get_specialty_pay', { specialty: '' }))).toMatch(/specialty/);
    expect(errorText(await callTool(client, 'get_specialty_pay', { specialty: 'x'.repeat(101) }))).toMatch(/specialty/);
    expect(errorText(await callTool(client, 'get_specialty_pay', { specialty: 'cardiology', state: ['TX'] }))).toMatch(/state/);
    expect(errorText(await callTool(client, 'get_resident_pay', { institution: 'x'.repeat(201) }))).toMatch(/institution/);
  });

  it('an unknown tool is a JSON-RPC error naming it (the SDK client throws it)', async () => {
    await expect(callTool(client, 'get_weather', { city: 'Austin' })).rejects.toThrow(/-32602.*Tool get_weather not found/);
  });
});

describe('many clients at once', () => {
  it('20 clients asking different specialties in parallel each get their own answer', async () => {
    const slugs = specialties.specialties.filter((s) => !s.withheld).map((s) => s.slug).slice(0, 20);
    expect(slugs).toHaveLength(20);
    const expected = new Map<string, SpecialtyFeed>();
    const expectedWrvu = new Map<string, WrvuFeed>();
    for (const s of slugs) {
      expected.set(s, await feed<SpecialtyFeed>(url, `/specialties/${s}.json`));
      expectedWrvu.set(s, await feed<WrvuFeed>(url, `/wrvu/${s}.json`));
    }
    const clients = await Promise.all(slugs.map((s) => connectClient(url, `client-${s}`)));
    try {
      const rounds = await Promise.all(clients.map(async (c, i) => {
        const s = slugs[i]!;
        const [pay, wrvu, pay2] = await Promise.all([
          callTool(c, 'get_specialty_pay', { specialty: s, detail: 'full' }),
          callTool(c, 'get_wrvu_rate', { specialty: s }),
          callTool(c, 'get_specialty_pay', { specialty: s, detail: 'full' }),
        ]);
        return { s, pay: okResult<SpecialtyFeed>(pay), wrvu: okResult<WrvuFeed>(wrvu), pay2: okResult<SpecialtyFeed>(pay2) };
      }));
      for (const { s, pay, wrvu, pay2 } of rounds) {
        expect(pay.doc, s).toEqual(expected.get(s));
        expect(pay2.doc, s).toEqual(expected.get(s));
        expect(wrvu.doc, s).toEqual(expectedWrvu.get(s));
        expect(pay.text.startsWith(`${expected.get(s)!.specialty.name} (United States)`), s).toBe(true);
      }
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });
});
