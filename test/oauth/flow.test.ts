/**
 * OAuth end to end on a real server with the SDK client's auth(): discovery from /mcp's address (RFC 9728,
 * RFC 8414), dynamic registration, the approval page submitted with a test key, the code exchange with PKCE,
 * the refresh with rotation, and the resolver /mcp uses giving back the approved key; then what ends a grant:
 * expiry (injected clock), a replayed refresh token, and revoking or rotating the key.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { auth, Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import type { RunningServer } from '../../server/main.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { closeAfterAll, listen, serveApp } from '../helpers/server.ts';
import { createApp } from '../../server/app.ts';
import { StoreUnavailableError } from '../../server/store/types.ts';
import { BuildRegistry } from '../../server/builds/registry.ts';
import { addKey } from '../helpers/keys.ts';
import { serveGolden } from '../mcp/mcp-helpers.ts';
import { SqliteServiceStore } from '../../server/store/sqlite.ts';
import { createBearerResolver, ACCESS_SECONDS } from '../../server/oauth/service.ts';
import { generateKey, hashKey, keyPrefixOf } from '../../server/keyed/keys.ts';
import { approveWith, BASE, fetchVia, local, openApproval, REDIRECT, submitApproval, TestProvider } from './provider.ts';

const work = useGoldenDir('oauth-flow');
const closeLater = closeAfterAll();
let now = new Date('2026-12-01T12:00:00.000Z');
const clock = () => now;
let server: RunningServer;
let db: string;
let store: SqliteServiceStore;
let resolve: ReturnType<typeof createBearerResolver>;
const MCP = `${BASE}/mcp`;

beforeAll(async () => {
  server = closeLater(await serveGolden(work.path, work.dist, 'oauth', clock));
  db = join(work.path, 'service-oauth.db');
  store = closeLater(new SqliteServiceStore(db));
  resolve = createBearerResolver({ store, clock });
}, 60_000);

/** A provider that went through the whole flow with `apiKey`: its tokens saved. */
async function connected(apiKey: string): Promise<TestProvider> {
  const provider = new TestProvider();
  const fetchFn = fetchVia(server.url);
  expect(await auth(provider, { serverUrl: MCP, fetchFn })).toBe('REDIRECT');
  const back = await approveWith(server.url, provider.authorizationUrl!, apiKey);
  expect(back.get('state')).toBe('st-123');
  expect(back.get('iss')).toBe(BASE);
  expect(await auth(provider, { serverUrl: MCP, authorizationCode: back.get('code')!, iss: back.get('iss')!, fetchFn })).toBe('AUTHORIZED');
  return provider;
}

async function tokenPost(body: Record<string, string>): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('OAuth with the SDK client', () => {
  it('discovers, registers, is approved with a key, and its access token resolves to that key', async () => {
    const key = await addKey(db, 'professional');
    const provider = await connected(key);
    // what the SDK found and sent
    const url = provider.authorizationUrl!;
    expect(`${url.origin}${url.pathname}`).toBe(`${BASE}/oauth/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(MCP);
    expect(provider.client).toMatchObject({ client_name: 'Test Assistant', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    const t = provider.saved!;
    expect(t).toMatchObject({ token_type: 'Bearer', expires_in: ACCESS_SECONDS });
    expect(t.access_token).toMatch(/^ppa_/);
    expect(t.refresh_token).toMatch(/^ppr_/);
    expect(await resolve(t.access_token)).toEqual({ apiKey: key });
    expect(await resolve(t.refresh_token!)).toBeNull(); // a refresh token is not an access token
    expect(await resolve(`${t.access_token}x`)).toBeNull();
    // the store holds hashes and sealed keys only
    const raw = JSON.stringify(store.db.prepare('SELECT * FROM oauth_tokens').all());
    expect(raw).not.toContain(t.access_token);
    expect(raw).not.toContain(key);
  });

  it('refreshes with rotation; a replayed refresh token revokes the grant', async () => {
    const key = await addKey(db, 'starter');
    const provider = await connected(key);
    const first = provider.saved!;
    // auth() with saved tokens refreshes them
    expect(await auth(provider, { serverUrl: MCP, fetchFn: fetchVia(server.url) })).toBe('AUTHORIZED');
    const second = provider.saved!;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await resolve(second.access_token)).toEqual({ apiKey: key });
    // the spent refresh token presented again: refused, and every token of the grant ends
    const replay = await tokenPost({ grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: provider.client!.client_id });
    expect(replay.status).toBe(400);
    expect(replay.json.error).toBe('invalid_grant');
    expect(await resolve(second.access_token)).toBeNull();
    const after = await tokenPost({ grant_type: 'refresh_token', refresh_token: second.refresh_token!, client_id: provider.client!.client_id });
    expect(after.json.error).toBe('invalid_grant');
  });

  it('an access token expires after an hour; the refresh token still works until its own expiry', async () => {
    const key = await addKey(db, 'starter');
    const provider = await connected(key);
    const t = provider.saved!;
    const start = now;
    try {
      now = new Date(start.getTime() + (ACCESS_SECONDS - 1) * 1000);
      expect(await resolve(t.access_token)).toEqual({ apiKey: key });
      now = new Date(start.getTime() + ACCESS_SECONDS * 1000);
      expect(await resolve(t.access_token)).toBeNull();
      expect(await auth(provider, { serverUrl: MCP, fetchFn: fetchVia(server.url) })).toBe('AUTHORIZED');
      expect(await resolve(provider.saved!.access_token)).toEqual({ apiKey: key });
      now = new Date(start.getTime() + 31 * 86_400_000);
      const late = await tokenPost({ grant_type: 'refresh_token', refresh_token: provider.saved!.refresh_token!, client_id: provider.client!.client_id });
      expect(late.json).toMatchObject({ error: 'invalid_grant' });
    } finally {
      now = start;
    }
  });

  it('rotating the key ends its tokens; revoking it too; approval with either key is refused', async () => {
    const key = await addKey(db, 'professional');
    const provider = await connected(key);
    const t = provider.saved!;
    const next = generateKey();
    store.rotateKey(keyPrefixOf(key), { keyHash: hashKey(next), keyPrefix: keyPrefixOf(next), createdAt: now.toISOString() }, now.toISOString());
    expect(await resolve(t.access_token)).toBeNull();
    const refresh = await tokenPost({ grant_type: 'refresh_token', refresh_token: t.refresh_token!, client_id: provider.client!.client_id });
    expect(refresh.json.error).toBe('invalid_grant');
    // the new key can be approved; revoking it ends that grant too
    const again = await connected(next);
    expect(await resolve(again.saved!.access_token)).toEqual({ apiKey: next });
    store.updateKey(keyPrefixOf(next), { revokedAt: now.toISOString() });
    expect(await resolve(again.saved!.access_token)).toBeNull();
    // the approval page refuses a revoked key, saying so
    const p = new TestProvider();
    await auth(p, { serverUrl: MCP, fetchFn: fetchVia(server.url) });
    const page = await openApproval(server.url, p.authorizationUrl!);
    const res = await submitApproval(server.url, page, { api_key: next, decision: 'approve' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('was revoked or replaced by a newer key');
  });
});

describe('the OAuth routes over HTTP', () => {
  it('serves the metadata at both protected-resource paths and the authorization server path, open to any origin', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toMatchObject({ resource: MCP, authorization_servers: [BASE], bearer_methods_supported: ['header'] });
    }
    const as = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
    expect(await as.json()).toMatchObject({
      issuer: BASE, authorization_endpoint: `${BASE}/oauth/authorize`, token_endpoint: `${BASE}/oauth/token`, registration_endpoint: `${BASE}/oauth/register`,
      code_challenge_methods_supported: ['S256'], token_endpoint_auth_methods_supported: ['none'], authorization_response_iss_parameter_supported: true,
    });
    const pre = await fetch(`${server.url}/oauth/token`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('registration answers 201 with a public client, 400 in OAuth\'s error shape', async () => {
    const post = (body: unknown) => fetch(`${server.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const ok = await post({ client_name: 'Desk', redirect_uris: ['https://desk.example/cb'] });
    expect(ok.status).toBe(201);
    expect(ok.headers.get('cache-control')).toBe('no-store');
    expect(await ok.json()).toMatchObject({ client_id: expect.any(String), token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] });
    const bad = await post({ redirect_uris: ['http://desk.example/cb'] });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'invalid_redirect_uri', error_description: expect.stringMatching(/plain http/) });
    const tok = await tokenPost({ grant_type: 'authorization_code' });
    expect(tok.status).toBe(401);
    expect(tok.json).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
  });

  it('the approval page: private, framed by no one, the form may redirect to the client only; a POST needs its cookie, not from another site', async () => {
    const p = new TestProvider();
    await auth(p, { serverUrl: MCP, fetchFn: fetchVia(server.url) });
    const res = await fetch(local(p.authorizationUrl!, server.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:33418;");
    expect(res.headers.get('set-cookie')).toMatch(/^physpay_oauth=[^;]+; Path=\/oauth\/authorize; Max-Age=900; HttpOnly; SameSite=Strict; Secure$/);
    const html = await res.text();
    expect(html).toContain('<strong>Test Assistant</strong>');
    expect(html).toContain('127.0.0.1:33418');

    const page = await openApproval(server.url, p.authorizationUrl!);
    const key = await addKey(db, 'starter');
    const noCookie = await submitApproval(server.url, page, { api_key: key, decision: 'approve' }, '');
    expect(noCookie.status).toBe(403);
    expect(await noCookie.text()).toContain('not sent from this browser');
    const cross = await fetch(`${server.url}/oauth/authorize`, {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie, 'sec-fetch-site': 'cross-site' },
      body: new URLSearchParams({ ...page.fields, api_key: key, decision: 'approve' }),
    });
    expect(cross.status).toBe(403);
    const denied = await submitApproval(server.url, page, { decision: 'deny' });
    expect(denied.status).toBe(303);
    const back = new URL(denied.headers.get('location')!).searchParams;
    expect([back.get('error'), back.get('state'), back.get('iss')]).toEqual(['access_denied', 'st-123', BASE]);
  });

  it('a request the client cannot be trusted with is answered on a physpay page, not redirected', async () => {
    const res = await fetch(`${server.url}/oauth/authorize?client_id=unknown&redirect_uri=${encodeURIComponent('https://evil.example/cb')}&response_type=code`, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain('not registered here');
  });
});

describe('bodies the OAuth endpoints cannot read', () => {
  it('malformed JSON at registration and an oversized token request: OAuth\'s error shape', async () => {
    const bad = await fetch(`${server.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"redirect_uris":' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'invalid_request', error_description: 'the request body could not be parsed' });
    const big = await fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `code=${'x'.repeat(20_000)}` });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: string }).error).toBe('invalid_request');
  });
});

describe('before any build is loaded', () => {
  it('the metadata and the endpoints answer 503 (no issuer to name, and never the request\'s Host)', async () => {
    const empty = join(work.path, 'empty-dist');
    mkdirSync(empty, { recursive: true });
    const app = closeLater(await serveApp(join(work.path, 'service-empty.db'), { registry: new BuildRegistry(empty), clock }));
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server', '/oauth/authorize?client_id=x']) {
      const r = await fetch(`${app.url}${path}`, { headers: { host: 'evil.example' } });
      expect(r.status, path).toBe(503);
      expect(r.headers.get('retry-after')).toBe('5');
      expect(await r.text()).not.toContain('evil.example');
    }
    expect((await fetch(`${app.url}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token' }) })).status).toBe(503);
  });
});

describe('the service store unavailable', () => {
  it('registration, the approval page and the token endpoint answer 503 with Retry-After', async () => {
    const registry = new BuildRegistry(work.dist);
    await registry.check();
    const real = new SqliteServiceStore(join(work.path, 'service-down.db'));
    closeLater(real);
    const down = new Proxy(real, {
      get(target, prop, receiver) {
        if (typeof prop === 'string' && /OAuth/.test(prop)) return () => { throw new StoreUnavailableError('service store unavailable: test'); };
        const v = Reflect.get(target, prop, receiver) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const app = closeLater(await listen(createApp({ registry, store: down, clock }).listener));
    const reg = await fetch(`${app.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT] }) });
    const page = await fetch(`${app.url}/oauth/authorize?client_id=x&redirect_uri=${encodeURIComponent(REDIRECT)}`);
    const tok = await fetch(`${app.url}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token', client_id: 'x', refresh_token: 'ppr_x' }) });
    for (const r of [reg, page, tok]) {
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('5');
      expect(await r.json()).toMatchObject({ error: 'temporarily_unavailable' });
    }
  });
});

describe('the sign-in address /mcp?signin', () => {
  const SIGNIN = `${BASE}/mcp?signin`;

  it('without a token: 401 with the challenge; /mcp itself stays open', async () => {
    const init = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }) };
    const gated = await fetch(`${server.url}/mcp?signin`, init);
    expect(gated.status).toBe(401);
    expect(gated.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp"`);
    expect(gated.headers.get('access-control-expose-headers')).toBe('WWW-Authenticate');
    expect(await gated.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 }, id: null });
    const open = await fetch(`${server.url}/mcp`, init);
    expect(open.status).toBe(200);
    const pre = await fetch(`${server.url}/mcp?signin`, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1', 'access-control-request-method': 'POST' } });
    expect(pre.status).not.toBe(401);
  });

  it('the SDK transport given it starts OAuth on the 401; after approval it connects with the token', async () => {
    const key = await addKey(db, 'professional');
    const provider = new TestProvider();
    const transport = () => new StreamableHTTPClientTransport(new URL(SIGNIN), { authProvider: provider, fetch: fetchVia(server.url) });
    const first = new Client({ name: 'oauth-test', version: '1.0.0' });
    const firstTransport = transport();
    await expect(first.connect(firstTransport)).rejects.toSatisfy((e: unknown) => UnauthorizedError.isInstance(e));
    expect(provider.authorizationUrl?.searchParams.get('resource')).toBe(MCP);
    const back = await approveWith(server.url, provider.authorizationUrl!, key);
    await firstTransport.finishAuth(back.get('code')!, back.get('iss')!);
    expect(await resolve(provider.saved!.access_token)).toEqual({ apiKey: key });
    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    await client.connect(transport());
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });
});
