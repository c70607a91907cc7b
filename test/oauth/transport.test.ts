/**
 * The contract /mcp's Bearer hook relies on, with the SDK client's transport: createApp's `oauth.resolveBearer`
 * and `oauth.challenge` in front of the app's /mcp, as the hook uses them (a Bearer token that does not
 * resolve: 401 with the challenge; otherwise the request goes on). The SDK transport then finds the metadata
 * from the challenge, refreshes an expired token by itself and retries; and with the key rotated, the refresh
 * is refused and the SDK starts a new approval.
 */
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { auth, Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { createApp, type App } from '../../server/app.ts';
import { BuildRegistry } from '../../server/builds/registry.ts';
import { SqliteServiceStore } from '../../server/store/sqlite.ts';
import { ACCESS_SECONDS } from '../../server/oauth/service.ts';
import { generateKey, hashKey, keyPrefixOf } from '../../server/keyed/keys.ts';
import { useGoldenDir } from '../helpers/golden-build.ts';
import { closeAfterAll, listen, type Listening } from '../helpers/server.ts';
import { createKey } from '../helpers/keys.ts';
import { approveWith, BASE, fetchVia, TestProvider } from './provider.ts';

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
  server = closeLater(await listen((req: IncomingMessage, res: ServerResponse) => {
    const header = req.headers.authorization;
    if (!/^\/mcp(?:[/?]|$)/.test(req.url ?? '')) return app.listener(req, res);
    seen.push(header);
    const bearer = /^Bearer (\S+)$/i.exec(header ?? '')?.[1];
    if (!bearer) return app.listener(req, res);
    void app.oauth.resolveBearer(bearer).then((found) => {
      if (found) return app.listener(req, res);
      res.writeHead(401, { 'www-authenticate': app.oauth.challenge(true)!, 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'invalid or expired token' }));
    });
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
      expect(tools.tools.map((t) => t.name)).toContain('get_specialty_pay');
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
