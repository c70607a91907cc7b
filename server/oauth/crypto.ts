/**
 * The OAuth server's secrets (pure apart from the random bytes): codes and tokens are 32 random bytes in
 * base64url behind a short prefix that says what they are; the store keeps only their SHA-256 hashes. The
 * API key a code or token stands for is kept sealed under that code or token (AES-256-GCM, its key derived
 * from the secret by HKDF): the store alone cannot give any API key back, only a caller holding the token.
 * PKCE: S256 only (RFC 7636), compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { derivedKey, openWith, sealWith } from '../secrets/aead.ts';

export const SECRET_PREFIX = { code: 'ppc_', access: 'ppa_', refresh: 'ppr_' } as const;
export type SecretKind = keyof typeof SECRET_PREFIX;

/** A new code or token: its prefix and 32 random bytes (256 bits) in base64url. */
export function newSecret(kind: SecretKind): string {
  return SECRET_PREFIX[kind] + randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

const sealKey = (secret: string) => derivedKey(secret, 'physpay oauth', 'seal an API key under a code or token');

/** `value` encrypted under a key derived from `secret`: base64url of IV (12) | tag (16) | ciphertext. */
export function seal(value: string, secret: string): string {
  const { iv, tag, body } = sealWith(sealKey(secret), value);
  return Buffer.concat([iv, tag, body]).toString('base64url');
}

/** The value sealed under `secret`, or null when `secret` is not the one it was sealed under (or it was altered). */
export function unseal(sealed: string, secret: string): string | null {
  const raw = Buffer.from(sealed, 'base64url');
  if (raw.length < 28) return null;
  try {
    return openWith(sealKey(secret), { iv: raw.subarray(0, 12), tag: raw.subarray(12, 28), body: raw.subarray(28) });
  } catch {
    return null;
  }
}

/** RFC 7636: a verifier is 43 to 128 unreserved characters; a S256 challenge is 43 base64url characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
export const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Does `verifier` answer `challenge` (S256)? */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier) || !S256_CHALLENGE.test(challenge)) return false;
  return timingSafeEqual(Buffer.from(s256(verifier)), Buffer.from(challenge));
}
