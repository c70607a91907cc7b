/** createMcpServer(deps): a fresh MCP server with the five read-only tools (one per file under tools/). */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { ToolDeps } from './tool-result.ts';
import { registerListSpecialtiesTool } from './tools/list-specialties.ts';
import { registerGetSpecialtyPayTool } from './tools/get-specialty-pay.ts';
import { registerCompareSpecialtiesTool } from './tools/compare-specialties.ts';
import { registerGetWrvuRateTool } from './tools/get-wrvu-rate.ts';
import { registerGetResidentPayTool } from './tools/get-resident-pay.ts';

export const TOOL_NAMES = ['list_specialties', 'get_specialty_pay', 'compare_specialties', 'get_wrvu_rate', 'get_resident_pay'] as const;

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
  return server;
}
