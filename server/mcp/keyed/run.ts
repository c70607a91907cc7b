/**
 * Running a keyed tool call exactly as the keyed API runs a request to its endpoint: the same pipeline
 * (server/keyed/middleware.ts: subscription 403 -> build 503 -> the atomic check-and-count 429, or, for an
 * uncounted endpoint, identify only), the same route, the same errors. A refusal is a tool error whose text
 * is the keyed API's `error` message; a 5xx of a counted call is given back, as on the keyed API.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { KeyedLocals } from '../../keyed/context.ts';
import { KeyedError } from '../../keyed/errors.ts';
import { countKeyHash, identifyKeyHash, readUsage, type KeyedDeps } from '../../keyed/middleware.ts';
import { StoreUnavailableError } from '../../store/types.ts';
import { escapeHidden } from '../text.ts';
import { toolError } from '../tool-result.ts';
import { argsToQuery, type KeyedToolDefinition } from './tools.ts';

/** The keyed side of one /mcp request with a valid bearer token. */
export interface KeyedCallContext {
  keyHash: string;
  deps: KeyedDeps;
  /** every keyed call of the request, in order: the route adds the rate-limit headers of a single one */
  calls: { locals: KeyedLocals; error: KeyedError | null }[];
}

function asKeyedError(err: unknown, requestId: string): KeyedError {
  if (err instanceof KeyedError) return err;
  if (err instanceof StoreUnavailableError || (err as { code?: string }).code === 'SQLITE_BUSY') {
    return new KeyedError('unavailable', 'service temporarily unavailable; retry after a brief delay', { 'Retry-After': 2 });
  }
  process.emitWarning(`mcp keyed tool (request ${requestId}): ${(err as Error).stack ?? String(err)}`);
  return new KeyedError('internal', 'internal error');
}

/** One call of a keyed tool with arguments already checked against its input schema. */
export async function runKeyedTool(ctx: KeyedCallContext, tool: KeyedToolDefinition, args: Record<string, unknown>): Promise<CallToolResult> {
  const l: KeyedLocals = { requestId: randomUUID() };
  const record = { locals: l, error: null as KeyedError | null };
  ctx.calls.push(record);
  try {
    if (tool.counted) await countKeyHash(ctx.deps, ctx.keyHash, l);
    else {
      await identifyKeyHash(ctx.deps, ctx.keyHash, l);
      await readUsage(ctx.deps, l);
    }
    const answer = await tool.route(argsToQuery(args), l, ctx.deps);
    const body = answer.body as Record<string, unknown>;
    // the answer as JSON text; characters that hide or reorder text are \u-escaped (still the same JSON)
    return { content: [{ type: 'text', text: escapeHidden(JSON.stringify(body)) }], structuredContent: body };
  } catch (err) {
    const e = asKeyedError(err, l.requestId);
    record.error = e;
    if (e.status >= 500 && l.counted) await Promise.resolve(ctx.deps.store.refundQuota(l.key!.id, l.windows!)).catch(() => {});
    return toolError(e.message);
  }
}
