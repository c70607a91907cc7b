/**
 * What every answer to a fuzz case must satisfy: no 5xx; an error body in the documented shape of the
 * interface that answered; a 200 on the open data API (or a page) that is a published file of the build,
 * byte for byte apart from the access date; and nothing secret (planted keys, planted files, the service
 * DB path, the data folder) anywhere in a response.
 */
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parse } from 'node:url';
import type { FuzzCase } from './arbitraries.ts';
import { headBytes, type FuzzResponse } from './send.ts';

export type Handler = 'open' | 'keyed' | 'mcp' | 'oauth' | 'generic';

export interface Expectations {
  /** sha256 (hex) of every public file of the build as served on the test's day -> its URL path */
  publicBodies: Map<string, string>;
  /** sha256 of the API's own contract documents (OpenAPI, feed JSON Schemas), served under /data/api/v1 too */
  contractBodies: Set<string>;
  /** URL path of every public file of the build (targets of page redirects) */
  publicPaths: Set<string>;
  /** strings that must never appear in a response (head or body) */
  forbidden: string[];
  /** the redirect URI of the client registered before the run (the only place a 303 may send a browser) */
  oauthRedirect: string;
}

/** /data/api/v1[/], any letter case or escapes: the open data API's index. */
function isApiIndex(rawPath: string): boolean {
  try {
    return /^\/data\/api\/v1\/?$/i.test(decodeURIComponent(rawPath).replace(/\/{2,}/g, '/'));
  } catch {
    return false;
  }
}

/** Node's limit on a request head (request line and headers). */
export const MAX_HEAD = 16 * 1024;

/**
 * Which part of the app answers `url` (mirrors server/app.ts): the router decodes the path once, collapses
 * runs of slashes and compares prefixes in any letter case, so every spelling of /data/... goes to the
 * open-data handler (written out here independently of server/http/canonical-path.ts).
 */
export function handlerOf(url: string): { handler: Handler; pathname: string } {
  const raw = url.split(/[?#]/)[0]!;
  let decoded: string | null = null;
  try {
    decoded = decodeURIComponent(raw).replace(/\/{2,}/g, '/').toLowerCase();
  } catch {
    decoded = null;
  }
  if (decoded !== null && (decoded === '/data' || decoded.startsWith('/data/'))) return { handler: 'open', pathname: raw };
  // The path as Express (parseurl, i.e. url.parse) sees it; a target it cannot parse gets the site's 404.
  let pathname: string;
  try {
    pathname = parse(url).pathname ?? '';
  } catch {
    return { handler: 'generic', pathname: url };
  }
  const lower = pathname.toLowerCase();
  if (lower === '/api/v1' || lower.startsWith('/api/v1/')) return { handler: 'keyed', pathname };
  // The tool server's router answers its Host/Origin refusals for everything under /mcp/ too.
  if (lower === '/mcp' || lower.startsWith('/mcp/')) return { handler: 'mcp', pathname };
  // The authorization server's routes (Express matches them in any letter case, with or without a final slash).
  if (/^\/(oauth\/(register|token|revoke|authorize)|\.well-known\/(oauth-protected-resource(\/mcp)?|oauth-authorization-server))\/?$/.test(lower)) return { handler: 'oauth', pathname };
  return { handler: 'generic', pathname };
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJson(r: FuzzResponse, problems: string[]): unknown {
  if (!/^application\/json/.test(String(r.headers['content-type'] ?? ''))) {
    problems.push(`content-type ${String(r.headers['content-type'])} is not JSON`);
    return undefined;
  }
  try {
    return JSON.parse(r.body.toString('utf8'));
  } catch {
    problems.push('body is not JSON');
    return undefined;
  }
}

/** `{"error": string}` and nothing else (keyed API and the generic 404). */
function exactError(body: unknown, problems: string[]): void {
  if (!isObject(body) || Object.keys(body).join() !== 'error' || typeof body.error !== 'string' || body.error === '') {
    problems.push(`error body is not exactly {"error": string}`);
  }
}

/** OAuth's error codes (RFC 6749, 7591, 8707), plus the per-IP limit's and an outage's. */
const OAUTH_ERRORS = new Set(['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope', 'invalid_target',
  'invalid_redirect_uri', 'invalid_client_metadata', 'slow_down', 'temporarily_unavailable']);

/**
 * An error of the authorization server: the approval page's in words (HTML, 400 or 403), the site's 404 for a
 * method it does not route, else OAuth's `{error, error_description}` with a known code.
 */
function oauthError(status: number, r: FuzzResponse, pathname: string, problems: string[]): void {
  if (/^text\/html/.test(String(r.headers['content-type']))) {
    if (!/^\/oauth\/authorize\/?$/i.test(pathname) || ![400, 403].includes(status)) problems.push(`HTML ${status} from ${pathname.slice(0, 60)}`);
    if (r.headers['cache-control'] !== 'no-store') problems.push('approval page error without Cache-Control: no-store');
    return;
  }
  const body = parseJson(r, problems);
  if (body === undefined) return;
  if (status === 404 || status === 405) return exactError(body, problems);
  if (!isObject(body) || Object.keys(body).sort().join() !== 'error,error_description' || !OAUTH_ERRORS.has(String(body.error)) || typeof body.error_description !== 'string') {
    problems.push(`OAuth error not {error, error_description} with a known code: ${JSON.stringify(body).slice(0, 120)}`);
  }
  if (r.headers['cache-control'] !== 'no-store') problems.push('OAuth error without Cache-Control: no-store');
}

function openDataError(status: number, body: unknown, r: FuzzResponse, problems: string[]): void {
  if (!isObject(body) || typeof body.error !== 'string' || body.error === '') {
    problems.push('open data error without a string "error"');
    return;
  }
  for (const k of Object.keys(body)) {
    if (k === 'error') continue;
    if (k === 'did_you_mean' && status === 404) {
      const ok = Array.isArray(body.did_you_mean) && body.did_you_mean.length <= 5 && body.did_you_mean.every((e) =>
        isObject(e) && Object.keys(e).sort().join() === 'name,slug,url' && typeof e.slug === 'string' && typeof e.name === 'string' && typeof e.url === 'string');
      if (!ok) problems.push('did_you_mean is not an array of {slug, name, url}');
    } else if (k === 'feeds' && status === 404) {
      if (!Array.isArray(body.feeds) || !body.feeds.every((f) => typeof f === 'string')) problems.push('feeds is not a list of paths');
    } else if (k === 'retry_after' && status === 429) {
      if (!Number.isInteger(body.retry_after) || r.headers['retry-after'] === undefined) problems.push('429 without an integer retry_after and Retry-After');
    } else {
      problems.push(`unexpected key "${k}" in a ${status} open data error`);
    }
  }
}

function rpcError(e: unknown): boolean {
  return isObject(e) && Number.isInteger(e.code) && typeof e.message === 'string';
}

function rpcEnvelopeOk(m: unknown): boolean {
  if (!isObject(m) || m.jsonrpc !== '2.0') return false;
  const id = m.id;
  if (!(id === null || typeof id === 'string' || typeof id === 'number')) return false;
  if ('error' in m) return rpcError(m.error) && !('result' in m);
  return isObject(m.result);
}

/** Does the body of an MCP POST hold at least one request (a message with a method and an id)? */
function hasRequest(c: FuzzCase): boolean {
  if (!c.body || !('text' in c.body)) return true;
  try {
    const v = JSON.parse(c.body.text) as unknown;
    const msgs = Array.isArray(v) ? v : [v];
    return msgs.some((m) => isObject(m) && 'method' in m && 'id' in m);
  } catch {
    return true;
  }
}

/** Every problem with one answer (empty when it is fine). */
export function checkResponse(c: FuzzCase, sent: FuzzResponse, x: Expectations): string[] {
  const problems: string[] = [];
  // a compressed answer (README: Compression) is checked as what it decodes to, in a coding the client accepted
  let r = sent;
  const coding = sent.headers['content-encoding'];
  if (coding !== undefined && sent.body.length) {
    const accepted = Object.entries(c.headers).find(([k]) => k.toLowerCase() === 'accept-encoding')?.[1]?.toLowerCase() ?? '';
    const names = coding === 'gzip' ? 'x-gzip|gzip' : coding;
    if (!c.raw && !new RegExp(`(^|,)\\s*(${names}|\\*)\\s*(;|,|$)`).test(accepted)) problems.push(`Content-Encoding ${coding} that the client did not accept (${accepted.slice(0, 40)})`);
    try {
      r = { ...sent, body: coding === 'gzip' ? gunzipSync(sent.body) : coding === 'br' ? brotliDecompressSync(sent.body) : sent.body };
    } catch {
      problems.push(`a ${coding} body that does not decompress`);
    }
  }
  const text = r.body.toString('latin1');
  const head = JSON.stringify(r.headers);
  for (const f of x.forbidden) {
    if (text.includes(f) || r.body.toString('utf8').includes(f) || head.includes(f)) problems.push(`response contains a secret (${f.slice(0, 12)}...)`);
  }
  if (r.status >= 500) problems.push(`status ${r.status}`);

  const nodeLevel = r.status !== 0 && r.headers['x-request-id'] === undefined;
  if (c.raw) {
    // Protocol garbage: Node's parser may refuse it (400/431, 417 for an unknown Expect, or just close) before the app sees it.
    if (r.status === 0 || nodeLevel) {
      if (r.status !== 0 && ![400, 417, 431].includes(r.status)) problems.push(`parser-level answer ${r.status}`);
      return problems;
    }
  } else if (r.status === 0 || nodeLevel) {
    const oversized = headBytes(c) > MAX_HEAD - 512;
    if (oversized && (r.status === 431 || r.status === 0)) return problems; // refused by Node before the app
    problems.push(r.status === 0 ? `no response (${r.transportError})` : `answer ${r.status} without X-Request-Id (not from the app)`);
    return problems;
  } else if (r.transportError) {
    problems.push(`response cut: ${r.transportError}`);
  }

  const method = c.raw ? c.path.split(' ')[0]! : c.method;
  const url = c.raw ? c.path.split(' ')[1] ?? '' : c.path;
  const { handler, pathname } = handlerOf(url);
  if (method === 'HEAD' && r.body.length > 0) problems.push('HEAD answered with a body');

  if (r.status >= 400) {
    if (method === 'HEAD') return problems;
    if (handler === 'oauth' && !(r.status === 404 && /^text\/html/.test(String(r.headers['content-type'])))) {
      oauthError(r.status, r, pathname, problems);
      return problems;
    }
    if ((handler === 'generic' || handler === 'oauth') && r.status === 404 && /^text\/html/.test(String(r.headers['content-type']))) {
      // the site's 404 page, for clients that accept text/html (server/pages/fallback.ts)
      if (!r.body.toString('utf8').includes('<meta name="robots" content="noindex">')) problems.push('HTML 404 page without noindex');
      return problems;
    }
    const body = parseJson(r, problems);
    if (body === undefined) return problems;
    if (handler === 'open') openDataError(r.status, body, r, problems);
    else if (handler === 'mcp' && r.status === 404 && !/^\/mcp\/?$/i.test(pathname)) exactError(body, problems); // /mcp/<other>: the site's 404
    else if (handler === 'mcp') {
      if (![400, 403, 405, 406, 413, 415].includes(r.status)) problems.push(`MCP answered HTTP ${r.status}`);
      if (!rpcEnvelopeOk(body) || !('error' in (body as object))) problems.push('MCP HTTP error without a JSON-RPC error body');
    } else exactError(body, problems);
    return problems;
  }

  switch (r.status) {
    case 301: {
      // an alias of a page redirected to its canonical page (server/pages/not-found.ts)
      const to = String(r.headers.location ?? '');
      if (handler !== 'generic' || !['GET', 'HEAD'].includes(method)) problems.push(`301 from the ${handler} handler or for ${method}`);
      if (!/^\/[a-z0-9/-]*$/.test(to) || !x.publicPaths.has(to)) problems.push(`301 to ${to.slice(0, 80)}, not a published page`);
      break;
    }
    case 304:
      if (r.body.length) problems.push('304 with a body');
      if (!c.headers['if-none-match']) problems.push('304 without If-None-Match');
      break;
    case 303: {
      // the approval page sends the browser back to the client's registered redirect URI, and only there
      const to = String(r.headers.location ?? '');
      if (handler !== 'oauth' || !/^\/oauth\/authorize\/?$/i.test(pathname)) problems.push(`303 from ${pathname.slice(0, 60)}`);
      if (!to.startsWith(`${x.oauthRedirect}?`)) problems.push(`303 to ${to.slice(0, 80)}, not the registered redirect URI`);
      if (/[?&]code=/.test(to)) problems.push('an authorization code issued to a fuzz case');
      break;
    }
    case 201:
      if (handler !== 'oauth' || !/^\/oauth\/register\/?$/i.test(pathname) || method !== 'POST') problems.push(`201 from ${method} ${pathname.slice(0, 60)}`);
      else {
        const body = parseJson(r, problems);
        if (body !== undefined && (!isObject(body) || typeof body.client_id !== 'string' || 'client_secret' in body)) problems.push('registration answer without a client_id, or with a secret');
      }
      break;
    case 204:
      if (r.body.length) problems.push('204 with a body');
      if (method !== 'OPTIONS') problems.push(`204 for ${method}`);
      break;
    case 202:
      if (handler !== 'mcp' || method !== 'POST') problems.push('202 outside POST /mcp');
      if (r.body.length) problems.push('202 with a body');
      if (hasRequest(c)) problems.push('202 (no answer) for a body that holds a request');
      break;
    case 200: {
      if (method === 'HEAD') break;
      if (handler === 'open' && isApiIndex(pathname)) {
        // the API's index (server/open-data/index-page.ts): derived per build, not counted, like the contract documents
        if (!/^(application\/json|text\/html); charset=utf-8$/.test(String(r.headers['content-type']))) problems.push('API index with an unexpected content type');
      } else if (handler === 'open') {
        const h = sha256(r.body);
        // a feed or CSV (not a contract document) is always counted: it carries the RateLimit fields
        if (!x.contractBodies.has(h) && (r.headers['ratelimit-policy'] === undefined || r.headers.ratelimit === undefined)) problems.push('feed served without the per-IP limit (no RateLimit fields)');
        if (!x.publicBodies.get(h)?.startsWith('/data/api/v1/') && !x.contractBodies.has(h)) problems.push('200 on /data/api/v1 whose body is neither a published feed of the build nor a contract document');
        if (Number(r.headers['content-length']) !== sent.body.length) problems.push('content-length disagrees with the body');
      } else if (handler === 'keyed') {
        const body = parseJson(r, problems);
        if (body !== undefined && (!isObject(body) || 'error' in body)) problems.push('keyed 200 that is not a JSON document');
      } else if (handler === 'oauth') {
        if (/^text\/html/.test(String(r.headers['content-type']))) {
          // the approval page, for the registered client only
          if (!/^\/oauth\/authorize\/?$/i.test(pathname)) problems.push(`HTML 200 from ${pathname.slice(0, 60)}`);
          if (!/frame-ancestors 'none'|x-frame-options/i.test(JSON.stringify(r.headers))) problems.push('approval page that may be framed');
        } else {
          const body = parseJson(r, problems);
          if (body !== undefined && (!isObject(body) || 'error' in body || !('issuer' in body || 'resource' in body))) problems.push('OAuth 200 that is not a metadata document');
        }
      } else if (handler === 'mcp') {
        // a client that takes only text/event-stream gets the JSON-RPC answer as one SSE event
        const sse = /^text\/event-stream/.test(String(r.headers['content-type'] ?? ''))
          ? /^event: message\n((?:data: .*\n)+)\n$/.exec(r.body.toString('utf8'))
          : null;
        if (/^text\/event-stream/.test(String(r.headers['content-type'] ?? '')) && !sse) problems.push('MCP SSE answer that is not one message event');
        const body = sse ? JSON.parse(sse[1]!.split('\n').filter(Boolean).map((l) => l.slice(6)).join('\n')) as unknown : parseJson(r, problems);
        if (body === undefined) break;
        const msgs = Array.isArray(body) ? body : [body];
        if (msgs.length === 0 || !msgs.every(rpcEnvelopeOk)) problems.push('MCP 200 that is not JSON-RPC');
      } else if (!x.publicBodies.has(sha256(r.body))) {
        // Not a published file: only the operational endpoints may answer 200.
        const p = pathname.toLowerCase().replace(/\/$/, '');
        if (!['/healthz', '/readyz', '/metrics', '/.well-known/mcp.json'].includes(p)) problems.push(`200 at ${pathname.slice(0, 80)} that is not a published file`);
      }
      break;
    }
    default:
      problems.push(`unexpected status ${r.status}`);
  }
  return problems;
}
