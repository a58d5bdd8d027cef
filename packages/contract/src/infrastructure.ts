import { z } from 'zod';
import { messages } from './messages.ts';
import { ADMIN_SERVER_MIN, adminServerOsOptions, adminServerStatuses, ipVersions, nodeStatuses } from './infrastructure-labels.ts';

export * from './infrastructure-labels.ts';

/* Staff administration (spec §2 "Virtual/Physical server administration", "IP address administration"). */

/** German texts of the infrastructure administration. Texts quoted from the spec (§8) keep its wording; their spelling and grammar are corrected. */
export const infrastructureMessages = {
  // spec §8, virtual server
  clusterNotFound: 'Cluster nicht gefunden.',
  usageUnavailable: 'Die belegten Ressourcen können nicht geprüft werden.',
  /** The spec's 'Nicht genügend Ressourcen! Frei.' with the free amounts filled in. */
  notEnoughResources: (free: { cpuCores: number; ramGb: number; storageGb: number }) =>
    `Nicht genügend Ressourcen! Frei: ${free.cpuCores} vCPU, ${free.ramGb} GB RAM, ${free.storageGb} GB Speicher.`,
  noFreeIp: 'Keine freie IP verfügbar!',
  serverMessage: (message: string) => `Fehler: ${message}`,
  saveFailed: 'Ein Fehler ist beim Speichern aufgetreten.',
  // spec §8, IP
  ipInUse: 'Diese IP-Adresse ist derzeit in Verwendung und kann nicht gelöscht werden.',
  // ours, same tone
  ownerNotFound: 'Kunde nicht gefunden. Bitte wählen Sie einen vorhandenen Kunden.',
  nodeNotFound: 'Physischer Server nicht gefunden.',
  ipNotFound: 'IP-Adresse nicht gefunden.',
  nodeHasServers: 'Auf diesem physischen Server befinden sich noch virtuelle Server. Er kann erst gelöscht werden, wenn sie entfernt sind.',
  nodeNameTaken: 'Ein physischer Server mit diesem Namen existiert bereits.',
  ipTaken: 'Diese IP-Adresse ist bereits eingetragen.',
  nodeNameInvalid: 'Bitte geben Sie den Node-Namen aus Proxmox an (Buchstaben, Ziffern und Bindestriche).',
  hostInvalid: 'Bitte geben Sie eine gültige IP-Adresse oder einen gültigen Hostnamen an.',
  cpuCoresMin: 'Bitte geben Sie mindestens 1 CPU-Kern an.',
  ramMin: 'Bitte geben Sie mindestens 1 GB RAM an.',
  storageMin: 'Bitte geben Sie mindestens 1 GB Speicher an.',
  numberTooLarge: 'Bitte geben Sie einen kleineren Wert an.',
  versionInvalid: 'Bitte wählen Sie IPv4 oder IPv6.',
  addressRequired: 'Bitte geben Sie eine IP-Adresse ein.',
  addressInvalid: (version: 'IPv4' | 'IPv6') => `Bitte geben Sie eine gültige ${version}-Adresse ein.`,
  subnetRequired: 'Bitte geben Sie ein Subnetz ein.',
  subnetInvalidV4: 'Bitte geben Sie das Subnetz als Präfix (z. B. 24) oder als Maske (z. B. 255.255.255.0) an.',
  subnetInvalidV6: 'Bitte geben Sie das Subnetz als Präfix an (z. B. /64).',
  gatewayRequired: 'Bitte geben Sie ein Gateway ein.',
  gatewayInvalid: (version: 'IPv4' | 'IPv6') => `Bitte geben Sie ein gültiges ${version}-Gateway ein.`,
  gatewayOutsideSubnet: 'Bitte geben Sie ein Gateway im selben Subnetz an.',
  gatewayEqualsAddress: 'Bitte geben Sie ein Gateway an, das sich von der Adresse unterscheidet.',
  vcpuMin: `Bitte geben Sie mindestens ${ADMIN_SERVER_MIN.cpuCores} vCPU an.`,
  serverRamMin: `Bitte geben Sie mindestens ${ADMIN_SERVER_MIN.ramGb} GB RAM an.`,
  serverStorageMin: `Bitte geben Sie mindestens ${ADMIN_SERVER_MIN.storageGb} GB Speicher an.`,
  osRequired: 'Bitte wählen Sie ein Betriebssystem.',
  ownerRequired: 'Bitte wählen Sie einen Kunden als Besitzer.',
  reasonRequired: 'Bitte geben Sie an, warum der Server ohne Bestellung angelegt wird (mindestens 5 Zeichen).',
  reasonTooLong: 'Der Grund darf höchstens 500 Zeichen lang sein.',
  staffServerNotFound: 'Server nicht gefunden.',
  nodeRequired: 'Bitte wählen Sie einen Cluster (physischen Server).',
  searchTooLong: 'Bitte kürzen Sie den Suchbegriff.',
} as const;

const m = infrastructureMessages;
const strict = { error: messages.invalidInput };
/** Upper bounds keep every value inside PostgreSQL's int4 columns. */
const INT_MAX = 2_147_483_647;

// ---- address helpers (used by the schemas, the API and the form) ----

export const isIPv4 = (value: string) => z.ipv4().safeParse(value).success;
export const isIPv6 = (value: string) => z.ipv6().safeParse(value).success;
export const isIpAddress = (value: string, version: 'IPv4' | 'IPv6') => (version === 'IPv4' ? isIPv4(value) : isIPv6(value));

const ipv4ToInt = (value: string) => value.split('.').reduce((n, part) => n * 256 + Number(part), 0);

/**
 * The prefix length of a subnet as staff type it: IPv4 '24', '/24' or '255.255.255.0'; IPv6 '64' or '/64'.
 * Null when it is not a valid subnet of that version.
 */
export function subnetPrefix(version: 'IPv4' | 'IPv6', subnet: string): number | null {
  const value = subnet.trim();
  const prefix = /^\/?(\d{1,3})$/.exec(value);
  if (prefix) {
    const n = Number(prefix[1]);
    return n >= 1 && n <= (version === 'IPv4' ? 32 : 128) ? n : null;
  }
  if (version === 'IPv6' || !isIPv4(value)) return null;
  const mask = ipv4ToInt(value);
  const bits = mask.toString(2).padStart(32, '0');
  // A mask is a run of ones followed by zeros only.
  return /^1+0*$/.test(bits) ? bits.indexOf('0') === -1 ? 32 : bits.indexOf('0') : null;
}

const sameIPv4Subnet = (a: string, b: string, prefix: number) => {
  const shift = 32 - prefix;
  return Math.floor(ipv4ToInt(a) / 2 ** shift) === Math.floor(ipv4ToInt(b) / 2 ** shift);
};

/** Lower-case, shortest form for IPv6 (RFC 5952) so one address cannot be entered twice in two spellings. */
export function normalizeIpAddress(value: string): string {
  const v = value.trim();
  if (!v.includes(':') || !isIPv6(v)) return v;
  let text = v.toLowerCase();
  // An embedded IPv4 tail becomes two hex groups.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const n = ipv4ToInt(tail[1]!);
    text = text.slice(0, -tail[1]!.length) + `${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const groups = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const hex = groups.map((g) => parseInt(g, 16).toString(16));
  // Longest run of two or more zero groups becomes '::' (the first one on a tie).
  let best = { start: -1, len: 0 };
  for (let i = 0; i < 8; ) {
    if (hex[i] !== '0') { i++; continue; }
    let j = i;
    while (j < 8 && hex[j] === '0') j++;
    if (j - i > best.len && j - i >= 2) best = { start: i, len: j - i };
    i = j;
  }
  if (best.start < 0) return hex.join(':');
  return `${hex.slice(0, best.start).join(':')}::${hex.slice(best.start + best.len).join(':')}`;
}

// ---- shared pieces ----

export const NodeStatus = z.enum(nodeStatuses, { error: messages.invalidInput });
export type NodeStatus = z.infer<typeof NodeStatus>;
export const IpVersion = z.enum(ipVersions, { error: m.versionInvalid });
export type IpVersion = z.infer<typeof IpVersion>;
export const AdminServerOs = z.enum(adminServerOsOptions, { error: m.osRequired });
export type AdminServerOs = z.infer<typeof AdminServerOs>;
export const AdminServerStatus = z.enum(adminServerStatuses);
export type AdminServerStatus = z.infer<typeof AdminServerStatus>;

const wholeNumber = (min: number, minMessage: string, max = INT_MAX) =>
  z.number({ error: minMessage }).int(minMessage).min(min, minMessage).max(max, m.numberTooLarge);

/** Route parameter of nodes and IP addresses (int4 ids). */
export const InfrastructureIdParams = z.object({ id: z.coerce.number(strict).int(strict).positive(strict).max(INT_MAX, strict) });

/**
 * Paging and server-side search of the older admin list calls (spec §5: case-insensitive substring).
 * Kept as names inside `listQuery` below (`search` = `q`, `limit`/`offset` = `pageSize`/`page`).
 */
export const AdminListQuery = z.object({
  search: z.string().trim().max(100, m.searchTooLong).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).max(INT_MAX).default(0),
});
export type AdminListQuery = z.infer<typeof AdminListQuery>;

/** The largest page any list answers. */
export const MAX_PAGE_SIZE = 100;
const DEFAULT_PAGE_SIZE = 50;

/** 'field' sorts ascending, '-field' descending. */
type SortValue<F extends string> = F | `-${F}`;
export const sortValues = <F extends string>(fields: readonly [F, ...F[]]) =>
  fields.flatMap((f) => [f, `-${f}`]) as [SortValue<F>, ...SortValue<F>[]];

/**
 * The query of every server-side list (staff tables now; customers, tickets and CRM next):
 * `page` (from 1), `pageSize` (at most 100), `q` (case-insensitive substring), `sort` ('field' or
 * '-field' from the list's own fields) and the list's filters. The older names `search`, `limit` and
 * `offset` are still accepted; `q` and `page`/`pageSize` win when both are sent.
 */
export const listQuery = <F extends string, Filters extends z.ZodRawShape>(sortFields: readonly [F, ...F[]], filters: Filters) =>
  z.object({
    q: z.string().trim().max(100, m.searchTooLong).optional(),
    page: z.coerce.number(strict).int(strict).min(1, strict).max(INT_MAX, strict).optional(),
    pageSize: z.coerce.number(strict).int(strict).min(1, strict).max(MAX_PAGE_SIZE, strict).optional(),
    sort: z.enum(sortValues(sortFields), { error: messages.invalidInput }).optional(),
    search: z.string().trim().max(100, m.searchTooLong).optional(),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
    offset: z.coerce.number().int().min(0).max(INT_MAX).optional(),
    ...filters,
  });

export interface ListPaging { q: string | undefined; page: number; pageSize: number; limit: number; offset: number }

/** Page, size, offset and search term of a list query, whichever names the caller used. */
export function resolvePaging(query: { q?: string; page?: number; pageSize?: number; search?: string; limit?: number; offset?: number }): ListPaging {
  const pageSize = query.pageSize ?? query.limit ?? DEFAULT_PAGE_SIZE;
  const offset = query.page !== undefined ? (query.page - 1) * pageSize : (query.offset ?? 0);
  const page = query.page ?? Math.floor(offset / pageSize) + 1;
  return { q: query.q || query.search || undefined, page, pageSize, limit: pageSize, offset };
}

/** A boolean filter as a query string carries it. */
const booleanFilter = z.enum(['true', 'false'], { error: messages.invalidInput }).optional();

/**
 * One page of a list: the rows, how many match in all, and which page this is. `totalCapped`: counting
 * stopped at `total` (a large list counts only as far as it is worth paging), so there are more.
 */
export const listPage = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), totalCapped: z.boolean().optional(), page: z.number().int(), pageSize: z.number().int() });

export const CustomerSearchQuery = z.object({ search: z.string().trim().max(100, m.searchTooLong).optional() });
export type CustomerSearchQuery = z.infer<typeof CustomerSearchQuery>;

export const Resources = z.object({ cpuCores: z.number().int(), ramGb: z.number().int(), storageGb: z.number().int() });
export type Resources = z.infer<typeof Resources>;

// ---- physical servers (Proxmox nodes) ----

export const NodeRow = z.object({
  id: z.number().int(),
  /** The Proxmox node name. */
  name: z.string(),
  host: z.string(),
  cpuCores: z.number().int(),
  ramGb: z.number().int(),
  storageGb: z.number().int(),
  status: NodeStatus,
  serverCount: z.number().int(),
  /** What the node has sold (usedCapacity): live root servers, each live VDC pool whole (not its VMs), open orders' holds. */
  used: Resources,
  /** Capacity minus used, never below 0. */
  free: Resources,
});
export type NodeRow = z.infer<typeof NodeRow>;
export const NodePage = listPage(NodeRow);
export const nodeSortFields = ['id', 'name', 'host', 'status'] as const;
/** Physical servers: search id, name, host; filter by status. */
export const NodeListQuery = listQuery(nodeSortFields, { status: NodeStatus.optional() });
export type NodeListQuery = z.infer<typeof NodeListQuery>;
export type NodePage = z.infer<typeof NodePage>;

const nodeName = z.string({ error: m.nodeNameInvalid }).trim().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/, m.nodeNameInvalid);
const hostName = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const host = z.string({ error: m.hostInvalid }).trim().min(1, m.hostInvalid)
  .refine((v) => isIPv4(v) || isIPv6(v) || hostName.test(v), m.hostInvalid);

/** Spec §3: a new physical server starts with status 'unknown' ('Unbekannt'); it is not part of the input. */
export const CreateNodeInput = z.strictObject({
  name: nodeName,
  host,
  cpuCores: wholeNumber(1, m.cpuCoresMin, 100_000),
  ramGb: wholeNumber(1, m.ramMin, 100_000_000),
  storageGb: wholeNumber(1, m.storageMin, 1_000_000_000),
}, strict);
export type CreateNodeInput = z.infer<typeof CreateNodeInput>;

// ---- IP addresses ----

export const IpAddressRow = z.object({
  id: z.number().int(),
  version: IpVersion,
  address: z.string(),
  subnet: z.string(),
  gateway: z.string(),
  /** A server uses it, or an open order holds it (reservation not yet expired). */
  inUse: z.boolean(),
  /** VM id of the server that uses the address. */
  serverVmid: z.number().int().nullable(),
});
export type IpAddressRow = z.infer<typeof IpAddressRow>;
export const IpAddressPage = listPage(IpAddressRow);
export const ipAddressSortFields = ['id', 'address', 'version'] as const;
/** IP addresses: search address or 'IP' id; filter by version and use. */
export const IpAddressListQuery = listQuery(ipAddressSortFields, { version: IpVersion.optional(), inUse: booleanFilter });
export type IpAddressListQuery = z.infer<typeof IpAddressListQuery>;
export type IpAddressPage = z.infer<typeof IpAddressPage>;

/** Spec §5 IP form, plus format checks the spec did not have. */
export const CreateIpAddressInput = z.strictObject({
  version: IpVersion,
  address: z.string({ error: m.addressRequired }).trim().min(1, m.addressRequired),
  subnet: z.string({ error: m.subnetRequired }).trim().min(1, m.subnetRequired),
  gateway: z.string({ error: m.gatewayRequired }).trim().min(1, m.gatewayRequired),
}, strict).superRefine((v, ctx) => {
  const addressOk = isIpAddress(v.address, v.version);
  if (!addressOk) ctx.addIssue({ code: 'custom', path: ['address'], message: m.addressInvalid(v.version) });
  const prefix = subnetPrefix(v.version, v.subnet);
  if (prefix === null) ctx.addIssue({ code: 'custom', path: ['subnet'], message: v.version === 'IPv4' ? m.subnetInvalidV4 : m.subnetInvalidV6 });
  if (!isIpAddress(v.gateway, v.version)) {
    ctx.addIssue({ code: 'custom', path: ['gateway'], message: m.gatewayInvalid(v.version) });
  } else if (addressOk && normalizeIpAddress(v.gateway) === normalizeIpAddress(v.address)) {
    ctx.addIssue({ code: 'custom', path: ['gateway'], message: m.gatewayEqualsAddress });
  } else if (addressOk && prefix !== null && v.version === 'IPv4' && !sameIPv4Subnet(v.address, v.gateway, prefix)) {
    ctx.addIssue({ code: 'custom', path: ['gateway'], message: m.gatewayOutsideSubnet });
  }
});
export type CreateIpAddressInput = z.infer<typeof CreateIpAddressInput>;

// ---- virtual servers (staff view) ----

export const AdminServerRow = z.object({
  id: z.string(),
  /** Shown as the server id, 3 digits (formatVmId). */
  vmid: z.number().int(),
  name: z.string(),
  status: AdminServerStatus,
  /** Why provisioning failed (German), if it did. */
  statusMessage: z.string().nullable(),
  cpuCores: z.number().int(),
  ramGb: z.number().int(),
  storageGb: z.number().int(),
  os: z.string(),
  owner: z.object({ customerNumber: z.number().int(), username: z.string() }),
  node: z.object({ id: z.number().int(), name: z.string() }),
  ip: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminServerRow = z.infer<typeof AdminServerRow>;
export const AdminServerPage = listPage(AdminServerRow);
export const adminServerSortFields = ['vmid', 'status', 'os', 'owner', 'node', 'createdAt'] as const;
/** Virtual servers: search VM id, OS, owner; filter by status. */
export const AdminServerListQuery = listQuery(adminServerSortFields, { status: z.enum(adminServerStatuses, { error: messages.invalidInput }).optional() });
export type AdminServerListQuery = z.infer<typeof AdminServerListQuery>;
export type AdminServerPage = z.infer<typeof AdminServerPage>;

/** Spec §5 virtual server form. The id, IP and status are chosen by the server, never sent. */
export const CreateServerInput = z.strictObject({
  cpuCores: wholeNumber(ADMIN_SERVER_MIN.cpuCores, m.vcpuMin, 1024),
  ramGb: wholeNumber(ADMIN_SERVER_MIN.ramGb, m.serverRamMin, 100_000),
  storageGb: wholeNumber(ADMIN_SERVER_MIN.storageGb, m.serverStorageMin, 1_000_000),
  os: AdminServerOs,
  /** Customer number of the owner (the `customerId` claim). */
  owner: z.number({ error: m.ownerRequired }).int(m.ownerRequired).positive(m.ownerRequired).max(INT_MAX, m.ownerRequired),
  nodeId: z.number({ error: m.nodeRequired }).int(m.nodeRequired).positive(m.nodeRequired).max(INT_MAX, m.nodeRequired),
  /** A server without an order never expires and is not billed: staff say why (kept with their name). */
  reason: z.string({ error: m.reasonRequired }).trim().min(5, m.reasonRequired).max(500, m.reasonTooLong),
}, strict);
export type CreateServerInput = z.infer<typeof CreateServerInput>;

/** Staff read view of any server (`/dashboard/servers/{id}`). */
export const AdminServerDetail = AdminServerRow.extend({
  owner: z.object({ customerNumber: z.number().int(), username: z.string(), email: z.string() }),
  firewallEnabled: z.boolean(),
  /** End of the prepaid term; null for servers staff created without an order. */
  expiresAt: z.string().nullable(),
  suspendedAt: z.string().nullable(),
  /** Set when staff created the server by hand. */
  createdBy: z.object({ username: z.string(), reason: z.string().nullable() }).nullable(),
  tasks: z.array(z.object({
    kind: z.string(), status: z.enum(['running', 'ok', 'failed']), progress: z.number().int(), error: z.string().nullable(),
    startedAt: z.string(), finishedAt: z.string().nullable(),
  })),
  /** What staff did to this server, newest first. */
  audit: z.array(z.object({ action: z.string(), actor: z.string(), at: z.string(), details: z.record(z.string(), z.unknown()) })),
});
export type AdminServerDetail = z.infer<typeof AdminServerDetail>;

/** Power actions staff may take on any server; each is logged with the staff member's name. */
export const AdminPowerInput = z.strictObject({ action: z.enum(['start', 'stop', 'restart'], { error: 'Unbekannte Aktion.' }) }, strict);
export type AdminPowerInput = z.infer<typeof AdminPowerInput>;
export const AdminServerIdParams = z.object({ id: z.uuid({ error: m.staffServerNotFound }) });

/** Owner picker of the staff dialog. */
export const CustomerOption = z.object({ customerNumber: z.number().int(), username: z.string(), email: z.string() });
export type CustomerOption = z.infer<typeof CustomerOption>;
export const CustomerOptionList = z.object({ items: z.array(CustomerOption) });
export type CustomerOptionList = z.infer<typeof CustomerOptionList>;
