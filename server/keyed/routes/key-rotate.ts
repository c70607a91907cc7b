/**
 * POST /api/v1/me/key/rotate: the subscriber replaces their own key. One store step makes the new key (same
 * plan, status, subscription, quota counts and usage history) and revokes the key sent, so from the answer
 * on only the new key works. The new key is in this answer only (Cache-Control: no-store) and never logged.
 * Never counted. Two rotations racing with one key: one wins, the other gets 401 (its key is revoked).
 */
import type { KeyRotateResponse } from '../../../build/contract/keyed-api.ts';
import type { PlanTier, SubscriptionStatus } from '../../../build/contract/vocab.ts';
import { KeyNotFoundError, KeyRevokedError } from '../../store/types.ts';
import type { Answer, KeyedLocals } from '../context.ts';
import { KeyedError } from '../errors.ts';
import { generateKey, hashKey, keyPrefixOf } from '../keys.ts';
import type { KeyedDeps } from '../middleware.ts';
import { allowOnly, type Query } from '../params.ts';

export async function keyRotateRoute(query: Query, l: KeyedLocals, deps: KeyedDeps): Promise<Answer> {
  allowOnly(query, []);
  const key = generateKey();
  const at = `${l.now!.toISOString().slice(0, 19)}Z`;
  let rotated;
  try {
    rotated = await deps.store.rotateKey(String(l.key!.id), { keyHash: hashKey(key), keyPrefix: keyPrefixOf(key), createdAt: at }, at);
  } catch (err) {
    if (err instanceof KeyRevokedError || err instanceof KeyNotFoundError) throw new KeyedError('unauthorized', 'invalid API key');
    throw err;
  }
  const body: KeyRotateResponse = {
    key,
    key_prefix: rotated.key.key_prefix,
    plan_tier: rotated.key.plan_tier as PlanTier,
    subscription_status: rotated.key.subscription_status as SubscriptionStatus,
    created_at: rotated.key.created_at,
    replaced: { key_prefix: rotated.old.key_prefix, revoked_at: rotated.old.revoked_at! },
  };
  return { body, cacheControl: 'no-store' };
}
