/**
 * runKeyedTool (server/mcp/keyed/run.ts) against a stand-in store: a store that cannot commit is the keyed
 * API's 503 message as a tool error, nothing served uncounted; a counted call whose route fails is given
 * back (refunded) like a keyed API 5xx; a refused count is the 429 message and no refund.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { LoadedBuild } from '../../server/builds/loaded-build.ts';
import type { BuildRegistry } from '../../server/builds/registry.ts';
import type { KeyedDeps } from '../../server/keyed/middleware.ts';
import { runKeyedTool, type KeyedCallContext } from '../../server/mcp/keyed/run.ts';
import type { KeyedToolDefinition } from '../../server/mcp/keyed/tools.ts';
import { StoreUnavailableError, type ApiKeyRecord, type ServiceStore } from '../../server/store/types.ts';

const KEY: ApiKeyRecord = { id: 7, key_prefix: 'pcb_live_abc', plan_tier: 'starter', subscription_status: 'active', label: 't', created_at: '2026-11-01T00:00:00Z', revoked_at: null };

function harness(opts: { unavailable?: boolean; allowed?: boolean }) {
  const refunds: number[] = [];
  const store = {
    identifyAndCount: () => {
      if (opts.unavailable) throw new StoreUnavailableError('disk full');
      return { key: KEY, quota: { allowed: opts.allowed ?? true, dayCount: opts.allowed === false ? 100 : 5, monthCount: 5, limitedBy: opts.allowed === false ? 'daily' : undefined } };
    },
    refundQuota: (id: number) => {
      refunds.push(id);
    },
    readQuota: () => ({ dayCount: 100, monthCount: 100 }),
  } as unknown as ServiceStore;
  const deps: KeyedDeps = { registry: { current: {} as LoadedBuild } as BuildRegistry, store, clock: () => new Date('2026-12-01T12:00:00Z') };
  const ctx: KeyedCallContext = { keyHash: 'h', deps, calls: [] };
  return { ctx, refunds };
}

const tool = (route: KeyedToolDefinition['route']): KeyedToolDefinition => ({
  name: 'get_x', title: 'x', description: 'x', inputSchema: z.object({}), outputSchema: z.object({}), endpoint: '/api/v1/x', counted: true, route,
});

const textOf = (r: { content: unknown[] }) => (r.content[0] as { text: string }).text;

describe('runKeyedTool', () => {
  it('a store that cannot count: the 503 message, the route never runs', async () => {
    const { ctx } = harness({ unavailable: true });
    let ran = false;
    const r = await runKeyedTool(ctx, tool(() => {
      ran = true;
      return { body: {}, cacheControl: 'x' };
    }), {});
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('service temporarily unavailable; retry after a brief delay');
    expect(ran).toBe(false);
    expect(ctx.calls[0]!.error?.status).toBe(503);
  });

  it('a counted call whose route fails unexpectedly: internal error, and the count is given back', async () => {
    const { ctx, refunds } = harness({});
    const r = await runKeyedTool(ctx, tool(() => {
      throw new Error('boom');
    }), {});
    expect(textOf(r)).toBe('internal error');
    expect(refunds).toEqual([7]);
  });

  it('over the quota: the 429 message with Retry-After recorded, nothing refunded, the route never runs', async () => {
    const { ctx, refunds } = harness({ allowed: false });
    const r = await runKeyedTool(ctx, tool(() => ({ body: { ok: true }, cacheControl: 'x' })), {});
    expect(textOf(r)).toMatch(/^daily quota of 100 requests exceeded \(Starter plan\)/);
    expect(ctx.calls[0]!.error?.headers['Retry-After']).toBe(12 * 3600);
    expect(refunds).toEqual([]);
  });
});

describe('runKeyedTool text', () => {
  it('is the answer as JSON, with characters that hide or reorder text escaped (parses to the same answer)', async () => {
    const { ctx } = harness({});
    const body = { specialty: 'Cardio\u202Elogy', n: 5 };
    const r = await runKeyedTool(ctx, tool(() => ({ body, cacheControl: 'x' })), {});
    expect(r.structuredContent).toEqual(body);
    expect(textOf(r)).not.toContain('\u202E');
    expect(textOf(r)).toMatch(/\\u202[eE]/);
    expect(JSON.parse(textOf(r))).toEqual(body);
  });
});
