/**
 * The approval form's protection against cross-site requests (pure apart from the random nonce): the page
 * sets a random nonce in a SameSite=Strict cookie and carries a token that signs that nonce, its time and
 * the request it approves (client, redirect URI, PKCE challenge) with the store's shared secret. A POST is
 * taken only with the same nonce in cookie and form, a valid signature over the same request, within 15
 * minutes. (The route also refuses a POST a browser marks `Sec-Fetch-Site: cross-site`.)
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const CSRF_COOKIE = 'physpay_oauth';
export const CSRF_MAX_SECONDS = 15 * 60;

export interface SignedRequest {
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
}

function mac(secret: Buffer, nonce: string, issued: number, r: SignedRequest): string {
  return createHmac('sha256', secret).update(['physpay oauth approval', nonce, issued, r.client_id, r.redirect_uri, r.code_challenge].join('\n')).digest('base64url');
}

/** A new nonce (for the cookie) and the form token over it. */
export function issueCsrf(secret: Buffer, r: SignedRequest, now: Date): { nonce: string; token: string } {
  const nonce = randomBytes(16).toString('base64url');
  const issued = Math.floor(now.getTime() / 1000);
  return { nonce, token: `${nonce}.${issued}.${mac(secret, nonce, issued, r)}` };
}

/** Is `token` (form) valid with `cookieNonce` (cookie) for request `r` at `now`? */
export function csrfValid(secret: Buffer, token: string | undefined, cookieNonce: string | undefined, r: SignedRequest, now: Date): boolean {
  if (!token || !cookieNonce) return false;
  const [nonce, issuedText, sig] = token.split('.');
  if (!nonce || !issuedText || !sig || nonce !== cookieNonce || !/^\d{1,12}$/.test(issuedText)) return false;
  const issued = Number(issuedText);
  const age = Math.floor(now.getTime() / 1000) - issued;
  if (age < 0 || age > CSRF_MAX_SECONDS) return false;
  const want = Buffer.from(mac(secret, nonce, issued, r));
  const got = Buffer.from(sig);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** The value of cookie `name` in a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
