/** The product as orders, invoices and the checkout name it (one place, no service imports). */
export const PRODUCT_NAME = 'Root Server';

export function describeConfig(c: { os: string; cpuCores: number; ramGb: number; storageGb: number; months: number }) {
  return `${c.cpuCores} vCPU · ${c.ramGb} GB RAM · ${c.storageGb} GB SSD · ${c.os} · ${c.months} ${c.months === 1 ? 'Monat' : 'Monate'}`;
}
