/**
 * The OAuth core on both service stores (PostgreSQL skipped only when unreachable and CI is not set), with
 * an injected clock: PKCE (RFC 7636's example), codes once only and for two minutes, the checks of an
 * authorization request (client, redirect URI, PKCE, resource), the approval's key checks, refresh
 * rotation, and revocation through the key. The pure parts too: redirect URI rules, sealing, CSRF tokens,
 * the approval page and the 401 challenge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { PG_URL, pgSkipReason } from '../helpers/pg.ts';
import { useTempDir } from '../helpers/temp-dir.ts';
import { createKey } from '../helpers/keys.ts';
import { SqliteServiceStore } from '../../server/store/sqlite.ts';
import { PostgresServiceStore } from '../../server/store/postgres.ts';
import type { ServiceStore } from '../../server/store/types.ts';
import { hashSecret, pkceMatches, s256, seal, unseal } from '../../server/oauth/crypto.ts';
import { redirectUriMatches, redirectUriProblem } from '../../server/oauth/redirect-uris.ts';
import { csrfValid, issueCsrf, cookieValue } from '../../server/oauth/csrf.ts';
import { approvalCsp, approvalPage } from '../../server/oauth/page.ts';
import { bearerChallenge, protectedResourceMetadata } from '../../server/oauth/metadata.ts';
import { isSigninTarget } from '../../server/oauth/signin.ts';
import {
  approve, checkAuthorizeRequest, CODE_SECONDS, createBearerResolver, displayName, issuerOf, namesResource, REFRESH_SECONDS, registerClient, revoke, token,
  type AuthorizeRequest, type OAuthDeps, type TokenResponse,
} from '../../server/oauth/service.ts';

const work = useTempDir('oauth-service');
const pgReason = await pgSkipReason('the PostgreSQL OAuth store tests');
const is = issuerOf('https://physpay.example/');
const REDIRECT = 'http://127.0.0.1:5555/cb';
// RFC 7636 appendix B
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('pure parts', () => {
  it('PKCE S256: the RFC 7636 example; anything else refused', () => {
    expect(s256(VERIFIER)).toBe(CHALLENGE);
    expect(pkceMatches(VERIFIER, CHALLENGE)).toBe(true);
    expect(pkceMatches(`${VERIFIER.slice(0, -1)}A`, CHALLENGE)).toBe(false);
    expect(pkceMatches('short', s256('short'))).toBe(false); // under 43 characters
    expect(pkceMatches(VERIFIER, VERIFIER)).toBe(false); // "plain" is not S256
  });

  it('redirect URIs: https or loopback http, no fragment or user; loopback matches on any port', () => {
    expect(redirectUriProblem('https://claude.ai/api/mcp/auth_callback')).toBeNull();
    expect(redirectUriProblem('http://127.0.0.1:33418/callback')).toBeNull();
    expect(redirectUriProblem('http://localhost/cb')).toBeNull();
    expect(redirectUriProblem('http://[::1]:8080/cb')).toBeNull();
    expect(redirectUriProblem('http://example.com/cb')).toMatch(/plain http/);
    expect(redirectUriProblem('http://127.0.0.1.example.com/cb')).toMatch(/plain http/);
    expect(redirectUriProblem('myapp://cb')).toMatch(/scheme myapp: is not accepted/);
    expect(redirectUriProblem('https://a.example/cb#x')).toMatch(/fragment/);
    expect(redirectUriProblem('https://u:p@a.example/cb')).toMatch(/user name/);
    expect(redirectUriProblem('/cb')).toMatch(/not an absolute URI/);
    expect(redirectUriMatches('http://127.0.0.1:6000/cb', ['http://127.0.0.1:5555/cb'])).toBe(true);
    expect(redirectUriMatches('http://127.0.0.1:6000/other', ['http://127.0.0.1:5555/cb'])).toBe(false);
    expect(redirectUriMatches('http://localhost:6000/cb', ['http://127.0.0.1:5555/cb'])).toBe(false);
    expect(redirectUriMatches('https://a.example:444/cb', ['https://a.example/cb'])).toBe(false);
    expect(redirectUriMatches('https://a.example/cb?x=1', ['https://a.example/cb'])).toBe(false);
  });

  it('a sealed key opens only with the secret it was sealed under', () => {
    const sealed = seal('pcb_live_x', 'ppa_secret');
    expect(unseal(sealed, 'ppa_secret')).toBe('pcb_live_x');
    expect(unseal(sealed, 'ppa_other')).toBeNull();
    expect(unseal(`${sealed.slice(0, -2)}AA`, 'ppa_secret')).toBeNull();
  });

  it('CSRF: the same nonce in cookie and form, the same request, within 15 minutes', () => {
    const secret = Buffer.alloc(32, 7);
    const r = { client_id: 'c', redirect_uri: REDIRECT, code_challenge: CHALLENGE };
    const t0 = new Date('2026-12-01T12:00:00Z');
    const { nonce, token: tok } = issueCsrf(secret, r, t0);
    expect(csrfValid(secret, tok, nonce, r, new Date(t0.getTime() + 900_000))).toBe(true);
    expect(csrfValid(secret, tok, nonce, r, new Date(t0.getTime() + 901_000))).toBe(false);
    expect(csrfValid(secret, tok, 'other', r, t0)).toBe(false);
    expect(csrfValid(secret, tok, undefined, r, t0)).toBe(false);
    expect(csrfValid(secret, tok, nonce, { ...r, redirect_uri: 'https://evil.example/cb' }, t0)).toBe(false);
    expect(csrfValid(Buffer.alloc(32, 8), tok, nonce, r, t0)).toBe(false);
    expect(cookieValue(`a=1; physpay_oauth=${nonce}`, 'physpay_oauth')).toBe(nonce);
  });

  it('the approval page names the client (escaped) and the redirect host; its CSP lets the form redirect there only', () => {
    const r: AuthorizeRequest = { client: { client_id: 'c', client_name: '<script>x</script> "Bot"', redirect_uris: [REDIRECT], created_at: '' }, redirect_uri: REDIRECT, state: 's"1', code_challenge: CHALLENGE, resource: is.resource, scope: undefined };
    const html = approvalPage('physpay', r, 'tok', 'a <problem>');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt; &quot;Bot&quot;');
    expect(html).not.toContain('<script>x');
    expect(html).toContain('<strong class="where">127.0.0.1:5555</strong>');
    expect(html).toContain('value="s&quot;1"');
    expect(html).toContain('<p class="problem" role="alert" id="problem">a &lt;problem&gt;</p>');
    expect(html).toMatch(/<label for="api-key">/);
    expect(approvalCsp(html, REDIRECT)).toContain("form-action 'self' http://127.0.0.1:5555;");
    expect(displayName('  A\u0000B\n  C ')).toBe('A B C');
    expect(displayName(undefined)).toBe('An unnamed application');
  });

  it('the sign-in address: /mcp with a signin parameter; as a resource it names /mcp', () => {
    expect(['/mcp?signin', '/MCP?signin', '/mcp?signin=1', '/mcp?x=1&signin'].map(isSigninTarget)).toEqual([true, true, true, true]);
    expect(['/mcp', '/mcp?', '/mcp?sign', '/mcp/?signin', '/mcpx?signin', '/data?signin'].map(isSigninTarget)).toEqual([false, false, false, false, false, false]);
    expect(namesResource('https://physpay.example/mcp', is)).toBe(true);
    expect(namesResource('https://physpay.example/mcp?signin', is)).toBe(true);
    expect(namesResource('https://physpay.example/mcp/', is)).toBe(false);
    expect(namesResource('https://physpay.example/mcp?other', is)).toBe(false);
    expect(namesResource(undefined, is)).toBe(false);
  });

  it('metadata and the 401 challenge come from the base URL', () => {
    expect(protectedResourceMetadata(is)).toMatchObject({ resource: 'https://physpay.example/mcp', authorization_servers: ['https://physpay.example'] });
    expect(bearerChallenge(is, false)).toBe('Bearer resource_metadata="https://physpay.example/.well-known/oauth-protected-resource/mcp"');
    expect(bearerChallenge(is, true)).toMatch(/^Bearer error="invalid_token", .*resource_metadata="https:\/\/physpay\.example\/\.well-known\/oauth-protected-resource\/mcp"$/);
  });
});

const backends: [string, () => Promise<ServiceStore>][] = [
  ['sqlite', async () => new SqliteServiceStore(join(work.path, `store-${Math.random().toString(36).slice(2)}.db`))],
  ['postgres', async () => PostgresServiceStore.open(PG_URL)],
];
for (const [kind, open] of backends) suite(kind, open);

function suite(kind: string, open: () => Promise<ServiceStore>) {
  (kind === 'postgres' && pgReason ? describe.skip : describe)(`OAuth core on the ${kind} store`, () => {
    let store: ServiceStore;
    let now = new Date('2026-12-01T12:00:00.000Z');
    let deps: OAuthDeps;

    beforeAll(async () => {
      store = await open();
      deps = { store, clock: () => now };
    });
    afterAll(async () => {
      await store?.close();
    });

    async function client(redirect = REDIRECT): Promise<string> {
      const out = await registerClient(deps, { client_name: 'Unit', redirect_uris: [redirect] });
      if ('error' in out) throw new Error(out.error_description);
      return out.client.client_id as string;
    }
    const request = (clientId: string, extra: Record<string, string> = {}) => ({
      response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, code_challenge: CHALLENGE, code_challenge_method: 'S256', resource: is.resource, state: 'st', ...extra,
    });
    async function code(clientId: string, apiKey: string): Promise<string> {
      const check = await checkAuthorizeRequest(deps, request(clientId), is);
      if (check.kind !== 'approve') throw new Error(JSON.stringify(check));
      const out = await approve(deps, check.request, apiKey, is);
      if ('problem' in out) throw new Error(out.problem);
      const loc = new URL(out.location);
      expect(loc.searchParams.get('state')).toBe('st');
      expect(loc.searchParams.get('iss')).toBe(is.issuer);
      return loc.searchParams.get('code')!;
    }
    const exchange = (clientId: string, c: string, verifier = VERIFIER) =>
      token(deps, { grant_type: 'authorization_code', client_id: clientId, code: c, code_verifier: verifier, redirect_uri: REDIRECT, resource: is.resource }, is);

    it('registration refuses unsafe redirect URIs and replaces unsupported metadata', async () => {
      expect(await registerClient(deps, { redirect_uris: ['http://example.com/cb'] })).toMatchObject({ status: 400, error: 'invalid_redirect_uri' });
      expect(await registerClient(deps, { redirect_uris: [] })).toMatchObject({ status: 400, error: 'invalid_client_metadata' });
      expect(await registerClient(deps, {})).toMatchObject({ status: 400, error: 'invalid_client_metadata' });
      const ok = await registerClient(deps, { redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'client_secret_basic' });
      expect(ok).toMatchObject({ client: { token_endpoint_auth_method: 'none', client_name: 'An unnamed application', redirect_uris: ['https://a.example/cb'] } });
    });

    it('an authorization request: unknown client or redirect URI on a physpay page; the rest back to the client', async () => {
      const id = await client();
      expect(await checkAuthorizeRequest(deps, request('nope'), is)).toMatchObject({ kind: 'page-error' });
      expect(await checkAuthorizeRequest(deps, request(id, { redirect_uri: 'https://evil.example/cb' }), is)).toMatchObject({ kind: 'page-error' });
      const back = async (extra: Record<string, string>) => {
        const c = await checkAuthorizeRequest(deps, request(id, extra), is);
        expect(c.kind).toBe('redirect');
        return new URL((c as { location: string }).location).searchParams;
      };
      expect((await back({ code_challenge_method: 'plain' })).get('error')).toBe('invalid_request');
      expect((await back({ code_challenge: '' })).get('error')).toBe('invalid_request');
      expect((await back({ response_type: 'token' })).get('error')).toBe('unsupported_response_type');
      expect((await back({ resource: 'https://physpay.example/other' })).get('error')).toBe('invalid_target');
      const noResource = request(id) as Record<string, string>;
      delete noResource.resource;
      expect(await checkAuthorizeRequest(deps, noResource, is)).toMatchObject({ kind: 'redirect' });
      // the sign-in address as the resource: the grant is for /mcp
      expect(await checkAuthorizeRequest(deps, request(id, { resource: `${is.resource}?signin` }), is)).toMatchObject({ kind: 'approve', request: { resource: is.resource } });
      // a loopback redirect on another port is the same client's
      expect(await checkAuthorizeRequest(deps, request(id, { redirect_uri: 'http://127.0.0.1:6001/cb' }), is)).toMatchObject({ kind: 'approve' });
    });

    it('approval checks the key: its form, existence, revocation and an active subscription', async () => {
      const id = await client();
      const check = await checkAuthorizeRequest(deps, request(id), is);
      if (check.kind !== 'approve') throw new Error('not approvable');
      expect(await approve(deps, check.request, 'hello', is)).toMatchObject({ problem: expect.stringMatching(/not an API key/) });
      expect(await approve(deps, check.request, `pcb_live_${'A'.repeat(32)}`, is)).toMatchObject({ problem: expect.stringMatching(/No key matches/) });
      const pastDue = await createKey(store, 'starter', 'past_due');
      expect(await approve(deps, check.request, pastDue.key, is)).toMatchObject({ problem: expect.stringMatching(/is past_due, not active/) });
      const ok = await createKey(store, 'starter');
      expect(await approve(deps, check.request, ` ${ok.key}\n`, is)).toHaveProperty('location');
    });

    it('a code is exchanged once, within two minutes, with the right verifier, by its own client', async () => {
      const id = await client();
      const other = await client();
      const { key } = await createKey(store, 'professional');
      const resolve = createBearerResolver(deps);

      const c1 = await code(id, key);
      const t1 = (await exchange(id, c1)) as TokenResponse;
      expect(await resolve(t1.access_token)).toEqual({ apiKey: key });
      expect(await exchange(id, c1)).toMatchObject({ status: 400, error: 'invalid_grant' }); // reuse

      const c2 = await code(id, key);
      expect(await exchange(id, c2, `${VERIFIER.slice(0, -1)}B`)).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/code_verifier/) });
      expect(await exchange(id, c2)).toMatchObject({ error: 'invalid_grant' }); // a failed attempt spent it

      const c3 = await code(id, key);
      expect(await exchange(other, c3)).toMatchObject({ error: 'invalid_grant' });

      const c4 = await code(id, key);
      expect(await token(deps, { grant_type: 'authorization_code', client_id: id, code: c4, code_verifier: VERIFIER, redirect_uri: 'http://127.0.0.1:5555/other' }, is)).toMatchObject({ error: 'invalid_grant' });

      const start = now;
      try {
        const c5 = await code(id, key);
        now = new Date(start.getTime() + (CODE_SECONDS - 1) * 1000);
        expect(await exchange(id, c5)).toHaveProperty('access_token');
        const c6 = await code(id, key);
        now = new Date(now.getTime() + CODE_SECONDS * 1000);
        expect(await exchange(id, c6)).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/expired/) });
      } finally {
        now = start;
      }
      expect(await token(deps, { grant_type: 'password', client_id: id }, is)).toMatchObject({ status: 400, error: 'unsupported_grant_type' });
      expect(await token(deps, { grant_type: 'authorization_code', client_id: 'nope', code: 'x', code_verifier: VERIFIER }, is)).toMatchObject({ status: 401, error: 'invalid_client' });
      expect(await token(deps, { grant_type: 'authorization_code', client_id: id, code: 'x', code_verifier: VERIFIER, resource: 'https://elsewhere.example/mcp' }, is)).toMatchObject({ error: 'invalid_target' });
    });

    it('refresh: rotated; the old one replayed ends the grant; expired after 30 days', async () => {
      const id = await client();
      const { key } = await createKey(store, 'starter');
      const resolve = createBearerResolver(deps);
      const t1 = (await exchange(id, await code(id, key))) as TokenResponse;
      const refresh = (rt: string, clientId = id) => token(deps, { grant_type: 'refresh_token', client_id: clientId, refresh_token: rt }, is);
      expect(await refresh(t1.refresh_token, await client())).toMatchObject({ error: 'invalid_grant' }); // another client
      const t2 = (await refresh(t1.refresh_token)) as TokenResponse;
      expect(t2.refresh_token).not.toBe(t1.refresh_token);
      expect(await resolve(t2.access_token)).toEqual({ apiKey: key });
      expect(await refresh(t1.refresh_token)).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/used already/) });
      expect(await resolve(t1.access_token)).toBeNull();
      expect(await resolve(t2.access_token)).toBeNull();

      const t3 = (await exchange(id, await code(id, key))) as TokenResponse;
      const start = now;
      try {
        now = new Date(start.getTime() + REFRESH_SECONDS * 1000);
        expect(await refresh(t3.refresh_token)).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/expired/) });
      } finally {
        now = start;
      }
    });

    it('revoking the key ends its access and refresh tokens; a rotated key likewise; codes too', async () => {
      const id = await client();
      const k = await createKey(store, 'enterprise');
      const resolve = createBearerResolver(deps);
      const t = (await exchange(id, await code(id, k.key))) as TokenResponse;
      const pending = await code(id, k.key);
      expect(await resolve(t.access_token)).toEqual({ apiKey: k.key });
      await store.updateKey(String(k.id), { revokedAt: now.toISOString() });
      expect(await resolve(t.access_token)).toBeNull();
      expect(await token(deps, { grant_type: 'refresh_token', client_id: id, refresh_token: t.refresh_token }, is)).toMatchObject({ error: 'invalid_grant' });
      expect(await exchange(id, pending)).toMatchObject({ error: 'invalid_grant', error_description: expect.stringMatching(/no longer valid/) });
      expect(await store.findOAuthToken(hashSecret(t.refresh_token))).toBeNull(); // the grant was deleted
    });

    it('revocation (RFC 7009): a client ends its own grant with either token; another client, or an unknown token, changes nothing', async () => {
      const id = await client();
      const other = await client();
      const { key } = await createKey(store, 'starter');
      const resolve = createBearerResolver(deps);
      const t = (await exchange(id, await code(id, key))) as TokenResponse;
      expect(await revoke(deps, { token: t.access_token, client_id: other })).toEqual({ revoked: false }); // not its token: 200, nothing ends
      expect(await resolve(t.access_token)).toEqual({ apiKey: key });
      expect(await revoke(deps, { token: 'ppa_unknown', client_id: id })).toEqual({ revoked: false });
      expect(await revoke(deps, { client_id: id })).toMatchObject({ status: 400, error: 'invalid_request' });
      expect(await revoke(deps, { token: t.access_token })).toMatchObject({ status: 401, error: 'invalid_client' });
      expect(await revoke(deps, { token: t.access_token, client_id: 'nope' })).toMatchObject({ status: 401, error: 'invalid_client' });
      expect(await revoke(deps, { token: t.access_token, client_id: id, token_type_hint: 'access_token' })).toEqual({ revoked: true });
      expect(await resolve(t.access_token)).toBeNull();
      expect(await token(deps, { grant_type: 'refresh_token', client_id: id, refresh_token: t.refresh_token }, is)).toMatchObject({ error: 'invalid_grant' });
      // the refresh token ends the grant too, whatever the hint says; revoking again is still a 200
      const u = (await exchange(id, await code(id, key))) as TokenResponse;
      expect(await revoke(deps, { token: u.refresh_token, client_id: id, token_type_hint: 'access_token' })).toEqual({ revoked: true });
      expect(await resolve(u.access_token)).toBeNull();
      expect(await revoke(deps, { token: u.refresh_token, client_id: id })).toEqual({ revoked: false });
    });

    it('the grants of a key: listed newest refresh first, only unspent and unexpired; ended only by their own key', async () => {
      const id = await client();
      const k = await createKey(store, 'professional');
      const other = await createKey(store, 'starter');
      const t1 = (await exchange(id, await code(id, k.key))) as TokenResponse;
      const start = now;
      let t2: TokenResponse;
      try {
        now = new Date(start.getTime() + 60_000);
        t2 = (await exchange(id, await code(id, k.key))) as TokenResponse;
        const listed = await store.listOAuthGrants(Number(k.id), now.toISOString());
        expect(listed.map((g) => g.client_id)).toEqual([id, id]);
        expect(listed[0]!.expires_at > listed[1]!.expires_at).toBe(true);
        expect(listed[0]!).toMatchObject({ client_name: 'Unit', redirect_uris: [REDIRECT] });
        const [g2, g1] = listed.map((g) => g.grant_id);
        expect(await store.listOAuthGrants(Number(other.id), now.toISOString())).toEqual([]);
        // a refresh keeps the grant (one entry, its new expiry); a grant past its refresh token's expiry is gone
        now = new Date(start.getTime() + 120_000);
        await token(deps, { grant_type: 'refresh_token', client_id: id, refresh_token: t1.refresh_token }, is);
        expect((await store.listOAuthGrants(Number(k.id), now.toISOString())).map((g) => g.grant_id)).toEqual([g1, g2]);
        expect(await store.listOAuthGrants(Number(k.id), new Date(now.getTime() + REFRESH_SECONDS * 1000 + 1).toISOString())).toEqual([]);
        expect(await store.revokeOAuthGrantOfKey(g2!, Number(other.id))).toBe(false);
        expect(await store.revokeOAuthGrantOfKey(g2!, Number(k.id))).toBe(true);
        expect(await store.revokeOAuthGrantOfKey(g2!, Number(k.id))).toBe(false);
        expect((await store.listOAuthGrants(Number(k.id), now.toISOString())).map((g) => g.grant_id)).toEqual([g1]);
        expect(await createBearerResolver(deps)(t2.access_token)).toBeNull();
      } finally {
        now = start;
      }
    });

    it('at once: ten exchanges of one code give one token pair; ten refreshes of one refresh token, one', async () => {
      const id = await client();
      const { key } = await createKey(store, 'starter');
      const c = await code(id, key);
      const exchanges = await Promise.all(Array.from({ length: 10 }, () => exchange(id, c)));
      expect(exchanges.filter((r) => 'access_token' in r)).toHaveLength(1);
      expect(exchanges.filter((r) => 'error' in r && r.error === 'invalid_grant')).toHaveLength(9);
      const t = exchanges.find((r) => 'access_token' in r) as TokenResponse;
      const refreshes = await Promise.all(Array.from({ length: 10 }, () => token(deps, { grant_type: 'refresh_token', client_id: id, refresh_token: t.refresh_token }, is)));
      expect(refreshes.filter((r) => 'access_token' in r).length).toBeLessThanOrEqual(1);
      // a refresh token presented twice ends the grant: whichever pair was issued no longer works
      const resolve = createBearerResolver(deps);
      for (const r of refreshes) if ('access_token' in r) expect(await resolve(r.access_token)).toBeNull();
    });

    it('prune forgets expired codes and tokens, and old clients that hold none', async () => {
      const id = await client();
      const { key } = await createKey(store, 'starter');
      const t = (await exchange(id, await code(id, key))) as TokenResponse;
      const day = Math.floor(now.getTime() / 86_400_000);
      await store.pruneIp(day + 1); // the access token (1 hour) has expired by then, the refresh token not
      expect(await store.findOAuthToken(hashSecret(t.access_token))).toBeNull();
      expect(await store.findOAuthToken(hashSecret(t.refresh_token))).not.toBeNull();
      expect(await store.findOAuthClient(id)).not.toBeNull();
      const idle = await client();
      await store.pruneIp(day + 91);
      expect(await store.findOAuthClient(idle)).toBeNull();
      expect(await store.findOAuthToken(hashSecret(t.refresh_token))).toBeNull();
    });
  });
}
