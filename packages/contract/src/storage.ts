import { z } from 'zod';
import { STORAGE_MONTHS, STORAGE_PLAN_IDS, storageMessages } from './storage-plans.ts';

/**
 * Cloud storage (public spec §2.4, issue 23, decision 034): a Nextcloud account with a quota on one of
 * the provider's storage servers, sold by plan and term like web hosting. Plans are configured data
 * shared by the shop page and the API (storage-plans.ts); the schemas are here.
 */

/** A Nextcloud user id as we hand them out: lower case, starts with a letter, 3–32 characters. */
export const StorageAccountName = z.string({ error: storageMessages.accountNameRequired }).trim().toLowerCase()
  .regex(/^[a-z][a-z0-9._-]{2,31}$/, storageMessages.accountNameInvalid);

const Months = z.number({ error: 'Laufzeit: Bitte geben Sie eine Zahl an.' }).int({ error: 'Laufzeit: Bitte geben Sie eine ganze Zahl an.' })
  .min(STORAGE_MONTHS.min, { error: 'Laufzeit: mindestens 1.' }).max(STORAGE_MONTHS.max, { error: 'Laufzeit: höchstens 12.' });

/**
 * A new account (`accountName`), or a renewal of one's own (`storageId`), which may change the plan:
 * the new plan applies when the payment is in, the term runs on from the current end.
 */
export const StorageCheckoutInput = z.strictObject({
  plan: z.enum(STORAGE_PLAN_IDS, { error: storageMessages.planRequired }),
  months: Months,
  accountName: StorageAccountName.optional(),
  storageId: z.uuid({ error: storageMessages.notFound }).optional(),
  acceptTerms: z.literal(true, { error: 'Sie müssen den AGB und Datenschutzbestimmungen zustimmen, um fortzufahren.' }),
}).refine((v) => Boolean(v.accountName) || Boolean(v.storageId), { message: storageMessages.accountNameRequired, path: ['accountName'] })
  .refine((v) => !(v.accountName && v.storageId), { message: storageMessages.nameOrAccount, path: ['storageId'] });
export type StorageCheckoutInput = z.infer<typeof StorageCheckoutInput>;

/** The configuration a cloud storage order stores (orders.config), parsed with this schema when read. */
export const StorageOrderConfig = z.object({
  plan: z.enum(STORAGE_PLAN_IDS),
  accountName: z.string(),
  /** The storage server that holds the quota (new orders; a renewal stays where the account is). */
  storageServerId: z.number().int(),
  /** The plan before this order (renewals that change it). */
  previousPlan: z.enum(STORAGE_PLAN_IDS).nullable().optional(),
  /** Renewals to a larger plan: the days of the current term the difference was charged for. */
  upgradeDays: z.number().int().optional(),
  upgradeCents: z.number().int().optional(),
});
export type StorageOrderConfig = z.infer<typeof StorageOrderConfig>;

/** /shop/cloud-storage: which plans can be bought now, and the prefill of a renewal. */
export const StorageShopInfo = z.object({
  /** Plans for which a storage server has room now. */
  available: z.array(z.enum(STORAGE_PLAN_IDS)),
  renewal: z.object({
    storageId: z.string(), accountName: z.string(), plan: z.enum(STORAGE_PLAN_IDS), expiresAt: z.string().nullable(),
    usedBytes: z.number().int().nullable(),
    /** Days left in the current term: a larger plan costs the difference for them (storageUpgradeCents). */
    remainingDays: z.number().int(),
    /** Plans the current use fits in (a smaller one is refused). */
    allowedPlans: z.array(z.enum(STORAGE_PLAN_IDS)),
  }).nullable(),
});
export type StorageShopInfo = z.infer<typeof StorageShopInfo>;

export const StorageNameCheck = z.object({ available: z.boolean(), message: z.string().nullable() });
export type StorageNameCheck = z.infer<typeof StorageNameCheck>;
export const StorageNameParams = z.object({ name: z.string().max(64) });

// ── The account page ────────────────────────────────────────────────────────────────────────────────

export const STORAGE_STATUS = ['provisioning', 'active', 'suspended', 'failed'] as const;
export type StorageStatus = (typeof STORAGE_STATUS)[number];
export const STORAGE_STATUS_LABEL: Record<StorageStatus, string> = {
  provisioning: 'Wird eingerichtet',
  active: 'Aktiv',
  suspended: 'Gesperrt',
  failed: 'Fehlgeschlagen',
};

export const StorageCard = z.object({
  id: z.string(),
  /** "Speicher-ID" customers quote to support. */
  number: z.number().int(),
  accountName: z.string(),
  plan: z.enum(STORAGE_PLAN_IDS),
  planName: z.string(),
  quotaBytes: z.number().int(),
  status: z.enum(STORAGE_STATUS),
  statusMessage: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type StorageCard = z.infer<typeof StorageCard>;
export const StorageList = z.object({ items: z.array(StorageCard) });
export type StorageList = z.infer<typeof StorageList>;

export const StorageDetail = StorageCard.extend({
  /** Used bytes as the storage server reports them (null while it cannot be asked). */
  usedBytes: z.number().int().nullable(),
  /** Address of the web interface (login page). */
  webUrl: z.string(),
  /** The network-drive address (WebDAV) for Windows, macOS and Linux. */
  webdavUrl: z.string(),
  /** The server address the desktop and mobile apps ask for. */
  serverUrl: z.string(),
  /** Set when the storage server could not be asked just now. */
  liveError: z.string().nullable(),
  renewPath: z.string(),
  /** Days of grace after the term's end before the account and its files are deleted. */
  graceDays: z.number().int(),
});
export type StorageDetail = z.infer<typeof StorageDetail>;

export const StorageIdParams = z.object({ id: z.uuid({ error: storageMessages.notFound }) });
export const StoragePasswordResult = z.object({ password: z.string(), message: z.string() });
export type StoragePasswordResult = z.infer<typeof StoragePasswordResult>;

// ── Staff: storage servers (Server-Management) ──────────────────────────────────────────────────────

/**
 * A storage server's address: https, a DNS name of at least two labels whose top level has a letter (no IP
 * address, no "localhost", no single-label or internal name), an optional port 1–65535, no path. The
 * portal sends the Nextcloud admin's app password there, so it must not point into our own network.
 */
export function isPublicHttpsUrl(url: string): boolean {
  const m = /^https:\/\/([a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(url);
  if (!m) return false;
  const [host, port] = [m[1]!, m[2]];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return false;
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((l) => /^(?!-)[a-z0-9-]{1,63}(?<!-)$/.test(l))) return false;
  const tld = labels.at(-1)!;
  return /[a-z]/.test(tld) && !['localhost', 'local', 'internal', 'lan', 'home', 'corp', 'intranet', 'localdomain'].includes(tld);
}

export const StorageServerInput = z.strictObject({
  name: z.string({ error: 'Bitte geben Sie einen Namen an.' }).trim().min(1, 'Bitte geben Sie einen Namen an.').max(64, 'Der Name darf höchstens 64 Zeichen lang sein.'),
  url: z.string({ error: storageMessages.serverUrlInvalid }).trim().max(200, storageMessages.serverUrlInvalid)
    .transform((v) => v.replace(/\/$/, '').toLowerCase().replace(/:443$/, ''))
    .refine(isPublicHttpsUrl, storageMessages.serverUrlInvalid),
  /** Usable disk space for customer files, in GiB. */
  capacityGb: z.number({ error: 'Kapazität: Bitte geben Sie eine Zahl an.' }).int('Kapazität: Bitte geben Sie eine ganze Zahl an.')
    .min(100, 'Kapazität: mindestens 100 GB.').max(10_000_000, 'Kapazität: höchstens 10.000.000 GB.'),
  /** SHA-256 fingerprint of the server's TLS certificate (pinned), empty for the normal certificate check. */
  fingerprint: z.string().trim().max(200).regex(/^$|^([0-9A-Fa-f]{2}:){31}[0-9A-Fa-f]{2}$/, 'Bitte geben Sie den SHA-256-Fingerabdruck im Format AB:CD:… an oder lassen Sie das Feld leer.').default(''),
});
export type StorageServerInput = z.infer<typeof StorageServerInput>;

export const StorageServerView = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  capacityGb: z.number().int(),
  /** Capacity × the configured overcommit: what the quotas may add up to. */
  sellableGb: z.number().int(),
  /** Quotas of the accounts on it plus those open checkouts hold. */
  allocatedGb: z.number().int(),
  accounts: z.number().int(),
  createdAt: z.string(),
});
export type StorageServerView = z.infer<typeof StorageServerView>;
export const StorageServerList = z.object({ items: z.array(StorageServerView), overcommit: z.number() });
export type StorageServerList = z.infer<typeof StorageServerList>;

/** The order page's part of a cloud storage order (OrderDetail.configuration). */
export const StorageOrderSummary = z.object({
  product: z.literal('cloud_storage'),
  plan: z.string(), planName: z.string(), accountName: z.string(), quotaGb: z.number().int(),
});
export type StorageOrderSummary = z.infer<typeof StorageOrderSummary>;
