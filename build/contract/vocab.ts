/**
 * Controlled vocabularies shared by the importers, the build and the server (README: Statistics and publication rules).
 * Query values and CSV values match case-insensitively and are stored in these canonical spellings.
 */
export { REGIONS, type Region } from '../db/reference/states.ts';

export const PRACTICE_SETTINGS = [
  'Hospital Employed',
  'Private Practice',
  'Academic',
  'Multispecialty Group',
  'Government',
  'Other',
] as const;
export type PracticeSetting = (typeof PRACTICE_SETTINGS)[number];

export const EMPLOYMENT_TYPES = [
  'Full-Time (W-2)',
  'Part-Time (W-2)',
  'Independent Contractor (1099)',
  'Partner/Owner',
] as const;
export type EmploymentType = (typeof EMPLOYMENT_TYPES)[number];

export const REPORT_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const PLAN_TIERS = ['starter', 'professional', 'enterprise'] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];

export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'canceled', 'suspended'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Canonical spelling of `value` within `allowed`, matched case-insensitively, or undefined. */
export function canonicalValue<T extends string>(allowed: readonly T[], value: string): T | undefined {
  const wanted = value.trim().toLowerCase();
  return allowed.find((v) => v.toLowerCase() === wanted);
}
