/**
 * `nginx.conf` (pure): an include for a `server {}` block whose `root` is the export folder. Each file gets
 * an exact `location` that sends it with physpay's headers (its own content type, physpay's ETag with
 * nginx's own turned off, Cache-Control, CORS, nosniff, X-PhysPay-Build) and answers a matching
 * If-None-Match with 304 itself: nginx's not-modified check only knows the ETag nginx computes, so with
 * that turned off it would never send a 304 for physpay's. Each alias gets an exact `location` that
 * returns 301 with a relative Location, as physpay serve does. The manifest files answer 404. Header
 * values every location sends are `set` once at the top, in variables named `$physpay_*`.
 *
 * Every interpolated text is single-quoted with `\` and `'` escaped; paths in Location are percent-encoded.
 * nginx has no escape for `$` in texts it expands (header values, try_files), so a `$` there is refused.
 */
import { encodePath, ExportPlanError, fileHeaders, MANIFEST_FILES, redirectHeaders, sharedHeaders, type ExportFile, type ExportPlan, type ExportRedirect, type HeaderList } from './plan.ts';

/** A single-quoted nginx string. */
export function nginxQuote(s: string): string {
  if (/[\u0000-\u001f\u007f]/.test(s)) throw new ExportPlanError(`cannot write ${JSON.stringify(s)} into nginx.conf: it holds a control character`);
  return `'${s.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

/** A quoted string for a directive that expands variables (set, add_header, try_files, return). */
function expanded(s: string, what: string): string {
  if (s.includes('$')) throw new ExportPlanError(`cannot write ${what} ${JSON.stringify(s)} into nginx.conf: nginx would read its "$" as a variable and has no escape for it`);
  return nginxQuote(s);
}

/** The regex (for `if ($http_if_none_match ~ ...)`) that matches the If-None-Match values physpay answers with 304. */
export function ifNoneMatchRegex(etag: string): string {
  const opaque = etag.slice(1, -1).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  // `*`, or the ETag anywhere in the list, weak or not (the weak comparison of physpay's etagMatches)
  return `^[ \\t]*\\*[ \\t]*$|(^|,)[ \\t]*(W/)?"${opaque}"[ \\t]*(,|$)`;
}

/** The variable holding a shared header's value: Access-Control-Allow-Origin -> $physpay_access_control_allow_origin. */
const variableOf = (name: string) => `$physpay_${name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`;

function addHeaders(headers: HeaderList, shared: HeaderList): string[] {
  return headers.map(([name, value]) => {
    const common = shared.some(([n, v]) => n === name && v === value);
    return `add_header ${name} ${common ? variableOf(name) : expanded(value, name)};`;
  });
}

/**
 * Accept-Encoding that accepts gzip (or x-gzip) with no q or a q above 0, case-insensitive. physpay serve
 * also takes `*` and prefers brotli; a static host sends gzip or the file as it is.
 */
export const GZIP_ACCEPTED = '(^|,)[ \\t]*(x-)?gzip[ \\t]*(;[ \\t]*q=(1(\\.0{0,3})?|0?\\.0{0,2}[1-9][0-9]{0,2})[ \\t]*)?(,|$)';

/** The file's location, and its .gz's when it has one: [path, text] each. */
function fileLocations(f: ExportFile, shared: HeaderList): Array<[string, string]> {
  const headers = fileHeaders(f).filter(([name]) => name !== 'Content-Type');
  const vary = f.gzip ? ['    add_header Vary Accept-Encoding;'] : [];
  const common = [
    `    types { }`,
    `    default_type ${nginxQuote(f.contentType)};`,
    `    etag off;`,
    `    if_modified_since off;`,
    `    add_header Last-Modified '';`,
  ];
  const identity = [
    `location = ${nginxQuote(f.urlPath)} {`,
    ...common,
    ...addHeaders(headers, shared).map((l) => `    ${l}`),
    ...vary,
    // a client that takes gzip gets the .gz beside the file, with its own ETag (an internal location)
    ...(f.gzip ? [`    if ($physpay_gzip) { rewrite ^ ${expanded(`/${f.file}.gz`, 'the file name')} last; }`] : []),
    `    if ($http_if_none_match ~ ${nginxQuote(ifNoneMatchRegex(f.etag))}) { return 304; }`,
    `    try_files ${expanded(`/${f.file}`, 'the file name')} =404;`,
    `}\n`,
  ];
  if (!f.gzip) return [[f.urlPath, identity.join('\n')]];
  const gzHeaders = headers.map(([name, value]): [string, string] => [name, name === 'ETag' ? f.gzip!.etag : value]);
  return [[f.urlPath, identity.join('\n')], [`/${f.file}.gz`, [
    `location = ${nginxQuote(`/${f.file}.gz`)} {`,
    `    internal;`,
    ...common,
    ...addHeaders(gzHeaders, shared).map((l) => `    ${l}`),
    ...vary,
    `    add_header Content-Encoding gzip;`,
    `    if ($http_if_none_match ~ ${nginxQuote(ifNoneMatchRegex(f.gzip.etag))}) { return 304; }`,
    `}\n`,
  ].join('\n')]];
}

function redirectLocation(r: ExportRedirect, headers: string): string {
  const to = encodePath(r.to).replace(/\$/g, '%24');
  return `location = ${nginxQuote(r.from)} { absolute_redirect off; ${headers} return 301 ${nginxQuote(to)}; }\n`;
}

export function nginxConf(plan: ExportPlan): string {
  const shared = sharedHeaders(plan);
  const redirectHeaderText = addHeaders(redirectHeaders(), shared).join(' ');
  return [
    '# physpay static export for nginx (generated; do not edit). Include it in a server block whose root is\n',
    '# this folder, and answer the other paths yourself, e.g.:\n',
    '#   server { listen 80; root /srv/physpay-export; include /srv/physpay-export/nginx.conf; location / { return 404; } }\n',
    `# ${plan.files.length} files, ${plan.redirects.length} redirects.\n\n`,
    '# header values every location below sends\n',
    ...shared.map(([name, value]) => `set ${variableOf(name)} ${expanded(value, name)};\n`),
    // whether the client takes gzip: decided once per request here, not by a regex in every location
    ...(plan.files.some((f) => f.gzip)
      ? ['\n# "1" when the client takes gzip: its files\' locations then send the .gz beside the file\n', "set $physpay_gzip '';\n", `if ($http_accept_encoding ~* ${nginxQuote(GZIP_ACCEPTED)}) { set $physpay_gzip 1; }\n`]
      : []),
    '\n# every location, in the order nginx sorts them (see nginxSortKey); the manifests beside the files answer 404\n',
    ...[
      ...MANIFEST_FILES.map((name): [string, string] => [`/${name}`, `location = ${nginxQuote(`/${name}`)} { return 404; }\n`]),
      ...plan.files.flatMap((f) => fileLocations(f, shared)),
      ...plan.redirects.map((r): [string, string] => [r.from, redirectLocation(r, redirectHeaderText)]),
    ].map(([path, text]) => ({ key: nginxSortKey(path), text })).sort((a, b) => Buffer.compare(a.key, b.key)).map((l) => l.text),
  ].join('');
}

/**
 * nginx sorts a server's locations with an insertion sort (ngx_queue_sort), comparing names byte by byte
 * with "/" lowest (ngx_filename_cmp): written in that order the sort is one pass, in any other it is
 * quadratic. Measured on the test build's 35,000 locations: 1.3 s to read the file sorted, 11.6 s unsorted.
 */
export function nginxSortKey(path: string): Buffer {
  return Buffer.from(path.replace(/\//g, '\u0000'));
}
