/**
 * schema.org Dataset metadata, as a search engine reads it: the JSON-LD blocks of the served home,
 * specialty and state pages and of the open data index (HTML and JSON) are parsed and expanded with a real
 * JSON-LD processor (the `jsonld` package) against schema.org's own context (release 30.0, vendored in
 * test/fixtures/schema-org; no request leaves the machine), then checked against Google Dataset Search's
 * required properties (name; description of 50 to 5,000 characters) and the recommended ones emitted
 * (license, creator, distribution with contentUrl and encodingFormat, temporalCoverage, spatialCoverage,
 * variableMeasured, dateModified), with the figures and URLs of the page's feed. Withheld pages carry none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import jsonld from 'jsonld';
import { request } from '../helpers/http.ts';
import { serveGolden, type Served } from './helpers.ts';
import type { SpecialtiesFeed, SpecialtyFeed, StateFeed } from '../../build/contract/open-feeds.ts';

const SCHEMA_CONTEXT = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/schema-org/schemaorgcontext.jsonld'), 'utf8'));
/** schema.org's context, served from the fixture for every spelling of its URL; any other URL is refused */
const documentLoader = async (url: string) => {
  if (/^https?:\/\/schema\.org\/?$/.test(url) || /^https?:\/\/schema\.org\/docs\/jsonldcontext\.json(ld)?$/.test(url)) {
    return { contextUrl: undefined, documentUrl: url, document: SCHEMA_CONTEXT };
  }
  throw new Error(`the test loads no document from ${url}`);
};
const S = 'http://schema.org/'; // the vocabulary of schema.org's context ("@vocab")

let s: Served;
beforeAll(async () => {
  s = await serveGolden('pages-jsonld');
}, 120_000);
afterAll(async () => {
  await s?.close();
});

const feed = <T>(path: string): T => JSON.parse(readFileSync(join(s.buildDir, 'public', path), 'utf8')) as T;

/** The JSON-LD blocks of a served page. */
async function blocks(path: string): Promise<Record<string, unknown>[]> {
  const r = await request(s.url, path, { headers: { accept: 'text/html' } });
  expect(r.status, path).toBe(200);
  return [...r.text.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
}

type Expanded = Record<string, unknown[]>;
const value = (node: Expanded, term: string): unknown => {
  const v = node[`${S}${term}`]?.[0] as { '@value'?: unknown; '@id'?: unknown } | undefined;
  return v?.['@value'] ?? v?.['@id'];
};

/** Expand with the processor and check the Dataset properties Google reads. */
async function checkDataset(doc: Record<string, unknown>, o: { url: string; dateModified: string; spatial: RegExp; feeds: string[] }): Promise<Expanded> {
  const expanded = (await jsonld.expand(doc, { documentLoader: documentLoader as never })) as Expanded[];
  expect(expanded).toHaveLength(1);
  const ds = expanded[0]!;
  expect(ds['@type']).toEqual([`${S}Dataset`]);
  // every property and type is a term schema.org defines (@vocab would expand a misspelt one silently)
  const terms = SCHEMA_CONTEXT['@context'] as Record<string, unknown>;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (!k.startsWith('@')) expect(terms[k], `${k} is not a schema.org term`).toBeDefined();
      if (k === '@type') expect(terms[String(v)], `${String(v)} is not a schema.org type`).toBeDefined();
      visit(v);
    }
  };
  visit(doc);
  for (const k of Object.keys(ds)) if (!k.startsWith('@')) expect(k.startsWith(S), k).toBe(true);
  for (const k of Object.keys(doc)) if (!k.startsWith('@')) expect(ds[`${S}${k}`], `${k} was dropped by expansion`).toBeDefined();
  // required
  const name = String(value(ds, 'name'));
  const description = String(value(ds, 'description'));
  expect(name.length).toBeGreaterThan(5);
  expect(description.length).toBeGreaterThanOrEqual(50);
  expect(description.length).toBeLessThanOrEqual(5000);
  // recommended, with the page's own values
  expect(value(ds, 'url')).toBe(o.url);
  expect(value(ds, 'license')).toBe('https://creativecommons.org/licenses/by/4.0/');
  expect(value(ds, 'isAccessibleForFree')).toBe(true);
  expect(value(ds, 'dateModified')).toBe(o.dateModified);
  expect(String(value(ds, 'temporalCoverage'))).toMatch(/^\d{4}(\/\d{4})?$/);
  for (const who of ['creator', 'publisher']) {
    const org = ds[`${S}${who}`]![0] as Expanded;
    expect(org['@type']).toEqual([`${S}Organization`]);
    expect(value(org, 'name')).toBe('PhysPay');
  }
  const place = ds[`${S}spatialCoverage`]![0] as Expanded;
  expect(place['@type']).toEqual([`${S}Place`]);
  expect(String(value(place, 'name'))).toMatch(o.spatial);
  const vars = (ds[`${S}variableMeasured`] as Expanded[]).map((v) => [value(v, 'name'), value(v, 'unitText')]);
  expect(vars).toEqual(expect.arrayContaining([['median', 'USD'], ['p25', 'USD'], ['p75', 'USD']]));
  const dist = ds[`${S}distribution`] as Expanded[];
  for (const d of dist) {
    expect(d['@type']).toEqual([`${S}DataDownload`]);
    expect(String(value(d, 'contentUrl'))).toMatch(/^https:\/\/physpay\.example\//);
    expect(String(value(d, 'encodingFormat'))).toMatch(/^(application\/json|text\/csv|application\/gzip)$/);
  }
  const urls = dist.map((d) => value(d, 'contentUrl'));
  for (const f of o.feeds) expect(urls, f).toContain(f);
  expect(urls).toContain('https://physpay.example/data/api/v1/physpay-open-data.tar.gz');
  // the processor agrees the document is well-formed RDF (every value a literal or an IRI)
  const quads = await jsonld.toRDF(doc, { documentLoader: documentLoader as never, format: 'application/n-quads' }) as unknown as string;
  expect(quads).toContain(`<${S}Dataset>`);
  return ds;
}

describe('schema.org Dataset JSON-LD', () => {
  it('the home page describes the whole open data', async () => {
    const [doc, ...more] = await blocks('/');
    expect(more).toEqual([]);
    const sp = feed<SpecialtiesFeed>('data/api/v1/specialties.json');
    const ds = await checkDataset(doc!, { url: 'https://physpay.example/', dateModified: sp.modified, spatial: /^United States$/, feeds: [sp.feed_url, 'https://physpay.example/data/api/v1/specialties.csv', 'https://physpay.example/data/api/v1/specialty-offer-components.csv'] });
    expect(String(value(ds, 'description'))).toContain(`${sp.n} moderated self-reported salary reports`);
  });

  it('a specialty page describes the specialty nationally, with its feed and its published years', async () => {
    const [doc] = await blocks('/salaries/family-medicine');
    const f = feed<SpecialtyFeed>('data/api/v1/specialties/family-medicine.json');
    const ds = await checkDataset(doc!, { url: f.citation_url, dateModified: f.modified, spatial: /^United States$/, feeds: [f.feed_url, f.wrvu.feed_url, 'https://physpay.example/data/api/v1/specialty-offer-components.csv'] });
    const years = f.by_year.filter((r) => !r.withheld).map((r) => r.year);
    expect(value(ds, 'temporalCoverage')).toBe(years.length > 1 ? `${Math.min(...years)}/${Math.max(...years)}` : String(years[0]));
    expect(value(ds, 'identifier')).toBe(f.feed_url);
  });

  it('a state page describes the state', async () => {
    const [doc] = await blocks('/states/texas');
    const f = feed<StateFeed>('data/api/v1/states/texas.json');
    const ds = await checkDataset(doc!, { url: f.citation_url, dateModified: f.modified, spatial: /^Texas, United States$/, feeds: [f.feed_url] });
    // a state's figures are headline figures: their years only
    expect(value(ds, 'temporalCoverage')).toBe(`${f.basis.compensation_years.from}/${f.basis.compensation_years.to}`);
  });

  it('the open data index carries the whole-data Dataset, in its HTML head and its JSON', async () => {
    const [doc] = await blocks('/data/api/v1/');
    const home = (await blocks('/'))[0];
    expect(doc).toEqual(home);
    const j = await request(s.url, '/data/api/v1/');
    const index = j.json() as { dataset: unknown; releases: { releases_url: string } };
    expect(index.dataset).toEqual(home);
    expect(index.releases.releases_url).toBe('https://physpay.example/data/api/v1/releases.json');
  });

  it('a withheld specialty page carries none (nothing published to describe)', async () => {
    const f = feed<SpecialtyFeed>('data/api/v1/specialties/colon-rectal-surgery.json');
    expect(f.withheld).toBe(true);
    expect(await blocks('/salaries/colon-rectal-surgery')).toEqual([]);
  });

  it('the block cannot be closed by text inside it', async () => {
    const { jsonLdScript } = await import('../../build/pages/jsonld.ts');
    const html = jsonLdScript({ name: '</script><script>alert(1)</script> & \u2028' });
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(JSON.parse(html.slice(html.indexOf('>') + 1, html.lastIndexOf('<')))).toEqual({ name: '</script><script>alert(1)</script> & \u2028' });
  });
});
