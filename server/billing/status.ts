/**
 * Stripe's subscription status -> the key's `subscription_status` (the statuses the keyed API already knows:
 * only `active` is served, the others get 403). Pure.
 *
 *   active, trialing                -> active
 *   past_due, unpaid                -> past_due
 *   canceled, incomplete_expired    -> canceled   (final: Stripe never revives such a subscription)
 *   paused                          -> suspended
 *   incomplete                      -> incomplete (not yet served: the key exists and is listed as suspended)
 */
import type { SubscriptionStatus } from '../../build/contract/vocab.ts';

/** Our status of a subscription: the keyed API's statuses, and `incomplete` (first payment not made yet). */
export type BillingStatus = SubscriptionStatus | 'incomplete';

const MAP: Record<string, BillingStatus> = {
  active: 'active',
  trialing: 'active',
  past_due: 'past_due',
  unpaid: 'past_due',
  canceled: 'canceled',
  incomplete_expired: 'canceled',
  paused: 'suspended',
  incomplete: 'incomplete',
};

/** The status for Stripe's `status`, or null for a status Stripe does not define (the event changes nothing). */
export function statusFromStripe(stripeStatus: string): BillingStatus | null {
  return Object.hasOwn(MAP, stripeStatus) ? MAP[stripeStatus]! : null;
}

/** Final statuses: once a subscription is canceled, no later or earlier event makes it active again. */
export function isFinal(status: BillingStatus): boolean {
  return status === 'canceled';
}

/** The status a key carries in the keyed API (`incomplete` is not one of its statuses: not served, as suspended). */
export function keyStatusOf(status: BillingStatus): SubscriptionStatus {
  return status === 'incomplete' ? 'suspended' : status;
}
