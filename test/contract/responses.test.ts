/**
 * The committed OpenAPI documents (docs/openapi/) against REAL answers of the server over the golden
 * build: every path and every documented status of both APIs is requested, and each answer's body is
 * validated (Ajv, JSON Schema 2020-12) against the response schema of that status and content type, with
 * every documented response header present. The last test asserts that the (path, status) pairs exercised
 * cover each document, so a path or status added to a document without a test here fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { goldenBuildIn } from '../helpers/golden-build.ts';
import { request, type HttpResponse } from '../helpers/http.ts';
import { createKey, type TestKey } from '../helpers/keys.ts';
import { closeAfterAll, listen, startTestServer, type Listening } from '../helpers/server.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import type { RunningServer } from '../../server/main.ts';
import { createApp } from '../../server/app.ts';
import { BuildRegistry } from '../../server/builds/registry.ts';
import { PostgresServiceStore } from '../../server/store/postgres.ts';
import { generateKey } from '../../server/keyed/keys.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const readDoc = (name: string): Json => JSON.parse(readFileSync(join(process.cwd(), 'docs/openapi', name), 'utf8'));
const DOCS = { keyed: readDoc('keyed-api.json'), open: readDoc('open-data-api.json') } as const;
type Api = keyof typeof DOCS;
const PREFIX: Record<Api, string> = { keyed: '/api/v1', open: '/data/api/v1' };

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
for (const api of Object.keys(DOCS) as Api[]) ajv.addSchema({ ...DOCS[api], $id: `urn:physpay:${api}` }, `urn:physpay:${api}`);
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** the files of each release beside the feeds */
const RELEASE_FILES = ['/releases.json', '/datapackage.json', '/definitions.json', '/CITATION.cff', '/physpay-open-data.tar.gz', '/physpay-open-data.tar.gz.sha256'];
/** a file as a release published it (the golden build's release); no alias spellings, no slug to malform */
const RELEASE_FILE = '/releases/{release}/{path}';
/** (api, path template, status) pairs that were requested and validated */
const covered = new Set<string>();
/** Documented pairs no request can produce, with the reason. */
const UNREACHABLE: Record<string, string> = {};
for (const p of ['/specialties.json', '/states.json', '/residency/institutions.json', '/specialties.csv', '/specialty-states.csv', '/states.csv', '/specialty-offer-components.csv', '/residency/institutions.csv', '/residency/pgy-levels.csv', ...RELEASE_FILES]) {
  UNREACHABLE[`open ${p} 400`] = 'a fixed path has no segment to malform: any other path is another path (404 without a template)';
  UNREACHABLE[`open ${p} 404`] = 'a fixed path always names a file of every build';
}
UNREACHABLE['open /residency/pgy/{pgy}.json 400'] = 'a level is a number, not a name to decode: any other segment is a level no build has (404)';

/**
 * Validate one real answer against the document: the status is documented for the path, the content type
 * is the documented one, the body matches its schema, and the documented headers are present (Link only
 * when asked for: it is documented as present when an alias was used).
 */
function conforms(api: Api, template: string, r: HttpResponse, opts: { conditional?: string[]; method?: 'get' | 'post' } = {}): void {
  const what = `${api} ${template} ${r.status}`;
  const method = opts.method ?? 'get';
  const op = DOCS[api].paths[template]?.[method];
  expect(op, `${template} is not in the ${api} document`).toBeDefined();
  const doc = op.responses[String(r.status)];
  expect(doc, `${what} is not documented: ${r.text.slice(0, 200)}`).toBeDefined();
  for (const [name, h] of Object.entries(doc.headers ?? {}) as [string, Json][]) {
    if (name === 'Link' && !opts.conditional?.includes('Link')) continue;
    const v = r.headers[name.toLowerCase()];
    expect(v, `${what}: header ${name}`).toBeDefined();
    if (h.schema?.type === 'integer') expect(String(v), `${what}: header ${name} is an integer`).toMatch(/^\d+$/);
  }
  const content = doc.content as Json | undefined;
  if (!content) {
    expect(r.body.length, `${what} has no body`).toBe(0);
  } else {
    const type = String(r.headers['content-type'] ?? '').split(';')[0]!.trim();
    expect(Object.keys(content), `${what}: content type`).toContain(type);
    const validate = ajv.getSchema(`urn:physpay:${api}#/${pointer('paths', template, method, 'responses', String(r.status), 'content', type, 'schema')}`)!;
    expect(validate).toBeDefined();
    const body = type === 'application/json' ? r.json() : r.text;
    const ok = validate(body);
    expect(ok, `${what}: ${ajv.errorsText(validate.errors, { separator: '\n' })}\n${r.text.slice(0, 300)}`).toBe(true);
  }
  covered.add(what);
}

// ---- servers: one over the golden build (high limits), one with a 1-a-minute per-IP limit on the same
// build, one before any build, and a keyed app whose service store cannot be reached.

const work = useTempDir('contract');
const closeLater = closeAfterAll();
let main: RunningServer;
let limited: RunningServer;
let empty: RunningServer;
let storeDown: { http: Listening; registry: BuildRegistry; store: PostgresServiceStore; url: string };
const now = new Date('2026-12-01T12:00:00Z');
const clock = () => now;
const keys = {} as Record<'starter' | 'professional' | 'enterprise' | 'suspended' | 'spent', TestKey>;
let institution: string;

beforeAll(async () => {
  const { dist } = goldenBuildIn(work.path);
  main = closeLater(await startTestServer(dist, join(work.path, 'service.db'), { clock, ipLimits: { perMinute: 1e6, perDay: 1e7 } }));
  limited = closeLater(await startTestServer(dist, join(work.path, 'limited.db'), { clock, ipLimits: { perMinute: 1, perDay: 1e7 } }));
  empty = closeLater(await startTestServer(join(work.path, 'nothing'), join(work.path, 'empty.db'), { clock, ipLimits: { perMinute: 1e6, perDay: 1e7 } }));
  expect(main.registry.current).not.toBeNull();
  expect(empty.registry.current).toBeNull();
  for (const plan of ['starter', 'professional', 'enterprise'] as const) keys[plan] = await createKey(main.store, plan);
  keys.suspended = await createKey(main.store, 'professional', 'suspended');
  keys.spent = await createKey(main.store, 'starter');
  for (let i = 0; i < 100; i++) await main.store.hitQuota(keys.spent.id, { day: '2026-12-01', month: '2026-12' }, { daily: 100, monthly: 3000 });
  // a PostgreSQL service store on a port nobody listens on
  const store = new PostgresServiceStore('postgres://postgres@127.0.0.1:9/none', 2);
  const registry = new BuildRegistry(dist, {});
  await registry.start(60_000);
  const http = await listen(createApp({ registry, store, clock }).listener);
  storeDown = { http, registry, store, url: http.url };
  const inst = (await request(main.url, '/data/api/v1/residency/institutions.json')).json<{ institutions: { institution: { slug: string } }[] }>();
  institution = inst.institutions[0]!.institution.slug;
}, 60_000);

afterAll(async () => {
  if (storeDown) {
    storeDown.registry.stop();
    await storeDown.http.close();
    await storeDown.store.close();
  }
});

describe('the served documents are the committed ones', () => {
  it('GET /api/v1/openapi.json and /data/api/v1/openapi.json', async () => {
    for (const api of Object.keys(DOCS) as Api[]) {
      const r = await request(main.url, `${PREFIX[api]}/openapi.json`);
      expect(r.status, `${PREFIX[api]}/openapi.json`).toBe(200);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(r.headers['access-control-allow-origin']).toBe('*');
      expect(r.json()).toEqual(DOCS[api]);
    }
    // the open data contract does not need a build, and the feed schemas are served at their $id
    expect((await request(empty.url, '/data/api/v1/openapi.json')).json()).toEqual(DOCS.open);
    for (const kind of ['specialties', 'specialty', 'specialtyState', 'states', 'state', 'wrvu', 'institutions', 'institution', 'stateInstitutions', 'residencyLevel', 'comparison']) {
      const committed = JSON.parse(readFileSync(join(process.cwd(), 'docs/schemas', `${kind}.schema.json`), 'utf8'));
      const r = await request(main.url, committed.$id);
      expect(r.status, committed.$id).toBe(200);
      expect(r.json()).toEqual(committed);
    }
  });
});

// ---------------------------------------------------------------- open data API (B)

const openPaths = () => ({
  '/specialties.json': { ok: '/specialties.json', alias: null, bad: null, unknown: null },
  '/specialties/{slug}.json': { ok: '/specialties/cardiology.json', alias: '/specialties/CARDIOLOGY.json', bad: '/specialties/%E0%A4%A.json', unknown: '/specialties/cardiolgy.json' },
  '/specialties/{slug}/states/{state}.json': { ok: '/specialties/cardiology/states/texas.json', alias: '/specialties/cardiology/states/TX.json', bad: '/specialties/cardiology/states/%zz.json', unknown: '/specialties/cardiology/states/texsa.json' },
  '/states.json': { ok: '/states.json', alias: null, bad: null, unknown: null },
  '/states/{state}.json': { ok: '/states/new-york.json', alias: '/states/ny.json', bad: '/states/..%2Fstates.json', unknown: '/states/new-yrok.json' },
  '/wrvu/{slug}.json': { ok: '/wrvu/family-medicine.json', alias: '/wrvu/Family-Medicine.json', bad: '/wrvu/%00.json', unknown: '/wrvu/famliy-medicine.json' },
  '/residency/institutions.json': { ok: '/residency/institutions.json', alias: null, bad: null, unknown: null },
  '/specialties.csv': { ok: '/specialties.csv', alias: null, bad: null, unknown: null },
  '/specialty-states.csv': { ok: '/specialty-states.csv', alias: null, bad: null, unknown: null },
  '/states.csv': { ok: '/states.csv', alias: null, bad: null, unknown: null },
  '/specialty-offer-components.csv': { ok: '/specialty-offer-components.csv', alias: null, bad: null, unknown: null },
  '/residency/institutions.csv': { ok: '/residency/institutions.csv', alias: null, bad: null, unknown: null },
  '/residency/pgy-levels.csv': { ok: '/residency/pgy-levels.csv', alias: null, bad: null, unknown: null },
  '/residency/pgy/{pgy}.json': { ok: '/residency/pgy/3.json', alias: null, bad: null, unknown: null },
  '/residency/institutions/{slug}.json': { ok: `/residency/institutions/${institution}.json`, alias: `/residency/institutions/${institution.toUpperCase()}.json`, bad: '/residency/institutions/a%5Cb.json', unknown: '/residency/institutions/no-such-hospital.json' },
  '/residency/states/{state}.json': { ok: '/residency/states/texas.json', alias: '/residency/states/TX.json', bad: '/residency/states/%zz.json', unknown: '/residency/states/texsa.json' },
  '/compare/{slug}/{other}.json': { ok: '/compare/cardiology/family-medicine.json', alias: '/compare/CARDIOLOGY/fm.json', bad: '/compare/%zz/family-medicine.json', unknown: '/compare/cardiology/famliy-medicine.json' },
  '/compare/{slug}/{other}/states/{state}.json': { ok: '/compare/cardiology/family-medicine/states/texas.json', alias: '/compare/cardiology/family-medicine/states/tx.json', bad: '/compare/cardiology/family-medicine/states/%zz.json', unknown: '/compare/cardiology/family-medicine/states/texsa.json' },
  ...Object.fromEntries(RELEASE_FILES.map((p) => [p, { ok: p, alias: null, bad: null, unknown: null }])),
  [RELEASE_FILE]: { ok: '/releases/2026-11-16/specialties.json', alias: null, bad: null, unknown: null },
}) as Record<string, { ok: string; alias: string | null; bad: string | null; unknown: string | null }>;

describe('open data API: every path, every status', () => {
  it('documents exactly the feed paths the server routes', () => {
    expect(Object.keys(DOCS.open.paths).sort()).toEqual(Object.keys(openPaths()).sort());
  });

  it('200 (canonical and alias with Link), 304 with the ETag', async () => {
    for (const [template, p] of Object.entries(openPaths())) {
      const r = await request(main.url, `/data/api/v1${p.ok}`);
      expect(r.status, p.ok).toBe(200);
      expect(r.headers.link, p.ok).toBeUndefined();
      conforms('open', template, r);
      if (p.alias) {
        const a = await request(main.url, `/data/api/v1${p.alias}`);
        expect(a.status, p.alias).toBe(200);
        expect(a.headers.etag).toBe(r.headers.etag);
        expect(a.headers.link).toMatch(/^<https:\/\/physpay\.example\/data\/api\/v1\/.+>; rel="canonical"$/);
        conforms('open', template, a, { conditional: ['Link'] });
      }
      const nm = await request(main.url, `/data/api/v1${p.ok}`, { headers: { 'if-none-match': String(r.headers.etag) } });
      expect(nm.status, p.ok).toBe(304);
      expect(nm.headers.etag).toBe(r.headers.etag);
      conforms('open', template, nm);
    }
  });

  it('400 malformed path, 404 unknown slug with close matches, 405 other methods', async () => {
    for (const [template, p] of Object.entries(openPaths())) {
      if (p.bad) {
        const r = await request(main.url, `/data/api/v1${p.bad}`);
        expect(r.status, p.bad).toBe(400);
        conforms('open', template, r);
      }
      if (p.unknown) {
        const r = await request(main.url, `/data/api/v1${p.unknown}`);
        expect(r.status, p.unknown).toBe(404);
        expect((r.json().did_you_mean as unknown[]).length, p.unknown).toBeGreaterThan(0);
        conforms('open', template, r);
      }
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const r = await request(main.url, `/data/api/v1${p.ok}`, { method });
        expect(r.status, `${method} ${p.ok}`).toBe(405);
        expect(r.headers.allow).toBe('GET, HEAD, OPTIONS');
        conforms('open', template, r);
      }
    }
  });

  it('a PGY level no scale has: 404 naming the feeds', async () => {
    const r = await request(main.url, '/data/api/v1/residency/pgy/99.json');
    expect(r.status).toBe(404);
    expect(r.json().feeds).toContain('/data/api/v1/residency/pgy/{pgy}.json');
    conforms('open', '/residency/pgy/{pgy}.json', r);
  });

  it('a release that is not kept: 404 naming the kept releases', async () => {
    const r = await request(main.url, '/data/api/v1/releases/1999-01-01/specialties.json');
    expect(r.status).toBe(404);
    expect(r.json().kept).toEqual(['2026-11-16']);
    conforms('open', RELEASE_FILE, r);
  });

  it('429 past the per-IP limit (with Retry-After and the RateLimit fields), 503 before any build', async () => {
    const paths = Object.entries(openPaths());
    expect((await request(limited.url, `/data/api/v1${paths[0]![1].ok}`)).status).toBe(200);
    for (const [template, p] of paths) {
      const r = await request(limited.url, `/data/api/v1${p.ok}`);
      expect(r.status, p.ok).toBe(429);
      conforms('open', template, r);
      const e = await request(empty.url, `/data/api/v1${p.ok}`);
      expect(e.status, p.ok).toBe(503);
      conforms('open', template, e);
    }
  });
});

// ---------------------------------------------------------------- keyed API (A)

const k = (name: keyof typeof keys) => ({ 'x-api-key': keys[name].key });
const getKeyed = (base: string, path: string, headers: Record<string, string> = {}) => request(base, `/api/v1${path}`, { headers });
const template = (path: string) => path.split('?')[0]!;

describe('keyed API: every path, every status', () => {
  it('200 on every endpoint, every plan, every scope', async () => {
    const cases: [string, keyof typeof keys][] = [];
    for (const plan of ['starter', 'professional', 'enterprise'] as const) {
      cases.push(
        ['/specialties', plan],
        ['/available-data?specialty=Cardiology', plan],
        ['/available-data?specialty=Cardiology&state=Texas', plan],
        ['/available-data?specialty=family%20medicine&region=West', plan],
        ['/benchmarks?specialty=Cardiology', plan],
        ['/benchmarks?specialty=Cardiology&state=Texas', plan],
        ['/benchmarks?specialty=Family%20Medicine&region=Northeast&practice_setting=hospital%20employed', plan],
        ['/benchmarks?specialty=Family%20Medicine&state=California&employment_type=full-time%20(w-2)', plan],
        ['/me/usage', plan],
        ['/percentile-rank?specialty=Cardiology&compensation=450000', plan],
        ['/percentile-rank?specialty=Family%20Medicine&state=California&compensation=310000.50&practice_setting=academic', plan],
        // small cells (disclosure control): counts below 5 null, years empty, no P10/P90 below 15, the approximate interval below 9
        ['/available-data?specialty=Family%20Medicine&state=Alabama', plan],
        ['/benchmarks?specialty=Family%20Medicine&state=Alabama', plan],
        ['/benchmarks?specialty=Allergy%20and%20Immunology', plan],
        ['/percentile-rank?specialty=Family%20Medicine&state=Florida&compensation=250000', plan],
        ['/offer-check?specialty=Cardiology&base_salary=450000', plan],
        ['/offer-check?specialty=Family%20Medicine&state=California&base_salary=240000&bonus=20000&call_pay=10000&signing_bonus=25000&loan_repayment=50000&hours_per_week=32&wrvus=4800&compensation_model=production&pto_weeks=5&non_compete_miles=20&non_compete_years=1', plan],
        ['/offer-check?specialty=Family%20Medicine&state=Wyoming&base_salary=240000', plan],
      );
    }
    cases.push(['/percentile-rank?specialty=Cardiology&region=South&compensation=450000&fte=true', 'professional']);
    cases.push(['/available-data?specialty=Cardiology&practice_setting=Academic&year_start=2023&year_end=2025', 'enterprise']);
    cases.push(['/benchmarks?specialty=Cardiology&state=Texas&year_start=2022&year_end=2025', 'enterprise'], ['/me/usage', 'suspended'], ['/me/usage', 'spent']);
    const answers = new Map<string, Json>();
    for (const [path, key] of cases) {
      const r = await getKeyed(main.url, path, k(key));
      expect(r.status, `${key} ${path}: ${r.text.slice(0, 200)}`).toBe(200);
      conforms('keyed', template(path), r);
      answers.set(`${key} ${path}`, r.json());
    }
    // the small-cell answers validated above really have the withheld shapes
    const data = (key: string, path: string) => answers.get(`${key} ${path}`)!;
    expect(data('starter', '/specialties').specialties.some((s: Json) => s.sample_size === null && !s.publishable)).toBe(true);
    expect(data('starter', '/available-data?specialty=Family%20Medicine&state=Alabama').availability.state).toMatchObject({ n: null, years: [], publishable: false });
    const thin = data('professional', '/benchmarks?specialty=Family%20Medicine&state=Alabama').data;
    expect(thin.scopes.state).toMatchObject({ n: null, percentiles: null, mean: null });
    expect(thin.trending.some((r: Json) => r.n === null)).toBe(true);
    const six = data('starter', '/benchmarks?specialty=Allergy%20and%20Immunology').data;
    expect([six.percentiles.p10, six.percentiles.p90, six.confidence.confidence_interval_95.method]).toEqual([null, null, 'approximate']);
    expect(data('starter', '/benchmarks?specialty=Cardiology').data.confidence.confidence_interval_95.method).toBe('order_statistics');
    // the whole offer in the answers validated above: Professional and Enterprise only, figures where enough
    // reports answered, nulls where not (a year range's too)
    expect(six.components).toBeUndefined();
    for (const [key, path] of [['professional', '/benchmarks?specialty=Cardiology'], ['enterprise', '/benchmarks?specialty=Cardiology&state=Texas&year_start=2022&year_end=2025']]) {
      const c = data(key!, path!).data.components;
      expect(c.call_pay.answered, path).toBeGreaterThanOrEqual(5);
      expect(c.compensation_models.models.map((m: Json) => m.model)).toEqual(['salary', 'salary_plus_productivity', 'production', 'collections', 'shift']);
    }
    const thinOffer = data('professional', '/benchmarks?specialty=Allergy%20and%20Immunology').data.components;
    expect(Object.values(thinOffer).some((v) => (v as Json).n_with === null)).toBe(true);
    const fl = data('starter', '/percentile-rank?specialty=Family%20Medicine&state=Florida&compensation=250000').data;
    expect([fl.percentiles.p10, fl.percentiles.p90]).toEqual([null, null]);
  });

  it('400, 401, 403, 404, 429 with their bodies and headers', async () => {
    const cases: [string, Record<string, string>, number][] = [
      ['/specialties?page=2', k('starter'), 400],
      ['/available-data?specialty=Cardiology&state=TX', k('starter'), 400],
      ['/benchmarks?specialty=Cardiolgy', k('starter'), 400],
      ['/benchmarks?specialty=Cardiology&practice_setting=Hospital', k('professional'), 400],
      ['/me/usage?verbose=1', k('starter'), 400],
      ['/benchmarks?specialty=Medical%20Genetics', k('starter'), 404],
      ['/benchmarks?specialty=Cardiology&year_start=2022', k('professional'), 403],
      ['/percentile-rank?specialty=Cardiology&compensation=lots', k('starter'), 400],
      ['/percentile-rank?specialty=Medical%20Genetics&compensation=300000', k('starter'), 404],
      ['/percentile-rank?specialty=Cardiology&compensation=300000&fte=true', k('starter'), 403],
      ['/offer-check?specialty=Cardiology&base_salary=400%2C000', k('starter'), 400],
      ['/offer-check?specialty=Medical%20Genetics&base_salary=300000', k('starter'), 404],
    ];
    for (const path of ['/specialties', '/available-data?specialty=Cardiology', '/benchmarks?specialty=Cardiology', '/percentile-rank?specialty=Cardiology&compensation=300000', '/offer-check?specialty=Cardiology&base_salary=300000', '/me/usage']) {
      cases.push([path, {}, 401], [path, { 'x-api-key': generateKey() }, 401]);
      if (path !== '/me/usage') cases.push([path, k('suspended'), 403], [path, k('spent'), 429]);
    }
    for (const [path, headers, status] of cases) {
      const r = await getKeyed(main.url, path, headers);
      expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(status);
      conforms('keyed', template(path), r);
    }
  });

  it('self-service: usage history (200, 400, 401) and key rotation (200, 400, 401)', async () => {
    for (const [path, headers, status] of [
      ['/me/usage/history', k('starter'), 200],
      ['/me/usage/history?days=7', k('suspended'), 200],
      ['/me/usage/history?days=1', k('spent'), 200],
      ['/me/usage/history?days=0', k('starter'), 400],
      ['/me/usage/history?day=3', k('starter'), 400],
      ['/me/usage/history', {}, 401],
      ['/me/usage/history', { 'x-api-key': generateKey() }, 401],
    ] as [string, Record<string, string>, number][]) {
      const r = await getKeyed(main.url, path, headers);
      expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(status);
      conforms('keyed', template(path), r);
    }
    const own = await createKey(main.store, 'professional');
    for (const [path, headers, status] of [
      ['/me/key/rotate?x=1', { 'x-api-key': own.key }, 400],
      ['/me/key/rotate', {}, 401],
      ['/me/key/rotate', { 'x-api-key': generateKey() }, 401],
      ['/me/key/rotate', { 'x-api-key': own.key }, 200],
      ['/me/key/rotate', { 'x-api-key': own.key }, 401], // revoked by the rotation just before
    ] as [string, Record<string, string>, number][]) {
      const r = await request(main.url, `/api/v1${path}`, { method: 'POST', headers });
      expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(status);
      conforms('keyed', template(path), r, { method: 'post' });
    }
  });

  it('self-service: connected assistants (200, 400, 401) and disconnecting one (200, 400, 401, 404)', async () => {
    const own = await createKey(main.store, 'starter');
    await main.store.registerOAuthClient({ client_id: 'contract-client', client_name: 'Contract test', redirect_uris: ['http://127.0.0.1:9/cb'], created_at: '2026-11-01T00:00:00.000Z' });
    await main.store.saveOAuthTokens([{ token_hash: 'contract-hash', kind: 'refresh', grant_id: 'contract-grant', client_id: 'contract-client', key_id: own.id, resource: 'http://x/mcp', sealed: 'x', expires_at: '2099-01-01T00:00:00.000Z' }]);
    for (const [path, headers, status] of [
      ['/me/assistants', { 'x-api-key': own.key }, 200],
      ['/me/assistants', k('suspended'), 200],
      ['/me/assistants?x=1', { 'x-api-key': own.key }, 400],
      ['/me/assistants', {}, 401],
    ] as [string, Record<string, string>, number][]) {
      const r = await getKeyed(main.url, path, headers);
      expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(status);
      conforms('keyed', template(path), r);
    }
    expect((await getKeyed(main.url, '/me/assistants', { 'x-api-key': own.key })).json<{ assistants: { id: string }[] }>().assistants.map((a) => a.id)).toEqual(['contract-grant']);
    for (const [path, headers, status] of [
      ['/me/assistants/disconnect', { 'x-api-key': own.key }, 400],
      ['/me/assistants/disconnect?id=contract-grant', {}, 401],
      ['/me/assistants/disconnect?id=contract-grant', k('starter'), 404], // another key's
      ['/me/assistants/disconnect?id=contract-grant', { 'x-api-key': own.key }, 200],
      ['/me/assistants/disconnect?id=contract-grant', { 'x-api-key': own.key }, 404], // gone already
    ] as [string, Record<string, string>, number][]) {
      const r = await request(main.url, `/api/v1${path}`, { method: 'POST', headers });
      expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(status);
      conforms('keyed', template(path), r, { method: 'post' });
    }
  });

  it('503: no build loaded (counted endpoints), service store unreachable (all)', async () => {
    const key = await createKey(empty.store, 'starter');
    for (const path of ['/specialties', '/available-data?specialty=Cardiology', '/benchmarks?specialty=Cardiology', '/percentile-rank?specialty=Cardiology&compensation=300000', '/offer-check?specialty=Cardiology&base_salary=300000']) {
      const r = await getKeyed(empty.url, path, { 'x-api-key': key.key });
      expect(r.status, path).toBe(503);
      conforms('keyed', template(path), r);
    }
    for (const path of ['/specialties', '/available-data?specialty=Cardiology', '/benchmarks?specialty=Cardiology', '/percentile-rank?specialty=Cardiology&compensation=300000', '/offer-check?specialty=Cardiology&base_salary=300000', '/me/usage', '/me/usage/history']) {
      const r = await getKeyed(storeDown.url, path, { 'x-api-key': generateKey() });
      expect(r.status, path).toBe(503);
      conforms('keyed', template(path), r);
    }
    const rotated = await request(storeDown.url, '/api/v1/me/key/rotate', { method: 'POST', headers: { 'x-api-key': generateKey() } });
    expect(rotated.status).toBe(503);
    conforms('keyed', '/me/key/rotate', rotated, { method: 'post' });
    const listed = await getKeyed(storeDown.url, '/me/assistants', { 'x-api-key': generateKey() });
    expect(listed.status).toBe(503);
    conforms('keyed', '/me/assistants', listed);
    const disconnected = await request(storeDown.url, '/api/v1/me/assistants/disconnect?id=x', { method: 'POST', headers: { 'x-api-key': generateKey() } });
    expect(disconnected.status).toBe(503);
    conforms('keyed', '/me/assistants/disconnect', disconnected, { method: 'post' });
  });
});

describe('coverage', () => {
  it('every documented (path, status) of both documents was exercised (or is listed as unreachable with a reason)', () => {
    const documented = new Set<string>();
    for (const api of Object.keys(DOCS) as Api[]) {
      for (const [path, item] of Object.entries(DOCS[api].paths as Json)) {
        // one method per path (GET, or POST for the key rotation): the pairs below need not name it
        expect(Object.keys(item), `${api} ${path}: one method`).toHaveLength(1);
        const op = item.get ?? item.post;
        expect(op, `${api} ${path}: GET or POST`).toBeDefined();
        for (const status of Object.keys(op.responses)) documented.add(`${api} ${path} ${status}`);
      }
    }
    const missing = [...documented].filter((c) => !covered.has(c) && !UNREACHABLE[c]);
    expect(missing, 'documented but never requested: add a request to this file').toEqual([]);
    expect([...covered].filter((c) => !documented.has(c))).toEqual([]);
    expect(Object.keys(UNREACHABLE).filter((c) => covered.has(c) || !documented.has(c)), 'stale UNREACHABLE entries').toEqual([]);
  });
});
