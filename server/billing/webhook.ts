/**
 * POST /billing/stripe/webhook: Stripe's events about subscriptions (the shell around apply.ts).
 *
 * The raw body (at most 256 kB, read before anything parses it) is verified with the official `stripe`
 * package (webhooks.constructEvent: HMAC-SHA256 of `timestamp.body` with the endpoint's signing secret, 300 s
 * tolerance, no network call). Then one store transaction records the event id and applies the event.
 * Answers: 200 {"received": true} for every verified event (also duplicates, unhandled types and unknown
 * prices: Stripe stops retrying); 400 {"error"} for a missing, bad or stale signature or a malformed event,
 * changing nothing; 413 for a body over the limit; 503 when the store is unavailable (Stripe retries).
 * Not counted against any limit; Cache-Control: no-store. The secret and the keys are never logged.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import Stripe from 'stripe';
import type { Clock } from '../http/clock.ts';
import { sendJson } from '../http/send.ts';
import { readBody } from '../http/body.ts';
import type { Logger } from '../observability/logger.ts';
import { StoreUnavailableError, type ServiceStore, type StoredSubscription } from '../store/types.ts';
import { generateKey, hashKey, keyPrefixOf } from '../keyed/keys.ts';
import { decide, keyView, MalformedEventError, readEvent, type SubscriptionState } from './apply.ts';
import type { PriceMap } from './prices.ts';
import { sealKey } from './reveal.ts';

/** How far a signed timestamp may be from now, either way (Stripe's default tolerance). */
const SIGNATURE_TOLERANCE_S = 300;

export const WEBHOOK_PATH = '/billing/stripe/webhook';
export const WEBHOOK_MAX_BYTES = 256 * 1024;

export interface BillingConfig {
  /** the endpoint's signing secret (whsec_...) */
  webhookSecret: string;
  prices: PriceMap;
}

export interface WebhookDeps {
  store: ServiceStore;
  billing: BillingConfig | undefined;
  clock: Clock;
  logger?: Pick<Logger, 'warn' | 'info' | 'error'>;
}

/** Only the static webhooks helper is used: no API key, no network call. */
const stripe = new Stripe('sk_test_unused');

const HEADERS = { 'cache-control': 'no-store' };

/** The request is this route: POST (any other method gets 405 there) of the path, without a query. */
export function isWebhookTarget(route: string): boolean {
  return route === WEBHOOK_PATH;
}

export function createWebhookHandler(deps: WebhookDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    if (!deps.billing) {
      sendJson(res, 404, { error: 'billing is not set up on this server (no Stripe webhook secret in the settings)' }, HEADERS);
      return;
    }
    if (req.method !== 'POST') {
      sendJson(res, 405, { error: 'method not allowed: Stripe sends POST' }, { ...HEADERS, allow: 'POST' });
      return;
    }
    const { webhookSecret, prices } = deps.billing;
    const read = await readBody(req, WEBHOOK_MAX_BYTES);
    if (read.kind === 'gone') return;
    if (read.kind === 'too-large') {
      sendJson(res, 413, { error: `request body over ${WEBHOOK_MAX_BYTES / 1024} kB` }, { ...HEADERS, connection: 'close' });
      return;
    }
    const body = read.bytes;
    const header = req.headers['stripe-signature'];
    if (typeof header !== 'string' || header === '') {
      sendJson(res, 400, { error: 'missing Stripe-Signature header' }, HEADERS);
      return;
    }
    const now = deps.clock();
    // Stripe's constructEvent refuses only timestamps older than the tolerance: one dated in the future is refused
    // here, beyond the same tolerance, so a signature cannot be made to live longer than 300 s either way.
    const signedAt = Number(/(?:^|,)\s*t=(\d+)/.exec(header)?.[1] ?? NaN);
    if (Number.isFinite(signedAt) && signedAt * 1000 - now.getTime() > SIGNATURE_TOLERANCE_S * 1000) {
      sendJson(res, 400, { error: `stale Stripe-Signature: the signed timestamp is more than ${SIGNATURE_TOLERANCE_S} s from now` }, HEADERS);
      return;
    }
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(body, header, webhookSecret, SIGNATURE_TOLERANCE_S, undefined, now.getTime());
    } catch (err) {
      // bad or stale signature, or a body that is not JSON: nothing is recorded
      const stale = /tolerance/i.test((err as Error).message);
      sendJson(res, 400, { error: stale ? `stale Stripe-Signature: the signed timestamp is more than ${SIGNATURE_TOLERANCE_S} s from now` : err instanceof SyntaxError ? 'the body is not JSON' : 'bad Stripe-Signature: it does not match the body and the endpoint secret' }, HEADERS);
      return;
    }
    let input;
    try {
      input = readEvent(event);
    } catch (err) {
      if (!(err instanceof MalformedEventError)) throw err;
      sendJson(res, 400, { error: `malformed event: ${err.message}` }, HEADERS);
      return;
    }
    const receivedAt = now.toISOString();
    let newKey;
    if (input?.checkoutSessionId) {
      const key = generateKey();
      newKey = { keyHash: hashKey(key), keyPrefix: keyPrefixOf(key), label: `stripe ${input.customerId ?? input.subscriptionId}`.slice(0, 100), createdAt: receivedAt, sealed: sealKey(key, webhookSecret) };
    }
    try {
      const result = await deps.store.applyBillingEvent({
        event: { id: event.id, type: event.type, receivedAt, subscriptionId: input?.subscriptionId ?? null },
        ...(input
          ? {
              decide: (current: StoredSubscription | null, hasKey: boolean) => decide(current as SubscriptionState | null, input, prices, hasKey),
              keyView: (s: StoredSubscription) => keyView(s as SubscriptionState),
              ...(newKey ? { newKey } : {}),
            }
          : { outcome: `ignored: ${event.type} is not acted on` }),
      });
      if (!result.duplicate && /^unknown price/.test(result.outcome)) {
        deps.logger?.warn({ event_id: event.id, type: event.type, subscription_id: input?.subscriptionId }, `billing: ${result.outcome}`);
      } else if (!result.duplicate) {
        deps.logger?.info({ event_id: event.id, type: event.type, subscription_id: input?.subscriptionId, outcome: result.outcome }, 'billing event');
      }
      sendJson(res, 200, { received: true, ...(result.duplicate ? { duplicate: true } : {}) }, HEADERS);
    } catch (err) {
      if (err instanceof StoreUnavailableError) {
        sendJson(res, 503, { error: 'service store unavailable; retry later' }, { ...HEADERS, 'retry-after': 5 });
        return;
      }
      throw err;
    }
  };
}
