/**
 * The one sealing primitive of the server: AES-256-GCM with a key derived from a secret by HKDF-SHA256, a
 * random 12-byte IV and a 16-byte tag. Callers choose the HKDF salt and info (so a key sealed for one purpose
 * never opens for another) and how the three parts are written down: the OAuth store keeps
 * `base64url(iv | tag | ciphertext)` (server/oauth/crypto.ts), billing keeps `v1.<iv>.<tag>.<ciphertext>`
 * (server/billing/reveal.ts); both formats are in service DBs, so they stay as they are.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export interface Sealed {
  iv: Buffer;
  tag: Buffer;
  body: Buffer;
}

/** The AES-256 key for `secret` under `salt` and `info` (HKDF-SHA256). */
export function derivedKey(secret: string, salt: string, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, salt, info, 32));
}

export function sealWith(key: Buffer, plaintext: string): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), body };
}

/** The plaintext; throws when the key is not the one it was sealed with, or any part was altered. */
export function openWith(key: Buffer, s: Sealed): string {
  const decipher = createDecipheriv('aes-256-gcm', key, s.iv);
  decipher.setAuthTag(s.tag);
  return Buffer.concat([decipher.update(s.body), decipher.final()]).toString('utf8');
}
