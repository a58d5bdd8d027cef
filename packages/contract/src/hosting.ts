import { z } from 'zod';
import { messages } from './messages.ts';
import { coded } from './codes.ts';
import { PASSWORD_MAX, PASSWORD_MIN, passwordMeetsRules, registrationPasswordRules } from './password.ts';
import { hostnameToAscii } from './domain-names.ts';
import { HOSTING_MONTHS, HOSTING_PLAN_IDS } from './hosting-plans.ts';

/** Web hosting's schemas; its plans and price are in hosting-plans.ts (no zod), re-exported here. */
export {
  DEFAULT_PHP_VERSION, HOSTING_MONTHS, HOSTING_PLAN_IDS, HOSTING_PLANS, hostingPriceCents, type HostingPlan, type HostingPlanId,
} from './hosting-plans.ts';

export const hostingMessages = {
  domainInvalid: 'Bitte geben Sie einen gültigen Domainnamen ein (z. B. meine-firma.de).',
  subdomainInvalid: 'Die Subdomain darf nur Kleinbuchstaben, Ziffern und Bindestriche enthalten (3–40 Zeichen, nicht mit Bindestrich beginnend oder endend).',
  domainTaken: 'Diese Domain wird bereits von einem anderen Hosting-Paket verwendet.',
  domainOwnOpenOrder: 'Für diese Domain haben Sie bereits eine offene Bestellung. Schließen Sie die Zahlung ab oder brechen Sie sie auf der Zahlungsseite ab; unbezahlte Bestellungen verfallen nach kurzer Zeit.',
  domainOfOther: 'Diese Domain gehört zu einer Domain eines anderen Kunden und kann nicht verwendet werden.',
  subdomainReserved: 'Diese Subdomain ist für unsere eigenen Dienste reserviert. Bitte wählen Sie einen anderen Namen.',
  appInstalled: 'Auf diesem Paket ist bereits eine Anwendung installiert. Entfernen Sie sie zuerst per FTP oder wenden Sie sich an den Support.',
  panelPasswordOwnerOnly: 'Nur der Inhaber des Pakets kann das Panel-Passwort festlegen.',
  credentialsOwnerOnly: 'Zugangsdaten (FTP, Datenbank-Benutzer und ihre Passwörter) legt nur der Inhaber des Pakets fest.',
  noSlot: 'Derzeit ist auf unseren Hosting-Servern kein Platz frei. Bitte versuchen Sie es später erneut oder kontaktieren Sie den Support.',
  notRenewable: 'Dieses Hosting-Paket kann derzeit nicht verlängert werden.',
  planRequired: 'Bitte wählen Sie einen Tarif.',
  domainLimit: 'Ihr Tarif enthält keine weiteren Domains. Bitte wechseln Sie in einen größeren Tarif.',
  databaseLimit: 'Ihr Tarif enthält keine weiteren Datenbanken.',
  nameInvalid: 'Der Name darf nur Kleinbuchstaben, Ziffern und Unterstriche enthalten (3–16 Zeichen, beginnend mit einem Buchstaben).',
  databaseUserLimit: 'Ihr Tarif enthält keine weiteren Datenbankbenutzer. Löschen Sie einen nicht genutzten Benutzer oder wählen Sie einen vorhandenen aus.',
  databaseUserUnknown: 'Datenbank-Benutzer nicht gefunden.',
  databaseUserKeepsPassword: 'Ein vorhandener Benutzer behält sein Passwort. Lassen Sie die Passwortfelder leer oder legen Sie einen neuen Benutzer an.',
  phpVersionUnknown: 'Diese PHP-Version wird für Ihr Paket nicht angeboten.',
  notActive: 'Das Hosting-Paket ist nicht aktiv. Bitte verlängern Sie es oder warten Sie, bis die Einrichtung abgeschlossen ist.',
  appUnsupported: 'Die Ein-Klick-Installation wird von diesem Hosting-Server nicht angeboten.',
  appToolsUnsupported: 'Die Werkzeuge für WordPress und Joomla werden von diesem Hosting-Server nicht angeboten.',
  appMissing: 'Auf diesem Paket ist keine Anwendung über das Portal installiert.',
  saved: 'Die Änderung wurde gespeichert. Der Webserver übernimmt sie innerhalb etwa einer Minute.',
} as const;

/** Lower-case ASCII hostname with at least two labels; IDN (Umlaute) are converted to punycode. */
export function normaliseDomain(raw: string): string | null {
  const text = raw.trim().toLowerCase().replace(/\.$/, '');
  if (text.length > 253) return null;
  const ascii = hostnameToAscii(text);
  if (!ascii) return null;
  const labels = ascii.split('.');
  if (labels.length < 2) return null;
  const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
  if (!labels.every((l) => label.test(l))) return null;
  if (!/^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(labels[labels.length - 1]!)) return null;
  return ascii;
}

const Domain = z.string({ error: hostingMessages.domainInvalid }).max(253, hostingMessages.domainInvalid)
  .transform((v, ctx) => {
    const d = normaliseDomain(v);
    if (!d) ctx.addIssue({ code: 'custom', message: hostingMessages.domainInvalid });
    return d ?? '';
  });
/** Names of the provider's own services under the subdomain base; hosting servers' names are checked by the API. */
export const RESERVED_SUBDOMAINS = ['www', 'mail', 'smtp', 'imap', 'pop', 'pop3', 'ftp', 'sftp', 'webmail', 'admin', 'api', 'panel', 'cpanel', 'ispconfig', 'phpmyadmin', 'ns', 'ns1', 'ns2', 'ns3', 'dns', 'mx', 'autodiscover', 'autoconfig', 'status', 'support', 'billing', 'portal', 'login', 'secure', 'shop', 'cdn', 'static', 'assets'];
const Subdomain = z.string({ error: hostingMessages.subdomainInvalid }).trim().toLowerCase()
  .regex(/^(?!-)[a-z0-9-]{3,40}(?<!-)$/, hostingMessages.subdomainInvalid)
  .refine((v) => !RESERVED_SUBDOMAINS.includes(v), hostingMessages.subdomainReserved);

export const HostingCheckoutInput = z.strictObject({
  plan: z.enum(HOSTING_PLAN_IDS, { error: hostingMessages.planRequired }),
  months: z.number({ error: 'Laufzeit: Bitte geben Sie eine Zahl an.' }).int({ error: 'Laufzeit: Bitte geben Sie eine ganze Zahl an.' })
    .min(HOSTING_MONTHS.min, { error: 'Laufzeit: mindestens 1.' }).max(HOSTING_MONTHS.max, { error: 'Laufzeit: höchstens 12.' }),
  /** A free subdomain of the provider, or the customer's own domain (they point its DNS to us). */
  domainType: z.enum(['subdomain', 'own'], { error: 'Bitte wählen Sie, welche Domain Ihr Paket nutzt.' }),
  subdomain: Subdomain.optional(),
  domain: Domain.optional(),
  acceptTerms: z.literal(true, { error: 'Sie müssen den AGB und Datenschutzbestimmungen zustimmen, um fortzufahren.' }),
  /** Set to renew an existing package (the plan stays; a renewal extends from the old end). */
  packageId: z.uuid({ error: 'Ungültige Paket-ID.' }).optional(),
}).refine((v) => v.packageId !== undefined || (v.domainType === 'subdomain' ? v.subdomain !== undefined : v.domain !== undefined), {
  error: 'Bitte geben Sie die Domain bzw. Subdomain für Ihr Paket an.', path: ['domain'],
});
export type HostingCheckoutInput = z.infer<typeof HostingCheckoutInput>;

/** The configuration a web hosting order stores (orders.config), parsed with this schema when read. */
export const HostingOrderConfig = z.object({
  plan: z.enum(HOSTING_PLAN_IDS),
  primaryDomain: z.string(),
  domainType: z.enum(['subdomain', 'own']),
});
export type HostingOrderConfig = z.infer<typeof HostingOrderConfig>;

/** What the shop page needs besides the plans: the provider's subdomain base and whether a slot is free. */
export const HostingShopInfo = z.object({
  subdomainBase: z.string(),
  available: z.boolean(),
  renewal: z.object({ packageId: z.string(), name: z.string(), plan: z.enum(HOSTING_PLAN_IDS), primaryDomain: z.string(), expiresAt: z.string().nullable() }).nullable(),
});
export type HostingShopInfo = z.infer<typeof HostingShopInfo>;

// ── The package page ────────────────────────────────────────────────────────────────────────────────

export const HOSTING_STATUS = ['provisioning', 'active', 'suspended', 'failed'] as const;
export type HostingStatus = (typeof HOSTING_STATUS)[number];
export const HOSTING_STATUS_LABEL: Record<HostingStatus, string> = {
  provisioning: 'Wird eingerichtet', active: 'Aktiv', suspended: 'Gesperrt', failed: 'Fehlgeschlagen',
};

export const SslState = z.enum(['none', 'pending', 'active', 'failed']);
export const SSL_LABEL: Record<z.infer<typeof SslState>, string> = {
  none: 'Kein SSL', pending: 'Wird ausgestellt …', active: "Let's Encrypt aktiv", failed: 'Ausstellung fehlgeschlagen',
};

export const MEMORY_LIMITS = [128, 256, 512] as const;
export const EXECUTION_TIMES = [30, 60, 120, 300] as const;
export const BACKUP_FREQUENCIES = ['daily', 'weekly', 'monthly', 'none'] as const;
export const BACKUP_FREQUENCY_LABEL: Record<(typeof BACKUP_FREQUENCIES)[number], string> = {
  daily: 'Täglich', weekly: 'Wöchentlich', monthly: 'Monatlich', none: 'Deaktiviert',
};
export const RETENTION_DAYS = [7, 14, 30, 90] as const;

/**
 * The panel keeps a number of copies, not days (decision 022): the copies that cover the chosen days at
 * the chosen frequency, capped at the panel's largest allowed count (30).
 */
export function retentionCopies(frequency: (typeof BACKUP_FREQUENCIES)[number], days: number): number {
  const allowed = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 20, 30];
  const per = frequency === 'daily' ? 1 : frequency === 'weekly' ? 7 : 30;
  const wanted = Math.max(1, Math.ceil(days / per));
  return allowed.find((n) => n >= wanted) ?? 30;
}
/** The days the stored copies really cover (shown next to the choice). */
export function retentionCoveredDays(frequency: (typeof BACKUP_FREQUENCIES)[number], copies: number): number {
  const per = frequency === 'daily' ? 1 : frequency === 'weekly' ? 7 : 30;
  return copies * per;
}

export const HostingDomainView = z.object({
  id: z.string(), domain: z.string(), type: z.enum(['primary', 'addon']),
  /** The public folder the domain is served from (ISPConfig: `<document root>/web`, addons a folder below it). */
  directory: z.string(),
  /** The panel's document root of the domain (the primary domain's site folder; for an addon its own folder). */
  documentRoot: z.string(),
  ssl: SslState,
  /** true: a name under the provider's subdomain base, whose DNS already points to the hosting servers. */
  dnsManaged: z.boolean(),
});
export const APP_TOOLS = ['security-check', 'optimize-database', 'update-all'] as const;
export type AppTool = (typeof APP_TOOLS)[number];
export const AppFinding = z.object({ severity: z.enum(['critical', 'warning', 'info']), text: z.string() });
export type AppFinding = z.infer<typeof AppFinding>;
export type HostingDomainView = z.infer<typeof HostingDomainView>;
export const HostingApp = z.object({
  kind: z.enum(['wordpress', 'joomla']),
  version: z.string(),
  latestVersion: z.string(),
  state: z.enum(['installing', 'installed', 'updating', 'failed']),
  plugins: z.array(z.object({ slug: z.string(), name: z.string(), version: z.string(), latestVersion: z.string(), update: z.enum(['none', 'available', 'critical']), active: z.boolean() })),
  themes: z.array(z.object({ slug: z.string(), name: z.string(), version: z.string(), latestVersion: z.string(), active: z.boolean(), update: z.enum(['none', 'available']) })),
  /** What runs now (one at a time); target is the plugin's slug for update-plugin. */
  job: z.object({ kind: z.enum([...APP_TOOLS, 'update-core', 'update-plugin']), target: z.string().nullable(), startedAt: z.string() }).nullable(),
  lastSecurityCheck: z.object({ at: z.string(), findings: z.array(AppFinding) }).nullable(),
  lastOptimized: z.object({ at: z.string(), savedMb: z.number() }).nullable(),
});
export type HostingApp = z.infer<typeof HostingApp>;

export const HostingCard = z.object({
  id: z.string(),
  name: z.string(),
  plan: z.enum(HOSTING_PLAN_IDS),
  planName: z.string(),
  status: z.enum(HOSTING_STATUS),
  statusMessage: z.string().nullable(),
  primaryDomain: z.string(),
  expiresAt: z.string().nullable(),
  /** owner: renews and sees billing; shared: operates the package */
  access: z.enum(['owner', 'shared']),
});
export type HostingCard = z.infer<typeof HostingCard>;
export const HostingList = z.object({ items: z.array(HostingCard) });
export type HostingList = z.infer<typeof HostingList>;

export const HostingDetail = HostingCard.extend({
  /** The number customers quote to support ("Hosting ID"). */
  hostingId: z.string(),
  limits: z.object({ storageMb: z.number(), trafficMb: z.number(), databases: z.number(), domains: z.number() }),
  phpVersions: z.array(z.string()),
  /** null while the package is not active or the panel is unreachable (then panelError says why). */
  site: z.object({
    phpVersion: z.string(),
    memoryLimitMb: z.number(),
    maxExecutionTimeS: z.number(),
    ssl: SslState,
    backupFrequency: z.enum(BACKUP_FREQUENCIES),
    backupCopies: z.number(),
    /** The retention choice that maps to the stored copy count (decision 022). */
    retentionDays: z.number(),
    pendingChanges: z.boolean(),
    usage: z.object({ diskUsedMb: z.number(), diskQuotaMb: z.number(), trafficThisMonthMb: z.number(), trafficQuotaMb: z.number() }),
    domains: z.array(HostingDomainView),
    databasesUsed: z.number(),
    ftp: z.object({ host: z.string(), username: z.string(), port: z.number(), directory: z.string() }),
    phpMyAdminUrl: z.string(),
    panelUrl: z.string(),
    /** The login name at the panel (the password is set by the customer on the settings tab). */
    panelUsername: z.string(),
    app: HostingApp.nullable(),
  }).nullable(),
  panelError: z.string().nullable(),
  websiteType: z.enum(['standard', 'wordpress', 'joomla']),
  capabilities: z.object({ apps: z.boolean(), backupNow: z.boolean(), htaccess: z.boolean() }),
  /** Which panel runs the package: shown on the "cPanel" button and in honest notes. */
  panelName: z.string(),
  /** Public host name of the hosting server the package lives on (where customers point their DNS). */
  serverHostname: z.string(),
});
export type HostingDetail = z.infer<typeof HostingDetail>;

export const HostingIdParams = z.object({ id: z.uuid({ error: 'Hosting-Paket nicht gefunden.' }) });
export const HostingItemParams = HostingIdParams.extend({ itemId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Ungültige ID.') });

const HostingPassword = z.string({ error: messages.passwordRequired })
  .min(1, messages.passwordRequired)
  .refine((pw) => [...pw].length >= PASSWORD_MIN && [...pw].length <= PASSWORD_MAX, coded('PASSWORT_TO_SHORT'))
  .refine((pw) => passwordMeetsRules(pw, registrationPasswordRules), messages.passwordRulesUnmet)
  // The panel stores it in config files and SQL: no control characters or quotes that break them.
  .refine((pw) => !/[\p{Cc}'"\\`]/u.test(pw), 'Das Passwort darf keine Anführungszeichen, Backslashes oder Steuerzeichen enthalten.');
export const HostingPasswordInput = z.strictObject({ password: HostingPassword, confirmPassword: z.string({ error: messages.passwordRequired }) })
  .refine((v) => v.password === v.confirmPassword, { message: messages.passwordsDiffer, path: ['confirmPassword'] });
export type HostingPasswordInput = z.infer<typeof HostingPasswordInput>;

const DbName = z.string({ error: hostingMessages.nameInvalid }).trim().toLowerCase().regex(/^[a-z][a-z0-9_]{2,15}$/, hostingMessages.nameInvalid);
const ItemId = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * "Datenbank erstellen": the name without the package prefix, and either an existing database user of
 * the package (`userId`) or, without one (or with an empty one, as the form sends it), a new user of the
 * database's name with this password.
 */
export const CreateDatabaseInput = z.strictObject({
  name: DbName,
  userId: z.string({ error: hostingMessages.databaseUserUnknown }).max(64, hostingMessages.databaseUserUnknown).optional(),
  password: z.string({ error: messages.passwordRequired }).optional(),
  confirmPassword: z.string({ error: messages.passwordRequired }).optional(),
}).superRefine((v, ctx) => {
  if (v.userId) {
    if (!ItemId.test(v.userId)) ctx.addIssue({ code: 'custom', message: hostingMessages.databaseUserUnknown, path: ['userId'] });
    if (v.password || v.confirmPassword) ctx.addIssue({ code: 'custom', message: hostingMessages.databaseUserKeepsPassword, path: ['password'] });
    return;
  }
  const checked = HostingPassword.safeParse(v.password ?? '');
  if (!checked.success) ctx.addIssue({ code: 'custom', message: checked.error.issues[0]!.message, path: ['password'] });
  else if (v.password !== v.confirmPassword) ctx.addIssue({ code: 'custom', message: messages.passwordsDiffer, path: ['confirmPassword'] });
});
export type CreateDatabaseInput = z.infer<typeof CreateDatabaseInput>;

/** "Benutzer erstellen": a database user without a database; the name gets the package prefix like databases. */
export const CreateDatabaseUserInput = z.strictObject({ name: DbName, password: HostingPassword, confirmPassword: z.string({ error: messages.passwordRequired }) })
  .refine((v) => v.password === v.confirmPassword, { message: messages.passwordsDiffer, path: ['confirmPassword'] });
export type CreateDatabaseUserInput = z.infer<typeof CreateDatabaseUserInput>;
export const HostingDatabaseUserView = z.object({ id: z.string(), name: z.string() });

export const HostingDatabaseView = z.object({
  id: z.string(), name: z.string(), user: z.string().nullable(), userId: z.string().nullable(),
  /** null: the panel does not report it (ISPConfig). */
  sizeMb: z.number().nullable(),
  /** Number of tables; null: the panel does not report it (ISPConfig). */
  tables: z.number().nullable(),
});
export const HostingDatabases = z.object({
  /** Names carry the package prefix (e.g. "c12_"), added by us: the panel adds none. */
  prefix: z.string(),
  databases: z.array(HostingDatabaseView),
  users: z.array(HostingDatabaseUserView),
  /** The plan's databases; database users are limited to the same number. */
  limit: z.number(),
  phpMyAdminUrl: z.string(),
});
export type HostingDatabases = z.infer<typeof HostingDatabases>;

export const AddDomainInput = z.strictObject({ domain: Domain });
export type AddDomainInput = z.infer<typeof AddDomainInput>;

export const PhpSettingsInput = z.strictObject({
  phpVersion: z.string().regex(/^\d\.\d$/, hostingMessages.phpVersionUnknown).optional(),
  memoryLimitMb: z.union(MEMORY_LIMITS.map((n) => z.literal(n)), { error: 'Bitte wählen Sie 128, 256 oder 512 MB.' }).optional(),
  maxExecutionTimeS: z.union(EXECUTION_TIMES.map((n) => z.literal(n)), { error: 'Bitte wählen Sie 30, 60, 120 oder 300 Sekunden.' }).optional(),
});
export type PhpSettingsInput = z.infer<typeof PhpSettingsInput>;

export const BackupScheduleInput = z.strictObject({
  frequency: z.enum(BACKUP_FREQUENCIES, { error: 'Bitte wählen Sie eine Häufigkeit.' }),
  retentionDays: z.union(RETENTION_DAYS.map((n) => z.literal(n)), { error: 'Bitte wählen Sie 7, 14, 30 oder 90 Tage.' }),
});
export type BackupScheduleInput = z.infer<typeof BackupScheduleInput>;

export const HostingBackups = z.object({
  items: z.array(z.object({ id: z.string(), date: z.string(), sizeBytes: z.number(), content: z.enum(['web', 'mysql']), automatic: z.boolean() })),
  /** A restore is queued and not yet done. */
  restorePending: z.boolean(),
});
export type HostingBackups = z.infer<typeof HostingBackups>;
export const BackupDownloadResult = z.object({ kind: z.enum(['ftp', 'url']), path: z.string().nullable(), url: z.string().nullable() });

export const InstallAppInput = z.strictObject({ kind: z.enum(['wordpress', 'joomla'], { error: 'Bitte wählen Sie eine Anwendung.' }) });
export type InstallAppInput = z.infer<typeof InstallAppInput>;

// ── Application tools and extensions (Website tab; simulated panel only, capability `apps`) ──
export const AppToolInput = z.strictObject({ tool: z.enum(APP_TOOLS, { error: 'Bitte wählen Sie ein Werkzeug.' }) });
export type AppToolInput = z.infer<typeof AppToolInput>;
export const PluginStateInput = z.strictObject({ active: z.boolean({ error: 'Bitte geben Sie an, ob das Plugin aktiv sein soll.' }) });
export type PluginStateInput = z.infer<typeof PluginStateInput>;

// ── Staff: hosting servers (panel servers with slot capacity) ───────────────────────────────────────

export const HostingServerInput = z.strictObject({
  name: z.string({ error: 'Bitte geben Sie einen Namen an.' }).trim().min(2, 'Bitte geben Sie einen Namen an (mindestens 2 Zeichen).').max(60, 'Höchstens 60 Zeichen.'),
  hostname: z.string({ error: 'Bitte geben Sie den Hostnamen an.' }).transform((v, ctx) => {
    const d = normaliseDomain(v);
    if (!d) ctx.addIssue({ code: 'custom', message: 'Bitte geben Sie einen gültigen Hostnamen an (z. B. web1.example.com).' });
    return d ?? '';
  }),
  panelServerId: z.string({ error: 'Bitte geben Sie die Server-ID im Panel an.' }).trim().regex(/^\d{1,9}$/, 'Die Server-ID im Panel ist eine Zahl (ISPConfig: System → Server).'),
  slots: z.number({ error: 'Bitte geben Sie die Anzahl Pakete an.' }).int('Bitte eine ganze Zahl.').min(1, 'Mindestens 1 Paket.').max(10_000, 'Höchstens 10.000 Pakete.'),
});
export type HostingServerInput = z.infer<typeof HostingServerInput>;
export const HostingServerView = z.object({
  id: z.number(), name: z.string(), hostname: z.string(), panelServerId: z.string(), slots: z.number(),
  used: z.number(), held: z.number(), createdAt: z.string(),
});
export type HostingServerView = z.infer<typeof HostingServerView>;
export const HostingServerList = z.object({ items: z.array(HostingServerView), panel: z.string() });
export type HostingServerList = z.infer<typeof HostingServerList>;

/** The order page's part of a web hosting order (OrderDetail.configuration): the plan and domain. */
export const HostingOrderSummary = z.object({
  product: z.literal('webhosting'),
  plan: z.string(), planName: z.string(), primaryDomain: z.string(),
  storageMb: z.number().int(), trafficMb: z.number().int(), databases: z.number().int(), domains: z.number().int(), phpVersions: z.array(z.string()),
});
export type HostingOrderSummary = z.infer<typeof HostingOrderSummary>;
