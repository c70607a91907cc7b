/**
 * The form's anti-forgery token and the client's hash (pure: the secret and the times are arguments).
 *
 * GET /contribute sets a random nonce in a cookie (HttpOnly, SameSite=Strict) and puts
 * `issued.nonce.hmac` in the form, the HMAC covering the time, the nonce and the hash of the client's address.
 * A POST is accepted only with both, the same nonce, a valid HMAC for the address it comes from, and at least
 * MIN_FILL_SECONDS and at most MAX_AGE_SECONDS since the page was served: a page of another site cannot read
 * the token or set the cookie (double submit, signed), a token taken from one address cannot be sent from
 * others, and a bot that posts at once is refused. The store spends the nonce with the one report it carries.
 *
 * The form given back with a refusal about the answers (or with "too quickly") carries the time of the first
 * opening, not a new one (a new nonce, so still one report per token): the wait counts once, from when the
 * person first saw the form, so a correction can be sent at once; a bot gains nothing, as the post that was
 * refused had to carry a valid token of its own address, and its time still counts from that first opening.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const MIN_FILL_SECONDS = 3;
export const MAX_AGE_SECONDS = 2 * 3600;
export const FORM_COOKIE = 'physpay_form';

const mac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('base64url');

/** `client`: the client's address hash (clientHash), so the token is good from that address only. */
export function formToken(secret: string, nonce: string, issuedAtSeconds: number, client: string): string {
  return `${issuedAtSeconds}.${nonce}.${mac(secret, `form:${issuedAtSeconds}.${nonce}.${client}`)}`;
}

export type TokenCheck =
  | { ok: true; secondsToSubmit: number; nonce: string; issuedAtSeconds: number }
  | { ok: false; reason: 'missing' | 'invalid' | 'expired' }
  | { ok: false; reason: 'too_fast'; issuedAtSeconds: number };

/**
 * `invalid` covers a forged token, another page's token and a token sent from another address than the one
 * that opened the form (one HMAC cannot tell them apart, and need not: each gets a fresh form).
 */
export function checkFormToken(secret: string, token: string | undefined, cookieNonce: string | undefined, client: string, nowSeconds: number): TokenCheck {
  if (!token || !cookieNonce) return { ok: false, reason: 'missing' };
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{16,64})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m || m[2] !== cookieNonce) return { ok: false, reason: 'invalid' };
  const expected = Buffer.from(mac(secret, `form:${m[1]}.${m[2]}.${client}`));
  const given = Buffer.from(m[3]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'invalid' };
  const issuedAtSeconds = Number(m[1]);
  const age = nowSeconds - issuedAtSeconds;
  if (age < MIN_FILL_SECONDS) return { ok: false, reason: 'too_fast', issuedAtSeconds };
  if (age > MAX_AGE_SECONDS) return { ok: false, reason: 'expired' };
  return { ok: true, secondsToSubmit: age, nonce: m[2]!, issuedAtSeconds };
}

/** The client's address as kept with a submission: an HMAC under the store's secret, never the address. */
export function clientHash(secret: string, ip: string): string {
  return mac(secret, `client:${ip}`);
}

/** The value of one cookie of a Cookie header (undefined when absent). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}
