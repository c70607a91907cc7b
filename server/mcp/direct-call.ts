/**
 * The direct path for the one request assistants send most: a single `tools/call` of a known tool with
 * valid arguments. It runs the same tool definition through the same runTool as the SDK path and writes the
 * result the SDK would write for that era, without building an McpServer and a transport for the request
 * (which is where a call's time went: see README, Tool server, Speed). Anything else (another method, a
 * batch, arguments the input schema refuses, extra headers or params it does not know) returns null and is
 * served by the SDK, which stays the reference: a test sends every tool call through both paths and
 * compares the answers.
 */
import type { InboundClassificationOutcome } from '@modelcontextprotocol/server';
import { MODERN_VERSION } from './protocol-versions.ts';
import { SERVER_INFO } from './server.ts';
import { runTool, type ToolDeps } from './tool-result.ts';
import { toolNamed } from './tools/index.ts';

/** Keys a direct call's params may hold; anything else goes to the SDK. */
const PARAM_KEYS = new Set(['name', 'arguments', '_meta']);

export interface DirectAnswer {
  status: number;
  contentType: string;
  body: string;
}

export interface CallMessage {
  jsonrpc: '2.0';
  id: string | number;
  method: string;
  params?: { name?: unknown; arguments?: unknown; _meta?: unknown };
}

function asCall(m: unknown): CallMessage | null {
  if (!m || typeof m !== 'object' || Array.isArray(m)) return null;
  const c = m as CallMessage;
  if (c.method !== 'tools/call' || (typeof c.id !== 'string' && typeof c.id !== 'number')) return null;
  const p = c.params;
  if (!p || typeof p !== 'object') return null;
  for (const k of Object.keys(p)) if (!PARAM_KEYS.has(k)) return null;
  return c;
}

/** The MCP routing headers of a request (single values; absent: undefined). */
export interface McpHeaders {
  version?: string;
  method?: string;
  name?: string;
  /** whether any Mcp-Param-* header is present (validated by the SDK only) */
  paramHeaders: boolean;
}

export { MODERN_VERSION };

/** Which body field the Mcp-Name header mirrors, per method (the SDK's table, SEP-2243). */
const NAME_SOURCE: Record<string, string> = {
  'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId',
};

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** An Mcp-Name value as the SDK reads it: spaces and tabs trimmed, a `=?base64?...?=` sentinel decoded (undefined: invalid). */
export function decodeNameHeader(raw: string): string | undefined {
  const v = raw.replace(/^[ \t]+|[ \t]+$/g, '');
  if (!(v.startsWith('=?base64?') && v.endsWith('?='))) return v;
  const b64 = v.slice(9, v.length - 2);
  if (!BASE64.test(b64)) return undefined;
  const text = Buffer.from(b64, 'base64').toString('utf8');
  return Buffer.from(text, 'utf8').toString('base64') === b64 ? text : undefined;
}

/**
 * Do a 2026-07-28 request's headers agree with its body, as the SDK requires before it runs anything
 * (MCP-Protocol-Version and Mcp-Method present and equal to the envelope's version and the method; Mcp-Name,
 * for the methods that have one, equal to the name, URI or task id it mirrors)? When they do not, the SDK
 * answers -32020 and nothing runs. The same rules as the SDK's standard-header check, so that what is
 * counted is exactly what runs.
 */
export function modernHeadersAgree(h: McpHeaders, message: { method: string; params?: Record<string, unknown> }): boolean {
  if (h.version !== MODERN_VERSION || h.method !== message.method) return false;
  const field = NAME_SOURCE[message.method];
  if (!field) return true;
  const params = message.params;
  const bodyValue = params && typeof params === 'object' && !Array.isArray(params) && typeof params[field] === 'string' ? params[field] : undefined;
  if (h.name === undefined) return bodyValue === undefined;
  const decoded = decodeNameHeader(h.name);
  return decoded !== undefined && (bodyValue === undefined || decoded === bodyValue);
}

/**
 * `body` when it is a plain tool call of either era that the direct path may answer (its era: `modern`),
 * else null: no Mcp-Param-* headers, one tools/call with only name, arguments and _meta, 2026-07-28 headers
 * that agree with the body, no 2025 progress token.
 */
export function plainCall(route: InboundClassificationOutcome, body: unknown, headers: McpHeaders): { call: CallMessage; modern: boolean } | null {
  if (headers.paramHeaders) return null;
  let modern: boolean;
  if (route.kind === 'legacy' && route.reason === 'no-claim') modern = false;
  else if (route.kind === 'modern' && route.messageKind === 'request') modern = true;
  else return null;
  const call = asCall(body);
  if (!call) return null;
  if (modern && !modernHeadersAgree(headers, call as { method: string; params?: Record<string, unknown> })) return null;
  const legacyMeta = call.params?._meta;
  // a 2025 progress token asks for notifications during the call: the SDK's business
  if (!modern && legacyMeta !== undefined && (typeof legacyMeta !== 'object' || legacyMeta === null || Object.keys(legacyMeta).length > 0)) return null;
  return { call, modern };
}

/** The JSON-RPC answer text of a tool result, as the SDK writes it for the era (`head` + the id + `}`). */
export function resultHead(result: object, modern: boolean): string {
  const payload = modern ? { ...result, resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO } } : result;
  return `{"result":${JSON.stringify(payload)},"jsonrpc":"2.0","id":`;
}

/**
 * Answer `body` directly when it is a plain tool call of either era (null: let the SDK serve it).
 * `route` is the SDK's classification of the request; `cache` keeps results for identical calls.
 */
export function directCall(route: InboundClassificationOutcome, body: unknown, deps: ToolDeps, headers: McpHeaders, cache?: ResultCache): DirectAnswer | null {
  const plain = plainCall(route, body, headers);
  if (!plain) return null;
  const { call, modern } = plain;
  const tool = toolNamed(call.params?.name);
  if (!tool) return null;
  if (call.params?.arguments === undefined) return null;
  const parsed = tool.inputSchema.safeParse(call.params.arguments);
  if (!parsed.success) return null;
  // a call on an earlier release reads that release's build (loaded on demand): the SDK's path
  if ((parsed.data as { release?: unknown }).release) return null;
  // A result is a pure function of the build, the access day and the arguments: kept (as the JSON text
  // before the id) for the next identical call. Calls over the limit or without a build are not kept.
  const key = deps.build && !deps.limited ? `${modern ? 'm' : 'l'}${deps.links === false ? '-' : '+'}\0${deps.build.id}\0${deps.day}\0${tool.name}\0${JSON.stringify(parsed.data)}` : null;
  let head = key === null || !cache ? undefined : cache.get(key);
  if (head === undefined) {
    head = resultHead(runTool(deps, tool, parsed.data as never), modern);
    if (key !== null) cache?.set(key, head);
  }
  return { status: 200, contentType: 'application/json', body: `${head}${JSON.stringify(call.id)}}` };
}

/** Results of recent direct calls (the JSON text before the id), least recently used first: a bounded LRU. */
export class ResultCache {
  private readonly entries = new Map<string, string>();
  constructor(readonly capacity = 512) {}

  get(key: string): string | undefined {
    const head = this.entries.get(key);
    if (head !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, head);
    }
    return head;
  }

  set(key: string, head: string): void {
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, head);
  }

  get size(): number {
    return this.entries.size;
  }
}
