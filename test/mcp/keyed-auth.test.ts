/**
 * The tool server's auth step (server/mcp/auth.ts) with stand-in stores: the default resolver reads the
 * token as an API key; an injected resolver (e.g. OAuth access tokens) maps its tokens to a key's hash and
 * the key is still looked up (revoked: 401); a store that cannot answer is a 503 JSON-RPC error.
 */
import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { generateKey, hashKey } from '../../server/keyed/keys.ts';
import type { KeyedDeps } from '../../server/keyed/middleware.ts';
import { apiKeyBearer, authStep, type BearerResolver } from '../../server/mcp/auth.ts';
import { StoreUnavailableError, type ApiKeyRecord, type ServiceStore } from '../../server/store/types.ts';

const KEY = generateKey();
const record = (revoked: string | null): ApiKeyRecord => ({ id: 3, key_prefix: KEY.slice(0, 12), plan_tier: 'professional', subscription_status: 'active', label: 't', created_at: '2026-11-01T00:00:00Z', revoked_at: revoked });

function deps(find: (hash: string) => ApiKeyRecord | null): KeyedDeps {
  return { registry: { current: null } as KeyedDeps['registry'], store: { findKeyByHash: find } as unknown as ServiceStore, clock: () => new Date('2026-12-01T12:00:00Z') };
}

const req = (authorization?: string) => ({ headers: authorization === undefined ? {} : { authorization } }) as IncomingMessage;
const body = { jsonrpc: '2.0', id: 9, method: 'tools/list' };

describe('authStep', () => {
  it('the default resolver: the token is the API key, found by its hash', async () => {
    const d = deps((h) => (h === hashKey(KEY) ? record(null) : null));
    const ok = await authStep(req(`Bearer ${KEY}`), body, apiKeyBearer, d);
    expect(ok.refusal).toBeUndefined();
    expect(ok.keyed?.keyHash).toBe(hashKey(KEY));
    expect((await authStep(req(`bearer   ${KEY}`), body, apiKeyBearer, d)).keyed?.keyHash).toBe(hashKey(KEY));
    const bad = await authStep(req('Bearer oauth-token-123'), body, apiKeyBearer, d);
    expect(bad.refusal).toMatchObject({ status: 401, headers: { 'WWW-Authenticate': expect.stringMatching(/^Bearer error="invalid_token"/) }, body: { jsonrpc: '2.0', id: 9, error: { code: -32001 } } });
  });

  it('an injected resolver maps its own tokens to a key; the key is still looked up, and a revoked one is refused', async () => {
    const oauth: BearerResolver = async (t) => (t === 'oauth-token-123' ? { keyHash: hashKey(KEY) } : null);
    const live = await authStep(req('Bearer oauth-token-123'), body, oauth, deps(() => record(null)));
    expect(live.keyed?.keyHash).toBe(hashKey(KEY));
    const revoked = await authStep(req('Bearer oauth-token-123'), body, oauth, deps(() => record('2026-11-30T00:00:00Z')));
    expect(revoked.refusal?.status).toBe(401);
    // the API key itself is not a token this resolver knows
    expect((await authStep(req(`Bearer ${KEY}`), body, oauth, deps(() => record(null)))).refusal?.status).toBe(401);
  });

  it('a store that cannot answer: 503 with Retry-After, never a served or refused-as-invalid key', async () => {
    const r = await authStep(req(`Bearer ${KEY}`), body, apiKeyBearer, deps(() => {
      throw new StoreUnavailableError('disk I/O error');
    }));
    expect(r.refusal).toMatchObject({ status: 503, headers: { 'Retry-After': '2' }, body: { id: 9, error: { code: -32000 } } });
  });

  it('no header is anonymous; a header that is not Bearer <token> is invalid_request', async () => {
    const d = deps(() => record(null));
    expect(await authStep(req(), body, apiKeyBearer, d)).toEqual({});
    for (const h of ['Basic abc', 'Bearer', 'Bearer a b', `X-API-Key ${KEY}`]) {
      expect((await authStep(req(h), body, apiKeyBearer, d)).refusal?.headers['WWW-Authenticate'], h).toMatch(/^Bearer error="invalid_request"/);
    }
  });
});
