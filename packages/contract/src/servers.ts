import { z } from 'zod';

/** Customer-facing server texts (spec §8 of the portal document: its wording, spelling and grammar corrected). */
export const serverMessages = {
  maintenance: 'Server ist im Wartungsmodus. Aktionen sind nicht verfügbar.',
  maintenanceManage: 'Server ist im Wartungsmodus. Verwaltung ist nicht verfügbar.',
  throttled: 'Bitte warten Sie 5 Sekunden, bevor Sie es erneut versuchen.',
  restartNeedsOnline: 'Um Ihren Server neu zu starten, muss er online sein.',
  restartRunning: 'Ihr Server wird bereits neu gestartet. Bitte warten Sie auf den Neustart.',
  restartMaintenance: 'Ihr Server ist im Wartungsmodus. Bitte warten Sie auf den Neustart.',
  powerFailed: 'Es ist ein Fehler aufgetreten',
  busy: 'Auf dem Server läuft bereits ein Vorgang. Bitte warten Sie, bis er abgeschlossen ist.',
  notReady: 'Der Server wird noch eingerichtet.',
  expired: 'Die Laufzeit dieses Servers ist abgelaufen. Bitte verlängern Sie ihn, um ihn wieder zu nutzen.',
  starting: 'Ihr Server wird gestartet.',
  stopping: 'Ihr Server wird heruntergefahren.',
  restarting: 'Ihr Server wird neu gestartet.',
} as const;

export const SERVER_STATUSES = ['provisioning', 'online', 'offline', 'maintenance', 'restart', 'reinstall', 'install', 'failed', 'starting', 'stopping'] as const;
export const ServerStatus = z.enum(SERVER_STATUSES);
export type ServerStatus = z.infer<typeof ServerStatus>;

/** Timings of the spec: restart shows "restart", online again after about 9 s; power retry 5 s. */
export const POWER_THROTTLE_SECONDS = 5;

export const ServerSpecs = z.object({ cpu: z.number().int(), ram: z.number().int(), storage: z.number().int() });
export type ServerSpecs = z.infer<typeof ServerSpecs>;

export const ServerCard = z.object({
  id: z.string(),
  vmid: z.number().int(),
  name: z.string(),
  status: ServerStatus,
  ip: z.string().nullable(),
  os: z.string(),
  specs: ServerSpecs,
  /** 'owner' or 'shared' (access granted by the owner: may operate, sees no billing). */
  access: z.enum(['owner', 'shared']),
});
export type ServerCard = z.infer<typeof ServerCard>;
export const ServerList = z.object({ servers: z.array(ServerCard) });
export type ServerList = z.infer<typeof ServerList>;

export const ServerUsage = z.object({
  status: ServerStatus,
  running: z.boolean(),
  cpuUsage: z.number(),
  ramUsedMb: z.number(),
  ramTotalMb: z.number(),
  storageUsedGb: z.number(),
  storageTotalGb: z.number(),
  netInBytes: z.number(),
  netOutBytes: z.number(),
  uptimeSeconds: z.number(),
  task: z.object({ kind: z.string(), progress: z.number().int(), status: z.enum(['running', 'ok', 'failed']), error: z.string().nullable() }).nullable(),
});
export type ServerUsage = z.infer<typeof ServerUsage>;

export const ServerDetail = ServerCard.extend({
  statusMessage: z.string().nullable(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  firewallEnabled: z.boolean(),
  network: z.object({ ipv4: z.string().nullable(), subnet: z.string().nullable(), gateway: z.string().nullable(), ipv6: z.string().nullable(), speed: z.string() }),
});
export type ServerDetail = z.infer<typeof ServerDetail>;

export const ServerIdParams = z.object({ id: z.uuid({ error: 'Server nicht gefunden.' }) });
export const PowerInput = z.strictObject({ action: z.enum(['start', 'stop'], { error: 'Unbekannte Aktion.' }) });
export type PowerInput = z.infer<typeof PowerInput>;
export const PowerResult = z.object({ newStatus: ServerStatus, message: z.string() });
export type PowerResult = z.infer<typeof PowerResult>;

/** A short-lived token for the console websocket. */
export const ConsoleToken = z.object({ token: z.string(), expiresIn: z.number().int() });
export type ConsoleToken = z.infer<typeof ConsoleToken>;

export const UsageHistoryQuery = z.object({ timeframe: z.enum(['hour', 'day', 'week']).default('hour') });
export type UsageHistoryQuery = z.infer<typeof UsageHistoryQuery>;
export const UsageHistory = z.object({
  points: z.array(z.object({ time: z.number(), cpu: z.number(), ramUsedMb: z.number(), netIn: z.number(), netOut: z.number() })),
});
export type UsageHistory = z.infer<typeof UsageHistory>;

const OrderResource = z.object({ size: z.number().int(), type: z.string(), priceCents: z.number().int() });

/** The order page's part of a root server order: the configuration with its per-month prices. */
export const RootServerOrderSummary = z.object({
  product: z.literal('root_server'),
  location: z.string(),
  os: z.string(),
  cpu: z.object({ cores: z.number().int(), priceCents: z.number().int() }),
  ram: OrderResource,
  storage: OrderResource,
  osPriceCents: z.number().int(),
  network: z.object({ ip: z.string().nullable(), bandwidth: z.string(), priceCents: z.number().int() }),
});
export type RootServerOrderSummary = z.infer<typeof RootServerOrderSummary>;
