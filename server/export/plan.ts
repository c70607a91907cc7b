/**
 * What a static export holds (pure data, no fs): every public URL of a build with the file it is written
 * to and the headers physpay serve sends with it, and the alias redirects. The manifest writers
 * (netlify.ts, s3.ts, nginx.ts) all render this one plan; `checkPlan` refuses one they could not render.
 */
import { CORS_HEADERS } from '../http/cors.ts';
import { PUBLIC_CACHE_CONTROL } from '../http/send.ts';

export interface ExportFile {
  /** the URL path physpay serve answers: /data/api/v1/states/texas.json, /salaries/cardiology, / */
  urlPath: string;
  /** where the body is written, relative to the export root: salaries/cardiology.html, index.html */
  file: string;
  contentType: string;
  /** physpay's strong ETag for the export day, quotes included */
  etag: string;
  cacheControl: string;
  /** X-PhysPay-Build; null for the API's contract documents, which the server sends without it */
  build: string | null;
  bytes: number;
  /** the browser protections of an HTML page (server/http/page-security.ts); none for other files */
  security?: HeaderList;
  /**
   * the file's gzip representation, written beside it as `<file>.gz` (the build's precompressed variant,
   * re-dated for the export day), with physpay's ETag for it; absent for files served only as they are
   */
  gzip?: { etag: string; bytes: number };
}

/** A permanent (301) redirect from an alias URL path to the canonical one. */
export interface ExportRedirect {
  from: string;
  to: string;
}

export interface ExportPlan {
  files: ExportFile[];
  redirects: ExportRedirect[];
}

/** The manifest files written at the export root beside the public tree (never served as content). */
export const MANIFEST_FILES = ['_headers', '_redirects', 's3-metadata.json', 'nginx.conf'] as const;
export type ManifestName = (typeof MANIFEST_FILES)[number];

export class ExportPlanError extends Error {}

export type HeaderList = [name: string, value: string][];

/** physpay's CORS headers, with their names spelled as HTTP shows them. */
const CORS: HeaderList = [
  ['Access-Control-Allow-Origin', CORS_HEADERS['access-control-allow-origin']],
  ['Access-Control-Expose-Headers', CORS_HEADERS['access-control-expose-headers']],
];

/** The headers of a 200 answer for the file, as physpay serve sends them (length, date and request id aside). */
export function fileHeaders(f: ExportFile): HeaderList {
  return [
    ['Content-Type', f.contentType],
    ['ETag', f.etag],
    ['Cache-Control', f.cacheControl],
    ...CORS,
    ['X-Content-Type-Options', 'nosniff'],
    ...(f.build === null ? [] : ([['X-PhysPay-Build', f.build]] as HeaderList)),
    ...(f.security ?? []).filter(([name]) => name !== 'X-Content-Type-Options'),
  ];
}

/** The headers of an alias redirect (physpay's page redirects: cacheable, open CORS). */
export function redirectHeaders(): HeaderList {
  return [['Cache-Control', PUBLIC_CACHE_CONTROL], ...CORS, ['X-Content-Type-Options', 'nosniff']];
}

/**
 * The headers (name and value) sent with every file and every redirect: what a host can set once for
 * the whole site (_headers' `/*` rule, nginx variables) instead of per URL.
 */
export function sharedHeaders(plan: ExportPlan): HeaderList {
  const key = ([name, value]: [string, string]) => `${name}\u0000${value}`;
  const lists = [...plan.files.map(fileHeaders), ...(plan.redirects.length ? [redirectHeaders()] : [])];
  if (!lists.length) return [];
  const counts = new Map<string, number>();
  for (const list of lists) for (const h of new Set(list.map(key))) counts.set(h, (counts.get(h) ?? 0) + 1);
  return lists[0]!.filter((h) => counts.get(key(h)) === lists.length);
}

const CONTROL = /[\u0000-\u001f\u007f]/;
/** An ETag as RFC 9110 spells it: a quoted string of visible characters without `"` (strong: no W/). */
const STRONG_ETAG = /^"[\u0021\u0023-\u007e]*"$/;

/**
 * Refuse a plan the manifests could not express faithfully: duplicate URLs or files, a file outside the
 * export root or at a manifest's name, a redirect from a URL that is a file, control characters, a weak
 * or malformed ETag. Returns the plan for chaining.
 */
export function checkPlan(plan: ExportPlan): ExportPlan {
  const urls = new Set<string>();
  const files = new Set<string>();
  const problem = (what: string) => {
    throw new ExportPlanError(`cannot export: ${what}`);
  };
  for (const f of plan.files) {
    if (!f.urlPath.startsWith('/') || CONTROL.test(f.urlPath)) problem(`the URL path ${JSON.stringify(f.urlPath)} is not an absolute path without control characters`);
    if (urls.has(f.urlPath)) problem(`two files answer the URL path ${f.urlPath}`);
    urls.add(f.urlPath);
    const segments = f.file.split('/');
    if (!f.file || f.file.startsWith('/') || CONTROL.test(f.file) || f.file.includes('\\') || segments.some((s) => s === '' || s === '.' || s === '..')) {
      problem(`the file name ${JSON.stringify(f.file)} of ${f.urlPath} is not a clean relative path`);
    }
    if (files.has(f.file)) problem(`two URL paths would be written to the same file ${f.file}`);
    files.add(f.file);
    if ((MANIFEST_FILES as readonly string[]).includes(f.file)) problem(`the build has a public file named ${f.file}, the name of a manifest of the export`);
    if (!STRONG_ETAG.test(f.etag)) problem(`the ETag ${JSON.stringify(f.etag)} of ${f.urlPath} is not a strong ETag`);
    for (const [name, value] of fileHeaders(f)) if (CONTROL.test(value)) problem(`the ${name} of ${f.urlPath} holds a control character`);
  }
  const froms = new Set<string>();
  for (const r of plan.redirects) {
    for (const p of [r.from, r.to]) if (!p.startsWith('/') || CONTROL.test(p)) problem(`the redirect path ${JSON.stringify(p)} is not an absolute path without control characters`);
    if (urls.has(r.from)) problem(`${r.from} is both a file and a redirect`);
    if (froms.has(r.from)) problem(`two redirects from ${r.from}`);
    froms.add(r.from);
  }
  return plan;
}

/**
 * A URL path as the line-based manifests (_headers, _redirects) need it: percent-encoded outside the
 * characters a path may hold as is, and `:` and `*` too (those files read them as placeholders and splats).
 */
export function encodePath(path: string): string {
  return path.replace(/[^A-Za-z0-9\-._~/!$&'()+,;=@]/gu, (c) => [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
}
