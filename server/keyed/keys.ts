/**
 * API keys: `pcb_live_` + 32 random base62 characters. Only the SHA-256 hash is stored; the key is shown
 * once, at creation. `key_prefix` (the first 12 characters) identifies a key in lists and responses.
 */
import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'pcb_live_';
export const KEY_PREFIX_LENGTH = 12;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_PATTERN = /^pcb_live_[0-9A-Za-z]{32}$/;

export function generateKey(): string {
  let out = '';
  while (out.length < 32) {
    for (const b of randomBytes(48)) {
      if (b < 248 && out.length < 32) out += ALPHABET[b % 62]; // 248 = 4 x 62: no modulo bias
    }
  }
  return KEY_PREFIX + out;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function keyPrefixOf(key: string): string {
  return key.slice(0, KEY_PREFIX_LENGTH);
}
