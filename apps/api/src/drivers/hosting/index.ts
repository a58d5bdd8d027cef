import type { Env } from '../../env.ts';
import type { Db } from '../../db/client.ts';
import type { HostingDriver } from './hosting.ts';
import { createSimulatedHosting } from './simulated/simulated-hosting.ts';

/** The simulated panel's buttons lead to a page of this product that says what they would open. */
export const simulatedPanelPath = '/simulated-panel';

/** The one place where the hosting driver is chosen. */
export function createHostingDriver(env: Env, db: Db): HostingDriver {
  return createSimulatedHosting(db, { speed: env.simulatedSpeed, panelUrl: `${env.publicUrl}${simulatedPanelPath}` });
}
