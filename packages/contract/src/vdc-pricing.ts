/**
 * The virtual data center's price (issue 25, decision 036), zod-free like the root server's so the shop
 * shows it live. A VDC is a resource pool: vCPU cores, RAM, storage and public IPv4 addresses for a
 * term; the customer's VMs inside it cost nothing extra. The pool's resources cost what the same
 * resources cost in a root server (pricing.ts), so both products come from one price engine: the
 * same per-unit list prices, the same factor 1.22 and the same duration discount. The first IPv4
 * address is included, as in a root server; every further one costs its own monthly price. The ISO
 * library quota and the private network are included.
 *
 * Integer arithmetic in tenths of a cent until one final rounding (half up) to cents.
 */
import { durationDiscountPercent, milliToCents, PER_CORE_MILLI, PER_GB_RAM_MILLI, PER_GB_STORAGE_MILLI, termPriceCents } from './pricing.ts';

export const VDC_LIMITS = {
  cpu: { min: 4, max: 64, step: 2 },
  ram: { min: 8, max: 256, step: 8 },
  storage: { min: 100, max: 4000, step: 50 },
  ipv4: { min: 1, max: 16, step: 1 },
  months: { min: 1, max: 12, step: 1 },
} as const;

/** Included in every pool. */
export const VDC_INCLUDED = {
  /** GB of ISO images the customer may keep (counted apart from the pool's storage). */
  isoLibraryGb: 50,
  /** VMs a pool may hold, however small: beyond it, an offer. */
  maxVms: 20,
} as const;

/** The smallest VM inside a pool (a rescue or router VM). */
export const VDC_VM_MIN = { cpu: 1, ramGb: 1, diskGb: 10 } as const;

export interface VdcPoolConfig {
  cpu: number;
  ram: number;
  storage: number;
  ipv4: number;
  months: number;
}

/** In tenths of a cent per month; cores, RAM and storage are the root server's unit prices (pricing.ts). */
const PER_EXTRA_IPV4 = 1500;

/** Whether a configuration lies on the sliders (an offer from staff may lie beyond them). */
export function isStandardVdcPool(c: VdcPoolConfig): boolean {
  const on = (value: number, limit: { min: number; max: number; step: number }) =>
    Number.isInteger(value) && value >= limit.min && value <= limit.max && (value - limit.min) % limit.step === 0;
  return on(c.cpu, VDC_LIMITS.cpu) && on(c.ram, VDC_LIMITS.ram) && on(c.storage, VDC_LIMITS.storage) && on(c.ipv4, VDC_LIMITS.ipv4) && on(c.months, VDC_LIMITS.months);
}

export function vdcMonthlyBaseMilli(c: Pick<VdcPoolConfig, 'cpu' | 'ram' | 'storage' | 'ipv4'>): number {
  return PER_CORE_MILLI * c.cpu + PER_GB_RAM_MILLI * c.ram + PER_GB_STORAGE_MILLI * c.storage + PER_EXTRA_IPV4 * Math.max(0, c.ipv4 - 1);
}

/** The gross list price in cents for the whole term. */
export function vdcPriceCents(c: VdcPoolConfig): number {
  return termPriceCents(vdcMonthlyBaseMilli(c), c.months);
}

export interface VdcPriceBreakdown {
  totalCents: number;
  discountPercent: number;
  /** Monthly list prices before the factor and the discount, in cents, rounded for display. */
  monthly: { cpuCents: number; ramCents: number; storageCents: number; ipv4Cents: number; totalCents: number };
}

export function vdcPriceBreakdown(c: VdcPoolConfig): VdcPriceBreakdown {
  const toCents = milliToCents;
  return {
    totalCents: vdcPriceCents(c),
    discountPercent: durationDiscountPercent(c.months),
    monthly: {
      cpuCents: toCents(PER_CORE_MILLI * c.cpu),
      ramCents: toCents(PER_GB_RAM_MILLI * c.ram),
      storageCents: toCents(PER_GB_STORAGE_MILLI * c.storage),
      ipv4Cents: toCents(PER_EXTRA_IPV4 * Math.max(0, c.ipv4 - 1)),
      totalCents: toCents(vdcMonthlyBaseMilli(c)),
    },
  };
}
