/**
 * What a service store keeps to refuse a repeat (pure): one digest of the client and the report together,
 * SHA-256 of the client's hash (itself an HMAC of the address under the store's secret) and the report's
 * submission fingerprint (its values, not the time it was sent: build/db/fingerprint.ts).
 *
 * A submission keeps it after `physpay import submissions` takes it, when its client hash is dropped: the
 * same client sending the same report again is refused on any later day, and the rows kept cannot be grouped
 * by client (each client-and-report pair has its own digest; finding a client's rows needs the store's secret,
 * the client's address and each report's values).
 *
 * The PostgreSQL store's migration computes the same value in SQL for rows stored before it:
 * encode(sha256(convert_to(client_hash || E'\n' || fingerprint, 'UTF8')), 'hex').
 */
import { createHash } from 'node:crypto';

export function repeatKey(clientHash: string, fingerprint: string): string {
  return createHash('sha256').update(`${clientHash}\n${fingerprint}`, 'utf8').digest('hex');
}
