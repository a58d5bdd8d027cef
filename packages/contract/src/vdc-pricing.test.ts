import { describe, expect, it } from 'vitest';
import { priceCents } from './pricing.ts';
import { isStandardVdcPool, VDC_LIMITS, vdcPriceBreakdown, vdcPriceCents } from './vdc-pricing.ts';

describe('virtual data center price (decision 036)', () => {
  it('costs what the same resources cost in a Linux root server, with one IPv4 included', () => {
    for (const [cpu, ram, storage, months] of [[4, 8, 100, 1], [8, 32, 500, 3], [16, 64, 1000, 6], [64, 256, 4000, 12]] as const) {
      expect(vdcPriceCents({ cpu, ram, storage, ipv4: 1, months })).toBe(priceCents({ os: 'linux', cpu, ram, storage, months }));
    }
  });

  it('adds 1,50 € list per month for every further IPv4 address, times 1.22 and the term discount', () => {
    const one = vdcPriceCents({ cpu: 4, ram: 8, storage: 100, ipv4: 1, months: 1 });
    expect(vdcPriceCents({ cpu: 4, ram: 8, storage: 100, ipv4: 3, months: 1 }) - one).toBe(366);
    // 12 months: 15 % off; 2 extra addresses × 1,50 € × 12 × 1.22 × 0.85 = 37,33 € (rounded once, at the end).
    const year = (ipv4: number) => vdcPriceCents({ cpu: 4, ram: 8, storage: 100, ipv4, months: 12 });
    expect(Math.abs(year(3) - year(1) - 3733)).toBeLessThanOrEqual(1);
  });

  it('prices the smallest and the largest pool of the sliders exactly', () => {
    // (4 × 1,15 + 8 × 0,10 + 100 × 0,025) × 1.22 = 7,90 € × 1.22 = 9,64 €.
    expect(vdcPriceCents({ cpu: 4, ram: 8, storage: 100, ipv4: 1, months: 1 })).toBe(964);
    // (64 × 1,15 + 256 × 0,10 + 4000 × 0,025 + 15 × 1,50) = 221,70 € × 12 × 1.22 × 0.85 = 2.758,83 €.
    expect(vdcPriceCents({ cpu: 64, ram: 256, storage: 4000, ipv4: 16, months: 12 })).toBe(275883);
    expect(vdcPriceBreakdown({ cpu: 64, ram: 256, storage: 4000, ipv4: 16, months: 12 }).monthly).toEqual({
      cpuCents: 7360, ramCents: 2560, storageCents: 10000, ipv4Cents: 2250, totalCents: 22170,
    });
  });

  it('knows which configurations lie on the sliders (others need an offer)', () => {
    expect(isStandardVdcPool({ cpu: 4, ram: 8, storage: 100, ipv4: 1, months: 1 })).toBe(true);
    expect(isStandardVdcPool({ cpu: VDC_LIMITS.cpu.max, ram: VDC_LIMITS.ram.max, storage: VDC_LIMITS.storage.max, ipv4: VDC_LIMITS.ipv4.max, months: 12 })).toBe(true);
    expect(isStandardVdcPool({ cpu: 5, ram: 8, storage: 100, ipv4: 1, months: 1 })).toBe(false);
    expect(isStandardVdcPool({ cpu: 66, ram: 8, storage: 100, ipv4: 1, months: 1 })).toBe(false);
    expect(isStandardVdcPool({ cpu: 4, ram: 12, storage: 100, ipv4: 1, months: 1 })).toBe(false);
    expect(isStandardVdcPool({ cpu: 4, ram: 8, storage: 125, ipv4: 1, months: 1 })).toBe(false);
    expect(isStandardVdcPool({ cpu: 4, ram: 8, storage: 100, ipv4: 0, months: 1 })).toBe(false);
    expect(isStandardVdcPool({ cpu: 4, ram: 8, storage: 100, ipv4: 1, months: 13 })).toBe(false);
    expect(isStandardVdcPool({ cpu: 4.5, ram: 8, storage: 100, ipv4: 1, months: 1 })).toBe(false);
  });
});
