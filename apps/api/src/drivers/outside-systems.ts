import type { Hypervisor } from './hypervisor/hypervisor.ts';
import type { HostingDriver } from './hosting/hosting.ts';
import type { RegistrarDriver } from './registrar/registrar.ts';
import type { StorageDriver } from './storage/storage.ts';

/**
 * The outside systems products run on, each behind its driver port (simulated | real, chosen by
 * `drivers/<system>/index.ts`). `Deps` carries them all; a product's `precheck` may ask any of them
 * (decision 035). A product with a new outside system adds its driver here.
 */
export interface OutsideSystems {
  hypervisor: Hypervisor;
  /** Web hosting panel (simulated | ispconfig). */
  hosting: HostingDriver;
  /** Domain registrar (simulated | inwx). */
  registrar: RegistrarDriver;
  /** Cloud storage servers (simulated | nextcloud). */
  storage: StorageDriver;
}
