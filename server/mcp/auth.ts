/**
 * The tool server's authentication step: who a POST to /mcp speaks for.
 * - No Authorization header: the open tools only, as an anonymous caller (counted per IP, unchanged).
 * - `Authorization: Bearer <token>`: the token is resolved to an API key by an injected BearerResolver
 *   (default: the token is the API key itself; an OAuth access token resolver can take its place), then the
 *   key is looked up in the service store. A valid, unrevoked key adds the keyed tools (keyed/tools.ts).
 * - Anything else (another scheme, an empty token, a token that resolves to nothing, a revoked key): 401
 *   with `WWW-Authenticate: Bearer error="..."` (RFC 6750) and a JSON-RPC error body. A key whose
 *   subscription is not active is still identified here: its keyed calls get the keyed API's 403 message.
 */
import type { IncomingMessage } from 'node:http';
import { hashKey, KEY_PATTERN } from '../keyed/keys.ts';
import { rateHeaders, type KeyedDeps } from '../keyed/middleware.ts';
import type { KeyedCallContext } from './keyed/run.ts';
import { StoreUnavailableError, type ApiKeyRecord } from '../store/types.ts';

/** The API key a bearer token stands for, by its SHA-256 hash (keys are stored only as hashes). */
export interface BearerKey {
  keyHash: string;
}

/** Map a bearer token to the API key it stands for; null: the token is not valid. */
export type BearerResolver = (token: string) => Promise<BearerKey | null>;

/** The default resolver: the bearer token is a physpay API key (`pcb_live_...`). */
export const apiKeyBearer: BearerResolver = async (token) => (KEY_PATTERN.test(token) ? { keyHash: hashKey(token) } : null);

/** Who the request speaks for. */
export type McpCaller =
  | { kind: 'anonymous' }
  | { kind: 'key'; keyHash: string; key: ApiKeyRecord }
  | { kind: 'refused'; status: 401; wwwAuthenticate: string; message: string };

const refuse = (error: 'invalid_request' | 'invalid_token', message: string): McpCaller => ({
  kind: 'refused',
  status: 401,
  wwwAuthenticate: `Bearer error="${error}", error_description="${message}"`,
  message,
});

/** Resolve the request's Authorization header. The token is never logged or echoed. */
export async function authenticateMcp(req: IncomingMessage, resolve: BearerResolver, keyed: Pick<KeyedDeps, 'store'>): Promise<McpCaller> {
  const raw = req.headers.authorization;
  if (raw === undefined) return { kind: 'anonymous' };
  const m = /^Bearer[ ]+([^\s]+)\s*$/i.exec(raw);
  if (!m) return refuse('invalid_request', 'send your API key as Authorization: Bearer <key>');
  const found = await resolve(m[1]!);
  if (!found) return refuse('invalid_token', 'invalid API key or access token');
  const key = await keyed.store.findKeyByHash(found.keyHash);
  if (!key || key.revoked_at) return refuse('invalid_token', 'invalid API key or access token');
  return { kind: 'key', keyHash: found.keyHash, key };
}

/** The rate-limit headers (and Retry-After of a refusal) of a request that made exactly one keyed call, else {}. */
export function keyedCallHeaders(ctx: KeyedCallContext | undefined): Record<string, string> {
  if (!ctx || ctx.calls.length !== 1) return {};
  const { locals, error } = ctx.calls[0]!;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...rateHeaders(locals), ...(error?.kind === 'quota_exceeded' ? error.headers : {}) })) out[k] = String(v);
  return out;
}

/** The auth step's outcome: the request's keyed context (absent: anonymous), or the answer that refuses it. */
export type AuthOutcome =
  | { keyed?: KeyedCallContext; refusal?: undefined }
  | { keyed?: undefined; refusal: { status: number; body: unknown; headers: Record<string, string> } };

const rpcId = (body: unknown): string | number | null => {
  const id = body && typeof body === 'object' && !Array.isArray(body) ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};

/**
 * The route's auth step for a request with an Authorization header: the keyed context of a valid key, or a
 * refusal as a JSON-RPC error (401 with WWW-Authenticate; 503 with Retry-After when the store is down).
 */
export async function authStep(req: IncomingMessage, body: unknown, resolve: BearerResolver, deps: KeyedDeps): Promise<AuthOutcome> {
  let caller: McpCaller;
  try {
    caller = await authenticateMcp(req, resolve, deps);
  } catch (err) {
    if (err instanceof StoreUnavailableError || (err as { code?: string }).code === 'SQLITE_BUSY') {
      return { refusal: { status: 503, body: { jsonrpc: '2.0', error: { code: -32000, message: 'service temporarily unavailable; retry shortly' }, id: rpcId(body) }, headers: { 'Retry-After': '2' } } };
    }
    throw err;
  }
  if (caller.kind === 'anonymous') return {};
  if (caller.kind === 'refused') {
    return { refusal: { status: caller.status, body: { jsonrpc: '2.0', error: { code: -32001, message: `unauthorized: ${caller.message}` }, id: rpcId(body) }, headers: { 'WWW-Authenticate': caller.wwwAuthenticate } } };
  }
  return { keyed: { keyHash: caller.keyHash, deps, calls: [] } };
}
