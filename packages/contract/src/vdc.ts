import { z } from 'zod';
import { VDC_LIMITS, VDC_VM_MIN } from './vdc-pricing.ts';
import { listPage, listQuery } from './infrastructure.ts';
import { messages } from './messages.ts';

/**
 * The virtual data center (issue 25, decision 036): a resource pool bought for a term, inside which the
 * customer creates, resizes and deletes their own VMs. Price and limits: vdc-pricing.ts. The API's
 * shapes are here; helpers of one feature may add fields, never rename these.
 */

const int = (label: string) => z.number({ error: `${label}: Bitte geben Sie eine Zahl an.` }).int({ error: `${label}: Bitte geben Sie eine ganze Zahl an.` });
const onSlider = (label: string, unit: string, limit: { min: number; max: number; step: number }) =>
  int(label)
    .min(limit.min, { error: `${label}: bitte mindestens ${limit.min}${unit}.` })
    .max(limit.max, { error: `${label}: höchstens ${limit.max}${unit}.` })
    .refine((v) => (v - limit.min) % limit.step === 0, { error: `${label}: bitte in Schritten von ${limit.step}${unit}.` });

export const VdcName = z.string({ error: 'Bitte geben Sie einen Namen an.' }).trim()
  .min(1, 'Bitte geben Sie einen Namen an.').max(40, 'Der Name darf höchstens 40 Zeichen lang sein.')
  .regex(/^[\p{L}\p{N} ._-]+$/u, 'Der Name darf nur Buchstaben, Ziffern, Leerzeichen, Punkt, Binde- und Unterstrich enthalten.');

/** The configurator's order of a standard pool (`POST /api/shop/vdc/checkout`), or a renewal/upgrade of one's own (`vdcId`). */
export const VdcCheckoutInput = z.strictObject({
  cpu: onSlider('vCPU', ' Kerne', VDC_LIMITS.cpu),
  ram: onSlider('RAM', ' GB', VDC_LIMITS.ram),
  storage: onSlider('Speicher', ' GB', VDC_LIMITS.storage),
  ipv4: onSlider('IPv4-Adressen', '', VDC_LIMITS.ipv4),
  months: onSlider('Laufzeit', ' Monate', VDC_LIMITS.months),
  name: VdcName.optional(),
  /** Renewal (and upgrade to these figures) of an own VDC. */
  vdcId: z.uuid({ error: 'Dieses Virtual Data Center wurde nicht gefunden.' }).optional(),
  acceptTerms: z.literal(true, { error: 'Sie müssen den AGB und Datenschutzbestimmungen zustimmen, um fortzufahren.' }),
});
export type VdcCheckoutInput = z.infer<typeof VdcCheckoutInput>;

/** What a VDC order stores (orders.config). */
export const VdcOrderConfig = z.object({
  cpu: z.number().int(), ram: z.number().int(), storage: z.number().int(), ipv4: z.number().int(),
  name: z.string(),
  nodeId: z.number().int(),
  /** Set when the order came from a staff offer (its price is the offer's, not the sliders'). */
  offerId: z.string().nullable().optional(),
  /** The pool's figures before this order (renewals that change it). */
  previous: z.object({ cpu: z.number().int(), ram: z.number().int(), storage: z.number().int(), ipv4: z.number().int() }).nullable().optional(),
  /** The free IPv4 addresses the pending order holds (new: all of them; upgrade: the added ones). */
  ipAddressIds: z.array(z.number().int()).optional(),
});
export type VdcOrderConfig = z.infer<typeof VdcOrderConfig>;

/** The order page's part of a VDC order (OrderDetail.configuration). */
export const VdcOrderSummary = z.object({
  product: z.literal('vdc'),
  name: z.string(),
  cpu: z.number().int(), ram: z.number().int(), storage: z.number().int(), ipv4: z.number().int(),
  isoLibraryGb: z.number().int(),
  maxVms: z.number().int(),
  fromOffer: z.boolean(),
});
export type VdcOrderSummary = z.infer<typeof VdcOrderSummary>;

// ── The customer's VDC page ─────────────────────────────────────────────────────────────────────────

export const VDC_STATUS = ['provisioning', 'active', 'suspended', 'failed'] as const;
export type VdcStatus = (typeof VDC_STATUS)[number];
export const VDC_STATUS_LABEL: Record<VdcStatus, string> = {
  provisioning: 'Wird eingerichtet', active: 'Aktiv', suspended: 'Gesperrt', failed: 'Fehlgeschlagen',
};

/** Used and total of one pool resource. */
export const PoolResource = z.object({ used: z.number().int(), total: z.number().int() });
export type PoolResource = z.infer<typeof PoolResource>;

export const VdcCard = z.object({
  id: z.string(),
  /** "VDC-ID" customers quote to support. */
  number: z.number().int(),
  name: z.string(),
  status: z.enum(VDC_STATUS),
  statusMessage: z.string().nullable(),
  expiresAt: z.string().nullable(),
  cpu: PoolResource, ramGb: PoolResource, storageGb: PoolResource, ipv4: PoolResource,
  vms: z.number().int(),
});
export type VdcCard = z.infer<typeof VdcCard>;
export const VdcList = z.object({ items: z.array(VdcCard) });
export type VdcList = z.infer<typeof VdcList>;

export const VdcVm = z.object({
  /** The server id: the root server panel opens it at /dashboard/server/:id. */
  id: z.string(),
  name: z.string(),
  status: z.string(),
  cpuCores: z.number().int(), ramGb: z.number().int(), diskGb: z.number().int(),
  os: z.string(),
  publicIpv4: z.string().nullable(),
  privateAddress: z.string().nullable(),
  isoId: z.string().nullable(),
});
export type VdcVm = z.infer<typeof VdcVm>;

export const VdcIso = z.object({
  id: z.string(),
  name: z.string(),
  sizeBytes: z.number().int(),
  receivedBytes: z.number().int(),
  status: z.enum(['uploading', 'ready', 'failed']),
  statusMessage: z.string().nullable(),
  /** The VMs that have it in their drive (it cannot be deleted while any has). */
  attachedTo: z.array(z.string()),
  createdAt: z.string(),
});
export type VdcIso = z.infer<typeof VdcIso>;

export const VdcIpv4 = z.object({ id: z.number().int(), address: z.string(), serverId: z.string().nullable() });
export type VdcIpv4 = z.infer<typeof VdcIpv4>;

export const VdcDetail = VdcCard.extend({
  isoLibrary: PoolResource.extend({ unit: z.literal('bytes') }),
  maxVms: z.number().int(),
  network: z.object({ cidr: z.string().nullable(), status: z.enum(['none', 'creating', 'active', 'deleting', 'failed']) }),
  vmList: z.array(VdcVm),
  isos: z.array(VdcIso),
  ipv4List: z.array(VdcIpv4),
  renewPath: z.string(),
  graceDays: z.number().int(),
});
export type VdcDetail = z.infer<typeof VdcDetail>;

export const VdcIdParams = z.object({ id: z.uuid({ error: 'Dieses Virtual Data Center wurde nicht gefunden.' }) });
export const VdcVmParams = VdcIdParams.extend({ vmId: z.uuid({ error: 'Diese VM wurde nicht gefunden.' }) });
export const VdcIsoParams = VdcIdParams.extend({ isoId: z.uuid({ error: 'Dieses ISO-Image wurde nicht gefunden.' }) });

const vmResources = {
  cpuCores: int('vCPU').min(VDC_VM_MIN.cpu, { error: `vCPU: bitte mindestens ${VDC_VM_MIN.cpu}.` }).max(64, { error: 'vCPU: höchstens 64.' }),
  ramGb: int('RAM').min(VDC_VM_MIN.ramGb, { error: `RAM: bitte mindestens ${VDC_VM_MIN.ramGb} GB.` }).max(1024, { error: 'RAM: höchstens 1024 GB.' }),
  diskGb: int('Festplatte').min(VDC_VM_MIN.diskGb, { error: `Festplatte: bitte mindestens ${VDC_VM_MIN.diskGb} GB.` }).max(20_000, { error: 'Festplatte: höchstens 20000 GB.' }),
};

/** "VM erstellen": a Linux template (`os`, one of the root server's distributions) or an own ISO (`isoId`). */
export const VdcVmCreateInput = z.strictObject({
  name: z.string({ error: 'Bitte geben Sie einen Namen an.' }).trim().toLowerCase()
    .regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, 'Der Name darf nur Kleinbuchstaben, Ziffern und Bindestriche enthalten (höchstens 63 Zeichen).'),
  ...vmResources,
  os: z.string().max(64).optional(),
  isoId: z.uuid({ error: 'Dieses ISO-Image wurde nicht gefunden.' }).optional(),
  /** Give the VM one of the pool's free public IPv4 addresses. */
  publicIpv4: z.boolean().default(true),
  /** Join the private network (when the pool has one). */
  privateNetwork: z.boolean().default(false),
}).refine((v) => Boolean(v.os) !== Boolean(v.isoId), { message: 'Bitte wählen Sie ein Betriebssystem oder ein eigenes ISO-Image.', path: ['os'] });
export type VdcVmCreateInput = z.infer<typeof VdcVmCreateInput>;

/** Resize within the pool (the disk only grows). */
export const VdcVmResizeInput = z.strictObject(vmResources);
export type VdcVmResizeInput = z.infer<typeof VdcVmResizeInput>;

/** The private network's range: an RFC 1918 network with a prefix of /16 to /29. */
export const VdcNetworkInput = z.strictObject({
  cidr: z.string({ error: 'Bitte geben Sie einen Adressbereich an.' }).trim().refine(isPrivateCidr, {
    message: 'Bitte geben Sie ein privates Netz an (10.0.0.0/8, 172.16.0.0/12 oder 192.168.0.0/16), z. B. 10.20.0.0/24, mit einem Präfix von /16 bis /29.',
  }),
});
export type VdcNetworkInput = z.infer<typeof VdcNetworkInput>;

/** Give a public IPv4 of the pool to a VM (`serverId`) or take it back (`serverId: null`). */
export const VdcIpAssignInput = z.strictObject({ serverId: z.uuid({ error: 'Diese VM wurde nicht gefunden.' }).nullable() });

/** Put an ISO into a VM's drive and boot from it (`isoId`), or empty the drive (`isoId: null`). */
export const VdcIsoAttachInput = z.strictObject({ isoId: z.uuid({ error: 'Dieses ISO-Image wurde nicht gefunden.' }).nullable() });

// ── ISO library and private network (services vdc-isos and vdc-network) ─────────────────────────────

/** The most bytes one `PUT /api/vdcs/:id/isos/:isoId/content` may carry: the client sends an image in such pieces. */
export const VDC_ISO_CHUNK_BYTES = 16 * 1024 * 1024;
/** The smallest ISO 9660 image: 16 sectors of system area, the primary volume descriptor and the set terminator. */
export const VDC_ISO_MIN_BYTES = 18 * 2048;

/**
 * Start an upload (`POST /api/vdcs/:id/isos`): the file's name and exact size. The server cleans the name
 * (path cut off, unusual characters replaced) and reserves the size in the library quota.
 */
export const VdcIsoCreateInput = z.strictObject({
  name: z.string({ error: 'Bitte geben Sie den Dateinamen an.' }).trim()
    .min(1, 'Bitte geben Sie den Dateinamen an.').max(200, 'Der Dateiname darf höchstens 200 Zeichen lang sein.')
    .regex(/\.iso$/i, 'Bitte wählen Sie ein ISO-Image (Dateiendung .iso).'),
  sizeBytes: z.number({ error: 'Bitte geben Sie die Dateigröße an.' }).int({ error: 'Bitte geben Sie die Dateigröße in Bytes an.' })
    .min(1, { error: 'Die Datei ist leer.' }).max(Number.MAX_SAFE_INTEGER, { error: 'Die Datei ist zu groß.' }),
});
export type VdcIsoCreateInput = z.infer<typeof VdcIsoCreateInput>;

/** The library with its quota (`GET /api/vdcs/:id/isos`); `usedBytes` counts uploads in progress by their announced size. */
export const VdcIsoList = z.object({
  items: z.array(VdcIso),
  usedBytes: z.number().int(),
  quotaBytes: z.number().int(),
  /** The largest image one upload may announce. */
  maxImageBytes: z.number().int(),
  chunkBytes: z.number().int(),
});
export type VdcIsoList = z.infer<typeof VdcIsoList>;

/** What a VM's CD-ROM drive holds after `PUT /api/vdcs/:id/vms/:vmId/iso`. */
export const VdcVmIsoState = z.object({ vmId: z.string(), isoId: z.string().nullable() });
export type VdcVmIsoState = z.infer<typeof VdcVmIsoState>;

export const VDC_NETWORK_STATUS = ['none', 'creating', 'active', 'deleting', 'failed'] as const;
export const VDC_NETWORK_STATUS_LABEL: Record<(typeof VDC_NETWORK_STATUS)[number], string> = {
  none: 'Nicht eingerichtet', creating: 'Wird eingerichtet', active: 'Aktiv', deleting: 'Wird entfernt', failed: 'Fehlgeschlagen',
};

/** The private network (`GET`/`PUT /api/vdcs/:id/network`): range, gateway (the first host) and the VMs in it. */
export const VdcNetwork = z.object({
  cidr: z.string().nullable(),
  status: z.enum(VDC_NETWORK_STATUS),
  /** Why the last setup failed, in German; null otherwise. */
  message: z.string().nullable(),
  gateway: z.string().nullable(),
  /** Addresses still free for VMs (the range minus network, gateway, broadcast and members). */
  freeAddresses: z.number().int(),
  members: z.array(z.object({ vmId: z.string(), name: z.string(), privateAddress: z.string() })),
});
export type VdcNetwork = z.infer<typeof VdcNetwork>;

/** Let a VM join the private network (`join: true`, it gets the next free address) or leave it. */
export const VdcVmNetworkInput = z.strictObject({ join: z.boolean({ error: 'Bitte geben Sie an, ob die VM dem privaten Netz beitreten soll.' }) });
export type VdcVmNetworkInput = z.infer<typeof VdcVmNetworkInput>;

export const VdcVmNetworkState = z.object({ vmId: z.string(), privateAddress: z.string().nullable() });
export type VdcVmNetworkState = z.infer<typeof VdcVmNetworkState>;

export function ipv4ToInt(ip: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p, i) => p > 255 || (m[i + 1]!.length > 1 && m[i + 1]!.startsWith('0')))) return null;
  return ((parts[0]! << 24) >>> 0) + (parts[1]! << 16) + (parts[2]! << 8) + parts[3]!;
}

/** An RFC 1918 network address with a prefix of /16 to /29 (the host part all zero). */
export function isPrivateCidr(cidr: string): boolean {
  const m = /^([\d.]+)\/(\d{1,2})$/.exec(cidr);
  if (!m) return false;
  const ip = ipv4ToInt(m[1]!);
  const prefix = Number(m[2]);
  if (ip === null || prefix < 16 || prefix > 29) return false;
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  if ((ip & mask) >>> 0 !== ip) return false;
  const inRange = (base: string, bits: number) => ((ip & ((0xffffffff << (32 - bits)) >>> 0)) >>> 0) === ipv4ToInt(base);
  return inRange('10.0.0.0', 8) || inRange('172.16.0.0', 12) || inRange('192.168.0.0', 16);
}

/** The "Individuelle Anfrage" form: opens a ticket of type "VDC-Anfrage". */
export const VdcRequestInput = z.strictObject({
  needs: z.string({ error: 'Bitte beschreiben Sie Ihren Bedarf.' }).trim().min(20, 'Bitte beschreiben Sie Ihren Bedarf in mindestens 20 Zeichen.').max(5000, 'Bitte fassen Sie sich kürzer (höchstens 5000 Zeichen).'),
  budget: z.string().trim().max(200, 'Das Budget darf höchstens 200 Zeichen lang sein.').default(''),
  phone: z.string().trim().max(40, 'Die Telefonnummer darf höchstens 40 Zeichen lang sein.').default(''),
});
export type VdcRequestInput = z.infer<typeof VdcRequestInput>;

/** Staff's offer in a "VDC-Anfrage" ticket (may exceed the sliders; the price is staff's). */
export const VdcOfferInput = z.strictObject({
  cpu: int('vCPU').min(1, { error: 'vCPU: bitte mindestens 1.' }).max(1024, { error: 'vCPU: höchstens 1024.' }),
  ram: int('RAM').min(1, { error: 'RAM: bitte mindestens 1 GB.' }).max(8192, { error: 'RAM: höchstens 8192 GB.' }),
  storage: int('Speicher').min(10, { error: 'Speicher: bitte mindestens 10 GB.' }).max(200_000, { error: 'Speicher: höchstens 200000 GB.' }),
  ipv4: int('IPv4-Adressen').min(0, { error: 'IPv4-Adressen: bitte mindestens 0.' }).max(256, { error: 'IPv4-Adressen: höchstens 256.' }),
  months: int('Laufzeit').min(1, { error: 'Laufzeit: bitte mindestens 1 Monat.' }).max(36, { error: 'Laufzeit: höchstens 36 Monate.' }),
  priceCents: int('Preis').min(100, { error: 'Preis: bitte mindestens 1,00 €.' }).max(100_000_000, { error: 'Preis: höchstens 1.000.000,00 €.' }),
  validDays: int('Gültigkeit').min(1, { error: 'Gültigkeit: bitte mindestens 1 Tag.' }).max(60, { error: 'Gültigkeit: höchstens 60 Tage.' }).default(14),
});
export type VdcOfferInput = z.infer<typeof VdcOfferInput>;

export const VdcOffer = z.object({
  id: z.string(),
  /** The "VDC-Anfrage" ticket the offer answers. */
  ticketId: z.string(),
  cpu: z.number().int(), ram: z.number().int(), storage: z.number().int(), ipv4: z.number().int(), months: z.number().int(),
  priceCents: z.number().int(),
  status: z.enum(['open', 'accepted', 'withdrawn', 'expired']),
  validUntil: z.string(),
  /** The payment page of the offer's order while it is open. */
  payPath: z.string().nullable(),
  createdAt: z.string(),
});
export type VdcOffer = z.infer<typeof VdcOffer>;

/** The answer of `POST /api/vdc-requests`: the ticket the request opened. */
export const VdcRequestResult = z.object({ ticketId: z.string() });
export type VdcRequestResult = z.infer<typeof VdcRequestResult>;

export const VDC_OFFER_STATUS_LABEL: Record<VdcOffer['status'], string> = {
  open: 'Offen', accepted: 'Angenommen', withdrawn: 'Zurückgezogen', expired: 'Abgelaufen',
};

export const vdcOfferMessages = {
  notFound: 'Dieses Angebot wurde nicht gefunden.',
  ticketNotFound: 'Ticket nicht gefunden.',
  notARequest: 'Angebote gibt es nur in Tickets vom Typ „VDC-Anfrage“ eines Kunden.',
  ticketClosed: 'Dieses Ticket ist geschlossen. Für ein Angebot muss die Anfrage offen sein.',
  expired: 'Dieses Angebot ist abgelaufen. Bitte fragen Sie im Ticket nach einem neuen Angebot.',
  withdrawn: 'Dieses Angebot wurde zurückgezogen. Bitte fragen Sie im Ticket nach einem neuen Angebot.',
  accepted: 'Dieses Angebot wurde bereits angenommen und bezahlt.',
  notOpen: 'Nur ein offenes Angebot kann zurückgezogen werden.',
  noCapacity: 'Für den Pool dieses Angebots ist derzeit auf keinem unserer Hosts genug Platz frei. Bitte wenden Sie sich im Ticket an den Support; wir melden uns mit einer Lösung.',
} as const;

/** Pay a staff offer (`POST /api/shop/vdc/offer-checkout`): its figures and price are the offer's, never the client's. */
export const VdcOfferCheckoutInput = z.strictObject({
  offerId: z.uuid({ error: vdcOfferMessages.notFound }),
  name: VdcName.optional(),
  acceptTerms: z.literal(true, { error: 'Sie müssen den AGB und Datenschutzbestimmungen zustimmen, um fortzufahren.' }),
});
export type VdcOfferCheckoutInput = z.infer<typeof VdcOfferCheckoutInput>;

export const VdcOfferParams = z.object({ id: z.uuid({ error: vdcOfferMessages.notFound }) });
export const VdcOfferTicketParams = z.object({ ticketId: z.uuid({ error: vdcOfferMessages.ticketNotFound }) });

// ── Shop and staff (added with the product module) ──────────────────────────────────────────────────

/** `GET /api/shop/vdc` (and its renewal prefill `GET /api/shop/vdc/renewal/:id`): what the configurator needs. */
export const VdcShopInfo = z.object({
  /** Whether a pool of the smallest standard size fits on some node with its IPv4 address now. */
  available: z.boolean(),
  /** The largest cores, RAM and storage one node still has free (the sliders may show what fits). */
  largestFree: z.object({ cpu: z.number().int(), ram: z.number().int(), storage: z.number().int() }),
  /** Free public IPv4 addresses in the provider's pool. */
  freeIpv4: z.number().int(),
  renewal: z.object({
    vdcId: z.string(), number: z.number().int(), name: z.string(),
    cpu: z.number().int(), ram: z.number().int(), storage: z.number().int(), ipv4: z.number().int(),
    expiresAt: z.string().nullable(),
    /** What the pool's VMs use now (a renewal may not go below the pool's current figures). */
    used: z.object({ cpu: z.number().int(), ram: z.number().int(), storage: z.number().int(), ipv4: z.number().int() }),
  }).nullable(),
});
export type VdcShopInfo = z.infer<typeof VdcShopInfo>;

/** Staff's list of virtual data centers (`GET /api/admin/vdcs`). */
export const AdminVdcRow = z.object({
  id: z.string(),
  number: z.number().int(),
  name: z.string(),
  status: z.enum(VDC_STATUS),
  statusMessage: z.string().nullable(),
  owner: z.object({ id: z.string(), customerNumber: z.number().int(), username: z.string() }),
  node: z.object({ id: z.number().int(), name: z.string() }),
  cpu: PoolResource, ramGb: PoolResource, storageGb: PoolResource, ipv4: PoolResource,
  vms: z.number().int(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminVdcRow = z.infer<typeof AdminVdcRow>;
export const AdminVdcPage = listPage(AdminVdcRow);
export type AdminVdcPage = z.infer<typeof AdminVdcPage>;
export const adminVdcSortFields = ['number', 'name', 'status', 'owner', 'node', 'expiresAt', 'createdAt'] as const;
/** Search: VDC-ID, name, owner (customer number or username); filter by status. */
export const AdminVdcListQuery = listQuery(adminVdcSortFields, { status: z.enum(VDC_STATUS, { error: messages.invalidInput }).optional() });
export type AdminVdcListQuery = z.infer<typeof AdminVdcListQuery>;

/** The answer of a VM change the host carries out in the background (resize, delete). */
export const VdcVmActionResult = z.object({ message: z.string(), taskId: z.string().optional() });
export type VdcVmActionResult = z.infer<typeof VdcVmActionResult>;

export const VdcIpParams = VdcIdParams.extend({
  ipId: z.coerce.number({ error: 'Diese IP-Adresse wurde nicht gefunden.' }).int('Diese IP-Adresse wurde nicht gefunden.').positive('Diese IP-Adresse wurde nicht gefunden.').max(2_147_483_647, 'Diese IP-Adresse wurde nicht gefunden.'),
});
