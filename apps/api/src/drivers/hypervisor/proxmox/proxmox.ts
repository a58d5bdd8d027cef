/**
 * The Proxmox VE driver: composes the API client and the parts (tasks, VMs, backups, firewall, console,
 * virtual data centers) into the Hypervisor port. The parts never import this file.
 */
import type { ProxmoxConfig } from '../../../env.ts';
import type { Hypervisor, NodeInfo } from '../hypervisor.ts';
import { createProxmoxBackups } from './proxmox-backups.ts';
import { createProxmoxClient, num, type ProxmoxOptions } from './proxmox-client.ts';
import { createProxmoxConsole } from './proxmox-console.ts';
import { createProxmoxFirewall } from './proxmox-firewall.ts';
import { createProxmoxTasks } from './proxmox-tasks.ts';
import { createProxmoxVdc } from './proxmox-vdc.ts';
import { createProxmoxVms, createVmLookups } from './proxmox-vms.ts';

export type { ProxmoxFetch } from './proxmox-transport.ts';
export type { ProxmoxOptions } from './proxmox-client.ts';
export { loadWs } from './proxmox-console.ts';

export function createProxmoxHypervisor(config: ProxmoxConfig, opts: ProxmoxOptions = {}): Hypervisor {
  const client = createProxmoxClient(config, opts);
  const { api } = client;
  const tasks = createProxmoxTasks(client);
  const lookups = createVmLookups(client);

  const hypervisor: Hypervisor = {
    kind: 'proxmox',

    async listNodes(): Promise<NodeInfo[]> {
      const nodes = await api<Record<string, unknown>[]>('GET', '/nodes');
      return nodes.map((n) => ({
        node: String(n.node),
        status: n.status === 'online' || n.status === 'offline' ? n.status : 'unknown',
        cpu: num(n.cpu),
        maxcpu: num(n.maxcpu),
        mem: num(n.mem),
        maxmem: num(n.maxmem),
        disk: num(n.disk),
        maxdisk: num(n.maxdisk),
        uptime: num(n.uptime),
      }));
    },

    ...createProxmoxVms(client, tasks, lookups),
    taskStatus: tasks.taskStatus,
    waitForTask: tasks.waitForTask,
    ...createProxmoxBackups(client, tasks, lookups),
    ...createProxmoxFirewall(client),
    ...createProxmoxConsole(client),
    ...createProxmoxVdc(client, tasks, lookups),
  };
  return hypervisor;
}
