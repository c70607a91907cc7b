/**
 * Shared set-up of the tool server tests: a real server (port 0) over the golden build (useGoldenDir) with
 * an injected clock, SDK clients over Streamable HTTP, raw JSON-RPC POSTs, and the open feeds of the same
 * server.
 */
import http from 'node:http';
import { join } from 'node:path';
import { expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { get, keepAliveAgent, type HttpResponse } from '../helpers/http.ts';
import { startTestServer } from '../helpers/server.ts';
import type { RunningServer, ServerConfig } from '../../server/main.ts';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { BuildRegistry } from '../../server/builds/registry.ts';
import type { LoadedBuild } from '../../server/builds/loaded-build.ts';
import { createMcpServer } from '../../server/mcp/server.ts';

export const V1 = '/data/api/v1';
export const TOOL_NAMES = ['list_specialties', 'get_specialty_pay', 'compare_specialties', 'get_wrvu_rate', 'get_resident_pay', 'evaluate_compensation', 'evaluate_offer'];

/** A server on 127.0.0.1, port 0, over `dist` (own service DB `<work>/service-<name>.db`, no metrics), with the given clock and settings. */
export async function serveGolden(work: string, dist: string, name: string, clock: () => Date, extra: Partial<ServerConfig> = {}): Promise<RunningServer> {
  return startTestServer(dist, join(work, `service-${name}.db`), { metrics: false, clock, ...extra });
}

/** An SDK client connected over Streamable HTTP (it initializes on connect). */
export async function connectClient(url: string, name = 'physpay-test'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  return client;
}

/** Any SDK client (v1 or v2): both have callTool. */
export interface ToolCaller { callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown> }

export async function callTool(client: ToolCaller, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A resource_link content block of a tool result. */
export interface ResultLink { type: 'resource_link'; uri: string; name: string; title?: string; mimeType?: string }

/** The text block of a tool result: its first block; any blocks after it are resource_links (linksOf). */
export function textOf(r: CallToolResult): string {
  expect(r.content.length, JSON.stringify(r.content).slice(0, 300)).toBeGreaterThanOrEqual(1);
  const [block, ...rest] = r.content;
  expect(block!.type).toBe('text');
  for (const b of rest) expect(b.type, JSON.stringify(b).slice(0, 200)).toBe('resource_link');
  return (block as { text: string }).text;
}

/** The resource_link blocks of a tool result (after its text block). */
export function linksOf(r: CallToolResult): ResultLink[] {
  return r.content.slice(1) as unknown as ResultLink[];
}

/**
 * A successful result: no error flag, a text block, its structuredContent and its resource_links: the
 * first is the document's own feed (its feed_url, JSON), any other the CSV of the same feed.
 */
export function okResult<T = Record<string, unknown>>(r: CallToolResult): { text: string; doc: T; links: ResultLink[] } {
  expect(r.isError ?? false, JSON.stringify(r.content).slice(0, 300)).toBe(false);
  expect(r.structuredContent).toBeTypeOf('object');
  const text = textOf(r);
  const links = linksOf(r);
  const feedUrl = (r.structuredContent as { feed_url?: unknown }).feed_url;
  if (typeof feedUrl === 'string') {
    expect(links.length, `resource_links of ${feedUrl}`).toBeGreaterThanOrEqual(1);
    expect(links.length, `resource_links of ${feedUrl}`).toBeLessThanOrEqual(2);
    expect(links[0]).toMatchObject({ type: 'resource_link', uri: feedUrl, mimeType: 'application/json' });
    for (const l of links.slice(1)) expect(l).toMatchObject({ uri: feedUrl.replace(/\.json$/, '.csv'), mimeType: 'text/csv' });
  }
  for (const l of links) {
    expect(l.name, l.uri).toBeTruthy();
    expect(l.title, l.uri).toBeTruthy();
  }
  return { text, doc: r.structuredContent as T, links };
}

/** A tool error: isError true, one text block (no links), no structuredContent. */
export function errorText(r: CallToolResult): string {
  expect(r.isError, JSON.stringify(r).slice(0, 300)).toBe(true);
  expect(r.structuredContent).toBeUndefined();
  expect(r.content).toHaveLength(1);
  return textOf(r);
}

/** GET an open feed of the same server, parsed (expects 200). */
export async function feed<T = Record<string, unknown>>(url: string, path: string): Promise<T> {
  const r = await get(url, `${V1}${path}`);
  expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBe(200);
  return r.json<T>();
}

/** Raw POST to /mcp on node:http: the headers are exactly those given (plus Host and Content-Length). */
export function rawPost(url: string, body: string | Buffer, headers: Record<string, string>, path = '/mcp'): Promise<HttpResponse> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: Number(u.port), method: 'POST', path, headers: { 'content-length': String(Buffer.byteLength(body)), ...headers }, agent: keepAliveAgent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const buf = Buffer.concat(chunks);
          const text = buf.toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: buf, text, json: <T>() => JSON.parse(text) as T });
        });
      },
    );
    req.setTimeout(15_000, () => req.destroy(new Error('raw POST /mcp timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

export const JSON_ONLY = { 'content-type': 'application/json', accept: 'application/json' };
export const BOTH = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export const rpc = (id: number | string, method: string, params?: Record<string, unknown>) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });

export const initializeBody = (id: number | string = 1) =>
  rpc(id, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-json-client', version: '1.0.0' } });

export const toolCallBody = (id: number | string, name: string, args: Record<string, unknown> = {}) => rpc(id, 'tools/call', { name, arguments: args });

/** A JSON-RPC error response: its code and message (checks the envelope). */
export function rpcErrorOf(r: HttpResponse): { code: number; message: string; id: unknown } {
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  const body = r.json<{ jsonrpc: string; error: { code: number; message: string }; id: unknown }>();
  expect(body.jsonrpc).toBe('2.0');
  expect(body.error).toBeTypeOf('object');
  expect(typeof body.error.code).toBe('number');
  expect(typeof body.error.message).toBe('string');
  return { ...body.error, id: body.id };
}

/** How the tool text writes a dollar figure. */
export const usd = (v: number) => `$${v.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;

/**
 * The tool server in-process over the build of `dist` (its `current`), connected to an SDK v2 client through
 * an in-memory transport pair: no HTTP, no limits. `close` ends both sides.
 */
export async function inMemoryClient(dist: string, day: string, name: string): Promise<{ build: LoadedBuild; client: V2Client; close: () => Promise<void> }> {
  const registry = new BuildRegistry(dist);
  await registry.check();
  const build = registry.current!;
  const server = createMcpServer({ build, day, limited: null });
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new V2Client({ name, version: '1.0.0' });
  await server.connect(a);
  await client.connect(b);
  return { build, client, close: async () => { await client.close(); await server.close(); } };
}
