/**
 * Realistic Stripe event payloads for the billing tests (the fields physpay reads, in Stripe's shapes), and
 * signing them as Stripe does (the official package's generateTestHeaderString, offline).
 */
import Stripe from 'stripe';

export const SECRET = 'whsec_test_0123456789abcdefABCDEF';
export const PRICES = 'starter=price_starter_m,price_starter_y;professional=price_pro_m;enterprise=price_ent_acme,price_ent_beta';

const stripe = new Stripe('sk_test_unused');

export type Event = Record<string, unknown> & { id: string; type: string; created: number };

function event(id: string, type: string, created: number, object: Record<string, unknown>): Event {
  return { id, object: 'event', api_version: '2025-10-29.clover', created, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type, data: { object } };
}

export function subscriptionEvent(
  type: 'customer.subscription.created' | 'customer.subscription.updated' | 'customer.subscription.deleted',
  o: { id: string; created: number; sub: string; customer?: string; price: string; status: string },
): Event {
  return event(o.id, type, o.created, {
    id: o.sub, object: 'subscription', customer: o.customer ?? `cus_${o.sub}`, status: o.status, created: 1_790_000_000,
    cancel_at_period_end: false, collection_method: 'charge_automatically',
    items: { object: 'list', data: [{ id: `si_${o.sub}`, object: 'subscription_item', current_period_start: o.created, current_period_end: o.created + 2_592_000, price: { id: o.price, object: 'price', recurring: { interval: 'month' }, unit_amount: 4900, currency: 'usd' }, quantity: 1 }] },
  });
}

export function checkoutEvent(o: { id: string; created: number; session: string; sub: string; customer?: string; paid?: boolean; lineItemPrice?: string }): Event {
  return event(o.id, 'checkout.session.completed', o.created, {
    id: o.session, object: 'checkout.session', mode: 'subscription', status: 'complete', payment_status: o.paid === false ? 'unpaid' : 'paid',
    customer: o.customer ?? `cus_${o.sub}`, subscription: o.sub, customer_details: { email: 'buyer@example.com' },
    ...(o.lineItemPrice ? { line_items: { object: 'list', data: [{ id: 'li_1', price: { id: o.lineItemPrice, object: 'price' }, quantity: 1 }] } } : {}),
  });
}

/** An invoice event; `legacy` puts the subscription at `subscription` (API versions before 2025-03-31). */
export function invoiceEvent(type: 'invoice.paid' | 'invoice.payment_failed', o: { id: string; created: number; sub: string; legacy?: boolean }): Event {
  return event(o.id, type, o.created, {
    id: `in_${o.id}`, object: 'invoice', customer: `cus_${o.sub}`, status: type === 'invoice.paid' ? 'paid' : 'open', amount_due: 4900,
    ...(o.legacy ? { subscription: o.sub } : { parent: { type: 'subscription_details', subscription_details: { subscription: o.sub } } }),
  });
}

/** The body and its Stripe-Signature header (timestamp: now, or `at` seconds). */
export function signed(e: unknown, opts: { secret?: string; at?: number } = {}): { body: string; signature: string } {
  const body = JSON.stringify(e, null, 2); // Stripe sends pretty-printed JSON: the bytes must be verified as sent
  const signature = stripe.webhooks.generateTestHeaderString({ payload: body, secret: opts.secret ?? SECRET, ...(opts.at !== undefined ? { timestamp: opts.at } : {}) });
  return { body, signature };
}

/**
 * The lifecycle of one subscription: created (incomplete) -> checkout paid -> active -> payment failed ->
 * invoice paid -> upgraded to professional -> canceled. `n` makes the ids unique.
 */
export function lifecycle(n: string, t0 = 1_795_000_000): { sub: string; session: string; events: Event[] } {
  const sub = `sub_${n}`;
  const session = `cs_test_${n}`;
  return {
    sub,
    session,
    events: [
      subscriptionEvent('customer.subscription.created', { id: `evt_${n}_1`, created: t0, sub, price: 'price_starter_m', status: 'incomplete' }),
      checkoutEvent({ id: `evt_${n}_2`, created: t0 + 1, session, sub }),
      subscriptionEvent('customer.subscription.updated', { id: `evt_${n}_3`, created: t0 + 2, sub, price: 'price_starter_m', status: 'active' }),
      invoiceEvent('invoice.paid', { id: `evt_${n}_4`, created: t0 + 3, sub }),
      invoiceEvent('invoice.payment_failed', { id: `evt_${n}_5`, created: t0 + 100, sub }),
      subscriptionEvent('customer.subscription.updated', { id: `evt_${n}_6`, created: t0 + 101, sub, price: 'price_starter_m', status: 'past_due' }),
      invoiceEvent('invoice.paid', { id: `evt_${n}_7`, created: t0 + 200, sub, legacy: true }),
      subscriptionEvent('customer.subscription.updated', { id: `evt_${n}_8`, created: t0 + 201, sub, price: 'price_starter_m', status: 'active' }),
      subscriptionEvent('customer.subscription.updated', { id: `evt_${n}_9`, created: t0 + 300, sub, price: 'price_pro_m', status: 'active' }),
      subscriptionEvent('customer.subscription.deleted', { id: `evt_${n}_10`, created: t0 + 400, sub, price: 'price_pro_m', status: 'canceled' }),
    ],
  };
}
