/**
 * Record keys of the disclosure control (build/compute/disclosure.ts): HMAC-SHA256 of a report's id under
 * the reports DB's own secret, cut into one 32-bit key per stream. Only the build calls this, with the
 * secret it read from the reports DB; the secret itself is never written anywhere else.
 */
import { createHmac } from 'node:crypto';
import type { Db } from '../db/open.ts';

/** One 32-bit record key per report and stream (pay sums, sums of squares, pay per wRVU). */
export interface RecordKeyColumns {
  total: Uint32Array;
  square: Uint32Array;
  rate: Uint32Array;
}

export class SecretMissing extends Error {}

export function readSecret(db: Db): Buffer {
  const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'record_key_secret'").get();
  const row = hasTable ? (db.prepare('SELECT secret FROM record_key_secret WHERE id = 1').get() as { secret: Buffer } | undefined) : undefined;
  if (!row) throw new SecretMissing('the reports DB has no disclosure-control secret yet; migrate it with `physpay init --db <reports.db>`');
  return row.secret;
}

/** Write the keys of report `id` at position `at`. */
export function recordKeyWriter(secret: Buffer, cols: RecordKeyColumns): (at: number, id: number) => void {
  return (at, id) => {
    const h = createHmac('sha256', secret).update(`report:${id}`).digest();
    cols.total[at] = h.readUInt32LE(0);
    cols.square[at] = h.readUInt32LE(4);
    cols.rate[at] = h.readUInt32LE(8);
  };
}
