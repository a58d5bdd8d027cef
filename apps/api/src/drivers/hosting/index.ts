import type { Env } from '../../env.ts';
import type { Db } from '../../db/client.ts';
import type { HostingDriver } from './hosting.ts';
import { createSimulatedHosting } from './simulated/simulated-hosting.ts';
import { createIspConfigHosting } from './ispconfig/ispconfig.ts';

/** The simulated panel's buttons lead to a page of this product that says what they would open. */
export const simulatedPanelPath = '/simulated-panel';

/** The one place where the hosting driver is chosen (README, "ISPConfig"). */
export function createHostingDriver(env: Env, db: Db): HostingDriver {
  if (env.hosting === 'ispconfig') {
    const { url, username, password, fingerprint } = env.ispconfig;
    const missing = Object.entries({ ISPCONFIG_URL: url, ISPCONFIG_USER: username, ISPCONFIG_PASSWORD: password }).filter(([, v]) => !v).map(([k]) => k);
    if (missing.length) throw new Error(`HOSTING=ispconfig needs ${missing.join(', ')}`);
    if (url.startsWith('https://') && !fingerprint) throw new Error('HOSTING=ispconfig with https needs ISPCONFIG_FINGERPRINT (the panel certificate\'s SHA-256 fingerprint)');
    return createIspConfigHosting({ url, username, password, fingerprint });
  }
  return createSimulatedHosting(db, { speed: env.simulatedSpeed, panelUrl: `${env.publicUrl}${simulatedPanelPath}` });
}
