/**
 * createMcpServer(deps): a fresh MCP server (SDK v2) with the seven read-only tools (tools/*.ts). The same
 * factory serves both protocol eras: 2026-07-28 requests and the 2025 revisions (route.ts).
 */
import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { PROTOCOL_VERSIONS } from './protocol-versions.ts';
import { READ_ONLY } from './tool-definition.ts';
import { listedInputSchema, listedOutputSchema } from './schemas.ts';
import { runToolOnRelease, type ToolDeps } from './tool-result.ts';
import { TOOLS } from './tools/index.ts';
import { MCP_CACHE_HINTS, registerResources } from './resources/index.ts';
import { registerPrompts } from './prompts/index.ts';
import { registerApps } from './apps/index.ts';
import { registerKeyedTools } from './keyed/register.ts';

export { TOOL_NAMES, isToolName } from './tools/index.ts';

/** physpay's own version (package.json): the server's version in MCP and in the registry's server.json. */
const VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export const SERVER_INFO = { name: 'physpay', title: 'PhysPay physician compensation data', version: VERSION } as const;

export const INSTRUCTIONS = 'Physician compensation benchmarks from approved, self-reported salary reports (CC BY 4.0). When quoting a figure, give n, as_of, say it is self-reported, and include the attribution line (it links the citation_url). Null figures are withheld below publication floors: do not estimate them.';

/** One shared validator (the SDK's default builds a new Ajv per server, i.e. per request); used only for elicitation, which these tools never do. */
const validator = new AjvJsonSchemaValidator();

/** Each tool's input and output schema as tools/list gives them, made once (not for every server, i.e. every SDK request). */
const LISTED = new Map(TOOLS.map((t) => [t.name, { input: listedInputSchema(t.inputSchema), output: listedOutputSchema(t.outputSchema, t.listed) }]));

export function createMcpServer(deps: ToolDeps): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    jsonSchemaValidator: validator,
    instructions: INSTRUCTIONS,
    cacheHints: MCP_CACHE_HINTS,
    // the 2025 transport's MCP-Protocol-Version check and the initialize negotiation use this list
    supportedProtocolVersions: [...PROTOCOL_VERSIONS],
  });
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: LISTED.get(tool.name)!.input as unknown as typeof tool.inputSchema,
        outputSchema: LISTED.get(tool.name)!.output as unknown as typeof tool.outputSchema,
        annotations: READ_ONLY,
        ...(tool.meta ? { _meta: tool.meta } : {}),
      },
      async (args: unknown) => runToolOnRelease(deps, tool, args as never),
    );
  }
  if (deps.keyed) registerKeyedTools(server, deps.keyed);
  registerResources(server, deps);
  registerPrompts(server, deps);
  registerApps(server, deps);
  return server;
}
