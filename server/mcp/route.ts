/**
 * POST /mcp: stateless Streamable HTTP. Every request gets a fresh McpServer and transport (reusing
 * either leaks responses between clients), answered as plain JSON. Clients that send only
 * `Accept: application/json` are served too. Each tools/call counts against the caller IP's open-data
 * limits; beyond them the call returns a tool error saying when to retry.
 */
import express, { type Request, type Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { BuildRegistry } from '../builds/registry.ts';
import { utcDay, type Clock } from '../http/clock.ts';
import { IpLimiter, type IpVerdict } from '../limits/ip-limiter.ts';
import { StoreUnavailableError } from '../store/types.ts';
import { createMcpServer, isToolName } from './server.ts';
import type { IncomingMessage } from 'node:http';

export interface McpRouteDeps {
  registry: BuildRegistry;
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
  /** called once per request whose tool call was refused by the per-IP limit (metrics) */
  onRefused?: () => void;
}

const rpcError = (code: number, message: string, id: unknown = null) => ({ jsonrpc: '2.0', error: { code, message }, id });

const MCP_CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
  'Access-Control-Expose-Headers': 'Mcp-Session-Id, Mcp-Protocol-Version, Retry-After',
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
      new URL(url);
      return true;
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
    if (!JSONRPCMessageSchema.safeParse(m).success) {
      return rpcError(-32600, 'invalid request: expected a JSON-RPC 2.0 message {"jsonrpc": "2.0", "id", "method", "params"}', idOf(m));
    }
    if ((m as { method?: unknown }).method === 'tools/call' && !CallToolRequestSchema.safeParse(m).success) {
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

/**
 * Would the SDK transport refuse this POST before running anything? It answers 415 to a Content-Type that
 * is not JSON, 400 to an unsupported MCP-Protocol-Version, to a batch of more than MAX_BATCH_SIZE messages
 * and to an initialize request batched with others (Accept is normalised above, so never 406).
 * Those calls run no tool and are not counted. The checks are the transport's own (same helpers).
 */
function transportRefuses(req: Request, body: unknown): boolean {
  const version = req.headers['mcp-protocol-version'];
  if (version !== undefined && !(typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return true;
  if (!isJsonContentType(req.headers['content-type'] ?? null)) return true;
  // A batch over the transport's size limit, or an initialize request batched with anything, runs nothing.
  if (Array.isArray(body) && (body.length > MAX_BATCH_SIZE || (body.length > 1 && body.some((m) => isInitializeRequest(m))))) return true;
  return false;
}

/** Calls of existing tools: an unknown tool name is a JSON-RPC error that runs nothing and is not counted. */
function toolCallCount(body: unknown): number {
  const msgs = Array.isArray(body) ? body : [body];
  return msgs.filter((m) => m && typeof m === 'object' && (m as { method?: unknown }).method === 'tools/call'
    && isToolName((m as { params?: { name?: unknown } }).params?.name)).length;
}

export function createMcpRouter(deps: McpRouteDeps): express.Router {
  const r = express.Router();
  const validator = new AjvJsonSchemaValidator(); // stateless; shared by this router's per-request servers
  r.use((req, res, next) => {
    res.set(MCP_CORS);
    if (deps.allowedHosts?.length && !hostAllowed(deps.allowedHosts, String(req.headers.host ?? ''))) {
      res.status(403).json(rpcError(-32000, `host ${String(req.headers.host ?? '').slice(0, 100)} is not allowed`));
      return;
    }
    const origin = req.headers.origin;
    if (origin && deps.allowedOrigins?.length && !deps.allowedOrigins.includes(origin)) {
      res.status(403).json(rpcError(-32000, `origin ${origin.slice(0, 100)} is not allowed`));
      return;
    }
    next();
  });
  r.options('/', (_req, res) => {
    res.set('Access-Control-Max-Age', '86400').status(204).end();
  });
  r.post(
    '/',
    express.json({ limit: '64kb', type: () => true, strict: false }),
    async (req: Request, res: Response) => {
      if (!transportCanBuildUrl(req.url, req.headers.host)) {
        res.status(400).json(rpcError(-32600, 'invalid request target or Host header'));
        return;
      }
      const body: unknown = req.body;
      const invalid = envelopeError(body);
      if (invalid) {
        res.status(400).json(invalid);
        return;
      }
      // Each call is counted before it runs; when the IP's limit runs out part-way through a batch, the
      // calls counted so far run and the rest get the limit error (README: Tool server).
      let limited: string | null = null;
      let counted = 0;
      const calls = transportRefuses(req, body) ? 0 : toolCallCount(body);
      for (let i = 0; i < calls && !limited; i++) {
        let v: IpVerdict;
        try {
          v = await deps.limiter.check(deps.clientIp(req));
        } catch (err) {
          if (err instanceof StoreUnavailableError) {
            res.status(503).set('Retry-After', '2').json(rpcError(-32000, 'service temporarily unavailable; retry shortly'));
            return;
          }
          throw err;
        }
        if (!v.allowed) {
          const retry = IpLimiter.retryAfter(v);
          limited = `Rate limit exceeded for this IP address (${v.limitedBy === 'day' ? `${v.limits.perDay} per day` : `${v.limits.perMinute} per minute`}, shared with the open data API); retry in ${retry} s.`;
          res.set('Retry-After', String(retry));
          deps.onRefused?.();
        } else counted++;
      }
      normaliseAccept(req);
      const server = createMcpServer({ build: deps.registry.current, day: utcDay(deps.clock()), limited, budget: { left: counted } }, validator);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    },
  );
  r.all('/', (req, res) => {
    res.status(405).set('Allow', 'POST, OPTIONS').json(rpcError(-32000, `method ${req.method} not allowed: this stateless MCP endpoint takes POST only`));
  });
  // Body parse errors (malformed JSON, too large) as JSON-RPC errors.
  r.use((err: { type?: string; status?: number; message?: string }, _req: Request, res: Response, _next: express.NextFunction) => {
    if (err.type === 'entity.parse.failed') res.status(400).json(rpcError(-32700, 'parse error: the body is not valid JSON'));
    else if (err.type === 'entity.too.large') res.status(413).json(rpcError(-32600, 'request body too large (limit 64 kB)'));
    else if (err.status && err.status < 500) res.status(err.status).json(rpcError(-32600, err.message ?? 'bad request'));
    else {
      process.emitWarning(`mcp: ${String(err.message)}`);
      if (!res.headersSent) res.status(500).json(rpcError(-32603, 'internal error'));
    }
  });
  return r;
}
