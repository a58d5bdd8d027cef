import { z } from 'zod';
import { ticketTypes } from './tickets.ts';
import { ProductKind } from './products.ts';

/* Platform statistics (spec "Statistics", owner only; docs/decisions/017). Money: integer cents, net. */

export const statisticsMessages = {
  monthFormat: 'Bitte geben Sie einen Monat im Format JJJJ-MM an.',
  rangeOrder: 'Der Beginn muss vor dem Ende liegen.',
  rangeTooLong: 'Bitte wählen Sie höchstens 36 Monate.',
  loadFailed: 'Die Statistiken konnten nicht geladen werden.',
  exportFailed: 'Der Export konnte nicht erstellt werden.',
} as const;

export const MAX_STATISTICS_MONTHS = 36;

const YearMonth = z.string().regex(/^(20\d\d)-(0[1-9]|1[0-2])$/, statisticsMessages.monthFormat);
/** 'YYYY-MM' → months since year 0 (year * 12 + month - 1), the form the database columns use. */
export const monthIndex = (ym: string) => Number(ym.slice(0, 4)) * 12 + Number(ym.slice(5, 7)) - 1;
export const monthOfIndex = (index: number) => `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;

const rangeFields = { from: YearMonth.optional(), to: YearMonth.optional() };
const withRangeRules = <T extends z.ZodType<{ from?: string | undefined; to?: string | undefined }>>(schema: T) => schema
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: statisticsMessages.rangeOrder, path: ['from'] })
  .refine((q) => !q.from || !q.to || monthIndex(q.to) - monthIndex(q.from) < MAX_STATISTICS_MONTHS, { message: statisticsMessages.rangeTooLong, path: ['from'] });

/** The range in whole calendar months (Europe/Berlin), both ends included; default the last 12 months. */
export const StatisticsQuery = withRangeRules(z.object(rangeFields));
export type StatisticsQuery = z.infer<typeof StatisticsQuery>;

export const statisticsTables = ['capacity', 'finances', 'receivables', 'tickets'] as const;
export type StatisticsTable = (typeof statisticsTables)[number];
export const StatisticsExportQuery = withRangeRules(z.object({ table: z.enum(statisticsTables, { error: 'Unbekannte Tabelle.' }), ...rangeFields }));
export type StatisticsExportQuery = z.infer<typeof StatisticsExportQuery>;

const Resource = z.object({
  physical: z.number(),
  allocated: z.number(),
  free: z.number(),
  /** Reported by the hypervisor right now; null when the node could not be asked. */
  used: z.number().nullable(),
  /** allocated ÷ physical (1.5 = 150 % sold); 0 when the node has no capacity. */
  overcommit: z.number(),
});
export type StatisticsResource = z.infer<typeof Resource>;

export const NodeCapacity = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.string(),
  cpu: Resource,
  /** GB */
  ram: Resource,
  /** GB */
  storage: Resource,
});
export type NodeCapacity = z.infer<typeof NodeCapacity>;

/** A product in the churn figures: its kind and the plural of its subscriptions ("Webhosting-Pakete"). */
export const ChurnProduct = z.object({ kind: ProductKind, label: z.string() });
export type ChurnProduct = z.infer<typeof ChurnProduct>;
/** The column of a product's ended terms, on the page and in the CSV. */
export const churnedColumnTitle = (product: Pick<ChurnProduct, 'label'>) => `Ausgelaufene ${product.label}`;

export const FinanceMonth = z.object({
  month: z.string(),
  /** Invoices minus credit notes issued in the month, net. */
  revenueCents: z.number().int(),
  mrrCents: z.number().int(),
  arrCents: z.number().int(),
  /** MRR ÷ paying customers; 0 without any. */
  arpaCents: z.number().int(),
  payingCustomers: z.number().int(),
  newCustomers: z.number().int(),
  churnedCustomers: z.number().int(),
  /** Terms that ended in the month without a renewal, per product (every product of `finances.products`, in its order). */
  churned: z.array(z.object({ kind: ProductKind, count: z.number().int() })),
});
export type FinanceMonth = z.infer<typeof FinanceMonth>;

export const receivableBuckets = ['0-30', '31-60', '61+'] as const;
export const receivableBucketLabels: Record<(typeof receivableBuckets)[number], string> = { '0-30': '0–30 Tage', '31-60': '31–60 Tage', '61+': 'über 60 Tage' };
export const ReceivableBucket = z.object({
  bucket: z.enum(receivableBuckets),
  /** Open (not yet due): age = days since the issue date. */
  openCents: z.number().int(),
  openCount: z.number().int(),
  /** Overdue: age = days past the due date. */
  overdueCents: z.number().int(),
  overdueCount: z.number().int(),
});
export type ReceivableBucket = z.infer<typeof ReceivableBucket>;

/** A product's own servers in the capacity part (cloud storage: quotas per storage server), decision 033. */
export const ProductCapacity = z.object({
  kind: z.string(),
  title: z.string(),
  /** Unit of the figures, e.g. "GB". */
  unit: z.string(),
  servers: z.array(z.object({
    id: z.number().int(), name: z.string(),
    capacity: z.number(), sellable: z.number(), allocated: z.number(),
    /** Subscriptions on it. */
    count: z.number().int(),
  })),
});
export type ProductCapacity = z.infer<typeof ProductCapacity>;

export const Statistics = z.object({
  from: z.string(),
  to: z.string(),
  generatedAt: z.string(),
  capacity: z.object({ nodes: z.array(NodeCapacity), total: NodeCapacity.omit({ id: true, name: true, status: true }), liveAvailable: z.boolean(), products: z.array(ProductCapacity) }),
  finances: z.object({
    months: z.array(FinanceMonth),
    current: FinanceMonth.nullable(),
    /** The products whose churn the months count, in the registry's order, with the plural their column names. */
    products: z.array(ChurnProduct),
  }),
  receivables: z.array(ReceivableBucket),
  support: z.object({
    openTickets: z.number().int(),
    /** Median minutes from creation to the first staff answer, tickets created in the range; null without any. */
    medianFirstResponseMinutes: z.number().nullable(),
    answeredTickets: z.number().int(),
    byType: z.array(z.object({ type: z.enum(ticketTypes), count: z.number().int() })),
  }),
});
export type Statistics = z.infer<typeof Statistics>;
