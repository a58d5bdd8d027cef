import type { Env } from '../../env.ts';
import type { Db } from '../../db/client.ts';
import type { Hypervisor } from './hypervisor.ts';
import { createSimulatedHypervisor } from './simulated/simulated.ts';
import { createProxmoxHypervisor } from './proxmox/proxmox.ts';

/** The one place where the hypervisor driver is chosen. */
export function createHypervisor(env: Env, db: Db): Hypervisor {
  return env.hypervisor === 'proxmox' ? createProxmoxHypervisor(env.proxmox) : createSimulatedHypervisor(db, { speed: env.simulatedSpeed });
}
