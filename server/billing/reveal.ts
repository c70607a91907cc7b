/**
 * The key made for a checkout cannot be shown in the webhook (Stripe is the caller). It is kept sealed,
 * under its checkout session id, until the customer's browser fetches it once (then it is deleted): AES-256-GCM
 * with a key derived (HKDF-SHA256) from the webhook signing secret, so the service DB alone does not give
 * the key away. A new signing secret makes keys still waiting unreadable (rotate them with physpay keys
 * rotate). Never logged.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

function sealingKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'physpay', 'physpay api key reveal v1', 32));
}

/** `v1.<iv>.<tag>.<ciphertext>` (base64url) */
export function sealKey(apiKey: string, secret: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', sealingKey(secret), iv);
  const body = Buffer.concat([c.update(apiKey, 'utf8'), c.final()]);
  return ['v1', iv.toString('base64url'), c.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The key sealed by sealKey; throws when the secret is not the one it was sealed with. */
export function openSealedKey(sealed: string, secret: string): string {
  const [v, iv, tag, body] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed key');
  const d = createDecipheriv('aes-256-gcm', sealingKey(secret), Buffer.from(iv, 'base64url'));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
}
