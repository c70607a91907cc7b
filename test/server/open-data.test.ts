/**
 * The open data API over real HTTP, against the golden build: headers and bodies of every feed kind,
 * conditional requests (304), CORS, aliases with rel=canonical, close matches for unknown slugs, and the
 * guarantee that nothing outside the published tree can be read.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { get, request, type HttpResponse } from '../helpers/http.ts';
import { closeAfterAll, startTestServer } from '../helpers/server.ts';
import type { RunningServer } from '../../server/main.ts';
import { readManifest } from '../../build/emit/store.ts';
import { urlPathOf } from '../../server/builds/loaded-build.ts';

const BASE_URL = 'https://physpay.example';
const V1 = '/data/api/v1';

const work = useGoldenDir('open-data');
const closeLater = closeAfterAll();
let server: RunningServer;
let url: string;
let now = new Date('2026-12-01T12:00:15.000Z');
const clock = () => now;

/** A file of the build as the server should send it on `day`: the build date's access date replaced. */
function expectedBody(urlPath: string, day = '2026-12-01'): string {
  const text = readFileSync(join(work.buildDir, 'public', urlPath), 'utf8');
  return text.split('accessed 2026-11-16)').join(`accessed ${day})`);
}

function expectJsonError(r: HttpResponse, status: number | number[]): Record<string, unknown> {
  const statuses = Array.isArray(status) ? status : [status];
  expect(statuses, `status ${r.status}: ${r.text.slice(0, 200)}`).toContain(r.status);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  const body = r.json();
  expect(typeof body.error).toBe('string');
  return body;
}

beforeAll(async () => {
  server = closeLater(await startTestServer(work.dist, join(work.path, 'service.db'), { clock }));
  url = server.url;
  expect(server.registry.current?.id).toBe(work.buildId);
}, 60_000);

const FEEDS = {
  specialties: `${V1}/specialties.json`,
  specialty: `${V1}/specialties/cardiology.json`,
  specialtyState: `${V1}/specialties/cardiology/states/texas.json`,
  states: `${V1}/states.json`,
  state: `${V1}/states/new-york.json`,
  wrvu: `${V1}/wrvu/family-medicine.json`,
  institutions: `${V1}/residency/institutions.json`,
} as Record<string, string>;

describe('feeds: headers and bodies', () => {
  beforeAll(() => {
    now = new Date('2026-12-01T12:00:15.000Z');
    const inst = JSON.parse(readFileSync(join(work.buildDir, 'public', FEEDS.institutions!), 'utf8')) as { institutions: { institution: { slug: string } }[] };
    FEEDS.institution = `${V1}/residency/institutions/${inst.institutions[0]!.institution.slug}.json`;
  });

  it('every feed kind answers 200 with the headers of the spec and the file with the day filled in', async () => {
    expect(Object.keys(FEEDS)).toHaveLength(8);
    for (const [kind, path] of Object.entries(FEEDS)) {
      const r = await get(url, path);
      expect(r.status, kind).toBe(200);
      expect(r.headers['content-type'], kind).toBe('application/json; charset=utf-8');
      expect(r.headers.etag, kind).toMatch(/^"[^"]+"$/);
      expect(r.headers['cache-control'], kind).toBe('public, max-age=3600');
      expect(r.headers['access-control-allow-origin'], kind).toBe('*');
      const exposed = String(r.headers['access-control-expose-headers']).toLowerCase().split(/\s*,\s*/);
      expect(exposed, kind).toEqual(expect.arrayContaining(['etag', 'ratelimit', 'ratelimit-policy', 'retry-after', 'link']));
      expect(r.headers['ratelimit-policy'], kind).toBe('"minute";q=1000000;w=60, "day";q=10000000;w=86400');
      expect(r.headers.ratelimit, kind).toMatch(/^"minute";r=\d+;t=\d+, "day";r=\d+;t=\d+$/);
      expect(r.headers['x-physpay-build'], kind).toBe(server.registry.current!.id);
      expect(r.headers.link, kind).toBeUndefined();
      expect(Number(r.headers['content-length']), kind).toBe(r.body.length);
      expect(r.text, kind).toBe(expectedBody(path));
      const doc = r.json();
      expect(doc.attribution, kind).toMatch(/\(data as of \d{4}-\d{2}-\d{2}; (release \d{4}-\d{2}-\d{2}(\.\d+)?, https:\/\/\S+\/data\/api\/v1\/releases\/\S+; )?accessed 2026-12-01\)\. Licensed under CC BY 4\.0\.$/);
      expect(doc.license, kind).toBe('CC BY 4.0');
      expect(doc.feed_url, kind).toBe(`${BASE_URL}${path}`);
    }
  });

  it('every public file of the build is served, byte for byte apart from the access date', async () => {
    const manifest = readManifest(work.buildDir);
    const paths = Object.keys(manifest.files).filter((p) => p.startsWith('public/')).map((p) => p.slice('public'.length));
    expect(paths.length).toBeGreaterThan(1000);
    const bad: string[] = [];
    for (let i = 0; i < paths.length; i += 32) {
      await Promise.all(paths.slice(i, i + 32).map(async (p) => {
        const r = await get(url, urlPathOf(`public${p}`)!); // pages: a/b.html is served at /a/b
        if (r.status !== 200 || r.text !== expectedBody(p)) bad.push(`${p}: ${r.status}`);
      }));
    }
    expect(bad).toEqual([]);
  });

  it('HEAD answers the same headers as GET and no body', async () => {
    for (const [kind, path] of Object.entries(FEEDS)) {
      const g = await get(url, path);
      const h = await request(url, path, { method: 'HEAD' });
      expect(h.status, kind).toBe(200);
      expect(h.body.length, kind).toBe(0);
      for (const name of ['content-type', 'content-length', 'etag', 'cache-control', 'access-control-allow-origin', 'access-control-expose-headers', 'x-physpay-build', 'ratelimit-policy']) {
        expect(h.headers[name], `${kind} ${name}`).toBe(g.headers[name]);
      }
      expect(h.headers.ratelimit, kind).toMatch(/^"minute";r=\d+;t=\d+, "day";r=\d+;t=\d+$/);
    }
  });
});

describe('conditional requests', () => {
  const path = `${V1}/specialties/cardiology.json`;
  beforeAll(() => {
    now = new Date('2026-12-01T12:00:15.000Z');
  });

  it('If-None-Match with the current ETag answers 304 with no body and the same ETag', async () => {
    const first = await get(url, path);
    const etag = first.headers.etag!;
    const r = await get(url, path, { 'if-none-match': etag });
    expect(r.status).toBe(304);
    expect(r.body.length).toBe(0);
    expect(r.headers.etag).toBe(etag);
    expect(r.headers['cache-control']).toBe('public, max-age=3600');
    expect(r.headers['access-control-allow-origin']).toBe('*');
    const head = await request(url, path, { method: 'HEAD', headers: { 'if-none-match': etag } });
    expect(head.status).toBe(304);
  });

  it('a list of tags and a W/ prefix match; a stale tag gets the full document', async () => {
    const etag = (await get(url, path)).headers.etag!;
    const listed = await get(url, path, { 'if-none-match': `"nope", ${etag}, "other"` });
    expect(listed.status).toBe(304);
    const weak = await get(url, path, { 'if-none-match': `W/${etag}` });
    expect(weak.status).toBe(304);
    const stale = await get(url, path, { 'if-none-match': '"0123456789abcdef-20261130"' });
    expect(stale.status).toBe(200);
    expect(stale.headers.etag).toBe(etag);
    expect(stale.text).toBe(expectedBody(path));
    // Another feed's tag does not match this one.
    const otherTag = (await get(url, `${V1}/specialties/dermatology.json`)).headers.etag!;
    expect(otherTag).not.toBe(etag);
    expect((await get(url, path, { 'if-none-match': otherTag })).status).toBe(200);
  });

  it('the ETag and the access date change when the clock moves to the next UTC day', async () => {
    now = new Date('2026-12-01T23:59:59.000Z');
    const before = await get(url, path);
    expect(before.json().attribution).toContain('accessed 2026-12-01)');
    now = new Date('2026-12-02T00:00:00.000Z');
    const after = await get(url, path);
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.json().attribution).toContain('accessed 2026-12-02)');
    expect(after.text).toBe(expectedBody(path, '2026-12-02'));
    const revalidated = await get(url, path, { 'if-none-match': before.headers.etag! });
    expect(revalidated.status).toBe(200);
    expect(revalidated.headers.etag).toBe(after.headers.etag);
    expect((await get(url, path, { 'if-none-match': after.headers.etag! })).status).toBe(304);
    now = new Date('2026-12-01T12:00:15.000Z');
  });
});

describe('CORS and methods', () => {
  it('answers the preflight with 204, open origin, the methods and the requested headers', async () => {
    const r = await request(url, `${V1}/specialties/cardiology.json`, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.org', 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match, x-requested-with' },
    });
    expect(r.status).toBe(204);
    expect(r.body.length).toBe(0);
    expect(r.headers['access-control-allow-origin']).toBe('*');
    const methods = String(r.headers['access-control-allow-methods']).split(/\s*,\s*/);
    expect(methods).toEqual(expect.arrayContaining(['GET', 'HEAD', 'OPTIONS']));
    const allowed = String(r.headers['access-control-allow-headers']).toLowerCase().split(/\s*,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['if-none-match', 'x-requested-with']));
  });

  it('other methods get 405 with Allow and a JSON error', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const r = await request(url, `${V1}/specialties/cardiology.json`, { method });
      const body = expectJsonError(r, 405);
      expect(body.error, method).toMatch(/not allowed/);
      expect(String(r.headers.allow).split(/\s*,\s*/), method).toEqual(expect.arrayContaining(['GET', 'HEAD']));
      expect(r.headers['access-control-allow-origin']).toBe('*');
    }
  });
});

describe('aliases', () => {
  const cases: [alias: string, canonical: string][] = [
    [`${V1}/specialties/ob-gyn.json`, `${V1}/specialties/obstetrics-gynecology.json`],
    [`${V1}/specialties/OBGYN.json`, `${V1}/specialties/obstetrics-gynecology.json`],
    [`${V1}/specialties/ENT.json`, `${V1}/specialties/otolaryngology.json`],
    [`${V1}/specialties/Cardiologist.json`, `${V1}/specialties/cardiology.json`],
    [`${V1}/specialties/CARDIOLOGY.json`, `${V1}/specialties/cardiology.json`],
    [`${V1}/wrvu/ent.json`, `${V1}/wrvu/otolaryngology.json`],
    [`${V1}/states/tx.json`, `${V1}/states/texas.json`],
    [`${V1}/states/TX.json`, `${V1}/states/texas.json`],
    [`${V1}/states/new%20york.json`, `${V1}/states/new-york.json`],
    [`${V1}/states/New%20York.json`, `${V1}/states/new-york.json`],
    [`${V1}/specialties/OBGYN/states/TX.json`, `${V1}/specialties/obstetrics-gynecology/states/texas.json`],
    [`${V1}/specialties/cardiologist/states/new%20york.json`, `${V1}/specialties/cardiology/states/new-york.json`],
    [`${V1}/specialties/ent/states/ca.json`, `${V1}/specialties/otolaryngology/states/california.json`],
  ];

  it('answer the canonical document (same body and ETag) with rel="canonical"; the canonical path has no Link', async () => {
    for (const [alias, canonical] of cases) {
      const c = await get(url, canonical);
      expect(c.status, canonical).toBe(200);
      expect(c.headers.link, canonical).toBeUndefined();
      const a = await get(url, alias);
      expect(a.status, alias).toBe(200);
      expect(a.text, alias).toBe(c.text);
      expect(a.headers.etag, alias).toBe(c.headers.etag);
      expect(a.headers['content-type'], alias).toBe('application/json; charset=utf-8');
      expect(a.headers.link, alias).toBe(`<${BASE_URL}${canonical}>; rel="canonical"`);
    }
  });

  it('an alias revalidates with the canonical ETag (304)', async () => {
    const etag = (await get(url, `${V1}/states/texas.json`)).headers.etag!;
    const r = await get(url, `${V1}/states/TX.json`, { 'if-none-match': etag });
    expect(r.status).toBe(304);
    expect(r.headers.etag).toBe(etag);
  });
});

describe('unknown slugs and paths', () => {
  type Suggestion = { slug: string; name: string; url: string };

  it('an unknown specialty gets 404 with close matches, best first', async () => {
    const r = await get(url, `${V1}/specialties/cardiolgy.json`);
    const body = expectJsonError(r, 404);
    const dym = body.did_you_mean as Suggestion[];
    expect(Array.isArray(dym)).toBe(true);
    expect(dym.length).toBeGreaterThanOrEqual(1);
    expect(dym.length).toBeLessThanOrEqual(5);
    expect(dym[0]).toEqual({ slug: 'cardiology', name: 'Cardiology', url: `${BASE_URL}${V1}/specialties/cardiology.json` });
    for (const s of dym) {
      expect(Object.keys(s).sort()).toEqual(['name', 'slug', 'url']);
      expect(s.url).toBe(`${BASE_URL}${V1}/specialties/${s.slug}.json`);
    }
    expect(r.headers['access-control-allow-origin']).toBe('*');
  });

  it('an unknown state gets close matches linking to state feeds', async () => {
    const r = await get(url, `${V1}/states/texs.json`);
    const dym = expectJsonError(r, 404).did_you_mean as Suggestion[];
    expect(dym.length).toBeGreaterThanOrEqual(1);
    expect(dym.length).toBeLessThanOrEqual(5);
    const texas = dym.find((s) => s.slug === 'texas');
    expect(texas).toEqual({ slug: 'texas', name: 'Texas', url: `${BASE_URL}${V1}/states/texas.json` });
    // In a specialty-in-state path the unknown segment is named.
    const inState = await get(url, `${V1}/specialties/cardiology/states/texs.json`);
    expect((expectJsonError(inState, 404).did_you_mean as Suggestion[]).map((s) => s.slug)).toContain('texas');
  });

  it('never lists more than 5 matches', async () => {
    for (const q of ['surgeryy', 'medicne', 'neww', 'q', 'zzzzzzzzzzzzzzzz']) {
      for (const kind of ['specialties', 'states', 'wrvu']) {
        const r = await get(url, `${V1}/${kind}/${q}.json`);
        const body = expectJsonError(r, 404);
        expect((body.did_you_mean as unknown[]).length, `${kind}/${q}`).toBeLessThanOrEqual(5);
      }
    }
  });

  it('an unknown path gets a JSON 404', async () => {
    for (const p of [`${V1}/nothing.json`, `${V1}/specialties`, `${V1}/specialties/`, `${V1}/specialties/cardiology.xml`, `${V1}/residency/institutions/not-a-hospital-at-all.json`]) {
      const r = await get(url, p);
      expectJsonError(r, 404);
    }
    // the API's own root is its index (JSON for non-browsers), not a 404
    for (const p of [V1, `${V1}/`]) {
      const r = await get(url, p);
      expect(r.status, p).toBe(200);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
    }
  });
});

describe('nothing outside the published tree is readable', () => {
  const secrets = ['"build_id"', '"sha256"', '"content_hash"', '"medians"', '"reports_used"', '"winsor'];
  const probes = [
    `${V1}/../../manifest.json`,
    `${V1}/../../../manifest.json`,
    `${V1}/../../build.json`,
    `${V1}/../../private/keyed/index.json`,
    `${V1}/specialties/../../../../manifest.json`,
    `${V1}/./specialties.json`,
    `${V1}/%2e%2e/%2e%2e/manifest.json`,
    `${V1}/%2e%2e%2f%2e%2e%2fmanifest.json`,
    `${V1}/%2E%2E%2F%2E%2E%2Fbuild.json`,
    `${V1}/specialties/..%2f..%2f..%2fmanifest.json`,
    `${V1}/specialties/%2e%2e%2f%2e%2e%2f%2e%2e%2fmanifest.json`,
    `${V1}/%252e%252e%252f%252e%252e%252fmanifest.json`,
    `${V1}/specialties/%252e%252e%252fmanifest.json`,
    `${V1}/..\\..\\manifest.json`,
    `${V1}/specialties\\..\\..\\..\\manifest.json`,
    `${V1}/%5c..%5c..%5cmanifest.json`,
    `${V1}/specialties.json%00`,
    `${V1}/specialties/cardiology.json%00.txt`,
    `${V1}/%00/../../manifest.json`,
    `${V1}/%`,
    `${V1}/%zz.json`,
    `${V1}/%E0%A4%A.json`,
    `${V1}/specialties/${'a'.repeat(5000)}.json`,
    `${V1}/${'../'.repeat(1700)}manifest.json`,
    `${V1}/specialties/${'%2e%2e%2f'.repeat(600)}manifest.json`,
    `${V1}/private/keyed/index.json`,
    `${V1}/private/keyed/benchmarks/cardiology.json`,
    `${V1}/manifest.json`,
    `${V1}/build.json`,
    `${V1}/public/data/api/v1/specialties.json`,
    '/manifest.json',
    '/build.json',
    '/private/keyed/index.json',
    '/public/data/api/v1/specialties.json',
    '/builds/manifest.json',
    '/current/manifest.json',
    '/data/api/v1/../../../../../../etc/passwd',
    '/data/api/v1/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
  ];

  it.each(probes.map((p) => [p.length > 120 ? `${p.slice(0, 60)}... (${p.length} chars)` : p, p]))('%s -> 400/404 with a JSON error', async (_label, p) => {
    for (const method of ['GET', 'HEAD']) {
      const r = await request(url, p, { method });
      expect(r.status, `${method} ${p.slice(0, 100)}`).toBeGreaterThanOrEqual(400);
      expect(r.status, `${method} ${p.slice(0, 100)}`).toBeLessThan(500);
      if (method === 'HEAD') continue;
      expectJsonError(r, [400, 404]);
      for (const s of secrets) expect(r.text, `${p.slice(0, 100)} leaks ${s}`).not.toContain(s);
      expect(r.text).not.toContain('root:');
    }
  });

  it('a path over 1,024 characters is refused with 400 even when it decodes to a feed', async () => {
    const r = await get(url, `${V1}/specialties.json?${'x'.repeat(10)}`);
    expect(r.status).toBe(200); // a query string is not part of the path
    const long = await get(url, `${V1}/${'%61'.repeat(400)}.json`);
    expectJsonError(long, 400);
  });
});
