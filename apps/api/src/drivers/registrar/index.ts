import type { Env } from '../../env.ts';
import type { Db } from '../../db/client.ts';
import type { RegistrarDriver } from './registrar.ts';
import { createSimulatedRegistrar } from './simulated/simulated-registrar.ts';
import { createInwxRegistrar } from './inwx/inwx.ts';

/** The one place where the domain registrar is chosen (README, "INWX (OT&E first)"). */
export function createRegistrarDriver(env: Env, db: Db): RegistrarDriver {
  if (env.registrar === 'inwx') {
    const { url, user, password, totpSecret } = env.inwx;
    const missing = Object.entries({ INWX_USER: user, INWX_PASSWORD: password }).filter(([, v]) => !v).map(([k]) => k);
    if (missing.length) throw new Error(`REGISTRAR=inwx needs ${missing.join(', ')}`);
    if (!/^https:\/\//.test(url) && !/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url)) throw new Error('INWX_URL must be https (plain http only for a local fake)');
    return createInwxRegistrar({ url, user, password, totpSecret: totpSecret || undefined });
  }
  return createSimulatedRegistrar(db, { speed: env.simulatedSpeed });
}
