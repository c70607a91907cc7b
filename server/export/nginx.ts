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

function fileLocation(f: ExportFile, shared: HeaderList): string {
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
    ...(f.gzip ? [`    if ($http_accept_encoding ~* ${nginxQuote(GZIP_ACCEPTED)}) { rewrite ^ ${expanded(`/${f.file}.gz`, 'the file name')} last; }`] : []),
    `    if ($http_if_none_match ~ ${nginxQuote(ifNoneMatchRegex(f.etag))}) { return 304; }`,
    `    try_files ${expanded(`/${f.file}`, 'the file name')} =404;`,
    `}\n`,
  ];
  if (!f.gzip) return identity.join('\n');
  const gzHeaders = headers.map(([name, value]): [string, string] => [name, name === 'ETag' ? f.gzip!.etag : value]);
  return [
    ...identity,
    `location = ${nginxQuote(`/${f.file}.gz`)} {`,
    `    internal;`,
    ...common,
    ...addHeaders(gzHeaders, shared).map((l) => `    ${l}`),
    ...vary,
    `    add_header Content-Encoding gzip;`,
    `    if ($http_if_none_match ~ ${nginxQuote(ifNoneMatchRegex(f.gzip.etag))}) { return 304; }`,
    `}\n`,
  ].join('\n');
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
    '\n# the manifests beside the files are not content\n',
    ...MANIFEST_FILES.map((name) => `location = ${nginxQuote(`/${name}`)} { return 404; }\n`),
    '\n',
    ...plan.files.map((f) => fileLocation(f, shared)),
    '\n',
    ...plan.redirects.map((r) => redirectLocation(r, redirectHeaderText)),
  ].join('');
}
