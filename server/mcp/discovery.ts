/**
 * GET /.well-known/mcp.json: a discovery document naming the endpoint and its tools, made from the
 * server's own tools/list (asked in-process), so it cannot drift from what /mcp serves.
 */
import { createMcpHandler } from '@modelcontextprotocol/server';
import { createMcpServer } from './server.ts';
import { SERVER_JSON_PATH } from './registry.ts';
import { MODERN_VERSION, PROTOCOL_VERSIONS } from './protocol-versions.ts';
import { KEYED_TOOL_NAMES } from './keyed/tools.ts';

export interface McpDiscovery {
  name: string;
  title: string;
  description: string;
  endpoint: string;
  transport: 'streamable-http';
  /** the MCP protocol revisions served, newest first */
  protocol_versions: string[];
  /** the open tools need none */
  authentication: 'none';
  /** subscribers: the keyed tools, added with an API key or an OAuth access token as a Bearer token */
  subscriber_authorization: {
    scheme: 'bearer';
    keyed_tools: string[];
    /** RFC 9728 protected resource metadata (OAuth 2.1 authorization server, dynamic client registration) */
    protected_resource_metadata: string;
    /** the address to give an assistant that signs in with OAuth: 401 with the challenge until it has a token */
    signin_endpoint: string;
  };
  tools: { name: string; title?: string; description?: string }[];
  license: string;
  documentation: string;
  /** this server's server.json for the official MCP registry */
  server_json: string;
}

/** Request `method` of a server of ours in-process, as a 2026-07-28 client would (no network). */
export async function askInProcess<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
  const handler = createMcpHandler(() => createMcpServer({ build: null, day: '1970-01-01', limited: null }), { legacy: 'reject' });
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientInfo': { name: 'physpay-discovery', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const res = await handler.fetch(new Request('http://localhost/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': method },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }),
  }));
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  await handler.close();
  if (!body.result) throw new Error(`mcp: in-process ${method} failed: ${body.error?.message ?? res.status}`);
  return body.result;
}

let cached: Promise<McpDiscovery['tools']> | null = null;

export function toolList(): Promise<McpDiscovery['tools']> {
  cached ??= askInProcess<{ tools: McpDiscovery['tools'] }>('tools/list')
    .then(({ tools }) => tools.map((t) => ({ name: t.name, title: t.title, description: t.description })));
  return cached;
}

export async function discoveryDocument(baseUrl: string): Promise<McpDiscovery> {
  return {
    name: 'physpay',
    title: 'PhysPay physician compensation data',
    description: 'Physician compensation benchmarks (attending pay by specialty and state, compensation per wRVU, resident pay scales) from approved, self-reported salary reports. Same figures as the open data API.',
    endpoint: `${baseUrl}/mcp`,
    transport: 'streamable-http',
    protocol_versions: [...PROTOCOL_VERSIONS],
    authentication: 'none',
    subscriber_authorization: {
      scheme: 'bearer',
      keyed_tools: [...KEYED_TOOL_NAMES],
      protected_resource_metadata: `${baseUrl}/.well-known/oauth-protected-resource/mcp`,
      signin_endpoint: `${baseUrl}/mcp?signin`,
    },
    tools: await toolList(),
    license: 'CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)',
    documentation: `${baseUrl}/methodology`,
    server_json: `${baseUrl}${SERVER_JSON_PATH}`,
  };
}
