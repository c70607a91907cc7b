/**
 * The pure parts of `physpay export`: the plan check, the four manifest formats (_headers, _redirects,
 * s3-metadata.json, nginx.conf) with their escaping, and the alias redirects derived from the resolver.
 * The end-to-end comparison with physpay serve is static-export.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { CORS_HEADERS } from '../../server/http/cors.ts';
import { buildResolver } from '../../server/open-data/resolve.ts';
import { aliasRedirects, aliasSegments } from '../../server/export/aliases.ts';
import { headersFile, redirectsFile } from '../../server/export/netlify.ts';
import { ifNoneMatchRegex, nginxConf, nginxQuote } from '../../server/export/nginx.ts';
import { checkPlan, encodePath, ExportPlanError, sharedHeaders, type ExportFile, type ExportPlan } from '../../server/export/plan.ts';
import { S3Metadata, s3Key, s3Metadata, s3MetadataFile } from '../../server/export/s3.ts';
import { manifests } from '../../server/export/manifests.ts';

const BUILD = '20261116T030000000Z-1e48144948';
const file = (urlPath: string, over: Partial<ExportFile> = {}): ExportFile => ({
  urlPath,
  file: urlPath === '/' ? 'index.html' : urlPath.endsWith('.json') ? urlPath.slice(1) : `${urlPath.slice(1)}.html`,
  contentType: urlPath.endsWith('.json') ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
  etag: `"${urlPath.length.toString(16).padStart(32, '0')}-20261123"`,
  cacheControl: 'public, max-age=3600',
  build: BUILD,
  bytes: 10,
  ...over,
});

const PLAN: ExportPlan = {
  files: [
    file('/'),
    file('/states/texas'),
    file('/data/api/v1/states/texas.json'),
    file('/data/api/v1/openapi.json', { build: null, etag: '"abcDEF_-12"' }),
  ],
  redirects: [
    { from: '/data/api/v1/states/TX.json', to: '/data/api/v1/states/texas.json' },
    { from: '/states/TX', to: '/states/texas' },
  ],
};

/** _headers parsed back: path -> [name, value][] */
function parseHeaders(text: string): Map<string, [string, string][]> {
  const rules = new Map<string, [string, string][]>();
  let current: [string, string][] | null = null;
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    if (!line.startsWith(' ')) {
      current = [];
      rules.set(line, current);
      continue;
    }
    const m = /^ {2}([\w-]+): (.*)$/.exec(line);
    expect(m, `header line ${JSON.stringify(line)}`).not.toBeNull();
    current!.push([m![1]!, m![2]!]);
  }
  return rules;
}

describe('checkPlan', () => {
  it('accepts a clean plan and returns it', () => {
    expect(checkPlan(PLAN)).toBe(PLAN);
  });

  it.each<[string, ExportPlan, RegExp]>([
    ['a URL served twice', { files: [file('/a'), file('/a', { file: 'b.html' })], redirects: [] }, /two files answer the URL path \/a/],
    ['two URLs in one file', { files: [file('/a'), file('/b', { file: 'a.html' })], redirects: [] }, /same file a\.html/],
    ['a file outside the root', { files: [file('/a', { file: '../a.html' })], redirects: [] }, /not a clean relative path/],
    ['an absolute file name', { files: [file('/a', { file: '/etc/a' })], redirects: [] }, /not a clean relative path/],
    ['a file at a manifest name', { files: [file('/_headers', { file: '_headers' })], redirects: [] }, /named _headers, the name of a manifest/],
    ['a weak ETag', { files: [file('/a', { etag: 'W/"x"' })], redirects: [] }, /not a strong ETag/],
    ['a control character in a header', { files: [file('/a', { contentType: 'text/html\r\nX-Evil: 1' })], redirects: [] }, /Content-Type of \/a holds a control character/],
    ['a newline in a URL', { files: [file('/a\nb')], redirects: [] }, /not an absolute path without control characters/],
    ['a redirect from a file', { files: [file('/a')], redirects: [{ from: '/a', to: '/b' }] }, /\/a is both a file and a redirect/],
    ['two redirects from one path', { files: [], redirects: [{ from: '/a', to: '/b' }, { from: '/a', to: '/c' }] }, /two redirects from \/a/],
  ])('refuses %s', (_what, plan, message) => {
    expect(() => checkPlan(plan)).toThrow(ExportPlanError);
    expect(() => checkPlan(plan)).toThrow(message);
  });
});

describe('encodePath', () => {
  it('keeps plain paths and percent-encodes the rest, placeholders and splats included', () => {
    expect(encodePath('/data/api/v1/states/texas.json')).toBe('/data/api/v1/states/texas.json');
    expect(encodePath('/a b/:slug/*')).toBe('/a%20b/%3Aslug/%2A');
    expect(encodePath('/caf\u00e9%')).toBe('/caf%C3%A9%25');
  });
});

describe('_headers', () => {
  const rules = parseHeaders(headersFile(PLAN));

  it('puts the headers every URL shares under one /* rule first', () => {
    expect([...rules.keys()][0]).toBe('/*');
    expect(rules.get('/*')).toEqual([
      ['Cache-Control', 'public, max-age=3600'],
      ['Access-Control-Allow-Origin', CORS_HEADERS['access-control-allow-origin']],
      ['Access-Control-Expose-Headers', CORS_HEADERS['access-control-expose-headers']],
      ['X-Content-Type-Options', 'nosniff'],
    ]);
  });

  it('gives each URL its own content type, ETag and build, and never repeats a shared header', () => {
    expect(rules.get('/states/texas')).toEqual([
      ['Content-Type', 'text/html; charset=utf-8'],
      ['ETag', PLAN.files[1]!.etag],
      ['X-PhysPay-Build', BUILD],
    ]);
    expect(rules.get('/data/api/v1/openapi.json')).toEqual([
      ['Content-Type', 'application/json; charset=utf-8'],
      ['ETag', '"abcDEF_-12"'],
    ]);
    expect([...rules.keys()].sort()).toEqual(['/', '/*', '/data/api/v1/openapi.json', '/data/api/v1/states/texas.json', '/states/texas']);
    const shared = new Set(rules.get('/*')!.map(([n]) => n));
    for (const [path, headers] of rules) if (path !== '/*') for (const [n] of headers) expect(shared.has(n), `${n} of ${path}`).toBe(false);
  });

  it('shares nothing the redirects do not send (the /* rule reaches them too)', () => {
    expect(sharedHeaders({ files: [file('/a')], redirects: [] }).map(([n]) => n)).toContain('X-PhysPay-Build');
    expect(sharedHeaders(PLAN).map(([n]) => n)).not.toContain('X-PhysPay-Build');
    expect(sharedHeaders({ files: [], redirects: [] })).toEqual([]);
  });

  it('writes paths percent-encoded', () => {
    const text = headersFile({ files: [file('/a:b c', { file: 'x.html' })], redirects: [] });
    expect(text).toContain('\n/a%3Ab%20c\n');
  });
});

describe('_redirects', () => {
  it('writes one "/from /to 301" line per alias after a comment', () => {
    const lines = redirectsFile(PLAN).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^# /);
    expect(lines.slice(1)).toEqual(['/data/api/v1/states/TX.json /data/api/v1/states/texas.json 301', '/states/TX /states/texas 301']);
  });

  it('percent-encodes spaces, placeholders and splats', () => {
    expect(redirectsFile({ files: [], redirects: [{ from: '/a b/:x', to: '/c*' }] })).toContain('\n/a%20b/%3Ax /c%2A 301\n');
  });
});

describe('s3-metadata.json', () => {
  const doc = s3Metadata(PLAN);

  it('keys objects by URL path without the slash; the root page is the index document', () => {
    expect(s3Key('/')).toBe('index.html');
    expect(s3Key('/salaries/cardiology')).toBe('salaries/cardiology');
    expect(Object.keys(doc.objects)).toEqual(['index.html', 'states/texas', 'data/api/v1/states/texas.json', 'data/api/v1/openapi.json', 'data/api/v1/states/TX.json', 'states/TX']);
  });

  it('gives each file its Body, ContentType, CacheControl and physpay ETag as metadata', () => {
    expect(doc.objects['states/texas']).toEqual({
      Body: 'states/texas.html',
      ContentType: 'text/html; charset=utf-8',
      CacheControl: 'public, max-age=3600',
      Metadata: { 'physpay-etag': PLAN.files[1]!.etag, 'physpay-build': BUILD },
    });
    expect(doc.objects['data/api/v1/openapi.json']).toMatchObject({ Metadata: { 'physpay-etag': '"abcDEF_-12"' } });
    expect(doc.build).toBe(BUILD);
  });

  it('writes redirects as WebsiteRedirectLocation objects', () => {
    expect(doc.objects['states/TX']).toEqual({ WebsiteRedirectLocation: '/states/texas', CacheControl: 'public, max-age=3600' });
  });

  it('carries the CORS rules and the headers S3 cannot send', () => {
    expect(doc.cors.CORSRules[0]).toMatchObject({ AllowedOrigins: ['*'], AllowedMethods: ['GET', 'HEAD'], MaxAgeSeconds: 86400 });
    expect(doc.cors.CORSRules[0]!.ExposeHeaders).toContain('ETag');
    expect(doc.response_headers).toEqual({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': CORS_HEADERS['access-control-expose-headers'],
      'X-Content-Type-Options': 'nosniff',
    });
  });

  it('is valid JSON that parses back to the same document', () => {
    expect(S3Metadata.parse(JSON.parse(s3MetadataFile(PLAN)))).toEqual(doc);
  });

  it('refuses two objects with one key', () => {
    expect(() => s3Metadata({ files: [file('/'), file('/index.html', { file: 'other.html' })], redirects: [] })).toThrow(/two objects would have the S3 key index\.html/);
  });
});

describe('nginx.conf', () => {
  const conf = nginxConf(PLAN);
  const block = (path: string) => {
    const start = conf.indexOf(`location = ${nginxQuote(path)} {`);
    expect(start, `location for ${path}`).toBeGreaterThanOrEqual(0);
    return conf.slice(start, conf.indexOf('\n}\n', start) + 2);
  };

  it('sets the shared header values once and serves each file at its exact URL with its own headers', () => {
    expect(conf).toContain(`set $physpay_access_control_expose_headers ${nginxQuote(CORS_HEADERS['access-control-expose-headers'])};`);
    const b = block('/states/texas');
    expect(b).toContain("types { }\n    default_type 'text/html; charset=utf-8';");
    expect(b).toContain('etag off;');
    expect(b).toContain(`add_header ETag '${PLAN.files[1]!.etag}';`);
    expect(b).toContain('add_header Cache-Control $physpay_cache_control;');
    expect(b).toContain(`add_header X-PhysPay-Build '${BUILD}';`);
    expect(b).toContain("try_files '/states/texas.html' =404;");
    expect(b).toMatch(/if \(\$http_if_none_match ~ '.*'\) \{ return 304; \}/);
    expect(block('/data/api/v1/openapi.json')).not.toContain('X-PhysPay-Build');
  });

  it('redirects each alias with a relative 301', () => {
    expect(conf).toMatch(/^location = '\/states\/TX' \{ absolute_redirect off; add_header Cache-Control \$physpay_cache_control;.* return 301 '\/states\/texas'; \}$/m);
  });

  it('does not serve the manifests', () => {
    for (const name of ['_headers', '_redirects', 's3-metadata.json', 'nginx.conf']) expect(conf).toContain(`location = '/${name}' { return 404; }`);
  });

  it('quotes and escapes what it interpolates', () => {
    expect(nginxQuote("/it's\\here")).toBe("'/it\\'s\\\\here'");
    const odd = nginxConf({ files: [file("/it's", { file: "it's.html" })], redirects: [{ from: '/a;b', to: "/it's$x" }] });
    expect(odd).toContain("location = '/it\\'s' {");
    expect(odd).toContain("try_files '/it\\'s.html' =404;");
    expect(odd).toContain("location = '/a;b' {");
    expect(odd).toContain("return 301 '/it\\'s%24x';");
  });

  it('refuses a "$" where nginx would expand it, and control characters anywhere', () => {
    expect(() => nginxConf({ files: [file('/a', { file: '$a.html' })], redirects: [] })).toThrow(/nginx would read its "\$" as a variable/);
    expect(() => nginxConf({ files: [file('/a', { build: 'b$x' })], redirects: [] })).toThrow(/X-PhysPay-Build/);
    expect(() => nginxQuote('a\nb')).toThrow(/control character/);
  });

  it('answers 304 for the If-None-Match values physpay matches, and only those', () => {
    const etag = '"0123abc-20261123"';
    // the regex as nginx reads it: the single-quoted text with its escapes undone
    const quoted = nginxQuote(ifNoneMatchRegex(etag));
    const re = new RegExp(quoted.slice(1, -1).replace(/\\([\\'])/g, '$1'));
    for (const v of [etag, `W/${etag}`, `"x", ${etag}`, `${etag}, "y"`, ` ${etag} `, '*', ' * ']) expect(re.test(v), v).toBe(true);
    for (const v of ['"0123abc"', '"0123abc-20261124"', `"x${etag.slice(1)}`, '"x", "y"', '', '**']) expect(re.test(v), v).toBe(false);
  });
});

describe('manifests', () => {
  it('renders the four files from one checked plan', () => {
    expect(manifests(PLAN).map((m) => m.name)).toEqual(['_headers', '_redirects', 's3-metadata.json', 'nginx.conf']);
    expect(() => manifests({ files: [file('/a'), file('/a')], redirects: [] })).toThrow(ExportPlanError);
  });
});

describe('alias redirects', () => {
  const index = {
    specialties: [
      { slug: 'obstetrics-gynecology', name: 'Obstetrics & Gynecology', aliases: ['ob gyn', 'obgyn', 'obstetrics gynecology'] },
      { slug: 'cardiology', name: 'Cardiology', aliases: ['cardio', 'ob gyn'] },
    ],
    states: [
      { code: 'TX', name: 'Texas', slug: 'texas', region: 'South' },
      { code: 'NY', name: 'New York', slug: 'new-york', region: 'Northeast' },
    ],
  } as unknown as Parameters<typeof buildResolver>[0];
  const resolver = buildResolver(index, [{ slug: 'mercy-hospital-dallas', name: 'Mercy Hospital' }]);

  it('lists every known spelling with the slug it resolves to, a shared one for the first entity only', () => {
    expect(resolver.aliases('state')).toEqual([
      { spelling: 'Texas', slug: 'texas' },
      { spelling: 'TX', slug: 'texas' },
      { spelling: 'New York', slug: 'new-york' },
      { spelling: 'NY', slug: 'new-york' },
    ]);
    expect(resolver.aliases('specialty').filter((a) => a.spelling === 'ob gyn')).toEqual([{ spelling: 'ob gyn', slug: 'obstetrics-gynecology' }]);
    expect(resolver.aliases('institution')).toEqual([{ spelling: 'Mercy Hospital', slug: 'mercy-hospital-dallas' }]);
  });

  it('turns spellings into URL segments, leaving out the canonical slug in other letter cases', () => {
    expect(aliasSegments({ spelling: 'TX', slug: 'texas' })).toEqual(['TX', 'tx']);
    expect(aliasSegments({ spelling: 'ob gyn', slug: 'obstetrics-gynecology' })).toEqual(['ob-gyn']);
    expect(aliasSegments({ spelling: 'Obstetrics & Gynecology', slug: 'obstetrics-gynecology' })).toEqual(['obstetrics-and-gynecology']);
    expect(aliasSegments({ spelling: 'Texas', slug: 'texas' })).toEqual([]);
    expect(aliasSegments({ spelling: 'New York', slug: 'new-york' })).toEqual([]);
    expect(aliasSegments({ spelling: "St. Luke's", slug: 'st-lukes-boise' })).toEqual(['st-lukes']);
  });

  const files = new Set([
    '/data/api/v1/states/texas.json',
    '/data/api/v1/specialties/obstetrics-gynecology.json',
    '/data/api/v1/specialties/obstetrics-gynecology/states/texas.json',
    '/data/api/v1/residency/institutions/mercy-hospital-dallas.json',
    '/states/texas',
    '/salaries/cardiology',
    '/salaries/cardiology/texas',
    '/residency/mercy-hospital-dallas',
    // a file at an alias path is served as is, never redirected
    '/data/api/v1/states/tx.json',
  ]);
  const src = { has: (p: string) => files.has(p), resolve: resolver.resolve, aliases: resolver.aliases };
  const redirects = aliasRedirects(src, files);
  const to = (from: string) => redirects.find((r) => r.from === from)?.to;

  it('redirects feeds and pages from each alias to the canonical path, sorted', () => {
    expect(to('/data/api/v1/states/TX.json')).toBe('/data/api/v1/states/texas.json');
    expect(to('/states/TX')).toBe('/states/texas');
    expect(to('/states/tx')).toBe('/states/texas');
    expect(to('/data/api/v1/specialties/ob-gyn.json')).toBe('/data/api/v1/specialties/obstetrics-gynecology.json');
    expect(to('/data/api/v1/specialties/obstetrics-and-gynecology.json')).toBe('/data/api/v1/specialties/obstetrics-gynecology.json');
    expect(to('/salaries/cardio')).toBe('/salaries/cardiology');
    expect(to('/salaries/cardio/texas')).toBe('/salaries/cardiology/texas');
    expect(to('/salaries/cardiology/TX')).toBe('/salaries/cardiology/texas');
    expect(to('/residency/mercy-hospital')).toBe('/residency/mercy-hospital-dallas');
    expect(redirects.map((r) => r.from)).toEqual([...redirects.map((r) => r.from)].sort());
  });

  it('aliases one segment at a time, and never a file, a canonical path or a spelling of another entity', () => {
    expect(to('/data/api/v1/specialties/ob-gyn/states/TX.json')).toBeUndefined();
    expect(to('/data/api/v1/specialties/ob-gyn/states/texas.json')).toBe('/data/api/v1/specialties/obstetrics-gynecology/states/texas.json');
    expect(to('/data/api/v1/states/tx.json')).toBeUndefined();
    expect(to('/states/Texas')).toBeUndefined();
    expect(to('/salaries/ob-gyn')).toBeUndefined(); // "ob gyn" resolves to obstetrics-gynecology, which has no page here
    for (const r of redirects) expect(files.has(r.to), r.to).toBe(true);
    for (const r of redirects) expect(files.has(r.from), r.from).toBe(false);
  });
});
