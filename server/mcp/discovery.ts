/**
 * GET /.well-known/mcp.json: a discovery document naming the endpoint and its tools, made from the
 * server's own tools/list (through an in-memory client), so it cannot drift from what /mcp serves.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from './server.ts';

export interface McpDiscovery {
  name: string;
  title: string;
  description: string;
  endpoint: string;
  transport: 'streamable-http';
  authentication: 'none';
  tools: { name: string; title?: string; description?: string }[];
  license: string;
  documentation: string;
}

let cached: Promise<McpDiscovery['tools']> | null = null;

export function toolList(): Promise<McpDiscovery['tools']> {
  cached ??= (async () => {
    const server = createMcpServer({ build: null, day: '1970-01-01', limited: null });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'physpay-discovery', version: '1.0.0' });
    await server.connect(a);
    await client.connect(b);
    const { tools } = await client.listTools();
    await client.close();
    await server.close();
    return tools.map((t) => ({ name: t.name, title: t.title, description: t.description }));
  })();
  return cached;
}

export async function discoveryDocument(baseUrl: string): Promise<McpDiscovery> {
  return {
    name: 'physpay',
    title: 'PhysPay physician compensation data',
    description: 'Physician compensation benchmarks (attending pay by specialty and state, compensation per wRVU, resident pay scales) from approved, self-reported salary reports. Same figures as the open data API.',
    endpoint: `${baseUrl}/mcp`,
    transport: 'streamable-http',
    authentication: 'none',
    tools: await toolList(),
    license: 'CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)',
    documentation: `${baseUrl}/methodology`,
  };
}
