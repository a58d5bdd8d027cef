import type { Db } from '../../../db/client.ts';
import type { Hypervisor } from '../hypervisor.ts';

// Placeholder until the simulated driver lands.
export function createSimulatedHypervisor(_db: Db, _opts: Record<string, unknown> = {}): Hypervisor {
  return new Proxy({} as Hypervisor, { get: (_t, p) => (p === 'kind' ? 'simulated' : () => Promise.reject(new Error('simulated hypervisor not implemented yet'))) });
}
