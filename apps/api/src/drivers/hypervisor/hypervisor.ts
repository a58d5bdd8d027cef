/**
 * The port every hypervisor implementation fills: `simulated` (embedded default, state in our
 * database) and `proxmox` (the Proxmox VE API). Shapes follow Proxmox (../shared/integrations/proxmox-ve.md)
 * so that one contract suite (hypervisor.contract.ts) runs against both.
 */

export interface VmRef {
  /** Proxmox node name. */
  node: string;
  vmid: number;
}

/** A Proxmox task: `UPID:{node}:{pid}:{pstart}:{starttime}:{type}:{id}:{user}:`. */
export interface TaskRef {
  node: string;
  upid: string;
}

export type TaskState =
  | { status: 'running'; progress?: number }
  | { status: 'ok' }
  | { status: 'failed'; error: string };

export interface NodeInfo {
  node: string;
  status: 'online' | 'offline' | 'unknown';
  cpu: number;
  maxcpu: number;
  mem: number;
  maxmem: number;
  disk: number;
  maxdisk: number;
  uptime: number;
}

export type OsTemplate = 'debian-12' | 'debian-11' | 'ubuntu-25.04' | 'ubuntu-24.10' | 'ubuntu-24.04' | 'ubuntu-22.04' | 'ubuntu-20.04' | 'centos-8' | 'windows-2025' | 'windows-2022';

export interface CreateServerSpec extends VmRef {
  name: string;
  os: OsTemplate;
  cores: number;
  memoryMb: number;
  diskGb: number;
  ipv4?: { address: string; prefix: number; gateway: string };
  ipv6?: { address: string; prefix: number; gateway: string };
  rootPassword?: string;
  /** OpenSSH public keys, one per line. */
  sshKeys?: string;
  /** The resource pool the VM is created in (a virtual data center's pool); it must exist. */
  pool?: string;
}

export type PowerAction = 'start' | 'stop' | 'shutdown' | 'reboot';

export interface VmStatus {
  status: 'running' | 'stopped';
  /** 0..1 of all cores */
  cpu: number;
  cpus: number;
  mem: number;
  maxmem: number;
  disk: number;
  maxdisk: number;
  netin: number;
  netout: number;
  uptime: number;
  /** e.g. 'backup', 'clone' while an operation holds the VM */
  lock?: string;
}

export interface UsagePoint {
  /** Unix seconds */
  time: number;
  cpu: number;
  mem: number;
  maxmem: number;
  netin: number;
  netout: number;
  diskread: number;
  diskwrite: number;
}

export interface BackupInfo {
  volid: string;
  size: number;
  /** Unix seconds */
  ctime: number;
}

export interface FirewallRuleSpec {
  proto: 'tcp' | 'udp' | 'icmp' | 'esp' | 'ah' | 'gre' | 'all';
  /** '80', '80,443', '8000:8080' (Proxmox's range syntax; the service converts '8000-8080') or undefined for any port */
  dport?: string;
  comment: string;
}

export interface FirewallRule extends FirewallRuleSpec {
  pos: number;
  action: 'ACCEPT' | 'DROP' | 'REJECT';
  type: 'in' | 'out';
  enable: boolean;
}

/** A terminal session on the server, proxied by the portal's WebSocket. */
export interface ConsoleConnection {
  write(data: string): void;
  resize(cols: number, rows: number): void;
  onData(listener: (data: string) => void): void;
  onClose(listener: () => void): void;
  close(): void;
}

export interface ExecResult {
  exitCode: number;
  stdout: string;
}

/**
 * A resource pool (Proxmox `/pools`), one per virtual data center. Proxmox enforces no limits on a
 * pool: the portal does. Ids start with a letter; letters, digits, `.`, `-`, `_` (e.g. `vdc-12`).
 */
export interface PoolSpec {
  poolid: string;
  comment?: string;
}

export interface PoolInfo extends PoolSpec {
  /** The VMs in the pool, ascending. */
  vmids: number[];
}

/**
 * A virtual data center's private network: an SDN VNet in the zone the operator set up (VLAN or
 * VXLAN), with one IPv4 subnet and its gateway. VMs join it with their second NIC (`net1`).
 */
export interface PrivateNetworkSpec {
  /** VNet id: a letter, then letters or digits, 2 to 8 characters (e.g. `vdc12`). */
  vnet: string;
  /** VLAN tag (1–4096 in a VLAN zone) or VXLAN VNI; unique within the zone. */
  tag: number;
  /** The customer's range in CIDR notation, e.g. 10.20.0.0/24. */
  subnet: string;
  /** An address inside `subnet`, e.g. 10.20.0.1. */
  gateway: string;
  /** Shown in the Proxmox interface, e.g. the customer number. */
  alias?: string;
}

export interface PrivateNetworkInfo extends PrivateNetworkSpec {
  zone: string;
}

/** An ISO image to upload: streamed, with its size known in advance. */
export interface IsoUpload {
  node: string;
  /** Ends in .iso or .img; other characters than letters, digits, `_`, `.`, `-` become `_` (like Proxmox). */
  filename: string;
  size: number;
  data: AsyncIterable<Uint8Array>;
}

export interface IsoImage {
  /** e.g. `local:iso/debian-12.iso` */
  volid: string;
  size: number;
  /** Unix seconds */
  ctime: number;
}

/** What a VM is connected to beyond its own disk and public NIC. */
export interface VmDevices {
  /** The VNet its second NIC is bridged to. */
  privateNetwork: string | null;
  /** The ISO image in its CD-ROM drive. */
  iso: string | null;
  /** Whether it boots from that CD-ROM first. */
  bootFromIso: boolean;
}

export interface Hypervisor {
  readonly kind: 'simulated' | 'proxmox';
  listNodes(): Promise<NodeInfo[]>;

  /**
   * Clone the OS template into `vmid`, apply cloud-init (user, password, keys, IPs), grow the disk and
   * start it. Idempotent: a retry after a lost connection finds the existing VM and continues.
   * Resolves when the server runs; reports progress 0..100.
   */
  createServer(spec: CreateServerSpec, onProgress?: (percent: number) => void): Promise<void>;
  deleteServer(vm: VmRef): Promise<void>;
  /** Re-creates the VM from a template (same vmid, same IPs); all data is lost. */
  reinstallServer(spec: CreateServerSpec, onProgress?: (percent: number) => void): Promise<void>;
  resizeServer(vm: VmRef, resources: { cores: number; memoryMb: number; diskGb: number }): Promise<void>;

  power(vm: VmRef, action: PowerAction): Promise<TaskRef>;
  taskStatus(task: TaskRef): Promise<TaskState>;
  /** Polls until the task ends; throws HypervisorError('TASK_FAILED') with the task's error. */
  waitForTask(task: TaskRef, opts?: { timeoutMs?: number; onProgress?: (percent: number) => void }): Promise<void>;

  currentStatus(vm: VmRef): Promise<VmStatus>;
  usageHistory(vm: VmRef, timeframe: 'hour' | 'day' | 'week'): Promise<UsagePoint[]>;

  createBackup(vm: VmRef): Promise<TaskRef>;
  listBackups(vm: VmRef): Promise<BackupInfo[]>;
  restoreBackup(vm: VmRef, volid: string): Promise<TaskRef>;
  deleteBackup(vm: VmRef, volid: string): Promise<void>;

  setFirewall(vm: VmRef, enabled: boolean): Promise<void>;
  listFirewallRules(vm: VmRef): Promise<FirewallRule[]>;
  addFirewallRule(vm: VmRef, rule: FirewallRuleSpec): Promise<void>;
  deleteFirewallRule(vm: VmRef, pos: number): Promise<void>;

  /** Runs a command through the guest agent (software installation). */
  exec(vm: VmRef, command: string[]): Promise<ExecResult>;
  setRootPassword(vm: VmRef, password: string): Promise<void>;
  setSshKeys(vm: VmRef, keys: string): Promise<void>;

  openConsole(vm: VmRef): Promise<ConsoleConnection>;

  /** Creates the pool; an existing pool with the same id is kept (idempotent). */
  createPool(pool: PoolSpec): Promise<void>;
  /** null when the pool does not exist. */
  getPool(poolid: string): Promise<PoolInfo | null>;
  /** Deletes an empty pool; a pool that still holds VMs is refused (INVALID); a missing one is fine. */
  deletePool(poolid: string): Promise<void>;

  /** Creates the VNet with its subnet and applies the SDN configuration; idempotent for the same spec. */
  createPrivateNetwork(network: PrivateNetworkSpec): Promise<void>;
  /** null when the VNet does not exist. */
  getPrivateNetwork(vnet: string): Promise<PrivateNetworkInfo | null>;
  /** Removes subnet and VNet and applies; a missing VNet is fine. Detach the VMs first. */
  deletePrivateNetwork(vnet: string): Promise<void>;
  /** Bridges the VM's second NIC (`net1`, virtio, firewall on) to the VNet. */
  attachPrivateNetwork(vm: VmRef, vnet: string): Promise<void>;
  detachPrivateNetwork(vm: VmRef): Promise<void>;

  /**
   * Streams an ISO image into the ISO storage of `upload.node`; resolves when the image is listed.
   * A stream that ends early or runs long, or a refused file, leaves nothing behind. An image with the
   * same file name is overwritten (Proxmox does that). Progress 0..100 by bytes sent.
   */
  uploadIso(upload: IsoUpload, onProgress?: (percent: number) => void): Promise<IsoImage>;
  listIsos(node: string): Promise<IsoImage[]>;
  /** Deleting a missing image is fine. */
  deleteIso(node: string, volid: string): Promise<void>;
  /** Puts the image into the VM's CD-ROM drive and boots from it first. */
  attachIso(vm: VmRef, volid: string): Promise<void>;
  /** Empties the CD-ROM drive and boots from the disk again. */
  detachIso(vm: VmRef): Promise<void>;
  vmDevices(vm: VmRef): Promise<VmDevices>;
}

export type HypervisorErrorCode = 'LOCKED' | 'TIMEOUT' | 'UNAVAILABLE' | 'TASK_FAILED' | 'NOT_FOUND' | 'INVALID';

/** Every driver failure surfaces as one of these, with a German message for the user. */
export class HypervisorError extends Error {
  constructor(readonly code: HypervisorErrorCode, message: string, readonly detail?: string) {
    super(message);
  }
}

export const hypervisorMessages: Record<HypervisorErrorCode, string> = {
  LOCKED: 'Der Server ist gerade durch einen anderen Vorgang gesperrt. Bitte versuchen Sie es gleich erneut.',
  TIMEOUT: 'Der Virtualisierungs-Host antwortet nicht rechtzeitig. Bitte versuchen Sie es später erneut.',
  UNAVAILABLE: 'Der Virtualisierungs-Host ist derzeit nicht erreichbar. Bitte versuchen Sie es später erneut.',
  TASK_FAILED: 'Der Vorgang ist auf dem Host fehlgeschlagen. Bitte wenden Sie sich an den Support.',
  NOT_FOUND: 'Der Server wurde auf dem Host nicht gefunden.',
  INVALID: 'Die Anfrage an den Host war ungültig.',
};

/** `UPID:{node}:{pid %08X}:{pstart %08X}:{starttime %08X}:{type}:{id}:{user}:` */
export function formatUpid(p: { node: string; pid: number; pstart: number; starttime: number; type: string; id: string; user: string }) {
  const hex = (n: number) => (n >>> 0).toString(16).toUpperCase().padStart(8, '0');
  return `UPID:${p.node}:${hex(p.pid)}:${hex(p.pstart)}:${hex(p.starttime)}:${p.type}:${p.id}:${p.user}:`;
}

export function parseUpid(upid: string) {
  const m = /^UPID:([^:]+):([0-9A-F]{8,9}):([0-9A-F]{8,9}):([0-9A-F]{8,9}):([^:]+):([^:]*):([^:]+):$/.exec(upid);
  if (!m) return null;
  return { node: m[1]!, pid: parseInt(m[2]!, 16), pstart: parseInt(m[3]!, 16), starttime: parseInt(m[4]!, 16), type: m[5]!, id: m[6]!, user: m[7]! };
}
