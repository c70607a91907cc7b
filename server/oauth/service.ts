/**
 * The OAuth 2.1 authorization server behind assistants' access to /mcp (the MCP authorization
 * specification): dynamic client registration (RFC 7591, public clients only), the authorization request
 * and the subscriber's approval with their API key, the token endpoint (authorization code with S256 PKCE,
 * refresh tokens rotated on every use) and the resolver that turns an access token back into its API key.
 * No HTTP here (routes.ts); the store and the clock are injected.
 *
 * Lifetimes: a code 2 minutes (and once), an access token 1 hour, a refresh token 30 days from its issue
 * (each refresh issues a new pair and spends the old refresh token; replaying a spent one revokes the
 * whole grant). Every code and token is bound to one API key: revoking or rotating that key ends them.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../http/clock.ts';
import { hashKey, KEY_PATTERN } from '../keyed/keys.ts';
import type { OAuthClientRecord, OAuthTokenRecord, ServiceStore } from '../store/types.ts';
import { hashSecret, newSecret, pkceMatches, S256_CHALLENGE, seal, unseal } from './crypto.ts';
import { MAX_REDIRECT_URIS, redirectUriMatches, redirectUriProblem } from './redirect-uris.ts';

export const CODE_SECONDS = 120;
export const ACCESS_SECONDS = 3600;
export const REFRESH_SECONDS = 30 * 86_400;

export interface OAuthDeps {
  store: ServiceStore;
  clock: Clock;
}

/** An OAuth error (RFC 6749 section 5.2 / RFC 7591 section 3.2.2): the body `{error, error_description}` and its status. */
export interface OAuthFailure {
  status: number;
  error: string;
  error_description: string;
}

const fail = (status: number, error: string, description: string): OAuthFailure => ({ status, error, error_description: description });

/** The issuer (the build's base URL without a trailing slash) and the one resource it issues tokens for. */
export interface Issuer {
  issuer: string;
  resource: string;
}

/** A `resource` parameter naming /mcp: `{base}/mcp`, or its sign-in address `{base}/mcp?signin` (signin.ts) as a host may send it. */
export function namesResource(resource: string | undefined, is: Issuer): boolean {
  return resource === is.resource || resource === `${is.resource}?signin`;
}

export function issuerOf(baseUrl: string): Issuer {
  const issuer = baseUrl.replace(/\/+$/, '');
  return { issuer, resource: `${issuer}/mcp` };
}

const later = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

// ---------------------------------------------------------------------------------------------------------
// Registration (RFC 7591)

const RegistrationRequest = z.object({
  redirect_uris: z.array(z.string()).min(1, 'redirect_uris must list at least one URI').max(MAX_REDIRECT_URIS, `redirect_uris may list at most ${MAX_REDIRECT_URIS} URIs`),
  client_name: z.string().max(200).optional(),
});

/** A client's name as the approval page shows it: control characters removed, spaces folded, at most 100 characters. */
export function displayName(name: string | undefined): string {
  const clean = (name ?? '').replace(/[\p{Cc}\p{Cf}]/gu, ' ').replace(/\s+/g, ' ').trim().slice(0, 100);
  return clean || 'An unnamed application';
}

/**
 * Register a public client. Metadata physpay does not support is replaced, as RFC 7591 allows: the answer
 * always says `token_endpoint_auth_method: none`, grant types `authorization_code` and `refresh_token`.
 */
export async function registerClient(deps: OAuthDeps, body: unknown): Promise<{ client: Record<string, unknown> } | OAuthFailure> {
  const parsed = RegistrationRequest.safeParse(body);
  if (!parsed.success) return fail(400, 'invalid_client_metadata', parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; '));
  for (const uri of parsed.data.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) return fail(400, 'invalid_redirect_uri', problem);
  }
  const now = deps.clock();
  const record: OAuthClientRecord = { client_id: randomUUID(), client_name: displayName(parsed.data.client_name), redirect_uris: parsed.data.redirect_uris, created_at: now.toISOString() };
  await deps.store.registerOAuthClient(record);
  return {
    client: {
      client_id: record.client_id,
      client_id_issued_at: Math.floor(now.getTime() / 1000),
      client_name: record.client_name,
      redirect_uris: record.redirect_uris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Authorization request and approval

/** A checked authorization request: what the approval page shows and carries. */
export interface AuthorizeRequest {
  client: OAuthClientRecord;
  redirect_uri: string;
  state: string | undefined;
  code_challenge: string;
  resource: string;
  scope: string | undefined;
}

/**
 * What an authorization request leads to: the approval page; an error shown on a physpay page (the client or
 * its redirect URI could not be trusted, so nothing is sent to it, RFC 6749 section 4.1.2.1); or an error
 * sent back to the client's redirect URI.
 */
export type AuthorizeCheck =
  | { kind: 'approve'; request: AuthorizeRequest }
  | { kind: 'page-error'; message: string }
  | { kind: 'redirect'; location: string };

const param = (p: Record<string, unknown>, name: string): string | undefined => (typeof p[name] === 'string' ? (p[name] as string) : undefined);

/** The client's redirect URI with the response's parameters (and `iss`, RFC 9207). */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>, is: Issuer): string {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.searchParams.set(k, v);
  u.searchParams.set('iss', is.issuer);
  return u.toString();
}

export async function checkAuthorizeRequest(deps: OAuthDeps, p: Record<string, unknown>, is: Issuer): Promise<AuthorizeCheck> {
  const clientId = param(p, 'client_id');
  if (!clientId) return { kind: 'page-error', message: 'The request names no client (client_id is missing). Start again from your assistant.' };
  const client = await deps.store.findOAuthClient(clientId);
  if (!client) return { kind: 'page-error', message: 'The application asking for access is not registered here (unknown client_id). Start again from your assistant: it registers itself.' };
  const redirectUri = param(p, 'redirect_uri');
  if (!redirectUri) return { kind: 'page-error', message: 'The request names no redirect_uri. Start again from your assistant.' };
  if (!redirectUriMatches(redirectUri, client.redirect_uris)) return { kind: 'page-error', message: 'The request\'s redirect_uri is not one the application registered, so physpay will not send anything to it.' };
  const state = param(p, 'state');
  const back = (error: string, description: string): AuthorizeCheck => ({ kind: 'redirect', location: redirectWith(redirectUri, { error, error_description: description, state }, is) });
  if (param(p, 'response_type') !== 'code') return back('unsupported_response_type', 'response_type must be code');
  const challenge = param(p, 'code_challenge');
  if (!challenge) return back('invalid_request', 'code_challenge is required (PKCE with S256)');
  if (param(p, 'code_challenge_method') !== 'S256') return back('invalid_request', 'code_challenge_method must be S256');
  if (!S256_CHALLENGE.test(challenge)) return back('invalid_request', 'code_challenge must be 43 base64url characters (S256)');
  const resource = param(p, 'resource');
  if (!namesResource(resource, is)) return back('invalid_target', `resource must be ${is.resource}`);
  return { kind: 'approve', request: { client, redirect_uri: redirectUri, state, code_challenge: challenge, resource: is.resource, scope: param(p, 'scope') } };
}

/** The approval: the subscriber's key checked, a code issued, and where to send the browser; or why not (shown on the page). */
export async function approve(deps: OAuthDeps, request: AuthorizeRequest, apiKey: string, is: Issuer): Promise<{ location: string } | { problem: string }> {
  const key = apiKey.trim();
  if (!KEY_PATTERN.test(key)) return { problem: 'That is not an API key: a key is pcb_live_ followed by 32 letters and digits.' };
  const record = await deps.store.findKeyByHash(hashKey(key));
  if (!record) return { problem: 'No key matches. Check that you pasted the whole key, as shown when it was created.' };
  if (record.revoked_at) return { problem: `The key ${record.key_prefix}... was revoked or replaced by a newer key: use your current key.` };
  if (record.subscription_status !== 'active') return { problem: `The subscription of key ${record.key_prefix}... is ${record.subscription_status}, not active: an assistant could not use it.` };
  const code = newSecret('code');
  await deps.store.saveOAuthCode(hashSecret(code), {
    client_id: request.client.client_id, key_id: record.id, redirect_uri: request.redirect_uri, code_challenge: request.code_challenge,
    resource: request.resource, sealed: seal(key, code), expires_at: later(deps.clock(), CODE_SECONDS),
  });
  return { location: redirectWith(request.redirect_uri, { code, state: request.state }, is) };
}

/** The subscriber said no: access_denied to the client. */
export function deny(request: AuthorizeRequest, is: Issuer): string {
  return redirectWith(request.redirect_uri, { error: 'access_denied', error_description: 'the subscriber did not approve access', state: request.state }, is);
}

// ---------------------------------------------------------------------------------------------------------
// Token endpoint

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
}

/** A new access and refresh token for `apiKey` in grant `grantId`: the response, and the records to store. */
function issue(apiKey: string, keyId: number, clientId: string, resource: string, grantId: string, now: Date): { response: TokenResponse; records: OAuthTokenRecord[] } {
  const access = newSecret('access');
  const refresh = newSecret('refresh');
  const base = { grant_id: grantId, client_id: clientId, key_id: keyId, resource };
  return {
    response: { access_token: access, token_type: 'Bearer', expires_in: ACCESS_SECONDS, refresh_token: refresh },
    records: [
      { ...base, token_hash: hashSecret(access), kind: 'access', sealed: seal(apiKey, access), expires_at: later(now, ACCESS_SECONDS) },
      { ...base, token_hash: hashSecret(refresh), kind: 'refresh', sealed: seal(apiKey, refresh), expires_at: later(now, REFRESH_SECONDS) },
    ],
  };
}

/** Is the API key still usable for a grant (not revoked, not rotated away)? */
async function keyUsable(deps: OAuthDeps, apiKey: string): Promise<boolean> {
  const record = await deps.store.findKeyByHash(hashKey(apiKey));
  return record !== null && record.revoked_at === null;
}

export async function token(deps: OAuthDeps, p: Record<string, unknown>, is: Issuer): Promise<TokenResponse | OAuthFailure> {
  const grantType = param(p, 'grant_type');
  const clientId = param(p, 'client_id');
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token') return fail(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  if (!clientId) return fail(401, 'invalid_client', 'client_id is required (public clients identify themselves in the request body)');
  const client = await deps.store.findOAuthClient(clientId);
  if (!client) return fail(401, 'invalid_client', 'unknown client_id: register again');
  const resource = param(p, 'resource');
  if (resource !== undefined && !namesResource(resource, is)) return fail(400, 'invalid_target', `resource must be ${is.resource}`);
  const now = deps.clock();
  const nowIso = now.toISOString();
  if (grantType === 'authorization_code') {
    const code = param(p, 'code');
    const verifier = param(p, 'code_verifier');
    if (!code) return fail(400, 'invalid_request', 'code is required');
    if (!verifier) return fail(400, 'invalid_request', 'code_verifier is required (PKCE)');
    // taken (deleted) before anything is checked: a code is good for one attempt only
    const stored = await deps.store.takeOAuthCode(hashSecret(code));
    if (!stored || stored.client_id !== clientId) return fail(400, 'invalid_grant', 'the code is unknown, used already, or was issued to another client');
    if (stored.expires_at <= nowIso) return fail(400, 'invalid_grant', 'the code has expired: authorize again');
    if (param(p, 'redirect_uri') !== stored.redirect_uri) return fail(400, 'invalid_grant', 'redirect_uri differs from the authorization request\'s');
    if (!pkceMatches(verifier, stored.code_challenge)) return fail(400, 'invalid_grant', 'code_verifier does not match the code_challenge');
    const apiKey = unseal(stored.sealed, code);
    if (apiKey === null || !(await keyUsable(deps, apiKey))) return fail(400, 'invalid_grant', 'the API key approved is no longer valid');
    const { response, records } = issue(apiKey, stored.key_id, clientId, stored.resource, randomUUID(), now);
    await deps.store.saveOAuthTokens(records);
    return response;
  }
  const refresh = param(p, 'refresh_token');
  if (!refresh) return fail(400, 'invalid_request', 'refresh_token is required');
  const found = await deps.store.findOAuthToken(hashSecret(refresh));
  if (!found || found.kind !== 'refresh' || found.client_id !== clientId) return fail(400, 'invalid_grant', 'the refresh token is unknown, revoked, or was issued to another client');
  if (found.used_at !== null) {
    // a spent refresh token presented again: someone else may hold a copy; end the whole grant
    await deps.store.revokeOAuthGrant(found.grant_id);
    return fail(400, 'invalid_grant', 'the refresh token was used already; the grant is revoked: authorize again');
  }
  if (found.expires_at <= nowIso) return fail(400, 'invalid_grant', 'the refresh token has expired: authorize again');
  const apiKey = unseal(found.sealed, refresh);
  if (found.key_revoked_at !== null || apiKey === null) {
    await deps.store.revokeOAuthGrant(found.grant_id);
    return fail(400, 'invalid_grant', 'the API key approved was revoked or replaced: authorize again with your current key');
  }
  const { response, records } = issue(apiKey, found.key_id, clientId, found.resource, found.grant_id, now);
  if (!(await deps.store.rotateOAuthRefresh(found.token_hash, nowIso, records))) {
    await deps.store.revokeOAuthGrant(found.grant_id);
    return fail(400, 'invalid_grant', 'the refresh token was used already; the grant is revoked: authorize again');
  }
  return response;
}

/**
 * Token revocation (RFC 7009) for public clients: the client names itself (`client_id`) and presents an access or
 * refresh token; when the token is its own, the whole grant ends (every access and refresh token of that
 * approval: an assistant "disconnecting"). An unknown token, or one issued to another client, changes nothing
 * and is answered the same (`revoked` is for tests and logs only; the endpoint answers 200 either way).
 * `token_type_hint` is only a hint: both kinds are looked up.
 */
export async function revoke(deps: OAuthDeps, p: Record<string, unknown>): Promise<{ revoked: boolean } | OAuthFailure> {
  const presented = param(p, 'token');
  const clientId = param(p, 'client_id');
  if (!presented) return fail(400, 'invalid_request', 'token is required');
  if (!clientId) return fail(401, 'invalid_client', 'client_id is required (public clients identify themselves in the request body)');
  if (!(await deps.store.findOAuthClient(clientId))) return fail(401, 'invalid_client', 'unknown client_id: register again');
  if (presented.length > 100) return { revoked: false };
  const found = await deps.store.findOAuthToken(hashSecret(presented));
  if (!found || found.client_id !== clientId) return { revoked: false };
  await deps.store.revokeOAuthGrant(found.grant_id);
  return { revoked: true };
}

// ---------------------------------------------------------------------------------------------------------
// The resolver /mcp uses

export type BearerResolver = (token: string) => Promise<{ apiKey: string } | null>;

/**
 * An access token's API key, or null when the token is unknown, expired, not an access token, or its key
 * was revoked (or rotated: the old key is revoked). Only a syntactically plausible token reaches the store.
 */
export function createBearerResolver(deps: OAuthDeps): BearerResolver {
  return async (presented) => {
    if (!presented.startsWith('ppa_') || presented.length > 100) return null;
    const found = await deps.store.findOAuthToken(hashSecret(presented));
    if (!found || found.kind !== 'access' || found.key_revoked_at !== null) return null;
    if (found.expires_at <= deps.clock().toISOString()) return null;
    const apiKey = unseal(found.sealed, presented);
    return apiKey === null ? null : { apiKey };
  };
}
