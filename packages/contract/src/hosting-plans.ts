import { durationDiscountPercent } from './pricing.ts';

/**
 * Web hosting (public spec §2.5, portal spec "Web hosting package page" and §9; issue 12; decision 022).
 * Plans are configured data shared by the shop page and the API; the price function is the product's.
 * Kept free of schemas (zod), so the prerendered shop page loads no validation code until the form is
 * checked (issue 22); hosting.ts re-exports it.
 */
export const HOSTING_PLAN_IDS = ['starter', 'professional', 'business'] as const;
export type HostingPlanId = (typeof HOSTING_PLAN_IDS)[number];

export interface HostingPlan {
  id: HostingPlanId;
  name: string;
  /** MB, as the panel counts quotas */
  storageMb: number;
  trafficMb: number;
  databases: number;
  /** Domains including the primary one */
  domains: number;
  phpVersions: string[];
  /** Gross per month, in cents, before the duration discount */
  monthlyCents: number;
}

/** Portal spec §9 sample: Professional, 10 databases, PHP 7.4–8.2, 50,000 MB storage, 100,000 MB traffic. */
export const HOSTING_PLANS: Record<HostingPlanId, HostingPlan> = {
  starter: { id: 'starter', name: 'Starter', storageMb: 10_000, trafficMb: 50_000, databases: 2, domains: 1, phpVersions: ['8.1', '8.2'], monthlyCents: 399 },
  professional: { id: 'professional', name: 'Professional', storageMb: 50_000, trafficMb: 100_000, databases: 10, domains: 5, phpVersions: ['7.4', '8.0', '8.1', '8.2'], monthlyCents: 799 },
  business: { id: 'business', name: 'Business', storageMb: 150_000, trafficMb: 500_000, databases: 50, domains: 20, phpVersions: ['7.4', '8.0', '8.1', '8.2'], monthlyCents: 1499 },
};

export const HOSTING_MONTHS = { min: 1, max: 12 } as const;

/** The PHP version a new package starts with (where its plan offers it): mature, and 8.2 is one click away. */
export const DEFAULT_PHP_VERSION = '8.1';

/** Gross cents for the whole term: monthly × months, less the same duration discount as the server. */
export function hostingPriceCents(config: { plan: HostingPlanId; months: number }): number {
  const discount = durationDiscountPercent(config.months);
  return Math.round((HOSTING_PLANS[config.plan].monthlyCents * config.months * (100 - discount)) / 100);
}
