import { z } from 'zod';
import { CONFIG_LIMITS, LINUX_DISTROS, WINDOWS_VERSIONS } from './pricing.ts';
import { plainText } from './text.ts';
import { OrderConfiguration, ProductKind } from './products.ts';
import { shopMessages } from './shop-messages.ts';

export { shopMessages } from './shop-messages.ts';

const int = (limits: { min: number; max: number; step: number }, label: string) =>
  z.number({ error: `${label}: Bitte geben Sie eine Zahl an.` })
    .int({ error: `${label}: Bitte geben Sie eine ganze Zahl an.` })
    .min(limits.min, { error: `${label}: mindestens ${limits.min}.` })
    .max(limits.max, { error: `${label}: höchstens ${limits.max}.` })
    .refine((v) => (v - limits.min) % limits.step === 0, { error: `${label}: nur in Schritten von ${limits.step}.` });

/**
 * What the configurator sends. Strict: a price, a node, extra resources or any other field is refused
 * (no mass assignment). Identity comes from the token; the server computes the price.
 */
/** The configuration itself: what the configurator sends, and what staff put into an order link. */
const serverConfigShape = {
  os: z.enum(['linux', 'windows'], { error: 'Bitte wählen Sie ein Betriebssystem.' }),
  distro: z.enum(LINUX_DISTROS, { error: 'Bitte wählen Sie eine Distribution.' }).optional(),
  windowsVersion: z.enum(WINDOWS_VERSIONS, { error: 'Bitte wählen Sie eine Windows-Version.' }).optional(),
  cpu: int(CONFIG_LIMITS.cpu, 'CPU-Kerne'),
  ram: int(CONFIG_LIMITS.ram, 'Arbeitsspeicher'),
  storage: int(CONFIG_LIMITS.storage, 'Speicher'),
  months: int(CONFIG_LIMITS.months, 'Laufzeit'),
};
const versionMatchesOs = (v: { os: 'linux' | 'windows'; distro?: string; windowsVersion?: string }) =>
  v.os === 'linux' ? v.distro !== undefined && v.windowsVersion === undefined : v.windowsVersion !== undefined && v.distro === undefined;
const versionMismatch = { error: 'Bitte wählen Sie eine Distribution bzw. Windows-Version passend zum Betriebssystem.' };

export const CheckoutInput = z.strictObject({
  ...serverConfigShape,
  acceptTerms: z.literal(true, { error: 'Sie müssen den AGB und Datenschutzbestimmungen zustimmen, um fortzufahren.' }),
  /** Set for an upgrade or renewal of an existing server (/upgrade/kvm-server/{id}). */
  serverId: z.uuid({ error: 'Ungültige Server-ID.' }).optional(),
}).refine(versionMatchesOs, versionMismatch);
export type CheckoutInput = z.infer<typeof CheckoutInput>;

export const CheckoutResponse = z.object({
  orderId: z.string(),
  sessionId: z.string(),
  /** The payment provider's hosted page. */
  url: z.string(),
});
export type CheckoutResponse = z.infer<typeof CheckoutResponse>;

/** Prefill of /upgrade/kvm-server/{id}. Only the server's owner (shared users see no billing). */
export const UpgradeInfo = z.object({
  serverId: z.string(),
  name: z.string(),
  os: z.enum(['linux', 'windows']),
  distro: z.enum(LINUX_DISTROS).nullable(),
  windowsVersion: z.enum(WINDOWS_VERSIONS).nullable(),
  /** The installed system as shown (may be outside the shop's list, e.g. CentOS 8 from staff). */
  osName: z.string(),
  cpu: z.number().int(),
  ram: z.number().int(),
  storage: z.number().int(),
  ip: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type UpgradeInfo = z.infer<typeof UpgradeInfo>;

export const ORDER_STATUSES = ['pending', 'processing', 'completed', 'cancelled', 'refunded', 'failed'] as const;
export const OrderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatus>;
export const orderStatusLabels: Record<OrderStatus, string> = {
  pending: 'Zahlung offen',
  processing: 'In Bearbeitung',
  completed: 'Abgeschlossen',
  cancelled: 'Storniert',
  refunded: 'Erstattet',
  failed: 'Fehlgeschlagen',
};

/** "Erneut versuchen" on the payment result page: a new payment session for the same open order. */
export const PaymentRetryParams = z.object({ id: z.uuid({ error: shopMessages.orderNotFound }) });

export const PaymentResultQuery = z.object({
  session_id: z.string().min(1).max(300).optional(),
  order: z.uuid({ error: shopMessages.orderNotFound }).optional(),
});

/**
 * How an order was taxed (issue 24), for showing its prices: an order detail's list prices (German gross) become
 * the customer's with `displayCents`; `priceLabel` follows every amount ("zzgl. USt.", "Reverse Charge").
 */
export const OrderTaxView = z.object({
  ratePercent: z.number(),
  category: z.enum(['S', 'AE', 'O']),
  placeOfSupply: z.string(),
  priceMode: z.enum(['gross', 'net']),
  priceLabel: z.string(),
  invoiceNote: z.string(),
  explanation: z.string().nullable(),
});
export type OrderTaxView = z.infer<typeof OrderTaxView>;

/** /shop/payment: read from the server, which asked the payment provider (never the browser's word). */
export const PaymentResult = z.object({
  /** paid: fulfilment started; open: not paid yet; failed: declined, cancelled or expired. */
  paymentStatus: z.enum(['paid', 'open', 'failed']),
  orderId: z.string(),
  orderNumber: z.string(),
  amountCents: z.number().int(),
  /** ISO date of the order (paid: payment date). */
  date: z.string(),
  orderStatus: OrderStatus,
  product: z.string(),
  productKind: ProductKind,
  kind: z.enum(['new', 'upgrade']),
  /** The customer's page of what the order created, renews or changes (null until it exists). */
  subscriptionPath: z.string().nullable(),
  invoiceId: z.string().nullable(),
  /**
   * Set when the last payment attempt failed (declined, cancelled, expired) but the order still holds
   * what it reserved: until this ISO time "Erneut versuchen" opens a new payment for the same order.
   */
  retryUntil: z.string().nullable(),
  /** The product's own shop, prefilled with this order's configuration where that shop can ("Neu konfigurieren"). */
  reconfigurePath: z.string(),
  /** Cancelled because the customer placed a new order of the same product while this one was still reserved. */
  replaced: z.boolean().optional(),
  /** How the order is taxed (issue 24): the result page names it after the amount ("Reverse Charge", …). */
  tax: OrderTaxView.optional(),
});
export type PaymentResult = z.infer<typeof PaymentResult>;

export const OrderCard = z.object({
  id: z.string(),
  number: z.string(),
  product: z.string(),
  kind: z.enum(['new', 'upgrade']),
  status: OrderStatus,
  date: z.string(),
  amountCents: z.number().int(),
  months: z.number().int(),
  /** Order date + months, clamped to the month end (portal spec §5). */
  /** null for an order that was not delivered (failed, refunded). */
  nextBillingDate: z.string().nullable(),
  productKind: ProductKind,
  /** The customer's page of what the order created, renews or changes (null until it exists, or once deleted). */
  subscriptionPath: z.string().nullable(),
});
export type OrderCard = z.infer<typeof OrderCard>;
export const OrderList = z.object({ items: z.array(OrderCard), total: z.number().int() });
export type OrderList = z.infer<typeof OrderList>;

/** /dashboard/order/{id}: what the order bought (the product's part) and the charged total split into net and VAT by the order's tax. */
export const OrderDetail = OrderCard.extend({
  configuration: OrderConfiguration,
  discountPercent: z.number().int(),
  netCents: z.number().int(),
  vatCents: z.number().int(),
  grossCents: z.number().int(),
  /** The same split for one month of the term ('pro Monat'). */
  perMonth: z.object({ netCents: z.number().int(), vatCents: z.number().int(), grossCents: z.number().int() }),
  tax: OrderTaxView,
  invoiceId: z.string().nullable(),
  paymentMethod: z.string().nullable(),
});
export type OrderDetail = z.infer<typeof OrderDetail>;

/**
 * Payment state of an invoice: paid (card invoices at issue, others once the payments reach the total),
 * open until the due date, overdue after it, credited when a credit note cancelled it (unpaid, or paid and refunded).
 * Credit notes have no payment state (null).
 */
export const InvoiceState = z.enum(['paid', 'open', 'overdue', 'credited']);
export type InvoiceState = z.infer<typeof InvoiceState>;
export const INVOICE_STATE_LABEL: Record<InvoiceState, string> = { paid: 'Bezahlt', open: 'Offen', overdue: 'Überfällig', credited: 'Gutgeschrieben' };

export const InvoiceCard = z.object({
  id: z.string(),
  number: z.string(),
  kind: z.enum(['invoice', 'credit_note']),
  product: z.string(),
  date: z.string(),
  dueDate: z.string(),
  amountCents: z.number().int(),
  orderId: z.string().nullable(),
  paid: z.boolean(),
  state: InvoiceState.nullable(),
});
export type InvoiceCard = z.infer<typeof InvoiceCard>;
export const InvoiceList = z.object({ items: z.array(InvoiceCard), total: z.number().int() });
export type InvoiceList = z.infer<typeof InvoiceList>;

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

/** A new server's configuration without terms or target (an order link's content). */
export const ServerConfig = z.strictObject(serverConfigShape).refine(versionMatchesOs, versionMismatch);
export type ServerConfig = z.infer<typeof ServerConfig>;

export const orderLinkMessages = {
  sent: 'Der Zahlungslink ist unterwegs. Die Mail erscheint unter Kommunikation; die Bestellung unter Bestellungen, sobald der Kunde bezahlt.',
  failed: 'Der Zahlungslink konnte nicht gesendet werden.',
  messageTooLong: 'Die Nachricht darf höchstens 2.000 Zeichen lang sein.',
  prepared: 'Diese Konfiguration hat unser Team für Sie zusammengestellt. Prüfen Sie sie, stimmen Sie den AGB zu und bezahlen Sie; danach wird Ihr Server automatisch eingerichtet.',
} as const;

/**
 * "Neue Bestellung" on the customer page (issue 11): staff configure a server for the customer, who
 * gets a mail with a link to the configurator prefilled with it and pays there like any order.
 */
export const OrderLinkInput = z.strictObject({
  ...serverConfigShape,
  /** A personal line above the configuration in the mail (optional). */
  // Multi-line text for the mail: line breaks yes, but no bidi overrides or other invisible controls.
  message: plainText({ multiline: true, error: 'Bitte geben Sie einen Text ein.' }).trim().max(2000, orderLinkMessages.messageTooLong).optional(),
}).refine(versionMatchesOs, versionMismatch);
export type OrderLinkInput = z.infer<typeof OrderLinkInput>;

/** The query string of /shop/kvm-server that prefills the configurator (`angebot=1` marks a staff link). */
export function orderLinkQuery(config: ServerConfig, fromStaff = true): string {
  const pairs: [string, string][] = [...(fromStaff ? [['angebot', '1'] as [string, string]] : []), ['os', config.os]];
  if (config.distro) pairs.push(['distro', config.distro]);
  if (config.windowsVersion) pairs.push(['windowsVersion', config.windowsVersion]);
  for (const key of ['cpu', 'ram', 'storage', 'months'] as const) pairs.push([key, String(config[key])]);
  return pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
}

/** Reads a prefill back (`get` as of URLSearchParams); anything not a valid configuration is ignored. */
export function parseOrderLink(get: (key: string) => string | null): ServerConfig | null {
  const os = get('os');
  if (!os) return null;
  const num = (key: string) => { const v = get(key); return v === null ? undefined : Number(v); };
  const distro = get('distro');
  const windowsVersion = get('windowsVersion');
  const parsed = ServerConfig.safeParse({
    os, ...(distro !== null ? { distro } : {}), ...(windowsVersion !== null ? { windowsVersion } : {}),
    cpu: num('cpu'), ram: num('ram'), storage: num('storage'), months: num('months'),
  });
  return parsed.success ? parsed.data : null;
}
