/**
 * POST /mcp: stateless Streamable HTTP for both protocol eras on one endpoint (MCP SDK v2).
 * - 2026-07-28 requests (a per-request `_meta` envelope, no handshake, `server/discover`) go to the SDK's
 *   `createMcpHandler`; 2025-era requests (initialize, then plain requests; revisions 2025-11-25,
 *   2025-06-18, 2025-03-26) to a fresh server and transport per request. `classifyInboundRequest` (the
 *   SDK's own routing step) decides which. The revisions served are one list (protocol-versions.ts).
 * - Answers are JSON, or one SSE event for a client that takes only text/event-stream; 406 when the Accept
 *   header allows neither (answer-type.ts).
 * - Each tools/call counts against the caller IP's open-data limits; beyond them the call returns a tool
 *   error saying when to retry. Requests the SDK would refuse before running anything are not counted.
 *   Answers carry the feeds' RateLimit-Policy, and RateLimit when calls were counted.
 * - Auth step (auth.ts): with `Authorization: Bearer <key>` the keyed tools (keyed/) are added, counted
 *   against the key's quotas like the keyed API; a bad token is a 401. Without the header, nothing changes.
 */
import express, { type Request, type Response } from 'express';
import {
  WebStandardStreamableHTTPServerTransport, classifyInboundRequest, createMcpHandler,
  isInitializeRequest, isJsonContentType, isSpecType, type InboundClassificationOutcome,
} from '@modelcontextprotocol/server';
import type { BuildRegistry } from '../builds/registry.ts';
import type { ReleaseShelf } from '../builds/releases.ts';
import { utcDay, type Clock } from '../http/clock.ts';
import { IpLimiter, type IpVerdict } from '../limits/ip-limiter.ts';
import { StoreUnavailableError } from '../store/types.ts';
import { NOT_ACCEPTABLE, answerType, asEventStream, type AnswerType } from './answer-type.ts';
import { ResultCache, directCall, modernHeadersAgree, type McpHeaders } from './direct-call.ts';
import { LEGACY_VERSIONS, withServedVersions } from './protocol-versions.ts';
import { createMcpServer, isToolName } from './server.ts';
import type { ToolDeps } from './tool-result.ts';
import { sendWebResponse, toWebRequest } from './web-bridge.ts';
import { apiKeyBearer, authStep, keyedCallHeaders, type BearerResolver } from './auth.ts';
import type { KeyedCallContext } from './keyed/run.ts';
import type { KeyedDeps } from '../keyed/middleware.ts';
import { directKeyedCall } from './keyed/direct.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface McpRouteDeps {
  registry: BuildRegistry;
  /** every kept release, for tool calls naming a `release` */
  shelf?: ReleaseShelf;
  limiter: IpLimiter;
  clientIp: (req: IncomingMessage) => string;
  clock: Clock;
  /**
   * when set, only these hosts are served (DNS-rebinding protection): an entry without a port matches
   * that host name on any port, an entry with a port matches that Host header exactly (case-insensitive)
   */
  allowedHosts?: string[];
  /** when set, requests with an Origin header must carry one of these */
  allowedOrigins?: string[];
  /** called with the number of a request's tool calls refused by the per-IP limit or by the bearer key's quota (metrics: refused calls, not requests) */
  onRefused?: (calls: number) => void;
  /**
   * answer plain tool calls without building an SDK server per request (direct-call.ts); default on.
   * Off: every request goes through the SDK (the reference the direct path is tested against).
   */
  directCalls?: boolean;
  /** the keyed API's deps: with them, a request with a valid `Authorization: Bearer <key>` gets the keyed tools too */
  keyed?: KeyedDeps;
  /** bearer token -> API key (default: the token is the API key); an OAuth access-token resolver plugs in here */
  resolveBearer?: BearerResolver;
  /**
   * The WWW-Authenticate of a 401 for a token that does not resolve, when OAuth is on (the protected resource
   * metadata, so a host can sign in again); null or absent: the auth step's own header
   */
  invalidTokenChallenge?: () => string | null;
}

const rpcError = (code: number, message: string, id: unknown = null) => ({ jsonrpc: '2.0', error: { code, message }, id });

const MCP_CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID',
  'Access-Control-Expose-Headers': 'Mcp-Session-Id, Mcp-Protocol-Version, Retry-After, WWW-Authenticate, X-RateLimit-Limit-Daily, X-RateLimit-Remaining-Daily, X-RateLimit-Limit-Monthly, X-RateLimit-Remaining-Monthly, X-RateLimit-Reset, RateLimit-Policy, RateLimit',
};

/** Make sure Accept lists both types the transport requires (plain JSON clients send only one). */
function normaliseAccept(req: IncomingMessage): void {
  const accept = String(req.headers.accept ?? '');
  if (accept.includes('application/json') && accept.includes('text/event-stream')) return;
  const value = 'application/json, text/event-stream';
  req.headers.accept = value;
  const raw = req.rawHeaders;
  let found = false;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'accept') {
      raw[i + 1] = value;
      found = true;
    }
  }
  if (!found) raw.push('Accept', value);
}

function hostAllowed(allowed: string[], hostHeader: string): boolean {
  const host = hostHeader.toLowerCase();
  let hostname: string | null = null;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    // not a valid host: only an exact entry can match
  }
  return allowed.some((a) => {
    const entry = a.trim().toLowerCase();
    return entry === host || (hostname !== null && entry === hostname);
  });
}

/**
 * Whether the transport can build the request's URL (from an absolute-form request target, or from the
 * Host header and the path). It answers a bare 400 with no body when it cannot (`Host: user@host`, a bad
 * port, `POST http://x:99999/mcp`); checked first so those get a JSON-RPC error like every other refusal.
 */
function transportCanBuildUrl(url: string, host: string | undefined): boolean {
  const q = url.indexOf('?');
  if ((q < 0 ? url : url.slice(0, q)).includes('\\')) return false;
  try {
    if (url.startsWith('http://') || url.startsWith('https://')) {
      const u = new URL(url);
      return u.username === '' && u.password === ''; // a web Request refuses a URL with credentials
    }
    if (!url.startsWith('/') || !host) return false;
    const u = new URL(`http://${host}/`);
    return u.hostname.length === host.length || u.hostname === host.replace(/:\d+$/, '').toLowerCase();
  } catch {
    return false;
  }
}

const idOf = (m: unknown): string | number | null => {
  const id = m && typeof m === 'object' ? (m as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};

/**
 * The JSON-RPC error for a body that is valid JSON but not valid JSON-RPC (-32600 invalid request), or a
 * tools/call without a tool name or with a "__proto__" argument (-32602 invalid params); null when every
 * message is well-formed. (The
 * transport itself answers these with -32700 "parse error" or -32603 "internal error".)
 */
function envelopeError(body: unknown): ReturnType<typeof rpcError> | null {
  const msgs = Array.isArray(body) ? body : [body];
  if (msgs.length === 0) return rpcError(-32600, 'invalid request: empty batch');
  for (const m of msgs) {
    if (!isSpecType.JSONRPCMessage(m)) {
      return rpcError(-32600, 'invalid request: expected a JSON-RPC 2.0 message {"jsonrpc": "2.0", "id", "method", "params"}', idOf(m));
    }
    if ((m as { method?: unknown }).method === 'tools/call' && !isSpecType.CallToolRequest(m)) {
      return rpcError(-32602, 'invalid params: tools/call needs params {"name": <tool name>, "arguments": {...}}', idOf(m));
    }
    // JSON.parse keeps "__proto__" as an own key, but the SDK copies the arguments by assignment, which
    // turns it into the object's prototype: the strict argument check would never see it. Refuse it here.
    const args = (m as { params?: { arguments?: unknown } }).params?.arguments;
    if ((m as { method?: unknown }).method === 'tools/call' && args && typeof args === 'object' && Object.hasOwn(args, '__proto__')) {
      return rpcError(-32602, 'invalid params: no tool takes the argument "__proto__" (tool arguments are strict: see tools/list)', idOf(m));
    }
  }
  return null;
}

/** The SDK's legacy transport takes at most this many messages in one batch (its MAX_BATCH_SIZE). */
const MAX_BATCH_SIZE = 100;

/**
 * Would the SDK refuse this POST before running anything? Its 2025-era transport answers 415 to a
 * Content-Type that is not JSON, 400 to an unsupported MCP-Protocol-Version, to a batch of more than
 * MAX_BATCH_SIZE messages and to an initialize request batched with others (Accept is normalised above,
 * so never 406); the 2026-07-28 path refuses what its validation ladder rejects (classification) and a
 * body that is not JSON. Those calls run no tool and are not counted.
 */
function sdkRefuses(req: IncomingMessage, body: unknown, route: InboundClassificationOutcome, headers: McpHeaders): boolean {
  if (!isJsonContentType(req.headers['content-type'] ?? null)) return true;
  if (route.kind === 'reject') return true;
  if (route.kind === 'modern') return route.messageKind === 'request' && !modernHeadersAgree(headers, route.message as { method: string; params?: Record<string, unknown> });
  const version = req.headers['mcp-protocol-version'];
  if (version !== undefined && !(typeof version === 'string' && (LEGACY_VERSIONS as readonly string[]).includes(version))) return true;
  // A batch over the transport's size limit, or an initialize request batched with anything, runs nothing.
  if (Array.isArray(body) && (body.length > MAX_BATCH_SIZE || (body.length > 1 && body.some((m) => isInitializeRequest(m))))) return true;
  return false;
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
};

function mcpHeaders(req: IncomingMessage): McpHeaders {
  return {
    version: header(req, 'mcp-protocol-version'),
    method: header(req, 'mcp-method'),
    name: header(req, 'mcp-name'),
    // Mcp-Param-* headers (tool arguments mirrored in headers, 2026-07-28)
    paramHeaders: Object.keys(req.headers).some((k) => k.startsWith('mcp-param-')),
  };
}

/** The SDK's own era decision (or validation-ladder rejection) for this POST. */
function classify(h: McpHeaders, body: unknown): InboundClassificationOutcome {
  return classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader: h.version, mcpMethodHeader: h.method, mcpNameHeader: h.name, body });
}

/**
 * The messages that count against the per-IP limit: calls of existing tools (an unknown tool name is a
 * JSON-RPC error that runs nothing and is not counted) and resource reads (a read serves a whole feed, as
 * its GET would).
 */
function countedCalls(body: unknown): number {
  const msgs = Array.isArray(body) ? body : [body];
  return msgs.filter((m) => {
    if (!m || typeof m !== 'object') return false;
    const { method, params, id } = m as { method?: unknown; params?: { name?: unknown }; id?: unknown };
    if (id === undefined) return false; // a notification runs nothing
    return (method === 'tools/call' && isToolName(params?.name)) || method === 'resources/read';
  }).length;
}

/**
 * Whether tool results may carry resource_link blocks: they exist from revision 2025-06-18 on. A 2025-era
 * request without MCP-Protocol-Version is, as the specification says, taken to be 2025-03-26.
 */
function linksAllowed(route: InboundClassificationOutcome, h: McpHeaders): boolean {
  if (route.kind !== 'legacy') return true;
  return h.version !== undefined && h.version >= '2025-06-18';
}

/** The request's URL for the SDK (checked by transportCanBuildUrl first). */
function requestUrl(req: IncomingMessage): string {
  try {
    return new URL((req as Partial<Request>).originalUrl ?? req.url ?? '/mcp', `http://${req.headers.host ?? 'localhost'}`).href;
  } catch {
    return 'http://localhost/mcp';
  }
}

/** Serve one 2025-era request: a fresh server and transport, answered as plain JSON. */
async function serveLegacy(request: globalThis.Request, body: unknown, deps: ToolDeps): Promise<globalThis.Response> {
  const server = createMcpServer(deps);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody: body });
  } finally {
    void server.close();
  }
}

/** A JSON-RPC answer written on Node's response (the bare path has no Express helpers). */
function sendRpc(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.statusCode = status;
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

/** The method of a single request (undefined for a batch or a message without one). */
const methodOf = (body: unknown): string | undefined => {
  const m = body && typeof body === 'object' && !Array.isArray(body) ? (body as { method?: unknown }).method : undefined;
  return typeof m === 'string' ? m : undefined;
};

/**
 * Write an answer: a JSON-RPC answer of status 200 as one SSE event when the client takes only
 * text/event-stream (answer-type.ts), anything else as it is.
 */
function writeAnswer(res: ServerResponse, status: number, contentType: string, body: string, type: AnswerType): void {
  res.statusCode = status;
  if (type === 'sse' && status === 200 && contentType.startsWith('application/json')) {
    res.setHeader('content-type', 'text/event-stream');
    res.setHeader('cache-control', 'no-cache');
    res.end(asEventStream(body));
    return;
  }
  res.setHeader('content-type', contentType);
  res.end(body);
}

/**
 * Write the SDK's answer. A JSON one is read first: on the 2026 path the SDK's `server/discover` and -32022
 * name only the 2026 revisions, so they get the endpoint's list (protocol-versions.ts).
 */
async function sendSdkAnswer(res: ServerResponse, response: globalThis.Response, type: AnswerType, modernMethod: string | null | undefined): Promise<void> {
  const contentType = response.headers.get('content-type') ?? '';
  if (!contentType.startsWith('application/json')) {
    await sendWebResponse(res, response);
    return;
  }
  let text = await response.text();
  // only a discover result or an error can name revisions: other answers are not parsed again
  if (modernMethod !== null && (modernMethod === 'server/discover' || response.status >= 400)) {
    try {
      const changed = withServedVersions(JSON.parse(text), modernMethod);
      if (changed) text = JSON.stringify(changed);
    } catch {
      // not JSON after all: sent as it is
    }
  }
  response.headers.forEach((value, key) => {
    if (key !== 'content-length' && key !== 'content-type') res.setHeader(key, value);
  });
  writeAnswer(res, response.status, contentType, text, type);
}

/** The largest request body taken (64 kB): larger ones get 413. */
const MAX_BODY = 64 * 1024;

/** The tool server: an Express router for every request to /mcp, and `serveFast`, its bare entry for plain POSTs. */
export interface McpRoute {
  router: express.Router;
  /**
   * Take a POST to exactly /mcp with a JSON body of a declared length (how MCP clients send every request)
   * without going through Express: the same checks and answers, less work per request. False: not such a
   * request, untouched; pass it to `router`.
   */
  serveFast(req: IncomingMessage, res: ServerResponse): boolean;
}

export function createMcpRouter(deps: McpRouteDeps): McpRoute {
  // The per-request tool deps of a 2026-07-28 request, found by the SDK's factory from the request object.
  const requestDeps = new WeakMap<globalThis.Request, ToolDeps>();
  const results = new ResultCache();
  const modern = createMcpHandler((ctx) => {
    const d = ctx.requestInfo && requestDeps.get(ctx.requestInfo);
    if (!d) throw new Error('mcp: no request context for a 2026-07-28 request');
    return createMcpServer(d);
  }, { legacy: 'reject', onerror: (err) => { if (/no request context/.test(err.message)) process.emitWarning(err.message); } });

  /** CORS on every answer; the Host and Origin allow-lists (403). False: answered. */
  function guard(req: IncomingMessage, res: ServerResponse): boolean {
    for (const [k, v] of Object.entries(MCP_CORS)) res.setHeader(k, v);
    if (deps.allowedHosts?.length && !hostAllowed(deps.allowedHosts, String(req.headers.host ?? ''))) {
      sendRpc(res, 403, rpcError(-32000, `host ${String(req.headers.host ?? '').slice(0, 100)} is not allowed`));
      return false;
    }
    const origin = req.headers.origin;
    if (origin && deps.allowedOrigins?.length && !deps.allowedOrigins.includes(origin)) {
      sendRpc(res, 403, rpcError(-32000, `origin ${origin.slice(0, 100)} is not allowed`));
      return false;
    }
    return true;
  }

  /** A POST whose body is parsed: checks, counting, then the direct path or the SDK. */
  async function handlePost(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    if (!transportCanBuildUrl(req.url ?? '', req.headers.host)) {
      sendRpc(res, 400, rpcError(-32600, 'invalid request target or Host header'));
      return;
    }
    const invalid = envelopeError(body);
    if (invalid) {
      sendRpc(res, 400, invalid);
      return;
    }
    const type = answerType(header(req, 'accept'));
    if (!type) {
      sendRpc(res, 406, rpcError(-32000, NOT_ACCEPTABLE, idOf(body)));
      return;
    }
    // the open feeds' RateLimit fields: the policy on every answer, the counts on one that counted calls
    res.setHeader('RateLimit-Policy', deps.limiter.policyHeader());
    // Auth step (auth.ts): no Authorization header -> open tools only; a valid bearer key -> the keyed tools too; else 401.
    const auth = deps.keyed && req.headers.authorization !== undefined ? await authStep(req, body, deps.resolveBearer ?? apiKeyBearer, deps.keyed) : {};
    if (auth.refusal) {
      const challenge = auth.refusal.status === 401 && /invalid_token/.test(auth.refusal.headers['WWW-Authenticate'] ?? '') ? deps.invalidTokenChallenge?.() : null;
      sendRpc(res, auth.refusal.status, auth.refusal.body, challenge ? { ...auth.refusal.headers, 'WWW-Authenticate': challenge } : auth.refusal.headers);
      return;
    }
    const keyed = auth.keyed;
    const headers = mcpHeaders(req);
    const route = classify(headers, body);
    // Each call is counted before it runs; when the IP's limit runs out part-way through a batch, the
    // calls counted so far run and the rest get the limit error (README: Tool server).
    let limited: string | null = null;
    let counted = 0;
    const refused = sdkRefuses(req, body, route, headers);
    const calls = refused ? 0 : countedCalls(body);
    for (let i = 0; i < calls && !limited; i++) {
      let v: IpVerdict;
      try {
        v = await deps.limiter.check(deps.clientIp(req));
      } catch (err) {
        if (err instanceof StoreUnavailableError) {
          sendRpc(res, 503, rpcError(-32000, 'service temporarily unavailable; retry shortly'), { 'Retry-After': '2' });
          return;
        }
        throw err;
      }
      res.setHeader('RateLimit', IpLimiter.rateLimitHeader(v));
      if (!v.allowed) {
        const retry = IpLimiter.retryAfter(v);
        limited = `Rate limit exceeded for this IP address (${v.limitedBy === 'day' ? `${v.limits.perDay} per day` : `${v.limits.perMinute} per minute`}, shared with the open data API); retry in ${retry} s.`;
        res.setHeader('Retry-After', String(retry));
        deps.onRefused?.(calls - counted); // this call and every later one of the batch
      } else counted++;
    }
    const toolDeps: ToolDeps = { build: deps.registry.current, day: utcDay(deps.clock()), limited, budget: { left: counted }, links: linksAllowed(route, headers), shelf: deps.shelf, keyed };
    let direct = deps.directCalls === false || refused ? null : directCall(route, body, toolDeps, headers, results);
    if (!direct && keyed && deps.directCalls !== false && !refused) direct = await directKeyedCall(route, body, keyed, headers);
    if (direct) {
      keyedDone(res, keyed);
      writeAnswer(res, direct.status, direct.contentType, direct.body, type);
      return;
    }
    normaliseAccept(req);
    const request = toWebRequest(req, requestUrl(req));
    let response: globalThis.Response;
    if (route.kind === 'legacy') response = await serveLegacy(request, body, toolDeps);
    else {
      requestDeps.set(request, toolDeps);
      response = await modern.fetch(request, { parsedBody: body });
    }
    keyedDone(res, keyed);
    await sendSdkAnswer(res, response, type, route.kind === 'legacy' ? null : methodOf(body));
  }

  /** After the request's keyed calls ran: their rate-limit headers, and each call refused by its key's quota counted as a refusal. */
  function keyedDone(res: ServerResponse, keyed: KeyedCallContext | undefined): void {
    for (const [k, v] of Object.entries(keyedCallHeaders(keyed))) res.setHeader(k, v);
    const overQuota = keyed?.calls.filter((c) => c.error?.kind === 'quota_exceeded').length ?? 0;
    if (overQuota > 0) deps.onRefused?.(overQuota);
  }

  function internalError(res: ServerResponse, err: unknown): void {
    process.emitWarning(`mcp: ${String((err as Error)?.stack ?? err)}`);
    if (!res.headersSent) sendRpc(res, 500, rpcError(-32603, 'internal error'));
    else res.destroy();
  }

  const r = express.Router();
  r.use((req, res, next) => {
    if (guard(req, res)) next();
  });
  r.options('/', (_req, res) => {
    res.set('Access-Control-Max-Age', '86400').status(204).end();
  });
  r.post('/', express.json({ limit: MAX_BODY, type: () => true, strict: false }), (req: Request, res: Response) => {
    handlePost(req, res, req.body).catch((err: unknown) => internalError(res, err));
  });
  r.all('/', (req, res) => {
    sendRpc(res, 405, rpcError(-32000, `method ${req.method} not allowed: this stateless MCP endpoint takes POST only`), { Allow: 'POST, OPTIONS' });
  });
  // Body parse errors (malformed JSON, too large) as JSON-RPC errors.
  r.use((err: { type?: string; status?: number; message?: string }, _req: Request, res: Response, _next: express.NextFunction) => {
    if (err.type === 'entity.parse.failed') sendRpc(res, 400, rpcError(-32700, 'parse error: the body is not valid JSON'));
    else if (err.type === 'entity.too.large') sendRpc(res, 413, rpcError(-32600, 'request body too large (limit 64 kB)'));
    else if (err.status && err.status < 500) sendRpc(res, err.status, rpcError(-32600, err.message ?? 'bad request'));
    else internalError(res, err);
  });

  function serveFast(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'POST' || req.url !== '/mcp') return false;
    const type = req.headers['content-type'];
    if (!isJsonContentType(type ?? null) || (/charset=/i.test(type!) && !/charset="?utf-8"?\s*(?:;|$)/i.test(type!))) return false;
    const length = Number(req.headers['content-length']);
    if (!(length >= 0 && length <= MAX_BODY) || req.headers['transfer-encoding'] !== undefined) return false;
    if (!guard(req, res)) {
      req.resume();
      return true;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', () => res.destroy());
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        // as express.json: an empty body is {}
        body = text.length === 0 ? {} : JSON.parse(text);
      } catch {
        sendRpc(res, 400, rpcError(-32700, 'parse error: the body is not valid JSON'));
        return;
      }
      handlePost(req, res, body).catch((err: unknown) => internalError(res, err));
    });
    return true;
  }

  return { router: r, serveFast };
}
