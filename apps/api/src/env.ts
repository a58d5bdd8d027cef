import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TaxSettings } from '@hp/contract';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Env {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Serve /api/docs and /api/openapi.json. */
  apiDocs: boolean;
  jwtSecret: string | undefined;
  webDist: string;
  isTest: boolean;
  logLevel: string;
  /**
   * Which proxies may name the client in X-Forwarded-For (docs/decisions/026): false (none), a hop count
   * (`true` = 1), or proxy addresses and CIDR ranges. The client is the first untrusted address counted
   * from the right, so an entry the client wrote itself never counts.
   */
  trustProxy: false | number | string[];
  company: CompanyDetails;
  /** Facts on the public data-center page; placeholders like the company's until configured. */
  dataCenter: DataCenterDetails;
  hypervisor: 'simulated' | 'proxmox';
  /** Divides the simulated hypervisor's task durations (demo: 1; browser tests: faster). */
  simulatedSpeed: number;
  proxmox: ProxmoxConfig;
  /** Web hosting panel: the simulated one (default) or ISPConfig 3.2 (README, "ISPConfig"). */
  hosting: 'simulated' | 'ispconfig';
  ispconfig: { url: string; username: string; password: string; fingerprint: string };
  /** Cloud storage: the simulated storage server (default) or Nextcloud's provisioning API (docs/integrations/nextcloud.md). */
  storage: 'simulated' | 'nextcloud';
  nextcloud: NextcloudEnv;
  /**
   * STORAGE_OVERCOMMIT (default 1.5, 1–10): the quotas on a storage server may add up to its capacity
   * times this (customers rarely fill their quota; staff watch the real use in the statistics).
   */
  storageOvercommit: number;
  /** Virtual data centers: the largest ISO image one upload may announce (VDC_ISO_MAX_GB, default 8 GiB). */
  vdcIsoMaxBytes: number;
  /** Domain registrar: the simulated registry (default) or INWX (README, "INWX (OT&E first)"). */
  registrar: 'simulated' | 'inwx';
  inwx: InwxConfig;
  /** Free subdomains of hosting packages are <name>.<this> (its DNS points to the hosting servers). */
  hostingSubdomainBase: string;
  payments: PaymentsConfig;
  billing: BillingConfig;
  /** The VAT-ID check (issue 24): which service, where, how long to wait, how old a check may be before an invoice. */
  vatCheck: VatCheckConfig;
  /**
   * The seller's tax settings (issue 24): VAT_EU_CONSUMERS=threshold (default: German VAT for EU
   * consumers until the cross-border sales pass 10,000 €) or destination (opted for, or known to be
   * above, the threshold: the customer's country's VAT through the OSS); VAT_SWISS_REGISTRATION: the
   * company's Swiss MWST number (empty: not registered, Swiss consumers pay no VAT).
   */
  tax: TaxSettings;
  /** How long a job claim holds without renewal; a killed process's jobs are claimed again after it. */
  jobLeaseMs: number;
  /** Period of the task settler (power, backup and restore tasks on the host); SETTLE_TASKS_MS, default 2 s. */
  settleTaskMs: number;
}

/** PAYMENTS=stripe: Stripe Checkout (README, "Stripe"); otherwise the simulated payment page. */
export interface PaymentsConfig {
  provider: 'simulated' | 'stripe';
  stripeSecretKey: string;
  stripeWebhookSecret: string;
  /** Only for tests against a local fake: http://127.0.0.1:PORT */
  stripeApiBase: string | undefined;
}

/** VAT_CHECK: simulated (default), vies (EU VIES REST API) or evatr (BZSt eVatR REST API). */
export interface VatCheckConfig {
  driver: 'simulated' | 'vies' | 'evatr';
  /** VAT_CHECK_URL: the service's check address instead of the official one (tests: a local fake). */
  url: string | undefined;
  /** VAT_CHECK_TIMEOUT_MS, default 8000: a slower answer counts as "service unavailable". */
  timeoutMs: number;
  /** VAT_CHECK_MAX_AGE_DAYS, default 30: an older check is repeated before an invoice. */
  maxAgeDays: number;
}

/** STORAGE=nextcloud: an admin's app password on the storage servers (docs/integrations/nextcloud.md). */
export interface NextcloudEnv {
  /** NEXTCLOUD_URL: the default storage server's base URL (a storage server entered by staff has its own). */
  url: string;
  /** NEXTCLOUD_USER: an admin (or a group admin of NEXTCLOUD_GROUP) login. */
  username: string;
  /** NEXTCLOUD_APP_PASSWORD: an app password of that login (Settings → Security), never its login password. */
  appPassword: string;
  /** NEXTCLOUD_FINGERPRINT: SHA-256 of the server certificate, pinned; empty: verified against the system CAs. */
  fingerprint: string;
  /** NEXTCLOUD_GROUP: the group every portal user joins; empty: none. */
  group: string;
}

/** REGISTRAR=inwx: the DomRobot JSON-RPC account (the OT&E test system unless INWX_ENDPOINT=live). */
export interface InwxConfig {
  user: string;
  password: string;
  /** Base32 secret of the account's mobile TAN (two-factor), if switched on. */
  totpSecret: string;
  endpoint: 'ote' | 'live';
  /** The JSON-RPC address: INWX_URL (tests: a local fake) or the one of the endpoint. */
  url: string;
}

export const INWX_URLS = { ote: 'https://api.ote.domrobot.com/jsonrpc/', live: 'https://api.domrobot.com/jsonrpc/' } as const;

/** Terms of prepaid servers; the defaults are explained in docs/decisions/007. */
export interface BillingConfig {
  /** How long an open payment holds capacity and the IP (the provider's session lasts 31 min of it; at least 32). */
  checkoutHoldMinutes: number;
  /** Reminder mails this many days before the term ends. */
  reminderDays: number[];
  /** A stopped, unpaid server is deleted this many days after its term ended. */
  graceDays: number;
  /** Period of the billing housekeeping (reminders, expiry, stale payments); BILLING_TICK_MS, default 1 min. */
  tickMs: number;
  /**
   * INVOICE_RETENTION_YEARS, default 8 (§147 Abs. 3 AO, §14b Abs. 1 UStG, §257 Abs. 4 HGB as amended by
   * the Bürokratieentlastungsgesetz IV from 1 January 2025): how long a deleted customer's invoices and
   * credit notes are kept after the end of their year. Never less than 8.
   */
  invoiceRetentionYears: number;
}

/** HYPERVISOR=proxmox: how to reach the cluster (README, "Proxmox VE"). */
export interface ProxmoxConfig {
  /** e.g. https://pve1.example.com:8006 */
  url: string;
  /** user@realm!tokenid */
  tokenId: string;
  tokenSecret: string;
  /** SHA-256 fingerprint of the node certificate (AA:BB:…), pinned instead of trusting a CA */
  fingerprint: string;
  storage: string;
  backupStorage: string;
  bridge: string;
  /** Virtual data centers: the SDN zone (VLAN or VXLAN, set up by the operator) their VNets go into. */
  sdnZone: string;
  /** Virtual data centers: the storage (content type ISO) customers' ISO images are uploaded to. */
  isoStorage: string;
  /** OS template VM ids, e.g. {"debian-12":9000,"ubuntu-24.04":9001} */
  templates: Record<string, number>;
  /** Console-only PVE user for the terminal websocket (ticket auth), e.g. console@pve */
  consoleUser: string;
  consolePassword: string;
}

/** Company details for the legal pages and (later) invoices; placeholders until configured. */
export interface CompanyDetails {
  name: string;
  street: string;
  zipCity: string;
  country: string;
  /** ISO 3166-1 alpha-2 for the e-invoice, e.g. DE */
  countryCode: string;
  email: string;
  phone: string;
  managingDirector: string;
  register: string;
  vatId: string;
  taxNumber: string;
  /** Bank account for invoices paid by transfer (manual invoices). */
  iban: string;
  bic: string;
  bankName: string;
}

/** The data center the servers run in, as shown on /rechenzentrum; an empty text hides its line. */
export interface DataCenterDetails {
  location: string;
  operator: string;
  certifications: string[];
  power: string;
  network: string;
}

/**
 * The sender of every mail: MAIL_FROM as given when it carries a display name, otherwise the address
 * (default noreply@example.com) under the configured company name, so customers see who writes.
 */
export function mailSender(configured: string | undefined, companyName: string): string {
  const value = configured?.trim();
  if (value && value.includes('<')) return value;
  return `"${companyName.replace(/["\\\r\n]/g, '')}" <${value || 'noreply@example.com'}>`;
}

/** TRUST_PROXY: unset/`false` → false; `true` → 1 hop; a number → that many hops; else a comma list of addresses or CIDRs. */
export function parseTrustProxy(raw: string | undefined): false | number | string[] {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return 1;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((e) => e.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, bits, ...rest] = entry.split('/');
    const version = net.isIP(address ?? '');
    const maxBits = version === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (!version || rest.length || !bitsOk) {
      throw new Error(`TRUST_PROXY: "${entry}" is neither a hop count nor an IP address or CIDR range (e.g. TRUST_PROXY=1 or TRUST_PROXY=10.0.0.0/8,127.0.0.1)`);
    }
  }
  return entries;
}

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const dataDir = path.resolve(source.DATA_DIR ?? path.join(repoRoot, 'data'));
  const port = Number(source.PORT ?? 5000);
  return {
    port,
    host: source.HOST ?? '0.0.0.0',
    publicUrl: source.PUBLIC_URL ?? `http://localhost:${port}`,
    dataDir,
    databaseUrl: source.DATABASE_URL || undefined,
    smtpUrl: source.SMTP_URL || undefined,
    mailFrom: mailSender(source.MAIL_FROM, source.COMPANY_NAME ?? 'Musterhost GmbH'),
    // The API reference is public by default (customers may script against the API); API_DOCS=false hides it.
    apiDocs: source.API_DOCS !== 'false',
    jwtSecret: source.JWT_SECRET || undefined,
    webDist: path.resolve(source.WEB_DIST ?? path.join(repoRoot, 'apps/web/dist')),
    isTest: source.NODE_ENV === 'test' || source.VITEST === 'true',
    logLevel: source.LOG_LEVEL ?? (source.VITEST ? 'silent' : 'info'),
    trustProxy: parseTrustProxy(source.TRUST_PROXY),
    hypervisor: source.HYPERVISOR === 'proxmox' ? 'proxmox' : 'simulated',
    simulatedSpeed: Math.max(1, Number(source.SIMULATED_SPEED ?? 1) || 1),
    proxmox: {
      url: source.PROXMOX_URL ?? '',
      tokenId: source.PROXMOX_TOKEN_ID ?? '',
      tokenSecret: source.PROXMOX_TOKEN_SECRET ?? '',
      fingerprint: source.PROXMOX_FINGERPRINT ?? '',
      storage: source.PROXMOX_STORAGE ?? 'local-lvm',
      backupStorage: source.PROXMOX_BACKUP_STORAGE ?? 'local',
      bridge: source.PROXMOX_BRIDGE ?? 'vmbr0',
      sdnZone: source.PROXMOX_SDN_ZONE ?? 'vdc',
      isoStorage: source.PROXMOX_ISO_STORAGE ?? 'local',
      templates: parseTemplates(source.PROXMOX_TEMPLATES),
      consoleUser: source.PROXMOX_CONSOLE_USER ?? '',
      consolePassword: source.PROXMOX_CONSOLE_PASSWORD ?? '',
    },
    hosting: source.HOSTING === 'ispconfig' ? 'ispconfig' : 'simulated',
    ispconfig: {
      url: (source.ISPCONFIG_URL ?? '').replace(/\/+$/, ''),
      username: source.ISPCONFIG_USER ?? '',
      password: source.ISPCONFIG_PASSWORD ?? '',
      fingerprint: source.ISPCONFIG_FINGERPRINT ?? '',
    },
    storage: source.STORAGE === 'nextcloud' ? 'nextcloud' : 'simulated',
    nextcloud: {
      url: (source.NEXTCLOUD_URL ?? '').trim().replace(/\/+$/, ''),
      username: source.NEXTCLOUD_USER ?? '',
      appPassword: source.NEXTCLOUD_APP_PASSWORD ?? '',
      fingerprint: source.NEXTCLOUD_FINGERPRINT ?? '',
      group: (source.NEXTCLOUD_GROUP ?? '').trim(),
    },
    storageOvercommit: Math.min(10, Math.max(1, Number(source.STORAGE_OVERCOMMIT ?? 1.5) || 1.5)),
    vdcIsoMaxBytes: Math.max(1, Number(source.VDC_ISO_MAX_GB ?? 8) || 8) * 1024 ** 3,
    registrar: source.REGISTRAR === 'inwx' ? 'inwx' : 'simulated',
    inwx: readInwx(source),
    hostingSubdomainBase: (source.HOSTING_SUBDOMAIN_BASE ?? 'musterhost-web.de').trim().toLowerCase(),
    payments: {
      provider: source.PAYMENTS === 'stripe' ? 'stripe' : 'simulated',
      stripeSecretKey: source.STRIPE_SECRET_KEY ?? '',
      stripeWebhookSecret: source.STRIPE_WEBHOOK_SECRET ?? '',
      stripeApiBase: source.STRIPE_API_BASE || undefined,
    },
    vatCheck: readVatCheck(source),
    tax: readTaxSettings(source),
    jobLeaseMs: Math.max(1000, Number(source.JOB_LEASE_MS ?? 30_000) || 30_000),
    billing: {
      checkoutHoldMinutes: Math.max(32, Number(source.CHECKOUT_HOLD_MINUTES ?? 35) || 35),
      reminderDays: (source.EXPIRY_REMINDER_DAYS ?? '7,1').split(',').map((d) => Number(d.trim())).filter((d) => Number.isInteger(d) && d > 0).sort((a, b) => b - a).slice(0, 2),
      graceDays: nonNegative(source.SERVER_GRACE_DAYS, 14),
      tickMs: Math.max(1000, Number(source.BILLING_TICK_MS ?? 60_000) || 60_000),
      invoiceRetentionYears: Math.min(30, Math.max(8, Math.floor(Number(source.INVOICE_RETENTION_YEARS ?? 8) || 8))),
    },
    settleTaskMs: Math.max(250, Number(source.SETTLE_TASKS_MS ?? 2000) || 2000),
    company: {
      name: source.COMPANY_NAME ?? 'Musterhost GmbH',
      street: source.COMPANY_STREET ?? 'Musterstraße 1',
      zipCity: source.COMPANY_ZIP_CITY ?? '60311 Frankfurt am Main',
      country: source.COMPANY_COUNTRY ?? 'Deutschland',
      countryCode: (source.COMPANY_COUNTRY_CODE ?? 'DE').toUpperCase(),
      email: source.COMPANY_EMAIL ?? 'info@example.com',
      phone: source.COMPANY_PHONE ?? '+49 69 000000',
      managingDirector: source.COMPANY_MANAGING_DIRECTOR ?? 'Max Mustermann',
      register: source.COMPANY_REGISTER ?? 'Amtsgericht Frankfurt am Main, HRB 000000',
      vatId: source.COMPANY_VAT_ID ?? 'DE000000000',
      taxNumber: source.COMPANY_TAX_NUMBER ?? '000/000/00000',
      // A placeholder account with a valid checksum (the well-known example IBAN) until configured.
      iban: (source.COMPANY_IBAN ?? 'DE89370400440532013000').replace(/\s+/g, '').toUpperCase(),
      bic: (source.COMPANY_BIC ?? 'COBADEFFXXX').trim().toUpperCase(),
      bankName: source.COMPANY_BANK ?? 'Commerzbank',
    },
    dataCenter: {
      location: (source.DATACENTER_LOCATION ?? 'Frankfurt am Main, Deutschland').trim(),
      operator: (source.DATACENTER_OPERATOR ?? '').trim(),
      certifications: (source.DATACENTER_CERTIFICATIONS ?? 'ISO/IEC 27001').split(',').map((c) => c.trim()).filter(Boolean),
      power: (source.DATACENTER_POWER ?? 'Zwei unabhängige Stromeinspeisungen, USV und Netzersatzanlage (N+1)').trim(),
      network: (source.DATACENTER_NETWORK ?? 'Redundante Anbindung über mehrere Carrier').trim(),
    },
  };
}

function readInwx(source: NodeJS.ProcessEnv): InwxConfig {
  const endpoint = source.INWX_ENDPOINT === 'live' ? 'live' : 'ote';
  if (source.INWX_ENDPOINT && !['ote', 'live'].includes(source.INWX_ENDPOINT)) throw new Error('INWX_ENDPOINT must be ote or live');
  return {
    user: source.INWX_USER ?? '',
    password: source.INWX_PASSWORD ?? '',
    totpSecret: (source.INWX_TOTP_SECRET ?? '').replace(/\s+/g, '').toUpperCase(),
    endpoint,
    url: source.INWX_URL || INWX_URLS[endpoint],
  };
}

function readTaxSettings(source: NodeJS.ProcessEnv): TaxSettings {
  const mode = (source.VAT_EU_CONSUMERS ?? 'threshold').trim().toLowerCase() || 'threshold';
  if (mode !== 'threshold' && mode !== 'destination') throw new Error('VAT_EU_CONSUMERS must be threshold or destination');
  return { destinationTaxationOpted: mode === 'destination', swissVatNumber: (source.VAT_SWISS_REGISTRATION ?? '').trim() };
}

function readVatCheck(source: NodeJS.ProcessEnv): VatCheckConfig {
  const driver = (source.VAT_CHECK ?? 'simulated').trim().toLowerCase() || 'simulated';
  if (driver !== 'simulated' && driver !== 'vies' && driver !== 'evatr') throw new Error('VAT_CHECK must be simulated, vies or evatr');
  return {
    driver,
    url: source.VAT_CHECK_URL?.trim() || undefined,
    timeoutMs: Math.max(100, Number(source.VAT_CHECK_TIMEOUT_MS ?? 8000) || 8000),
    maxAgeDays: Math.max(1, Number(source.VAT_CHECK_MAX_AGE_DAYS ?? 30) || 30),
  };
}

function nonNegative(raw: string | undefined, fallback: number): number {
  const n = Number(raw);
  return raw !== undefined && raw !== '' && Number.isFinite(n) && n >= 0 ? n : fallback;
}

function parseTemplates(raw: string | undefined): Record<string, number> {
  if (!raw) return {};
  try {
    const parsed = JSON.parse(raw) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => Number.isInteger(v)).map(([k, v]) => [k, v as number]));
  } catch {
    throw new Error('PROXMOX_TEMPLATES must be JSON, e.g. {"debian-12":9000}');
  }
}
