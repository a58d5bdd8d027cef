import type { Env } from './env.ts';
import type { Db } from './db/client.ts';
import type { Mailer } from './drivers/mail/mail.ts';
import type { Secrets } from './lib/secrets.ts';
import type { PaymentProvider } from './drivers/payments/payments.ts';
import type { Realtime } from './drivers/realtime/realtime.ts';
import type { VatCheck } from './drivers/vat/vat-check.ts';
import type { OutsideSystems } from './drivers/outside-systems.ts';
import type { ProductRegistry } from './modules/products/registry.ts';

/**
 * What the composition root (app.ts) hands to every module and job: the adapters chosen by main.ts or
 * the test harness. It lives here, not in app.ts, so services and jobs can name it without importing
 * the file that imports them (docs/decisions/009).
 */
export interface Deps extends OutsideSystems {
  db: Db;
  mail: Mailer;
  payments: PaymentProvider;
  /** VAT-ID check (simulated | vies | evatr). */
  vatCheck: VatCheck;
  env: Env;
  secrets: Secrets;
  /** Every product the shop sells, from the module list's `defineProduct` declarations (decision 035). */
  products: ProductRegistry;
  /** Live events across instances (LISTEN/NOTIFY); without it the event stream only sends heartbeats. */
  realtime?: Realtime;
  /** Where the log goes (default stdout); tests pass a buffer to inspect what gets logged. */
  logStream?: NodeJS.WritableStream;
}
