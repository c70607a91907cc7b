/** Register the keyed tools (tools.ts) on a request's MCP server, for a caller identified by an API key. */
import type { McpServer } from '@modelcontextprotocol/server';
import { READ_ONLY } from '../tool-definition.ts';
import { runKeyedTool, type KeyedCallContext } from './run.ts';
import { KEYED_TOOLS } from './tools.ts';

export function registerKeyedTools(server: McpServer, ctx: KeyedCallContext): void {
  for (const tool of KEYED_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        // read-only, but not idempotent: each counted call uses one request of the key's quotas
        annotations: { title: tool.title, ...READ_ONLY, idempotentHint: !tool.counted },
      },
      async (args: unknown) => runKeyedTool(ctx, tool, args as Record<string, unknown>),
    );
  }
}
