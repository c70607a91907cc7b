/**
 * Resources of the tool server over real HTTP on the golden build, with the SDK v2 client pinned to
 * 2026-07-28 and the v1 client (2025 era): resources/list and resources/templates/list, a read of every
 * listed resource and of every template kind equal to the GET of the same URL on the same server,
 * lastModified from the build, cache hints on 2026-07-28 results only, resource_links of every tool that
 * resolve, completions of every template variable, and unknown or unpublished names as resource-not-found
 * errors with close matches.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RunningServer } from '../../server/main.ts';
import { BuildRegistry } from '../../server/builds/registry.ts';
import { createMcpServer } from '../../server/mcp/server.ts';
import type { InstitutionsFeed, SpecialtiesFeed } from '../../build/contract/open-feeds.ts';
import { PUBLIC_CACHE_CONTROL } from '../../server/http/send.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { get } from '../helpers/http.ts';
import { closeAfterAll } from '../helpers/server.ts';
import { V1, callTool, connectClient, feed, okResult, serveGolden } from './mcp-helpers.ts';

const work = useGoldenDir('mcp-resources');
const closeLater = closeAfterAll();
const now = new Date('2026-12-01T12:00:15.000Z');
const DAY = '2026-12-01';
const BASE = 'https://physpay.example';
const HOUR_MS = 3_600_000;

let server: RunningServer;
let url: string;
let modern: Client;
let legacy: Awaited<ReturnType<typeof connectClient>>;
let specialties: SpecialtiesFeed;
let institutions: InstitutionsFeed;
let lastModified: string;

/** What both clients share here (the v1 and v2 clients have the same method names). */
interface ResourceClient {
  listResources(): Promise<{ resources: Resource[] }>;
  listResourceTemplates(): Promise<{ resourceTemplates: Template[] }>;
  readResource(p: { uri: string }): Promise<{ contents: { uri: string; mimeType?: string; text?: string }[] }>;
  complete(p: { ref: { type: 'ref/resource'; uri: string }; argument: { name: string; value: string }; context?: { arguments?: Record<string, string> } }): Promise<{ completion: { values: string[]; total?: number; hasMore?: boolean } }>;
  callTool(p: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
}
interface Resource { uri: string; name: string; title?: string; description?: string; mimeType?: string; annotations?: { lastModified?: string } }
interface Template { uriTemplate: string; name: string; title?: string; description?: string; mimeType?: string; annotations?: { lastModified?: string } }

const clients = (): [string, ResourceClient][] => [['2026-07-28 (SDK v2)', modern as unknown as ResourceClient], ['2025 (SDK v1)', legacy as unknown as ResourceClient]];

beforeAll(async () => {
  server = closeLater(await serveGolden(work.path, work.dist, 'resources', () => now));
  url = server.url;
  expect(server.registry.current?.id).toBe(work.buildId);
  modern = new Client({ name: 'physpay-resources-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await modern.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  closeLater(modern);
  legacy = closeLater(await connectClient(url));
  specialties = await feed<SpecialtiesFeed>(url, '/specialties.json');
  institutions = await feed<InstitutionsFeed>(url, '/residency/institutions.json');
  lastModified = new Date((JSON.parse(readFileSync(join(work.buildDir, 'build.json'), 'utf8')) as { created_at: string }).created_at).toISOString();
}, 60_000);

/** The path on this server of a public URL of the build (its base URL is https://physpay.example). */
function pathOf(uri: string): string {
  expect(uri.startsWith(`${BASE}/`), uri).toBe(true);
  return uri.slice(BASE.length);
}

/** resources/read of `uri` is exactly the GET of the same URL on the same server, the same day. */
async function expectReadEqualsGet(client: ResourceClient, uri: string, mimeType: string, canonical = uri): Promise<void> {
  const { contents } = await client.readResource({ uri });
  expect(contents, uri).toHaveLength(1);
  expect(contents[0]!.uri, uri).toBe(canonical);
  expect(contents[0]!.mimeType, uri).toBe(mimeType);
  const r = await get(url, pathOf(canonical));
  expect(r.status, canonical).toBe(200);
  expect(r.headers['content-type'], canonical).toMatch(new RegExp(`^${mimeType}`));
  expect(contents[0]!.text, uri).toBe(r.text);
}

const STATIC = [
  [`${BASE}${V1}/specialties.json`, 'application/json'],
  [`${BASE}${V1}/specialties.csv`, 'text/csv'],
  [`${BASE}${V1}/specialty-offer-components.csv`, 'text/csv'],
  [`${BASE}${V1}/states.json`, 'application/json'],
  [`${BASE}${V1}/states.csv`, 'text/csv'],
  [`${BASE}${V1}/residency/institutions.json`, 'application/json'],
  [`${BASE}${V1}/residency/institutions.csv`, 'text/csv'],
  [`${BASE}/methodology`, 'text/html'],
  [`${BASE}/license`, 'text/html'],
] as const;

const TEMPLATES: Record<string, string> = {
  specialty: `${BASE}${V1}/specialties/{specialty}.json`,
  'specialty-in-state': `${BASE}${V1}/specialties/{specialty}/states/{state}.json`,
  state: `${BASE}${V1}/states/{state}.json`,
  wrvu: `${BASE}${V1}/wrvu/{specialty}.json`,
  'teaching-hospital': `${BASE}${V1}/residency/institutions/{institution}.json`,
  'state-teaching-hospitals': `${BASE}${V1}/residency/states/{state}.json`,
  comparison: `${BASE}${V1}/compare/{specialty_a}/{specialty_b}.json`,
  'comparison-in-state': `${BASE}${V1}/compare/{specialty_a}/{specialty_b}/states/{state}.json`,
};

/** The build's resources (at its public URLs) of a resources/list; others (an MCP Apps `ui://` view) are not this file's. */
async function feedResources(client: ResourceClient): Promise<Resource[]> {
  return (await client.listResources()).resources.filter((r) => r.uri.startsWith(`${BASE}/`));
}

const expand = (template: string, vars: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, v: string) => vars[v]!);

describe.each([0, 1])('listing (%s: 0 = 2026-07-28, 1 = 2025)', (which) => {
  const client = () => clients()[which]![1];

  it('resources/list: the index feeds and their CSVs, the methodology and the licence, and each specialty', async () => {
    const resources = await feedResources(client());
    const byUri = new Map(resources.map((r) => [r.uri, r]));
    expect(byUri.size).toBe(resources.length);
    for (const [uri, mimeType] of STATIC) expect(byUri.get(uri), uri).toMatchObject({ mimeType });
    for (const s of specialties.specialties) expect(byUri.get(s.feed_url), s.slug).toMatchObject({ mimeType: 'application/json', name: `specialties/${s.slug}.json` });
    expect(resources).toHaveLength(STATIC.length + specialties.specialties.length);
    for (const r of resources) {
      expect(r.name, r.uri).toBeTruthy();
      expect(r.title, r.uri).toBeTruthy();
      expect(r.description, r.uri).toBeTruthy();
      expect(r.annotations?.lastModified, r.uri).toBe(lastModified);
    }
    // titles are the documents' own
    expect(byUri.get(`${BASE}${V1}/specialties.json`)!.title).toBe(specialties.title);
    expect(byUri.get(`${BASE}${V1}/specialties.csv`)!.title).toBe(`${specialties.title} (CSV)`);
    const cardiology = await feed<{ title: string }>(url, '/specialties/cardiology.json');
    expect(byUri.get(`${BASE}${V1}/specialties/cardiology.json`)!.title).toBe(cardiology.title);
  });

  it('resources/templates/list: one template per kind of feed, at the public URLs', async () => {
    const resourceTemplates = (await client().listResourceTemplates()).resourceTemplates.filter((t) => t.uriTemplate.startsWith(`${BASE}/`));
    expect(Object.fromEntries(resourceTemplates.map((t) => [t.name, t.uriTemplate]))).toEqual(TEMPLATES);
    for (const t of resourceTemplates) {
      expect(t.title, t.name).toBeTruthy();
      expect(t.description, t.name).toBeTruthy();
      expect(t.mimeType, t.name).toBe('application/json');
      expect(t.annotations?.lastModified, t.name).toBe(lastModified);
    }
  });

  it('every listed resource reads as the bytes its GET serves today', async () => {
    const resources = await feedResources(client());
    for (const r of resources) await expectReadEqualsGet(client(), r.uri, r.mimeType!);
    const { contents } = await client().readResource({ uri: `${BASE}${V1}/specialties/cardiology.json` });
    expect(contents[0]!.text).toContain(`accessed ${DAY})`);
  });

  it('a resource of every template kind reads as its feed, and its uri is the document\'s feed_url', async () => {
    const inst = institutions.institutions[0]!.institution;
    const vars = { specialty: 'cardiology', state: 'texas', institution: inst.slug, specialty_a: 'cardiology', specialty_b: 'pediatrics' };
    for (const [name, template] of Object.entries(TEMPLATES)) {
      const uri = expand(template, name === 'state-teaching-hospitals' ? { ...vars, state: inst.state.slug } : vars);
      await expectReadEqualsGet(client(), uri, 'application/json');
      const { contents } = await client().readResource({ uri });
      expect((JSON.parse(contents[0]!.text!) as { feed_url: string }).feed_url, name).toBe(uri);
    }
  });

  it('variables take any spelling the feeds resolve; the contents carry the canonical URL', async () => {
    await expectReadEqualsGet(client(), `${BASE}${V1}/specialties/OB%2FGYN/states/tx.json`, 'application/json', `${BASE}${V1}/specialties/obstetrics-gynecology/states/texas.json`);
    await expectReadEqualsGet(client(), `${BASE}${V1}/wrvu/ENT.json`, 'application/json', `${BASE}${V1}/wrvu/otolaryngology.json`);
    await expectReadEqualsGet(client(), `${BASE}${V1}/compare/Cardiology/peds/states/CA.json`, 'application/json', `${BASE}${V1}/compare/cardiology/pediatrics/states/california.json`);
  });

  it('an unknown name is the SDK\'s resource-not-found error (-32602, data {uri}) with close matches', async () => {
    const uri = `${BASE}${V1}/specialties/cardiolgy.json`;
    const err = await client().readResource({ uri }).then(() => null, (e: unknown) => e as { code: number; message: string; data?: unknown });
    expect(err).not.toBeNull();
    expect(err!.code).toBe(-32602);
    expect(err!.data).toEqual({ uri });
    expect(err!.message).toContain('Unknown specialty "cardiolgy". Close matches: Cardiology (cardiology)');

    const hospital = `${BASE}${V1}/residency/institutions/baptist-general-hospitl-fargo.json`;
    const e2 = await client().readResource({ uri: hospital }).then(() => null, (e: unknown) => e as { code: number; message: string; data?: unknown });
    expect(e2!.code).toBe(-32602);
    expect(e2!.data).toEqual({ uri: hospital });
    expect(e2!.message).toMatch(/Unknown teaching hospital .*Close matches: "Baptist General Hospital \(Fargo\)" \(baptist-general-hospital-fargo\)/);

    const other = `${BASE}${V1}/no-such-feed.json`;
    const e3 = await client().readResource({ uri: other }).then(() => null, (e: unknown) => e as { code: number; data?: unknown });
    expect(e3!.code).toBe(-32602);
    expect(e3!.data).toEqual({ uri: other });
  });

  it('completions of every template variable from the build: "card", "tx", "ob", a teaching hospital\'s name', async () => {
    const complete = async (template: string, name: string, value: string, context?: Record<string, string>) =>
      (await client().complete({ ref: { type: 'ref/resource', uri: TEMPLATES[template]! }, argument: { name, value }, ...(context ? { context: { arguments: context } } : {}) })).completion.values;
    expect((await complete('specialty', 'specialty', 'card'))[0]).toBe('cardiology');
    expect(await complete('specialty', 'specialty', 'card')).toContain('interventional-cardiology');
    expect((await complete('specialty-in-state', 'state', 'tx'))[0]).toBe('texas');
    expect((await complete('wrvu', 'specialty', 'ob'))[0]).toBe('obstetrics-gynecology');
    expect((await complete('comparison', 'specialty_b', 'ENT'))[0]).toBe('otolaryngology');
    const inst = institutions.institutions[0]!.institution;
    const prefix = inst.name.split(' ').slice(0, 2).join(' ').toLowerCase(); // "baptist general"
    expect(await complete('teaching-hospital', 'institution', prefix)).toContain(inst.slug);
    expect((await complete('state-teaching-hospitals', 'state', 'North Dak'))[0]).toBe('north-dakota');
    // every variable of every template completes (empty input: the first values of all)
    for (const [name, template] of Object.entries(TEMPLATES)) {
      for (const v of template.match(/\{(\w+)\}/g)!.map((m) => m.slice(1, -1))) {
        const values = await complete(name, v, '');
        expect(values.length, `${name} {${v}}`).toBeGreaterThan(0);
        expect(values.length, `${name} {${v}}`).toBeLessThanOrEqual(100);
      }
    }
    expect(await complete('comparison-in-state', 'state', 'cal', { specialty_a: 'cardiology', specialty_b: 'peds' })).toEqual(['california']);
  });
});

describe('cache hints: the feeds\' one-hour public caching, on 2026-07-28 results only', () => {
  it('the cacheable results carry ttlMs 3600000 and cacheScope public (the feeds\' Cache-Control)', async () => {
    expect(PUBLIC_CACHE_CONTROL).toBe(`public, max-age=${HOUR_MS / 1000}`);
    const r = await get(url, `${V1}/specialties.json`);
    expect(r.headers['cache-control']).toBe(`public, max-age=${HOUR_MS / 1000}`);
    const opts = { cacheMode: 'bypass' } as const;
    const results: [string, unknown][] = [
      ['resources/list', await modern.listResources(undefined, opts)],
      ['resources/templates/list', await modern.listResourceTemplates(undefined, opts)],
      ['resources/read', await modern.readResource({ uri: `${BASE}${V1}/specialties/cardiology.json` }, opts)],
      ['resources/read (template)', await modern.readResource({ uri: `${BASE}${V1}/compare/cardiology/pediatrics.json` }, opts)],
      ['tools/list', await modern.listTools(undefined, opts)],
      ['server/discover', await modern.discover()],
    ];
    for (const [method, result] of results) expect(result, method).toMatchObject({ ttlMs: HOUR_MS, cacheScope: 'public' });
  });

  it('2025-era results have no cache fields', async () => {
    for (const result of [await legacy.listResources(), await legacy.listResourceTemplates(), await legacy.readResource({ uri: `${BASE}${V1}/states.json` })]) {
      expect(result).not.toHaveProperty('ttlMs');
      expect(result).not.toHaveProperty('cacheScope');
    }
  });

  it('both eras declare resources (no list-change notifications) and completions', async () => {
    for (const caps of [modern.getServerCapabilities(), legacy.getServerCapabilities()]) {
      expect(caps?.resources).toEqual({ listChanged: false });
      expect(caps?.completions).toEqual({});
    }
  });
});

describe('tool results link their feed (and its CSV) as resource_links that resolve', () => {
  const inst = () => institutions.institutions[0]!.institution;
  // the whole documents (limit: 100, detail: "full"): each equals the resource its link reads
  const calls = (): [string, Record<string, unknown>, number][] => [
    ['list_specialties', { limit: 100 }, 2],
    ['get_specialty_pay', { specialty: 'Cardiology', detail: 'full' }, 1],
    ['get_specialty_pay', { specialty: 'OB/GYN', state: 'TX' }, 1],
    ['compare_specialties', { specialty_a: 'cardiology', specialty_b: 'pediatrics', detail: 'full' }, 1],
    ['compare_specialties', { specialty_a: 'cardiology', specialty_b: 'pediatrics', state: 'CA', detail: 'full' }, 1],
    ['get_wrvu_rate', { specialty: 'ENT' }, 1],
    ['get_resident_pay', { institution: inst().slug }, 1],
    ['get_resident_pay', { state: 'TX', limit: 100 }, 1],
    ['evaluate_compensation', { specialty: 'cardiology', compensation: 500000, state: 'CA' }, 1],
  ];

  it.each([0, 1])('every tool (client %s: 0 = 2026-07-28, 1 = 2025): the links are GETtable and read as resources', async (which) => {
    const client = clients()[which]![1];
    for (const [name, args, count] of calls()) {
      const { doc, links } = okResult<{ feed_url: string; title: string }>(await callTool(client, name, args) as CallToolResult);
      const label = `${name} ${JSON.stringify(args)}`;
      expect(links, label).toHaveLength(count);
      expect(links[0]!.title, label).toBe(doc.title);
      for (const l of links) {
        const r = await get(url, pathOf(l.uri));
        expect(r.status, `${label}: GET ${l.uri}`).toBe(200);
        expect(r.headers['content-type'], l.uri).toMatch(new RegExp(`^${l.mimeType}`));
        await expectReadEqualsGet(client, l.uri, l.mimeType!);
      }
      const served = JSON.parse((await get(url, pathOf(links[0]!.uri))).text) as Record<string, unknown>;
      if (name === 'evaluate_compensation') expect(served.feed_url).toBe(doc.feed_url);
      else expect(served, label).toEqual(doc);
    }
  });
});

describe('without HTTP: an unpublished combination and no build', () => {
  it('a specialty in a state without a document is not found, and that state is not offered', async () => {
    const registry = new BuildRegistry(work.dist);
    await registry.check();
    const build = registry.current!;
    const path = `${V1}/specialties/cardiology/states/texas.json`;
    expect(build.files.delete(path)).toBe(true); // as if nothing were published there
    const server = createMcpServer({ build, day: DAY, limited: null });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'unit', version: '1.0.0' });
    await server.connect(a);
    await client.connect(b);
    try {
      const uri = `${BASE}${path}`;
      const err = await client.readResource({ uri }).then(() => null, (e: unknown) => e as { code: number; message: string; data?: unknown });
      expect(err!.code).toBe(-32602);
      expect(err!.data).toEqual({ uri });
      expect(err!.message).toContain('No figures are published for Cardiology in Texas');
      const ref = { type: 'ref/resource' as const, uri: TEMPLATES['specialty-in-state']! };
      expect((await client.complete({ ref, argument: { name: 'state', value: 'te' }, context: { arguments: { specialty: 'cardiology' } } })).completion.values).not.toContain('texas');
      expect((await client.complete({ ref, argument: { name: 'state', value: 'te' }, context: { arguments: { specialty: 'pediatrics' } } })).completion.values).toContain('texas');
      const cmp = await client.readResource({ uri: `${BASE}${V1}/compare/pediatrics/cardiology/states/texas.json` }).then(() => null, (e: unknown) => e as { message: string });
      expect(cmp!.message).toContain('No figures are published for Cardiology in Texas');
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('no build loaded: none of the build\'s resources or templates', async () => {
    const server = createMcpServer({ build: null, day: DAY, limited: null });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'unit', version: '1.0.0' });
    await server.connect(a);
    await client.connect(b);
    try {
      if (client.getServerCapabilities()?.resources) { // declared by another feature (an MCP Apps view)
        expect((await client.listResources()).resources.filter((r) => r.uri.startsWith('https://'))).toEqual([]);
        expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
      }
    } finally {
      await client.close();
      await server.close();
    }
  });
});
