/**
 * Record keys of the disclosure control (build/compute/disclosure.ts): a keyed pseudorandom function of a
 * report's id under the reports DB's own secret, cut into the two 32-bit lanes of its 64-bit record key and
 * the word of its permanent noise factor. Only the build calls this, with the secret it read from the
 * reports DB; the secret itself is never written anywhere else.
 *
 * The function is AES-256 (a pseudorandom permutation) applied to the report id as one 16-byte block, with
 * a key derived from the secret by HMAC-SHA256: distinct ids give independent-looking outputs, and the
 * whole DB is keyed in one call (1,000,000 reports in ~70 ms, against ~3.5 s for one HMAC per report).
 */
import { createCipheriv, createHmac } from 'node:crypto';
import type { Db } from '../db/open.ts';
import { DISCLOSURE_METHOD_VERSION } from '../compute/disclosure.ts';

/** Per report: the two lanes of its 64-bit record key and the word of its noise factor. */
export interface RecordKeyColumns {
  lo: Uint32Array;
  hi: Uint32Array;
  factor: Uint32Array;
}

export class SecretMissing extends Error {}

/** The reports DB's secret, which must have been made for this disclosure method version. */
export function readSecret(db: Db): Buffer {
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'record_key_secret'").get();
  const row = hasTable ? (db.prepare('SELECT * FROM record_key_secret WHERE id = 1').get() as { secret: Buffer; method_version?: number } | undefined) : undefined;
  if (!row) throw new SecretMissing('the reports DB has no disclosure-control secret yet; migrate it with `physpay init --db <reports.db>`');
  if ((row.method_version ?? 2) !== DISCLOSURE_METHOD_VERSION) {
    throw new SecretMissing(`the reports DB's disclosure-control secret is for method version ${row.method_version ?? 2}, this build uses version ${DISCLOSURE_METHOD_VERSION}; migrate it with \`physpay init --db <reports.db>\` (a new method replaces the secret)`);
  }
  return row.secret;
}

/** Record keys of the reports with these ids (integers below 2^53), in the same order. */
export function recordKeys(secret: Buffer, ids: ArrayLike<number>, out: RecordKeyColumns): void {
  const n = ids.length;
  const blocks = Buffer.alloc(n * 16);
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    blocks.writeUInt32LE(id % 4294967296, i * 16);
    blocks.writeUInt32LE(Math.floor(id / 4294967296), i * 16 + 4);
  }
  const key = createHmac('sha256', secret).update(`physpay record keys v${DISCLOSURE_METHOD_VERSION}`).digest();
  const aes = createCipheriv('aes-256-ecb', key, null);
  aes.setAutoPadding(false);
  const enc = Buffer.concat([aes.update(blocks), aes.final()]);
  for (let i = 0; i < n; i++) {
    out.lo[i] = enc.readUInt32LE(i * 16);
    out.hi[i] = enc.readUInt32LE(i * 16 + 4);
    out.factor[i] = enc.readUInt32LE(i * 16 + 8);
  }
}
