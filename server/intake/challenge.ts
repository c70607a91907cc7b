/**
 * The self-hosted proof of work (ALTCHA, altcha-lib's v1 protocol): the server signs a challenge (a salt
 * and the SHA-256 of salt + a secret number up to MAX_NUMBER); the browser finds the number (a second or so)
 * and sends it back with the signed challenge. Verification needs no state: the signature and the expiry,
 * which is checked here against the injected clock.
 */
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';

export type Challenge = Awaited<ReturnType<typeof createChallenge>>;

export const MAX_NUMBER = 100_000;
export const CHALLENGE_TTL_SECONDS = 30 * 60;

export function newChallenge(secret: string, nowMs: number): Promise<Challenge> {
  return createChallenge({ hmacKey: secret, maxNumber: MAX_NUMBER, expires: new Date(nowMs + CHALLENGE_TTL_SECONDS * 1000) });
}

/**
 * The signature of the challenge `payload` solves (base64 JSON, as the widget and our script send it), when
 * it is a solution of a challenge we signed that has not expired; null otherwise. The store spends each
 * signature on one stored report.
 */
export async function solved(secret: string, payload: string, nowMs: number): Promise<string | null> {
  if (payload.length > 2000) return null;
  try {
    const expires = Number(extractParams(payload).expires);
    if (!Number.isFinite(expires) || expires * 1000 < nowMs) return null;
    if (!(await verifySolution(payload, secret, false))) return null;
    const sig = (JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as { signature?: unknown }).signature;
    return typeof sig === 'string' ? sig : null;
  } catch {
    return null;
  }
}
