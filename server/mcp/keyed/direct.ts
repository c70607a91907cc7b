/**
 * The direct path for a plain call of a keyed tool (direct-call.ts explains the direct path): the same
 * checks decide what is plain, the same runKeyedTool runs it, and the answer is the one the SDK writes for
 * the era. Nothing is cached: every keyed call is counted and its answer carries its own request id and
 * counts. Anything not plain returns null and goes to the SDK, the reference a test compares this with.
 */
import type { InboundClassificationOutcome } from '@modelcontextprotocol/server';
import { plainCall, resultHead, type DirectAnswer, type McpHeaders } from '../direct-call.ts';
import { runKeyedTool, type KeyedCallContext } from './run.ts';
import { keyedToolNamed } from './tools.ts';

export async function directKeyedCall(route: InboundClassificationOutcome, body: unknown, ctx: KeyedCallContext, headers: McpHeaders): Promise<DirectAnswer | null> {
  const plain = plainCall(route, body, headers);
  if (!plain) return null;
  const { call, modern } = plain;
  const tool = keyedToolNamed(call.params?.name);
  if (!tool || call.params?.arguments === undefined) return null;
  const parsed = tool.inputSchema.safeParse(call.params.arguments);
  if (!parsed.success) return null;
  const result = await runKeyedTool(ctx, tool, parsed.data as Record<string, unknown>);
  return { status: 200, contentType: 'application/json', body: `${resultHead(result, modern)}${JSON.stringify(call.id)}}` };
}
