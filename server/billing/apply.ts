/**
 * The billing webhook's decisions, as pure functions: what an event says (readEvent), and the new state of
 * a subscription from its stored state and one event (decide). No I/O; the store runs `decide` inside the
 * transaction that records the event id.
 *
 * Ordering rule (events arrive out of order and more than once; the result must not depend on the order):
 * a subscription's state has two parts, its plan and its status, each stored with the version of the event
 * that set it. A version is the string `F.CCCCCCCCCCCC.EVENT_ID`: F is 1 when the status is final
 * (canceled: Stripe never revives a canceled subscription), else 0; C is the event's `created` time (the
 * time Stripe made the change, seconds, zero-padded); the event id breaks ties between events of the same
 * second, so that every order of delivery gives the same result. An event changes a part only when its
 * version is greater than the stored one: each part is the maximum over the events received, whatever their
 * order. Plans come from customer.subscription.* (the price of the subscription's first item) and from a
 * checkout session's line items when Stripe includes them; statuses from customer.subscription.* (Stripe's
 * status), invoice.paid (active), invoice.payment_failed (past_due) and a paid checkout session (active).
 *
 * A key is served only when both parts are known and the status is active: a checkout that arrives before
 * the subscription's price is known creates the key unserved (suspended) until it is.
 */
import type { PlanTier, SubscriptionStatus } from '../../build/contract/vocab.ts';
import { planOfPrice, type PriceMap } from './prices.ts';
import { isFinal, keyStatusOf, statusFromStripe, type BillingStatus } from './status.ts';

export const HANDLED_TYPES = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
] as const;

/** What one Stripe event says about a subscription. */
export interface BillingInput {
  id: string;
  type: string;
  /** the event's `created`, seconds since the epoch */
  created: number;
  subscriptionId: string;
  customerId: string | null;
  /** the price sold (subscription events: the first item's; checkout: the first line item's, when expanded) */
  priceId: string | null;
  /** Stripe's subscription status (subscription events) */
  stripeStatus: string | null;
  /** the status the event sets by itself (invoice.paid, invoice.payment_failed, a paid checkout) */
  impliedStatus: BillingStatus | null;
  /** checkout.session.completed: the session id (the key is revealed once under it) */
  checkoutSessionId: string | null;
}

/** A subscription as stored (the account an API key belongs to). */
export interface SubscriptionState {
  subscription_id: string;
  customer_id: string | null;
  plan_tier: PlanTier | null;
  plan_version: string | null;
  /** our status (BillingStatus) and Stripe's own word for it */
  status: BillingStatus | null;
  stripe_status: string | null;
  status_version: string | null;
  checkout_session_id: string | null;
}

export interface BillingDecision {
  /** the state to store; null: nothing changes */
  next: SubscriptionState | null;
  /** what the event did, in words (stored with the event, listed for the operator) */
  outcome: string;
  /** checkout.session.completed for a subscription without a key yet: create its key */
  createKey: boolean;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
/** An id field that Stripe sends as a string, or as the object when expanded. */
const idOf = (v: unknown): string | null => str(v) ?? str(obj(v)?.id);

export class MalformedEventError extends Error {}

/**
 * What a verified event says, or null when it is not one we act on (another type, a checkout that is not
 * for a subscription, an invoice of no subscription). Throws MalformedEventError when a handled event lacks
 * what it must have.
 */
export function readEvent(event: unknown): BillingInput | null {
  const e = obj(event);
  const id = str(e?.id);
  const type = str(e?.type);
  const created = e?.created;
  const o = obj(obj(e?.data)?.object);
  if (!e || !id || !type || typeof created !== 'number' || !Number.isInteger(created) || created < 0 || !o) throw new MalformedEventError('not a Stripe event (id, type, created and data.object are required)');
  if (!(HANDLED_TYPES as readonly string[]).includes(type)) return null;
  const base = { id, type, created, customerId: idOf(o.customer), priceId: null, stripeStatus: null, impliedStatus: null, checkoutSessionId: null };
  if (type === 'checkout.session.completed') {
    const sub = idOf(o.subscription);
    if (o.mode !== 'subscription' || !sub) return null;
    const sessionId = str(o.id);
    if (!sessionId) throw new MalformedEventError('checkout session without an id');
    const lineItems = obj(o.line_items)?.data;
    const firstPrice = Array.isArray(lineItems) ? idOf(obj(lineItems[0])?.price) : null;
    const paid = o.payment_status === 'paid' || o.payment_status === 'no_payment_required';
    return { ...base, subscriptionId: sub, priceId: firstPrice, impliedStatus: paid ? 'active' : null, checkoutSessionId: sessionId };
  }
  if (type.startsWith('customer.subscription.')) {
    const sub = str(o.id);
    const status = str(o.status);
    if (!sub || !status) throw new MalformedEventError(`${type} without the subscription's id or status`);
    const items = obj(o.items)?.data;
    const priceId = Array.isArray(items) ? idOf(obj(items[0])?.price) : null;
    return { ...base, subscriptionId: sub, priceId, stripeStatus: status };
  }
  // invoice.paid / invoice.payment_failed: the subscription is `subscription` (API versions before
  // 2025-03-31) or `parent.subscription_details.subscription` (later versions)
  const sub = idOf(o.subscription) ?? idOf(obj(obj(o.parent)?.subscription_details)?.subscription);
  if (!sub) return null;
  return { ...base, subscriptionId: sub, impliedStatus: type === 'invoice.paid' ? 'active' : 'past_due' };
}

/** The sortable version of an event (see the ordering rule above). */
export function versionOf(input: Pick<BillingInput, 'created' | 'id'>, final: boolean): string {
  return `${final ? 1 : 0}.${String(input.created).padStart(12, '0')}.${input.id}`;
}

const newer = (v: string, stored: string | null) => stored === null || v > stored;

/** The new state of the subscription from its stored state (null: none yet) and one event. */
export function decide(current: SubscriptionState | null, input: BillingInput, prices: PriceMap, hasKey: boolean): BillingDecision {
  const state: SubscriptionState = current ?? {
    subscription_id: input.subscriptionId, customer_id: null, plan_tier: null, plan_version: null,
    status: null, stripe_status: null, status_version: null, checkout_session_id: null,
  };
  // An unknown price (a retired one, a custom price not in the mapping yet) leaves the plan as it is, but the
  // status still applies: a cancellation or a failed payment must stop the key whatever the price says.
  let plan: PlanTier | null = null;
  let unknownPrice: string | null = null;
  if (input.priceId !== null) {
    plan = planOfPrice(prices, input.priceId);
    if (plan === null) unknownPrice = `unknown price ${input.priceId}: plan unchanged (add it to the price mapping)`;
  }
  let status: BillingStatus | null = input.impliedStatus;
  if (input.stripeStatus !== null) {
    status = statusFromStripe(input.stripeStatus);
    if (status === null) return { next: null, outcome: `unknown subscription status ${input.stripeStatus.slice(0, 40)}: no change`, createKey: false };
  }
  const next: SubscriptionState = { ...state, customer_id: state.customer_id ?? input.customerId };
  const changes: string[] = [];
  let older = false;
  if (plan !== null) {
    const v = versionOf(input, false);
    if (!newer(v, state.plan_version)) older = true;
    else {
      if (plan !== state.plan_tier) changes.push(`plan ${state.plan_tier ?? 'none'} -> ${plan}`);
      next.plan_tier = plan;
      next.plan_version = v;
    }
  }
  if (status !== null) {
    const v = versionOf(input, isFinal(status));
    if (!newer(v, state.status_version)) older = true;
    else {
      if (status !== state.status) changes.push(`status ${state.status ?? 'none'} -> ${status}`);
      next.status = status;
      next.stripe_status = input.stripeStatus; // from the event that set the status (null: an invoice or a checkout)
      next.status_version = v;
    }
  }
  const createKey = input.checkoutSessionId !== null && !hasKey;
  if (input.checkoutSessionId !== null && next.checkout_session_id === null) next.checkout_session_id = input.checkoutSessionId;
  if (createKey) changes.push(`key created (${keyView(next).plan}, ${keyView(next).status})`);
  const outcome = changes.length ? changes.join('; ') : `no change${older ? ' (older than the stored state)' : ''}`;
  return { next, outcome: unknownPrice ? `${unknownPrice}; ${outcome}` : outcome, createKey };
}

/**
 * The plan and status a subscription's keys carry: served (active) only when the plan is known and the
 * status is active; a key whose plan is not known yet is not served (suspended), on the starter plan.
 */
export function keyView(s: SubscriptionState): { plan: PlanTier; status: SubscriptionStatus } {
  if (s.plan_tier === null) return { plan: 'starter', status: s.status === null || s.status === 'active' || s.status === 'incomplete' ? 'suspended' : keyStatusOf(s.status) };
  return { plan: s.plan_tier, status: s.status === null ? 'suspended' : keyStatusOf(s.status) };
}
