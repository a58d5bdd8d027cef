import { durationDiscountPercent } from './pricing.ts';

/**
 * Cloud storage's plans, prices and messages (issue 23, decision 034), without zod: the public pages
 * import them eagerly, and building zod object schemas at load would probe eval before the browser
 * turned zod's JIT off (a CSP violation). The schemas live in storage.ts.
 */
export const STORAGE_PLAN_IDS = ['100gb', '500gb', '1tb', '5tb', '10tb'] as const;
export type StoragePlanId = (typeof STORAGE_PLAN_IDS)[number];

export interface StoragePlan {
  id: StoragePlanId;
  name: string;
  /** The quota in GiB (Nextcloud counts binary units and shows them as "GB"). */
  quotaGb: number;
  /** Gross list price per month in cents (incl. 19 % USt.). */
  monthlyCents: number;
}

export const STORAGE_PLANS: Record<StoragePlanId, StoragePlan> = {
  '100gb': { id: '100gb', name: '100 GB', quotaGb: 100, monthlyCents: 299 },
  '500gb': { id: '500gb', name: '500 GB', quotaGb: 500, monthlyCents: 599 },
  '1tb': { id: '1tb', name: '1 TB', quotaGb: 1024, monthlyCents: 999 },
  '5tb': { id: '5tb', name: '5 TB', quotaGb: 5120, monthlyCents: 3499 },
  '10tb': { id: '10tb', name: '10 TB', quotaGb: 10_240, monthlyCents: 6499 },
};

export const STORAGE_MONTHS = { min: 1, max: 12 } as const;
export const GIB = 1024 ** 3;

/** What a plan costs for a term (gross cents): monthly price × months minus the duration discount. */
export function storagePriceCents(config: { plan: StoragePlanId; months: number }): number {
  const discount = durationDiscountPercent(config.months);
  return Math.round((STORAGE_PLANS[config.plan].monthlyCents * config.months * (100 - discount)) / 100);
}

/**
 * What a larger plan costs on top for the rest of the current term (gross cents): the monthly difference
 * per 30 days left, since the new quota applies when the payment is in (decision 034). A smaller or the
 * same plan adds nothing (and credits nothing).
 */
export function storageUpgradeCents(from: StoragePlanId, to: StoragePlanId, remainingDays: number): number {
  const diff = STORAGE_PLANS[to].monthlyCents - STORAGE_PLANS[from].monthlyCents;
  return diff > 0 && remainingDays > 0 ? Math.round((diff * remainingDays) / 30) : 0;
}

/** Whole days (rounded up) until the term ends; 0 when it ended. */
export const daysLeft = (expiresAt: Date | null, now: Date) => (expiresAt && expiresAt > now ? Math.ceil((expiresAt.getTime() - now.getTime()) / 86_400_000) : 0);

/** Plans whose quota holds `usedBytes`: a downgrade below the current use is refused. */
export const plansHolding = (usedBytes: number) => STORAGE_PLAN_IDS.filter((id) => STORAGE_PLANS[id].quotaGb * GIB >= usedBytes);

export const storageMessages = {
  planRequired: 'Bitte wählen Sie einen Tarif.',
  accountNameInvalid: 'Der Kontoname darf nur Kleinbuchstaben, Ziffern, Punkt, Unterstrich und Bindestrich enthalten (3–32 Zeichen, beginnend mit einem Buchstaben).',
  accountNameTaken: 'Dieser Kontoname ist bereits vergeben. Bitte wählen Sie einen anderen.',
  accountNameOwnOrder: 'Für diesen Kontonamen haben Sie bereits eine offene Bestellung. Bitte schließen Sie sie ab oder warten Sie, bis sie abläuft.',
  accountNameRequired: 'Bitte geben Sie einen Kontonamen an.',
  noCapacity: 'Für diesen Tarif ist gerade kein Speicherplatz frei. Bitte versuchen Sie es später erneut oder wählen Sie einen kleineren Tarif.',
  notFound: 'Cloud-Speicher nicht gefunden.',
  notRenewable: 'Dieser Cloud-Speicher wird noch eingerichtet und kann erst danach verlängert werden.',
  failedNotRenewable: 'Dieser Cloud-Speicher konnte nicht eingerichtet werden und kann deshalb nicht verlängert werden; die Zahlung wurde erstattet. Bitte bestellen Sie neu oder wenden Sie sich an den Support.',
  nameOrAccount: 'Bitte geben Sie entweder einen Kontonamen für ein neues Konto an oder wählen Sie das Konto, das Sie verlängern möchten.',
  downgradeTooSmall: 'Sie belegen mehr Speicher, als dieser Tarif bietet. Bitte löschen Sie zuerst Dateien oder wählen Sie einen größeren Tarif.',
  notActive: 'Der Cloud-Speicher ist nicht aktiv. Bitte verlängern Sie ihn oder warten Sie, bis die Einrichtung abgeschlossen ist.',
  passwordSet: 'Das neue Passwort gilt ab sofort. Es wird nur jetzt angezeigt und nicht per E-Mail versandt.',
  unavailable: 'Der Speicherserver ist gerade nicht erreichbar. Bitte versuchen Sie es in ein paar Minuten erneut.',
  serverUrlInvalid: 'Bitte geben Sie die Adresse des Nextcloud-Servers mit https:// und einem Domainnamen an (z. B. https://cloud1.example.com); IP-Adressen und lokale Namen sind nicht erlaubt.',
  activeStorage: 'Das Kundenkonto kann nicht gelöscht werden, solange noch Cloud-Speicher bestehen. Bitte warten Sie, bis sie abgelaufen sind, oder wenden Sie sich an den Support.',
  serverInUse: 'Auf diesem Speicherserver liegen noch Konten. Er kann erst gelöscht werden, wenn keine mehr darauf liegen.',
} as const;

