/**
 * The key made for a checkout cannot be shown in the webhook (Stripe is the caller). It is kept sealed,
 * under its checkout session id, until the customer's browser fetches it once (then it is deleted): AES-256-GCM
 * with a key derived (HKDF-SHA256) from the webhook signing secret, so the service DB alone does not give
 * the key away. A new signing secret makes keys still waiting unreadable (rotate them with physpay keys
 * rotate). Never logged.
 */
import { derivedKey, openWith, sealWith } from '../secrets/aead.ts';

const sealingKey = (secret: string) => derivedKey(secret, 'physpay', 'physpay api key reveal v1');

/** `v1.<iv>.<tag>.<ciphertext>` (base64url) */
export function sealKey(apiKey: string, secret: string): string {
  const { iv, tag, body } = sealWith(sealingKey(secret), apiKey);
  return ['v1', iv.toString('base64url'), tag.toString('base64url'), body.toString('base64url')].join('.');
}

/** The key sealed by sealKey; throws when the secret is not the one it was sealed with. */
export function openSealedKey(sealed: string, secret: string): string {
  const [v, iv, tag, body] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed key');
  return openWith(sealingKey(secret), { iv: Buffer.from(iv, 'base64url'), tag: Buffer.from(tag, 'base64url'), body: Buffer.from(body, 'base64url') });
}
