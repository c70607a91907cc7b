/**
 * fast-check generators of bad (and some good) requests for the three interfaces. Every case is a small,
 * printable value: paths and header values are *byte strings* (one char per byte, latin1), so raw UTF-8,
 * overlong encodings and percent-escapes all travel exactly as generated; big bodies and values are
 * described (`BodySpec`) and only materialised when sent, so a failing case prints in a few lines.
 */
import fc from 'fast-check';
import http from 'node:http';

export type Target = 'open' | 'keyed' | 'mcp' | 'oauth' | 'other' | 'raw';

/** A request body: literal text, or `head + unit x count + tail` (huge bodies). */
export type BodySpec = { text: string } | { head: string; unit: string; count: number; tail: string };

export interface FuzzCase {
  target: Target;
  method: string;
  /** request target as bytes (latin1 string) */
  path: string;
  /** header values as bytes (latin1 strings) */
  headers: Record<string, string>;
  body?: BodySpec;
  /** send the body chunked (no Content-Length) */
  chunked?: boolean;
  /** raw socket: the whole request as bytes, sent as is (protocol-level garbage) */
  raw?: BodySpec;
}

/** The keys planted in the service store, used only in X-API-Key headers. */
export interface Known {
  keys: string[];
  institutions: string[];
  /** every feed and CSV path of the build (/data/api/v1/...) */
  feedPaths: string[];
  /** a client registered with the authorization server before the run, so cases reach past "unknown client" */
  oauthClient: { client_id: string; redirect_uri: string };
}

/** Unicode text -> its UTF-8 bytes as a latin1 string. */
export const bytes = (s: string) => Buffer.from(s, 'utf8').toString('latin1');

/**
 * Percent-encode the bytes a request line cannot carry (controls, space, DEL, and bytes >= 0x80, which
 * Node's parser refuses with a bare 400 before the app sees them: the raw cases send those).
 */
export const wireSafe = (b: string) => b.replace(/[\x00-\x20\x7f-\xff]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`);

/** Header values: no CR/LF/NUL or other controls (the client refuses them); everything else as bytes. */
export const headerSafe = (b: string) => b.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, '?');

const pct = (s: string) => bytes(s).replace(/[\s\S]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`);

// ---------------------------------------------------------------- building blocks

const NASTY_STRINGS = [
  '', ' ', '..', '.', '...', '/etc/passwd', '../../../../etc/passwd', '..\\..\\windows\\win.ini', '__proto__', 'constructor', 'prototype',
  'hasOwnProperty', 'toString', 'valueOf', "' OR 1=1 --", '"; DROP TABLE api_keys; --', "1' UNION SELECT key_hash FROM api_keys --",
  'NaN', 'Infinity', '-Infinity', '-0', '0', '1e309', '-1e309', '9007199254740993', '-2020', '0x7e4', '2020.5', ' 2020', '2020 ', '+2020',
  '99999999999999999999', 'null', 'undefined', 'true', '[]', '{}', '<script>alert(1)</script>', '${7*7}', '{{7*7}}', '%s%s%s%n',
  'cardiology', 'Cardiology', 'CARDIOLOGY', 'ob-gyn', 'OB/GYN', 'ent', 'texas', 'TX', 'tx', 'Texas', 'new-york', 'New York',
  'District of Columbia', 'South', 'Hospital Employed', 'Full-Time (W-2)', 'specialties', 'states', 'index', 'secret.txt',
  'private', 'public', 'current', 'manifest.json', 'build.json', 'keyed', '\u202eevil\u202c', 'مرحبا', 'שלום', '日本語', '🩺💉🏥',
  '👨‍👩‍👧‍👦', 'e\u0301', '\ufeffcardiology', '\u0000', '\u200bcardiology', 'ｃａｒｄｉｏｌｏｇｙ', 'İstanbul', 'ǅ', '\ud83d', 'a'.repeat(300),
];

const PCT_TRICKS = [
  '%00', '%2e%2e', '%2E%2E', '%2e', '%2f', '%2F', '%5c', '%5C', '%252e%252e', '%252f', '%25', '%', '%%', '%zz', '%e4%ff', '%C0%AE%C0%AE',
  '%C0%AF', '%E0%80%AF', '%F0%80%80%AF', '%ED%A0%80', '%FF%FE', '%c0%80', '..%2f', '%2e%2e%2f%2e%2e%2f', '..%5c..%5c', '%u002e%u002e',
  '%0a', '%0d%0a', '%09', '%20', '+', '%2B', '%3F', '%23', '%26', '%3D', '%7e', '%ef%bb%bf',
];

/** Raw byte sequences that are not valid UTF-8 (overlong dots and slashes, lone continuation bytes). */
const RAW_BYTES = ['\xc0\xae\xc0\xae', '\xc0\xaf', '\xe0\x80\xaf', '\xf0\x80\x80\xaf', '\xff\xfe', '\x80', '\xed\xa0\x80', '\xc3', '\xc3\xa9'];

const unicodeText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ maxLength: 12 }),
  fc.constantFrom(...NASTY_STRINGS),
);

/** One path segment, as wire bytes. */
export const segmentArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: unicodeText.map((s) => wireSafe(bytes(s))) },
  { weight: 3, arbitrary: unicodeText.map(pct) },
  { weight: 3, arbitrary: fc.array(fc.oneof(fc.constantFrom(...PCT_TRICKS), fc.constantFrom(...RAW_BYTES), unicodeText.map((s) => wireSafe(bytes(s)))), { minLength: 1, maxLength: 4 }).map((a) => a.join('')) },
  { weight: 1, arbitrary: fc.constantFrom('..', '.', '', '%2e%2e', '.%2e', '%2e.') },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 1500 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }).map((n) => '%F0%9F%A9%BA'.repeat(n * 100)) },
  { weight: 1, arbitrary: unicodeText.map((s) => pct(pct(s).replace(/%/g, '%')).replace(/%25/g, '%25')) }, // double-encoded
);

/** A path: a prefix (the interfaces and nearby), 0-6 segments, an optional suffix, slashes doubled now and then. */
function pathArb(prefixes: string[], suffixes = ['', '', '.json', '.csv', '/', '.json/', '.JSON', '.json%00', '.json.bak', '%2ejson']): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...prefixes), fc.array(segmentArb, { maxLength: 6 }), fc.constantFrom(...suffixes), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 2, max: 40 }))
    .map(([prefix, segs, suffix, slashMode, many]) => {
      const sep = slashMode === 0 ? '//' : slashMode === 1 ? '/'.repeat(many) : '/';
      const tail = segs.length ? `${sep}${segs.join(sep)}${suffix}` : suffix;
      return `${prefix}${tail}`;
    });
}

// ---------------------------------------------------------------- query strings

const PARAM_NAMES = [
  'specialty', 'state', 'region', 'year_start', 'year_end', 'practice_setting', 'employment_type', '__proto__', '__proto__[x]',
  'constructor', 'constructor[prototype][x]', 'prototype', 'a[b][c]', 'specialty[]', 'specialty[0]', 'specialty[__proto__]', 'toString',
  'hasOwnProperty', 'SPECIALTY', 'callback', 'format', 'fields', '', ' ', 'key', 'api_key', 'x-api-key',
];

const GOOD_VALUES = ['Cardiology', 'cardiology', 'Family Medicine', 'Texas', 'New York', 'South', 'West', '2020', '2024', 'Hospital Employed', 'Full-Time (W-2)', 'Private Practice'];

const valueArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...GOOD_VALUES) },
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.integer({ min: -100000, max: 100000 }).map(String) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 2, arbitrary: unicodeText },
  { weight: 1, arbitrary: fc.integer({ min: 150, max: 6000 }).map((n) => 'Cardiology '.repeat(Math.ceil(n / 11)).slice(0, n)) },
);

const encodeValue = fc.tuple(valueArb, fc.integer({ min: 0, max: 3 }), fc.constantFrom(...PCT_TRICKS)).map(([v, mode, trick]) =>
  mode === 0 ? wireSafe(bytes(v)) : mode === 1 ? pct(v) : mode === 2 ? encodeURIComponent(v.replace(/[\ud800-\udfff]/g, '')) : `${pct(v)}${trick}`);

/** A query string (without '?'): repeated and empty parameters, bracket syntax, 100 kB values now and then. */
export const queryArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 24, arbitrary: fc.array(fc.tuple(fc.constantFrom(...PARAM_NAMES), encodeValue, fc.integer({ min: 0, max: 9 })), { maxLength: 8 }).map((ps) =>
    ps.map(([k, v, m]) => (m === 0 ? encodeURIComponent(k) : m === 1 ? `${k}=` : m === 2 ? k : `${encodeURIComponent(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${v}`)).join('&')) },
  { weight: 2, arbitrary: fc.constantFrom('&&&', '=', '==', '&=&=', '?', '??x=1', 'specialty=Cardiology&specialty=Cardiology', 'specialty=Cardiology;state=Texas', '%', '%zz=%zz', 'a=%00', 'specialty=%E0%A4%A') },
  // Beyond Node's 16 kB request-head limit: refused with 431 before the application sees it.
  { weight: 1, arbitrary: fc.constantFrom(20_000, 100_000).map((n) => `specialty=${'A'.repeat(n)}`) },
);

// ---------------------------------------------------------------- headers

const keyLike = fc.oneof(
  fc.stringMatching(/^pcb_live_[0-9A-Za-z]{32}$/),
  fc.stringMatching(/^pcb_live_[0-9A-Za-z]{0,40}$/),
  fc.stringMatching(/^pcb_test_[0-9A-Za-z]{32}$/),
  fc.constantFrom('pcb_live_', 'Bearer pcb_live_00000000000000000000000000000000', 'null', 'undefined', '0', '-1', ' ', '*', "' OR 1=1 --"),
);

function apiKeyArb(known: Known): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...known.keys) },
    { weight: 1, arbitrary: fc.constantFrom(...known.keys).map((k) => ` ${k}\t`) },
    { weight: 1, arbitrary: fc.constantFrom(...known.keys).map((k) => k.toUpperCase()) },
    { weight: 1, arbitrary: fc.constantFrom(...known.keys).map((k) => k.slice(0, -1)) },
    { weight: 1, arbitrary: fc.constantFrom(...known.keys).map((k) => `${k},${k}`) },
    { weight: 3, arbitrary: keyLike },
    { weight: 1, arbitrary: unicodeText.map((s) => headerSafe(bytes(s))) },
    { weight: 1, arbitrary: fc.constantFrom(8_000, 30_000).map((n) => `pcb_live_${'A'.repeat(n)}`) },
    { weight: 2, arbitrary: fc.constant(undefined) },
  );
}

const inmArb = fc.oneof(
  fc.constantFrom('*', '""', '"', 'W/"', 'W/"x"', '"abc", W/"def"', ',,,,', 'null', '"\\"', '*, "x"', ' * '),
  fc.stringMatching(/^"[0-9a-f]{32}-2026120[01]"$/),
  unicodeText.map((s) => headerSafe(bytes(s))),
  fc.integer({ min: 100, max: 7000 }).map((n) => '"x",'.repeat(Math.ceil(n / 4))),
);

const acceptArb = fc.oneof(
  fc.constantFrom('*/*', 'application/json', 'text/event-stream', 'text/html', 'application/json;q=0', '', ';;;', 'application/*;q=NaN', 'image/png, */*;q=-1', 'application/json, text/event-stream'),
  unicodeText.map((s) => headerSafe(bytes(s))),
);

const ctypeArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  { weight: 3, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'application/json; charset=klingon', 'application/json; charset=utf-16', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '', 'application/json; charset', 'application/jsonx', 'APPLICATION/JSON', 'application/json;;;') },
  { weight: 1, arbitrary: unicodeText.map((s) => headerSafe(bytes(s))) },
);

function commonHeaders(): fc.Arbitrary<Record<string, string>> {
  return fc
    .record(
      {
        accept: acceptArb,
        'if-none-match': inmArb,
        'accept-encoding': fc.constantFrom('gzip', 'br, deflate', '*', 'identity;q=0', '🙃'.normalize()).map((s) => headerSafe(bytes(s))),
        'x-forwarded-for': fc.constantFrom('1.2.3.4', '::1', 'not an ip', '1.2.3.4, 5.6.7.8', '999.999.999.999', ''),
        origin: fc.constantFrom('https://evil.example', 'null', '*', '', 'https://physpay.example', 'HTTPS://PHYSPAY.EXAMPLE', 'https://physpay.example.evil.example', '\u00ff\u00fe'),
        'access-control-request-headers': fc.constantFrom('x-api-key', 'X-Evil\u00ff', 'a'.repeat(2000), 'content-type, if-none-match'),
        range: fc.constantFrom('bytes=0-10', 'bytes=-1', 'bytes=999999999-', 'bytes=a-b'),
        cookie: fc.constantFrom('a=b', '__proto__=1', 'x'.repeat(3000)),
        host: fc.constantFrom('localhost', 'evil.example', '', '127.0.0.1:1', '[::1]', '%00', 'a'.repeat(300), 'LOCALHOST', '127.0.0.1.', 'user@127.0.0.1', '127.0.0.1:99999', 'localhost:abc', '[', '127.0.0.1, evil.example', '\u00ff'),
        'x-http-method-override': fc.constantFrom('DELETE', 'PUT'),
        'mcp-protocol-version': fc.constantFrom('2025-06-18', 'garbage', '', '1999-01-01'),
        'mcp-session-id': fc.constantFrom('abc', '', '\u00ff'.repeat(5), 'x'.repeat(500)),
        'content-type': ctypeArb,
        // (other Expect values and Transfer-Encoding garbage are Node's business: the raw cases send them)
        expect: fc.constant('100-continue'),
        'content-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x-unknown', 'gzip, gzip'),
      },
      { requiredKeys: [] },
    )
    .chain((h) => fc.subarray(Object.keys(h), { maxLength: 3 }).map((keep) => Object.fromEntries(keep.map((k) => [k, h[k as keyof typeof h]!]))));
}

// Methods Node's parser knows (others, and CONNECT, are exercised by the raw cases).
const METHODS = http.METHODS.filter((m) => m !== 'CONNECT');
const methodArb = (getWeight: number) =>
  fc.oneof({ weight: getWeight, arbitrary: fc.constant('GET') }, { weight: 2, arbitrary: fc.constant('HEAD') }, { weight: 2, arbitrary: fc.constantFrom(...METHODS) });

// ---------------------------------------------------------------- the interfaces

export function openDataArb(known: Known): fc.Arbitrary<FuzzCase> {
  const prefixes = [
    '/data/api/v1', '/data/api/v1', '/data/api/v1/specialties', '/data/api/v1/specialties', '/data/api/v1/states', '/data/api/v1/wrvu',
    '/data/api/v1/residency', '/data/api/v1/residency/institutions', '/data/api/v1/specialties/cardiology/states',
    '/data/api/v1/schemas', '/data/api/v1/specialties/ob-gyn/states', '/data/api/v1/..', '/data/api/v1/%2e%2e', '/data/api/v1/./specialties',
  ];
  const good = [
    '/data/api/v1/specialties.json', '/data/api/v1/specialties/cardiology.json', '/data/api/v1/specialties/OBGYN.json', '/data/api/v1/states/tx.json',
    '/data/api/v1/states/New%20York.json', '/data/api/v1/wrvu/family-medicine.json', '/data/api/v1/specialties/cardiology/states/texas.json',
    '/data/api/v1/residency/institutions.json', '/data/api/v1/openapi.json', '/data/api/v1/schemas/specialty.schema.json', '/data/api/v1/schemas/__proto__.schema.json', '/data/api/v1/states.csv', '/data/api/v1/specialties.csv',
    ...known.institutions.slice(0, 3).map((s) => `/data/api/v1/residency/institutions/${s}.json`),
    '/data/api/v1/specialties/..%2f..%2f..%2fprivate%2fkeyed%2findex.json', '/data/api/v1/../../private/keyed/index.json', '/data/api/v1/secret.txt',
    '/data/api/v1/%2e%2e/%2e%2e/%2e%2e/secret.txt', '/data/api/v1/%252e%252e/secret.txt', '/data/api/v1/specialties/%00.json', '/data/api/v1/\\..\\..\\secret.txt',
    '/data/api/v1//specialties.json', '/data/api/v1/specialties.json/', '/data/api/v1/SPECIALTIES.JSON', '/data/api/v1/specialties/__proto__.json',
    '/data/api/v1/states/constructor.json', '/data/api/v1/wrvu/prototype.json', '/data/api/v1/residency/institutions/hasOwnProperty.json',
  ];
  const path = fc.oneof(
    { weight: 6, arbitrary: pathArb(prefixes) },
    { weight: 3, arbitrary: fc.constantFrom(...good) },
    { weight: 3, arbitrary: spelledFeedArb(known) },
    { weight: 1, arbitrary: fc.integer({ min: 900, max: 9000 }).map((n) => `/data/api/v1/specialties/${'a'.repeat(n)}.json`) },
  );
  return fc
    .record({ method: methodArb(12), path, query: fc.option(queryArb, { freq: 4 }), headers: commonHeaders() })
    .map(({ method, path, query, headers }) => ({ target: 'open' as const, method, path: wireSafe(query === null ? path : `${path}?${query}`), headers }));
}

/**
 * Every feed and CSV path of the build, spelled another way: characters percent-escaped (any case of hex),
 * slashes as %2f / %2F, doubled slashes, a letter-case change of a segment. Each must be served by the
 * open-data handler with its limit, or refused (the invariant checks the RateLimit fields on a 200).
 */
export function spelledFeedArb(known: Known): fc.Arbitrary<string> {
  const escape = (c: string, upper: boolean) => {
    const h = c.charCodeAt(0).toString(16).padStart(2, '0');
    return `%${upper ? h.toUpperCase() : h}`;
  };
  return fc
    .record({
      path: fc.constantFrom(...known.feedPaths),
      ops: fc.array(fc.record({ at: fc.nat(), op: fc.constantFrom('escape', 'escape-upper', 'slash-2f', 'slash-2F', 'double', 'upper') }), { minLength: 1, maxLength: 4 }),
    })
    .map(({ path, ops }) => {
      let chars = [...path];
      for (const { at, op } of ops) {
        const i = 1 + (at % (chars.length - 1)); // never the leading slash
        const c = chars[i]!;
        if (op === 'escape' || op === 'escape-upper') chars[i] = c.length === 1 ? escape(c, op === 'escape-upper') : c;
        else if (op === 'slash-2f' || op === 'slash-2F') chars[i] = c === '/' ? (op === 'slash-2f' ? '%2f' : '%2F') : c;
        else if (op === 'double') chars[i] = c === '/' ? '//' : c;
        else chars = chars.map((x, k) => (k <= i ? x.toUpperCase() : x));
      }
      return chars.join('');
    });
}

/**
 * Keyed queries that are nearly valid (a known specialty, plausible filters, one odd value now and then),
 * so the requests get past parameter checking into the benchmark computation.
 */
const nearlyValidQuery: fc.Arbitrary<string> = fc
  .record(
    {
      specialty: fc.oneof({ weight: 5, arbitrary: fc.constantFrom('Cardiology', 'family medicine', 'OB/GYN', 'Medical Genetics', 'Neurosurgery', 'Pediatrics', 'ent') }, { weight: 1, arbitrary: valueArb }),
      state: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('Texas', 'new york', 'District of Columbia', 'Wyoming', 'Alaska', 'TX') }, { weight: 1, arbitrary: valueArb }),
      region: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('Northeast', 'midwest', 'South', 'WEST') }, { weight: 1, arbitrary: valueArb }),
      year_start: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1985, max: 2105 }).map(String) }, { weight: 1, arbitrary: valueArb }),
      year_end: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1985, max: 2105 }).map(String) }, { weight: 1, arbitrary: valueArb }),
      practice_setting: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('Hospital Employed', 'private practice', 'Academic') }, { weight: 1, arbitrary: valueArb }),
      employment_type: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('Full-Time (W-2)', 'part-time (w-2)', 'Independent Contractor (1099)') }, { weight: 1, arbitrary: valueArb }),
    },
    { requiredKeys: ['specialty'] },
  )
  .map((q) => Object.entries(q).map(([k, v]) => `${k}=${encodeURIComponent(String(v).replace(/[\ud800-\udfff]/g, ''))}`).join('&'));

export function keyedArb(known: Known): fc.Arbitrary<FuzzCase> {
  const endpoints = ['/api/v1/benchmarks', '/api/v1/benchmarks', '/api/v1/benchmarks', '/api/v1/available-data', '/api/v1/available-data', '/api/v1/specialties', '/api/v1/me/usage', '/api/v1/openapi.json'];
  const path = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...endpoints) },
    { weight: 3, arbitrary: pathArb(['/api/v1', '/api/v1/benchmarks', '/api/v1/me', '/api', '/API/V1', '/api/v1/..', '/api/v2'], ['', '', '/', '.json', '%00', '%2f']) },
    { weight: 1, arbitrary: fc.constantFrom('/api/v1/%zz', '/api/v1/%E0%A4%A', '/api/v1/me/usage/%', '/api/v1/benchmarks%2f..%2f..%2fme%2fusage', '/api/v1/benchmarks/', '/api/v1//benchmarks', '/api/v1/BENCHMARKS', '/api/v1/me/usage/', '/api/v1/%2e%2e/%2e%2e/secret.txt') },
  );
  return fc
    .record({ method: methodArb(14), path, query: fc.option(fc.oneof({ weight: 3, arbitrary: queryArb }, { weight: 2, arbitrary: nearlyValidQuery }), { freq: 8, nil: null }), key: apiKeyArb(known), headers: commonHeaders() })
    .map(({ method, path, query, key, headers }) => {
      const h: Record<string, string> = { ...headers };
      if (key !== undefined) h['x-api-key'] = headerSafe(key);
      return { target: 'keyed' as const, method, path: wireSafe(query === null ? path : `${path}?${query}`), headers: h };
    });
}

// ---------------------------------------------------------------- MCP bodies

const TOOLS = ['list_specialties', 'get_specialty_pay', 'compare_specialties', 'get_wrvu_rate', 'get_resident_pay', 'evaluate_compensation', 'evaluate_offer'];
const ARG_NAMES = ['specialty', 'state', 'specialty_a', 'specialty_b', 'institution', '__proto__', 'constructor', 'prototype', 'toString', '', 'extra'];

/** JSON values with strings and numbers where the tools expect the other, including huge strings. */
const argValueArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...GOOD_VALUES, ...NASTY_STRINGS, 'TX', 'ny', 'OB/GYN', ...[] as string[]) },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(-0, 1e308, Number.MAX_SAFE_INTEGER + 2)) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, ['Cardiology'], { toString: 'x' }, { __proto__x: 1 }) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 50_000 }).map((n) => 'c'.repeat(n)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: unicodeText },
);

const argsArb = fc.oneof(
  { weight: 6, arbitrary: fc.dictionary(fc.constantFrom(...ARG_NAMES), argValueArb, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, [], 'Cardiology', 5, true, [{ specialty: 'Cardiology' }]) },
  { weight: 1, arbitrary: fc.object({ maxDepth: 2 }) },
);

const idArb = fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constantFrom<unknown>(null, {}, [], 1.5, -0, true, 'x'.repeat(300), 9007199254740993));

const initParams = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1.0.0' } };

/** One JSON-RPC message (as a JS value, serialised later), mostly tools/call. */
const messageArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ id: idArb, name: fc.oneof(fc.constantFrom(...TOOLS), fc.constantFrom('', '__proto__', 'constructor', 'toString', 'LIST_SPECIALTIES', 'list_specialties ', '../list_specialties'), fc.string({ maxLength: 20 }), fc.integer()), args: fc.option(argsArb, { nil: undefined }) })
    .map(({ id, name, args }) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: args === undefined ? { name } : { name, arguments: args } })) },
  { weight: 2, arbitrary: fc.record({ id: idArb, method: fc.constantFrom('tools/list', 'ping', 'initialize', 'resources/list', 'prompts/list', 'completion/complete', 'logging/setLevel', 'notifications/initialized', 'notifications/cancelled', '', '__proto__', 'constructor', 'tools/call/', 'rpc.discover') })
    .map(({ id, method }) => ({ jsonrpc: '2.0', id, method, ...(method === 'initialize' ? { params: initParams } : {}) })) },
  { weight: 1, arbitrary: fc.record({ method: fc.constantFrom('notifications/initialized', 'notifications/cancelled', 'notifications/progress') }).map(({ method }) => ({ jsonrpc: '2.0', method })) },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(
    { jsonrpc: '1.0', id: 1, method: 'tools/list' }, { id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: 1 }, { jsonrpc: '2.0', id: 1, result: {} },
    { jsonrpc: '2.0', id: 1, error: { code: 'x', message: 5 } }, { jsonrpc: '2.0', id: 1, method: 5 }, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: [] },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: 'list_specialties' }, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: null } },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_specialties', _meta: { progressToken: {} } } }, null, 1, 'x', [], true,
  ) },
  { weight: 1, arbitrary: fc.object({ maxDepth: 2 }) },
);

/** Deeply nested JSON: arrays (kind 0) or objects (kind 1). */
function deepJson(depth: number, kind: number): string {
  return kind === 0 ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Bodies: serialised messages and batches, malformed JSON, huge and deeply nested bodies. */
const bodyArb: fc.Arbitrary<BodySpec> = fc.oneof(
  { weight: 12, arbitrary: messageArb.map((m) => ({ text: JSON.stringify(m) ?? 'null' })) },
  { weight: 3, arbitrary: fc.array(messageArb, { maxLength: 5 }).map((ms) => ({ text: JSON.stringify(ms) })) },
  { weight: 2, arbitrary: fc.constantFrom(
    '', '{', '}', '[', '{"jsonrpc":"2.0",', '{"jsonrpc":"2.0","id":1,"method":"tools/list"', 'nul', "{'jsonrpc':'2.0'}", '{"a":1,}', '[1,]', 'NaN', 'Infinity',
    '1e309', '-0', '"\\ud800"', '\ufeff{"jsonrpc":"2.0","id":1,"method":"ping"}', '{"jsonrpc":"2.0","id":1,"method":"ping"}garbage', '\x00\x00', '{"__proto__":{"polluted":1},"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_specialty_pay","arguments":{"__proto__":{"specialty":"Cardiology"}}}}',
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_specialty_pay","arguments":{"constructor":{"prototype":{"x":1}},"specialty":"cardiology"}}}',
    '{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}',
  ).map((text) => ({ text })) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1000, max: 30000 }), fc.integer({ min: 0, max: 1 })).map(([d, k]) => ({ text: deepJson(d, k) })) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 20000 }).map((d) => ({ text: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_specialty_pay","arguments":{"specialty":${'['.repeat(d)}1${']'.repeat(d)}}}}` })) },
  { weight: 1, arbitrary: fc.integer({ min: 1000, max: 20000 }).map((d) => ({ text: `{"jsonrpc":"2.0","id":${'{"a":'.repeat(d)}1${'}'.repeat(d)},"method":"ping"}` })) },
  // Huge: 60 kB (just under the limit) to 5 MB.
  { weight: 1, arbitrary: fc.constantFrom(60_000, 70_000, 1_000_000, 2_500_000, 5_000_000).map((n) => ({ head: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_specialty_pay","arguments":{"specialty":"', unit: 'x', count: n, tail: '"}}}' })) },
  { weight: 1, arbitrary: fc.constantFrom(20_000, 1_500_000).map((n) => ({ head: '[', unit: '{"jsonrpc":"2.0","id":1,"method":"ping"},', count: Math.floor(n / 40), tail: '{"jsonrpc":"2.0","id":2,"method":"ping"}]' })) },
);

export function mcpArb(): fc.Arbitrary<FuzzCase> {
  const method = fc.oneof({ weight: 14, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: fc.constantFrom('GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD') });
  const path = fc.oneof({ weight: 12, arbitrary: fc.constant('/mcp') }, { weight: 1, arbitrary: fc.constantFrom('/mcp/', '/MCP', '/mcp?x=1', '/mcp/../mcp', '/mcp%2f', '/mcp/tools', '/mcp?__proto__[x]=1', '/.well-known/mcp.json', '/.well-known/mcp.json/..', 'http://127.0.0.1/mcp', 'http://user@evil.example/mcp', 'http://[/mcp', 'http://x:99999/mcp', '/mcp?\\x', '/mcp/%zz') });
  return fc
    .record({ method, path, body: bodyArb, headers: commonHeaders(), ctype: ctypeArb, accept: fc.option(acceptArb, { freq: 2, nil: undefined }), chunked: fc.boolean() })
    .map(({ method, path, body, headers, ctype, accept, chunked }) => {
      const h: Record<string, string> = { ...headers, 'content-type': ctype };
      if (accept !== undefined) h.accept = accept;
      return { target: 'mcp' as const, method, path, headers: h, body: method === 'GET' || method === 'HEAD' ? undefined : body, chunked };
    });
}

/** Anything at all: every prefix of the site, pages, health, metrics, and request bodies where none belong. */
export function otherArb(): fc.Arbitrary<FuzzCase> {
  const prefixes = ['', '', '/salaries', '/states', '/residency', '/methodology', '/data', '/data/api', '/data/api/v2', '/healthz', '/readyz', '/metrics', '/.well-known', '/favicon.ico', '/index.html', '/public', '/private', '/current', '/secret.txt', '/etc/passwd', '/__proto__', '/constructor/prototype', '/%2e%2e', '/..', '/.', '//', '/\\'];
  return fc
    .record({ method: methodArb(10), path: pathArb(prefixes, ['', '', '/', '.html', '.json', '.csv', '.txt', '%00']), query: fc.option(queryArb, { freq: 4, nil: null }), headers: commonHeaders(), body: fc.option(bodyArb, { freq: 6, nil: undefined }) })
    .map(({ method, path, query, headers, body }) => ({
      target: 'other' as const,
      method,
      path: wireSafe(`${path.startsWith('/') ? path : `/${path}`}${query === null ? '' : `?${query}`}`),
      headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : body,
    }));
}

/**
 * The authorization server for assistants (server/oauth/): discovery documents, client registration (JSON),
 * the approval page (query or form) and the token endpoint (form), with parameters that are nearly right
 * (the registered client, S256-shaped challenges, the real resource) as often as plainly wrong.
 */
export function oauthArb(known: Known): fc.Arbitrary<FuzzCase> {
  const c = known.oauthClient;
  const paths = ['/oauth/register', '/oauth/token', '/oauth/authorize', '/oauth/authorize', '/oauth/token/', '/OAUTH/TOKEN', '/oauth', '/oauth/revoke',
    '/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'];
  const value = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(c.client_id, c.redirect_uri, 'S256', 'plain', 'code', 'token', 'authorization_code', 'refresh_token', 'client_credentials', 'http://127.0.0.1:1/mcp', 'approve', 'deny') },
    { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    { weight: 1, arbitrary: fc.stringMatching(/^ppa_[A-Za-z0-9_-]{0,50}$/) },
    { weight: 1, arbitrary: fc.stringMatching(/^ppr_[A-Za-z0-9_-]{0,50}$/) },
    { weight: 2, arbitrary: valueArb },
  );
  const names = ['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'resource', 'state', 'scope', 'grant_type', 'code',
    'code_verifier', 'refresh_token', 'csrf', 'api_key', 'decision', '__proto__', 'constructor'];
  // half of them name the registered client and its redirect URI, so the approval page and its redirects are reached
  const client = `client_id=${encodeURIComponent(c.client_id)}&redirect_uri=${encodeURIComponent(c.redirect_uri)}&`;
  const params = fc.tuple(fc.boolean(), fc.array(fc.tuple(fc.constantFrom(...names), value), { maxLength: 9 }))
    .map(([named, ps]) => `${named ? client : ''}${ps.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, ''))}`).join('&')}`);
  const registration = fc.oneof(
    fc.record({ redirect_uris: fc.array(fc.constantFrom(c.redirect_uri, 'http://127.0.0.1:9/cb', 'https://assistant.example/cb', 'http://evil.example/cb', 'javascript:alert(1)', '', 'https://a.example/cb#frag', 'x'.repeat(3000)), { maxLength: 4 }),
      client_name: fc.option(valueArb), token_endpoint_auth_method: fc.constantFrom('none', 'client_secret_basic', 'client_secret_post', undefined), grant_types: fc.option(fc.array(fc.constantFrom('authorization_code', 'refresh_token', 'implicit', 'password'), { maxLength: 3 })) },
    { requiredKeys: [] }).map((o) => JSON.stringify(o)),
    fc.constantFrom('', '{', '[]', 'null', '"x"', '{"redirect_uris":"https://a.example/cb"}', '{"__proto__":{"x":1}}', `{"redirect_uris":[${'"https://a.example/cb",'.repeat(200)}"x"]}`),
  );
  return fc
    .record({
      method: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('GET', 'POST') }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
      path: fc.constantFrom(...paths),
      query: fc.option(params, { freq: 3, nil: null }),
      form: params,
      json: registration,
      ctype: fc.constantFrom('application/x-www-form-urlencoded', 'application/x-www-form-urlencoded', 'application/json', 'text/plain', ''),
      headers: commonHeaders(),
      site: fc.constantFrom(undefined, undefined, 'cross-site', 'same-origin'),
    })
    .map(({ method, path, query, form, json, ctype, headers, site }) => {
      const h: Record<string, string> = { ...headers };
      if (site) h['sec-fetch-site'] = site;
      const hasBody = !['GET', 'HEAD', 'OPTIONS'].includes(method);
      if (hasBody && ctype) h['content-type'] = path.includes('register') && ctype !== 'text/plain' ? 'application/json' : ctype;
      const body = hasBody ? { text: path.includes('register') ? json : form } : undefined;
      return { target: 'oauth' as const, method, path: `${path}${query === null ? '' : `?${query}`}`, headers: h, body };
    });
}

/** Protocol-level garbage on a raw socket: bad request lines, methods, versions, header syntax. */
export function rawArb(): fc.Arbitrary<FuzzCase> {
  const line = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom('GET', 'HEAD', 'POST', 'FOO', 'get', 'G ET', 'CONNECT', 'PRI', '', 'GET\x00'), fc.constantFrom('/data/api/v1/specialties.json', '/api/v1/benchmarks?specialty=Cardiology', '/mcp', '/data/api/v1/a b.json', '/data/api/v1/\x01', '/data/api/v1/\xc0\xae\xc0\xae/secret.txt', '/api/v1/\xff', bytes('/data/api/v1/specialties/🩺.json'), bytes('/data/api/v1/states/\u202etexas.json'), bytes('/api/v1/benchmarks?specialty=مرحبا'), '*', 'http://evil/data/api/v1/specialties.json', '', '//'), fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/9.9', 'HTTP/1', 'http/1.1', '', 'HTTP/1.1 extra'))
      .map(([m, p, v]) => `${m} ${p} ${v}`) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 60 }) },
  );
  const headerLines = fc.array(fc.oneof(
    fc.constantFrom('Host: x', 'X-API-Key: pcb_live_00000000000000000000000000000000', 'Content-Length: -1', 'Content-Length: 5', 'Content-Length: 1, 2', 'Transfer-Encoding: chunked',
      'Transfer-Encoding: gzip, chunked', 'Transfer-Encoding: identity', 'Expect: garbage', 'Expect: 100-continue', 'Content-Encoding: gzip', ' folded: header', 'No-Colon', ': empty-name', 'Bad Name: x', 'X: \x00', 'If-None-Match: *', 'Content-Type: application/json'),
    fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, ' ')),
  ), { maxLength: 5 });
  const bodyText = fc.constantFrom('', '{"jsonrpc":"2.0","id":1,"method":"ping"}', '0\r\n\r\n', 'zz\r\n', '5\r\nhello\r\n0\r\n\r\n', 'x'.repeat(100));
  return fc.tuple(line, fc.boolean(), headerLines, bodyText).map(([l, host, hs, b]) => ({
    target: 'raw' as const, method: 'RAW', path: l, headers: {}, raw: { text: `${l}\r\n${[...(host ? ['Host: localhost'] : []), ...hs, 'Connection: close'].join('\r\n')}\r\n\r\n${b}` },
  }));
}

/** Materialise a body spec. */
export function materialise(b: BodySpec): Buffer {
  if ('text' in b) return Buffer.from(b.text, 'utf8');
  return Buffer.concat([Buffer.from(b.head), Buffer.from(b.unit.repeat(b.count)), Buffer.from(b.tail)]);
}

/** The address a request claims (X-Forwarded-For, believed for one proxy hop in the fuzz server). */
export const HOT_IP = '198.51.100.7';
export const forwardedForArb: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.ipV4() },
  { weight: 2, arbitrary: fc.ipV6() },
  // one client that runs past its daily limit early in the run: 429s from the feeds and tool errors from tools/call
  { weight: 4, arbitrary: fc.constant(HOT_IP) },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.oneof(
    fc.constantFrom('not an ip', '', ',', ', , ,', '1.2.3.4, 5.6.7.8', '999.999.999.999', '::ffff:1.2.3.4', 'fe80::1%eth0', '[::1]:80', '1.2.3.4:5678', 'unknown', '__proto__', 'constructor', '0', '-1', "' OR 1=1 --"),
    unicodeText.map((s) => headerSafe(bytes(s))),
    fc.integer({ min: 100, max: 4000 }).map((n) => '1.2.3.4, '.repeat(Math.ceil(n / 9))),
  ) },
);
