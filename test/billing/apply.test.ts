/**
 * The billing webhook's functional core: Stripe status -> subscription_status, the price mapping and its
 * one-sentence problems, reading events, and decide(): every order of delivery (and every repetition) of a
 * subscription's events gives the same final state (fast-check).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decide, keyView, readEvent, versionOf, type SubscriptionState } from '../../server/billing/apply.ts';
import { parsePriceMap, planOfPrice, priceMapText } from '../../server/billing/prices.ts';
import { keyStatusOf, statusFromStripe } from '../../server/billing/status.ts';
import { openSealedKey, sealKey } from '../../server/billing/reveal.ts';
import { checkoutEvent, invoiceEvent, lifecycle, PRICES, subscriptionEvent } from './events.ts';

const prices = parsePriceMap(PRICES).map;

describe('status.ts: Stripe status -> subscription_status', () => {
  it('maps every Stripe status as the spec says', () => {
    const table: Record<string, string | null> = {
      active: 'active', trialing: 'active', past_due: 'past_due', unpaid: 'past_due', canceled: 'canceled',
      incomplete_expired: 'canceled', paused: 'suspended', incomplete: 'incomplete', bogus: null, toString: null,
    };
    for (const [stripe, ours] of Object.entries(table)) expect(statusFromStripe(stripe), stripe).toBe(ours);
    expect(keyStatusOf('incomplete')).toBe('suspended'); // not yet served
    expect(keyStatusOf('past_due')).toBe('past_due');
  });
});

describe('prices.ts: the price mapping', () => {
  it('several prices per plan, Enterprise custom prices included', () => {
    expect(parsePriceMap(PRICES).errors).toEqual([]);
    expect(planOfPrice(prices, 'price_starter_y')).toBe('starter');
    expect(planOfPrice(prices, 'price_ent_beta')).toBe('enterprise');
    expect(planOfPrice(prices, 'price_other')).toBeNull();
    expect(priceMapText({ starter: ['price_a', 'price_b'], enterprise: 'price_c' })).toBe('starter=price_a,price_b;enterprise=price_c');
  });

  it('reports every problem, one sentence each', () => {
    const { errors } = parsePriceMap('gold=price_a;starter=;professional=prod_x,price_b;enterprise=price_b;junk');
    expect(errors).toHaveLength(5);
    expect(errors[0]).toMatch(/"gold" is not a plan; plans are starter, professional, enterprise/);
    expect(errors[1]).toMatch(/the plan starter has no price id/);
    expect(errors[2]).toMatch(/"prod_x" \(plan professional\) is not a Stripe price id/);
    expect(errors[3]).toMatch(/the price price_b is given to two plans \(professional and enterprise\)/);
    expect(errors[4]).toMatch(/"junk" is not plan=price_id/);
    expect(parsePriceMap('').errors[0]).toMatch(/names no prices/);
  });
});

describe('reveal.ts: the key kept sealed for its one reveal', () => {
  it('opens with the same secret only', () => {
    const sealed = sealKey('pcb_live_abc', 'whsec_one');
    expect(sealed).not.toContain('pcb_live');
    expect(openSealedKey(sealed, 'whsec_one')).toBe('pcb_live_abc');
    expect(() => openSealedKey(sealed, 'whsec_two')).toThrow();
  });
});

describe('readEvent', () => {
  it('reads the subscription, price and status of each handled type', () => {
    const s = readEvent(subscriptionEvent('customer.subscription.updated', { id: 'evt_1', created: 5, sub: 'sub_1', price: 'price_pro_m', status: 'trialing' }))!;
    expect(s).toMatchObject({ subscriptionId: 'sub_1', priceId: 'price_pro_m', stripeStatus: 'trialing', customerId: 'cus_sub_1' });
    expect(readEvent(checkoutEvent({ id: 'evt_2', created: 5, session: 'cs_1', sub: 'sub_1' }))).toMatchObject({ checkoutSessionId: 'cs_1', impliedStatus: 'active', priceId: null });
    expect(readEvent(checkoutEvent({ id: 'evt_2', created: 5, session: 'cs_1', sub: 'sub_1', paid: false, lineItemPrice: 'price_ent_acme' }))).toMatchObject({ impliedStatus: null, priceId: 'price_ent_acme' });
    expect(readEvent(invoiceEvent('invoice.payment_failed', { id: 'evt_3', created: 5, sub: 'sub_1' }))).toMatchObject({ subscriptionId: 'sub_1', impliedStatus: 'past_due' });
    expect(readEvent(invoiceEvent('invoice.paid', { id: 'evt_4', created: 5, sub: 'sub_1', legacy: true }))).toMatchObject({ subscriptionId: 'sub_1', impliedStatus: 'active' });
  });

  it('ignores other types and one-off checkouts; refuses what is not an event', () => {
    expect(readEvent({ id: 'evt_1', type: 'customer.created', created: 1, data: { object: {} } })).toBeNull();
    expect(readEvent({ id: 'evt_1', type: 'checkout.session.completed', created: 1, data: { object: { id: 'cs_1', mode: 'payment' } } })).toBeNull();
    expect(() => readEvent({ id: 'evt_1', type: 'invoice.paid' })).toThrow(/not a Stripe event/);
    expect(() => readEvent({ id: 'evt_1', type: 'customer.subscription.updated', created: 1, data: { object: { id: 'sub_1' } } })).toThrow(/status/);
  });
});

/** Apply `events` in order to a fresh subscription, as the store does (a duplicate id is skipped). */
function run(events: unknown[]): { state: SubscriptionState | null; keys: number; outcomes: string[] } {
  let state: SubscriptionState | null = null;
  let keys = 0;
  const seen = new Set<string>();
  const outcomes: string[] = [];
  for (const e of events) {
    const input = readEvent(e)!;
    if (seen.has(input.id)) continue;
    seen.add(input.id);
    const d = decide(state, input, prices, keys > 0);
    outcomes.push(d.outcome);
    if (d.next) state = d.next;
    if (d.next && d.createKey) keys++;
  }
  return { state, keys, outcomes };
}

describe('decide', () => {
  it('the lifecycle in order: key, past_due, active, upgraded, canceled', () => {
    const { events } = lifecycle('a');
    const steps = events.map((_, i) => run(events.slice(0, i + 1)));
    const view = (i: number) => keyView(steps[i]!.state!);
    expect(steps[1]!.keys).toBe(1);
    expect(view(1)).toEqual({ plan: 'starter', status: 'active' });
    expect(view(4)).toEqual({ plan: 'starter', status: 'past_due' });
    expect(view(6)).toEqual({ plan: 'starter', status: 'active' });
    expect(view(8)).toEqual({ plan: 'professional', status: 'active' });
    expect(view(9)).toEqual({ plan: 'professional', status: 'canceled' });
    expect(steps[9]!.outcomes.at(-1)).toBe('status active -> canceled');
  });

  it('a checkout before the price is known: the key exists, not served, until the subscription event', () => {
    const { events } = lifecycle('b');
    const first = run([events[1]!]);
    expect(first.keys).toBe(1);
    expect(keyView(first.state!)).toEqual({ plan: 'starter', status: 'suspended' });
    expect(keyView(run([events[1]!, events[0]!]).state!)).toEqual({ plan: 'starter', status: 'active' });
  });

  it('an unknown price leaves the plan as it is and says so; the status applies whatever the price', () => {
    const { events } = lifecycle('c');
    const before = run(events.slice(0, 3)).state!;
    expect(keyView(before).status).toBe('active');
    for (const [type, status, want] of [['customer.subscription.deleted', 'canceled', 'canceled'], ['customer.subscription.updated', 'past_due', 'past_due'], ['customer.subscription.updated', 'unpaid', 'past_due']] as const) {
      const d = decide(before, readEvent(subscriptionEvent(type, { id: `evt_x_${status}`, created: 1_900_000_000, sub: 'sub_c', price: 'price_retired', status }))!, prices, true);
      expect(d.outcome).toMatch(/^unknown price price_retired: plan unchanged \(add it to the price mapping\); status active -> /);
      expect(d.next!.plan_tier).toBe(before.plan_tier);
      expect(keyView(d.next!)).toEqual({ plan: keyView(before).plan, status: want });
    }
    // an active event with an unknown price: nothing to apply but the note
    const same = decide(before, readEvent(subscriptionEvent('customer.subscription.updated', { id: 'evt_x_same', created: 1_900_000_000, sub: 'sub_c', price: 'price_unknown', status: 'active' }))!, prices, true);
    expect(same.outcome).toBe('unknown price price_unknown: plan unchanged (add it to the price mapping); no change');
  });

  it('an older event changes nothing; canceled is final whatever the timestamps', () => {
    const { events } = lifecycle('d');
    const all = run(events).state!;
    const late = decide(all, readEvent(invoiceEvent('invoice.paid', { id: 'evt_late', created: 2_000_000_000, sub: 'sub_d' }))!, prices, true);
    expect(keyView(late.next!).status).toBe('canceled');
    expect(late.outcome).toBe('no change (older than the stored state)');
    expect(versionOf({ created: 1, id: 'evt_b' }, true) > versionOf({ created: 9_999_999_999, id: 'evt_a' }, false)).toBe(true);
  });

  it('property: any order of delivery, with repeats, gives the same final state', () => {
    const { events } = lifecycle('p');
    const expected = run(events);
    fc.assert(
      fc.property(fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }), fc.array(fc.nat(events.length - 1), { maxLength: 6 }), (order, repeats) => {
        const delivered = [...order];
        for (const r of repeats) delivered.splice(r % (delivered.length + 1), 0, events[r]!);
        const got = run(delivered);
        expect(got.state).toEqual(expected.state);
        expect(got.keys).toBe(1);
      }),
      { numRuns: 500 },
    );
  });

  it('property: the final state of any subset is the same in every order', () => {
    const { events } = lifecycle('q');
    fc.assert(
      fc.property(fc.subarray(events, { minLength: 1 }), (subset) => {
        const a = run(subset).state;
        const b = run([...subset].reverse()).state;
        expect(b).toEqual(a);
      }),
      { numRuns: 300 },
    );
  });
});
