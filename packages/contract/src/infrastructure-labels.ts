/**
 * Staff infrastructure administration: values, German labels and display helpers, free of zod so that
 * list pages can use them without loading the schema library.
 */
export const nodeStatuses = ['online', 'offline', 'maintenance', 'unknown'] as const;
export type NodeStatusValue = (typeof nodeStatuses)[number];

export const nodeStatusLabels: Record<NodeStatusValue, string> = {
  online: 'Online',
  offline: 'Offline',
  maintenance: 'Wartung',
  unknown: 'Unbekannt',
};

export const ipVersions = ['IPv4', 'IPv6'] as const;
export type IpVersionValue = (typeof ipVersions)[number];

/** Spec §9: the staff dialog offers exactly these three systems. */
export const adminServerOsOptions = ['Debian 12', 'Ubuntu 22.04', 'CentOS 8'] as const;
export type AdminServerOsValue = (typeof adminServerOsOptions)[number];

/** Every status a server row can have (the database's list), with the labels of the staff table. */
export const adminServerStatuses = ['provisioning', 'online', 'offline', 'maintenance', 'restart', 'reinstall', 'install', 'failed', 'starting', 'stopping'] as const;
export type AdminServerStatusValue = (typeof adminServerStatuses)[number];

export const adminServerStatusLabels: Record<AdminServerStatusValue, string> = {
  provisioning: 'Wird eingerichtet',
  online: 'Online',
  offline: 'Offline',
  maintenance: 'Wartung',
  restart: 'Neustart',
  reinstall: 'Neuinstallation',
  install: 'Installation',
  failed: 'Fehler',
  starting: 'Startet',
  stopping: 'Fährt herunter',
};

/** Spec §9: admin minimums. */
export const ADMIN_SERVER_MIN = { cpuCores: 1, ramGb: 1, storageGb: 10 } as const;

/** Spec §9: server ids are shown as 3-digit zero-padded numbers (VM ids start at 100). */
export const formatVmId = (vmid: number) => String(vmid).padStart(3, '0');
/** Spec §9: IP ids are shown as 'IP' plus 3 digits. */
export const formatIpId = (id: number) => `IP${String(id).padStart(3, '0')}`;

/** Spec §5: choosing a version pre-fills the subnet (the spec's IPv4 '{ip}' placeholder becomes a /24). */
export const defaultSubnet: Record<IpVersionValue, string> = { IPv4: '24', IPv6: '/64' };
