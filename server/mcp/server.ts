/** createMcpServer(deps): a fresh MCP server with the six read-only tools (one per file under tools/). */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { ToolDeps } from './tool-result.ts';
import { registerListSpecialtiesTool } from './tools/list-specialties.ts';
import { registerGetSpecialtyPayTool } from './tools/get-specialty-pay.ts';
import { registerCompareSpecialtiesTool } from './tools/compare-specialties.ts';
import { registerGetWrvuRateTool } from './tools/get-wrvu-rate.ts';
import { registerGetResidentPayTool } from './tools/get-resident-pay.ts';
import { registerEvaluateCompensationTool } from './tools/evaluate-compensation.ts';
import { CallToolRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

export const TOOL_NAMES = ['list_specialties', 'get_specialty_pay', 'compare_specialties', 'get_wrvu_rate', 'get_resident_pay', 'evaluate_compensation'] as const;

export const isToolName = (name: unknown): boolean => typeof name === 'string' && (TOOL_NAMES as readonly string[]).includes(name);

/**
 * `validator`: the JSON Schema validator the SDK keeps per server (used only for elicitation, which these
 * tools never do). Pass one shared instance: the default builds a new Ajv per server, i.e. per request.
 */
export function createMcpServer(deps: ToolDeps, validator?: jsonSchemaValidator): McpServer {
  const server = new McpServer(
    { name: 'physpay', title: 'PhysPay physician compensation data', version: '1.0.0' },
    {
      capabilities: { tools: {} },
      ...(validator ? { jsonSchemaValidator: validator } : {}),
      instructions: 'Physician compensation benchmarks from approved, self-reported salary reports (CC BY 4.0). When quoting a figure, give n, as_of, say it is self-reported, and include the attribution line (it links the citation_url). Null figures are withheld below publication floors: do not estimate them.',
    },
  );
  registerListSpecialtiesTool(server, deps);
  registerGetSpecialtyPayTool(server, deps);
  registerCompareSpecialtiesTool(server, deps);
  registerGetWrvuRateTool(server, deps);
  registerGetResidentPayTool(server, deps);
  registerEvaluateCompensationTool(server, deps);
  refuseUnknownTools(server);
  return server;
}

/**
 * The SDK answers a call of an unknown tool with a successful JSON-RPC response holding a tool error; the
 * MCP specification prescribes a JSON-RPC error (-32602 invalid params). Put a check in front of the SDK's
 * tools/call handler: an error thrown here becomes that JSON-RPC error.
 */
function refuseUnknownTools(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, (req: unknown, extra: unknown) => Promise<unknown>> })._requestHandlers;
  const inner = handlers.get('tools/call');
  if (!inner) throw new Error('the MCP SDK registered no tools/call handler');
  server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    if (!isToolName(name)) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name.slice(0, 100)}. Tools: ${TOOL_NAMES.join(', ')}`);
    return inner(request, extra) as never;
  });
}
