import type { ProxmoxConfig } from '../../../env.ts';
import type { Hypervisor } from '../hypervisor.ts';

// Placeholder until the Proxmox driver lands.
export function createProxmoxHypervisor(_config: ProxmoxConfig): Hypervisor {
  return new Proxy({} as Hypervisor, { get: (_t, p) => (p === 'kind' ? 'proxmox' : () => Promise.reject(new Error('proxmox hypervisor not implemented yet'))) });
}
