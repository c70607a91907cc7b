/**
 * The price mapping: which Stripe price ids sell which plan. One or more prices per plan (monthly, yearly,
 * Enterprise's custom prices). Written `starter=price_a,price_b;professional=price_c;enterprise=price_d`
 * (PHYSPAY_STRIPE_PRICES) or, in the config file, as an object {"starter": ["price_a", "price_b"], ...}.
 * Pure.
 */
import { PLAN_TIERS, type PlanTier } from '../../build/contract/vocab.ts';

export type PriceMap = ReadonlyMap<string, PlanTier>;

/** An object of the config file ({"plan": ["price", ...] or "price,price"}) in the text form. */
export function priceMapText(value: Record<string, unknown>): string {
  return Object.entries(value)
    .map(([plan, prices]) => `${plan}=${Array.isArray(prices) ? prices.map(String).join(',') : String(prices)}`)
    .join(';');
}

/**
 * Parse the text form. Returns the map, or the problems found, one sentence each (every problem, not only
 * the first). `setting` names where the text came from in the sentences.
 */
export function parsePriceMap(text: string, setting = '--stripe-prices (PHYSPAY_STRIPE_PRICES)'): { map: PriceMap; errors: string[] } {
  const map = new Map<string, PlanTier>();
  const errors: string[] = [];
  const entries = text.split(';').map((e) => e.trim()).filter(Boolean);
  if (entries.length === 0) errors.push(`${setting} names no prices; write plan=price_id[,price_id...] for each plan sold, separated by ";" (e.g. starter=price_123;professional=price_456)`);
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    if (eq < 0) {
      errors.push(`${setting}: "${entry.slice(0, 60)}" is not plan=price_id[,price_id...]`);
      continue;
    }
    const plan = entry.slice(0, eq).trim();
    if (!(PLAN_TIERS as readonly string[]).includes(plan)) {
      errors.push(`${setting}: "${plan.slice(0, 40)}" is not a plan; plans are ${PLAN_TIERS.join(', ')}`);
      continue;
    }
    const prices = entry.slice(eq + 1).split(',').map((p) => p.trim()).filter(Boolean);
    if (prices.length === 0) errors.push(`${setting}: the plan ${plan} has no price id after "="`);
    for (const price of prices) {
      if (!/^price_[A-Za-z0-9_]+$/.test(price)) errors.push(`${setting}: "${price.slice(0, 60)}" (plan ${plan}) is not a Stripe price id (price_ followed by letters and digits)`);
      else if (map.has(price) && map.get(price) !== plan) errors.push(`${setting}: the price ${price} is given to two plans (${map.get(price)} and ${plan}); a price sells one plan`);
      else map.set(price, plan as PlanTier);
    }
  }
  return { map, errors };
}

/** The plan a price sells, or null (an unknown price). */
export function planOfPrice(prices: PriceMap, priceId: string): PlanTier | null {
  return prices.get(priceId) ?? null;
}
