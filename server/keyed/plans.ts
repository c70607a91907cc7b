/** Plans of the keyed API (spec "Limits", README: Keyed benchmark API). */
import type { PlanTier } from '../../build/contract/vocab.ts';

export interface Plan {
  tier: PlanTier;
  label: string;
  daily: number;
  monthly: number;
  /** FTE-normalized, trending, breakdowns, components */
  professionalSections: boolean;
  customDateRanges: boolean;
}

export const PLANS: Record<PlanTier, Plan> = {
  starter: { tier: 'starter', label: 'Starter', daily: 100, monthly: 3_000, professionalSections: false, customDateRanges: false },
  professional: { tier: 'professional', label: 'Professional', daily: 500, monthly: 15_000, professionalSections: true, customDateRanges: false },
  enterprise: { tier: 'enterprise', label: 'Enterprise', daily: 2_000, monthly: 60_000, professionalSections: true, customDateRanges: true },
};

export function planOf(tier: string): Plan {
  const p = PLANS[tier as PlanTier];
  if (!p) throw new Error(`unknown plan tier ${tier}`);
  return p;
}
