/** Register the keyed tools (tools.ts) on a request's MCP server, for a caller identified by an API key. */
import type { McpServer } from '@modelcontextprotocol/server';
import { READ_ONLY } from '../tool-definition.ts';
import { listedInputSchema, listedOutputSchema } from '../schemas.ts';
import { runKeyedTool, type KeyedCallContext } from './run.ts';
import { KEYED_TOOLS } from './tools.ts';

/**
 * Each keyed tool's schemas as tools/list gives them, made once: the input schema without `$schema`, the
 * output schema's top-level fields by type (the full ones were 28 kB for get_benchmark alone), naming the
 * keyed API's OpenAPI for every field.
 */
const LISTED = new Map(KEYED_TOOLS.map((t) => [t.name, {
  input: listedInputSchema(t.inputSchema),
  output: listedOutputSchema(t.outputSchema, { keep: Object.keys(t.outputSchema.shape), see: `the ${t.endpoint} answer in /api/v1/openapi.json` }),
}]));

export function registerKeyedTools(server: McpServer, ctx: KeyedCallContext): void {
  for (const tool of KEYED_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: LISTED.get(tool.name)!.input as unknown as typeof tool.inputSchema,
        outputSchema: LISTED.get(tool.name)!.output as unknown as typeof tool.outputSchema,
        // read-only, but not idempotent: each counted call uses one request of the key's quotas
        annotations: { ...READ_ONLY, idempotentHint: !tool.counted },
      },
      async (args: unknown) => runKeyedTool(ctx, tool, args as Record<string, unknown>),
    );
  }
}
