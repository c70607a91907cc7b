/**
 * A test OAuth client for the SDK's auth(): an OAuthClientProvider kept in memory, a fetch that sends the
 * build's base URL (https://physpay.example) to the test server, and the subscriber's part: open the approval
 * page the SDK redirects to, paste a key, press a button, and read where the browser is sent.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { expect } from 'vitest';

export const BASE = 'https://physpay.example';
export const REDIRECT = 'http://127.0.0.1:33418/callback';

type Saved = Parameters<OAuthClientProvider['saveTokens']>[0];
type ClientInfo = Parameters<NonNullable<OAuthClientProvider['saveClientInformation']>>[0];

export class TestProvider implements OAuthClientProvider {
  client?: ClientInfo;
  saved?: Saved;
  verifier = '';
  discovery?: unknown;
  authorizationUrl?: URL;
  readonly clientMetadata: { client_name: string; redirect_uris: string[]; token_endpoint_auth_method: string };
  constructor(readonly redirectUrl = REDIRECT) {
    this.clientMetadata = { client_name: 'Test Assistant', redirect_uris: [redirectUrl], token_endpoint_auth_method: 'none' };
  }
  state() {
    return 'st-123';
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(c: ClientInfo) {
    this.client = c;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(t: Saved) {
    this.saved = t;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  discoveryState() {
    return this.discovery as never;
  }
  saveDiscoveryState(s: unknown) {
    this.discovery = s;
  }
  invalidateCredentials(scope: string) {
    if (scope === 'tokens' || scope === 'all') this.saved = undefined;
    if (scope === 'client' || scope === 'all') this.client = undefined;
  }
}

/** `url` on the test server instead of the build's base URL. */
export function local(url: string | URL, server: string): string {
  const s = String(url);
  return s.startsWith(BASE) ? server + s.slice(BASE.length) : s;
}

/** A fetch for the SDK that reaches the test server for the base URL's addresses. */
export function fetchVia(server: string): typeof fetch {
  return (input, init) => fetch(local(input instanceof Request ? input.url : input, server), init);
}

/** The hidden fields of the approval page's form. */
export function formFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    out[m[1]!] = m[2]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  }
  return out;
}

export interface ApprovalPage {
  status: number;
  html: string;
  fields: Record<string, string>;
  cookie: string;
}

/** GET the authorization URL (on the test server): the page, its form fields and the CSRF cookie. */
export async function openApproval(server: string, authorizationUrl: URL | string): Promise<ApprovalPage> {
  const res = await fetch(local(authorizationUrl, server), { redirect: 'manual' });
  const html = await res.text();
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  return { status: res.status, html, fields: formFields(html), cookie };
}

/** POST the form as a browser would (same site), with `fields` over the page's own. */
export async function submitApproval(server: string, page: ApprovalPage, fields: Record<string, string>, cookie = page.cookie): Promise<Response> {
  return fetch(`${server}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ ...page.fields, ...fields }),
  });
}

/** The whole subscriber step: open the page, approve with `apiKey`, and give the redirect's parameters. */
export async function approveWith(server: string, authorizationUrl: URL, apiKey: string): Promise<URLSearchParams> {
  const page = await openApproval(server, authorizationUrl);
  expect(page.status, page.html.slice(0, 500)).toBe(200);
  const res = await submitApproval(server, page, { api_key: apiKey, decision: 'approve' });
  expect(res.status, (await res.clone().text()).slice(0, 500)).toBe(303);
  const location = new URL(res.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
  return location.searchParams;
}
