/**
 * An assistant signed in with OAuth, against the app's real /mcp and the SDK client's transport: the access
 * token lists and calls the keyed tools as the approved key (counted on it); a Bearer token that does not
 * resolve gets 401 with the OAuth challenge (resource_metadata, error="invalid_token"), from which the SDK
 * transport finds the metadata, refreshes an expired token by itself and retries; with the key rotated, the
 * refresh is refused and the SDK starts a new approval.
 */
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { auth, Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { createApp, type App } from '../../server/app.ts';
import { BuildRegistry } from '../../server/builds/registry.ts';
import { SqliteServiceStore } from '../../server/store/sqlite.ts';
import { quotaWindows } from '../../server/keyed/quota-time.ts';
import { ACCESS_SECONDS } from '../../server/oauth/service.ts';
import { generateKey, hashKey, keyPrefixOf } from '../../server/keyed/keys.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { closeAfterAll, listen, type Listening } from '../helpers/server.ts';
import { createKey } from '../helpers/keys.ts';
import { approveWith, BASE, fetchVia, TestProvider } from './provider.ts';
import { AssistantsResponse, DisconnectResponse } from '../../build/contract/keyed-api.ts';

const work = useGoldenDir('oauth-transport');
const closeLater = closeAfterAll();
let now = new Date('2026-12-01T12:00:00.000Z');
const clock = () => now;
let store: SqliteServiceStore;
let app: App;
let server: Listening;
const MCP = `${BASE}/mcp`;
/** the Authorization headers /mcp saw, in order */
const seen: (string | undefined)[] = [];

beforeAll(async () => {
  const registry = new BuildRegistry(work.dist);
  await registry.check();
  store = closeLater(new SqliteServiceStore(join(work.path, 'service.db')));
  app = createApp({ registry, store, clock, ipLimits: { perMinute: 1_000_000, perDay: 10_000_000 } });
  // the real /mcp (its auth step takes API keys and access tokens); the wrapper only records the header
  server = closeLater(await listen((req: IncomingMessage, res: ServerResponse) => {
    if (/^\/mcp(?:[/?]|$)/.test(req.url ?? '') && req.method === 'POST') seen.push(req.headers.authorization);
    app.listener(req, res);
  }));
}, 60_000);

async function connectedProvider(apiKey: string): Promise<TestProvider> {
  const provider = new TestProvider();
  const fetchFn = fetchVia(server.url);
  expect(await auth(provider, { serverUrl: MCP, fetchFn })).toBe('REDIRECT');
  const back = await approveWith(server.url, provider.authorizationUrl!, apiKey);
  expect(await auth(provider, { serverUrl: MCP, authorizationCode: back.get('code')!, iss: back.get('iss')!, fetchFn })).toBe('AUTHORIZED');
  return provider;
}

const transportFor = (provider: TestProvider) => new StreamableHTTPClientTransport(new URL(MCP), { authProvider: provider, fetch: fetchVia(server.url) });

describe('the SDK transport against the Bearer hook', () => {
  it('sends the access token; an expired one gets the challenge, and the SDK refreshes it and retries', async () => {
    const { key } = await createKey(store, 'professional');
    const provider = await connectedProvider(key);
    const first = provider.saved!;
    const start = now;
    try {
      now = new Date(start.getTime() + ACCESS_SECONDS * 1000); // the access token has just expired
      seen.length = 0;
      const client = new Client({ name: 'oauth-test', version: '1.0.0' });
      await client.connect(transportFor(provider));
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['get_specialty_pay', 'get_benchmark', 'get_key_usage']));
      // a keyed tool answers as the approved key, and the call counts on it
      const record = (await store.findKeyByHash(hashKey(key)))!;
      const usedBefore = await store.readQuota(record.id, quotaWindows(now));
      const bench = await client.callTool({ name: 'get_benchmark', arguments: { specialty: 'cardiology' } });
      expect(bench.isError ?? false, JSON.stringify(bench.content)).toBe(false);
      expect((bench.structuredContent as { data: { specialty: string } }).data.specialty).toBe('Cardiology');
      const usedAfter = await store.readQuota(record.id, quotaWindows(now));
      expect(usedAfter.dayCount - usedBefore.dayCount).toBe(1);
      await client.close();
      const second = provider.saved!;
      expect(second.access_token).not.toBe(first.access_token);
      expect(seen[0]).toBe(`Bearer ${first.access_token}`); // refused with the challenge
      expect(seen.slice(1).every((h) => h === `Bearer ${second.access_token}`)).toBe(true);
      expect(await app.oauth.resolveBearer(second.access_token)).toEqual({ apiKey: key });
    } finally {
      now = start;
    }
  });

  it('a Bearer token that resolves to nothing: 401 with the OAuth challenge', async () => {
    const r = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { authorization: 'Bearer ppa_not-a-token', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(r.status).toBe(401);
    const challenge = r.headers.get('www-authenticate')!;
    expect(challenge).toContain(`resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp"`);
    expect(challenge).toContain('error="invalid_token"');
    expect(((await r.json()) as { error: { code: number } }).error.code).toBe(-32001);
  });

  it('disconnecting (RFC 7009): the metadata names the revocation endpoint; revoking the refresh token ends the access token on /mcp', async () => {
    const { key } = await createKey(store, 'starter');
    const provider = await connectedProvider(key);
    const saved = provider.saved!;
    const meta = (await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json()) as { revocation_endpoint: string; revocation_endpoint_auth_methods_supported: string[] };
    expect(meta.revocation_endpoint).toBe(`${BASE}/oauth/revoke`);
    expect(meta.revocation_endpoint_auth_methods_supported).toEqual(['none']);
    const list = (token: string) => fetch(`${server.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect((await list(saved.access_token)).status).toBe(200);
    const revoke = (body: Record<string, string>) => fetch(`${server.url}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) });
    const missing = await revoke({ token: saved.refresh_token! });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ error: 'invalid_client' });
    const done = await revoke({ token: saved.refresh_token!, token_type_hint: 'refresh_token', client_id: provider.clientInformation()!.client_id });
    expect(done.status).toBe(200);
    expect(done.headers.get('cache-control')).toBe('no-store');
    expect(await done.text()).toBe('');
    expect((await list(saved.access_token)).status).toBe(401);
    // an unknown or already revoked token: 200 all the same (RFC 7009 section 2.2)
    expect((await revoke({ token: saved.refresh_token!, client_id: provider.clientInformation()!.client_id })).status).toBe(200);
  });

  it('the subscriber lists the assistants connected with their key and disconnects one; another key sees none of them', async () => {
    const { key } = await createKey(store, 'professional');
    const other = await createKey(store, 'starter');
    const a = await connectedProvider(key);
    const b = await connectedProvider(key);
    const api = (path: string, k: string, method = 'GET') => fetch(`${server.url}/api/v1${path}`, { method, headers: { 'x-api-key': k } });
    const list = await api('/me/assistants', key);
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('no-store');
    const body = AssistantsResponse.parse(await list.json());
    expect(body.assistants).toHaveLength(2);
    expect(body.assistants[0]).toMatchObject({ name: expect.any(String), redirect_hosts: [expect.stringMatching(/^127\.0\.0\.1(:\d+)?$|^localhost/)] });
    expect(Date.parse(body.assistants[0]!.expires_at) - Date.parse(body.assistants[0]!.last_refreshed_at)).toBe(30 * 86_400_000);
    expect(((await (await api('/me/assistants', other.key)).json()) as { assistants: unknown[] }).assistants).toEqual([]);
    const mcpList = (token: string) => fetch(`${server.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    // which one is a? the one whose token is refused after its disconnect
    const id = body.assistants[0]!.id;
    expect((await api(`/me/assistants/disconnect?id=${id}`, other.key, 'POST')).status).toBe(404); // another key's
    expect((await api('/me/assistants/disconnect', key, 'POST')).status).toBe(400);
    expect((await api(`/me/assistants/disconnect?id=${id}`, key, 'GET')).status).toBe(405);
    const done = await api(`/me/assistants/disconnect?id=${id}`, key, 'POST');
    expect(done.status).toBe(200);
    expect(DisconnectResponse.parse(await done.json())).toEqual({ disconnected: id });
    expect((await api(`/me/assistants/disconnect?id=${id}`, key, 'POST')).status).toBe(404); // gone already
    const statuses = [(await mcpList(a.saved!.access_token)).status, (await mcpList(b.saved!.access_token)).status].sort();
    expect(statuses).toEqual([200, 401]); // one assistant disconnected, the other still connected
    const after = AssistantsResponse.parse(await (await api('/me/assistants', key)).json());
    expect(after.assistants.map((x) => x.id)).toEqual(body.assistants.slice(1).map((x) => x.id));
  });

  it('with the key rotated, the refresh is refused and the SDK starts a new approval', async () => {
    const k = await createKey(store, 'starter');
    const provider = await connectedProvider(k.key);
    const next = generateKey();
    store.rotateKey(k.prefix, { keyHash: hashKey(next), keyPrefix: keyPrefixOf(next), createdAt: now.toISOString() }, now.toISOString());
    provider.authorizationUrl = undefined;
    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    const warn = console.warn;
    console.warn = () => {}; // the SDK says on stderr that it drops the refused tokens
    try {
      await expect(client.connect(transportFor(provider))).rejects.toSatisfy((e: unknown) => UnauthorizedError.isInstance(e));
    } finally {
      console.warn = warn;
    }
    expect(provider.saved).toBeUndefined();
    expect((provider.authorizationUrl as URL | undefined)?.pathname).toBe('/oauth/authorize');
    // approving again with the new key works
    const back = await approveWith(server.url, provider.authorizationUrl!, next);
    expect(await auth(provider, { serverUrl: MCP, authorizationCode: back.get('code')!, iss: back.get('iss')!, fetchFn: fetchVia(server.url) })).toBe('AUTHORIZED');
    expect(await app.oauth.resolveBearer(provider.saved!.access_token)).toEqual({ apiKey: next });
  });
});
