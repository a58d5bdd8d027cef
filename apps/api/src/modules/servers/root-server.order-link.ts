import { and, eq, isNull } from 'drizzle-orm';
import { customerDetailMessages as dm, displayCents, formatEuro, orderLinkMessages, orderLinkQuery, priceCents, type OrderLinkInput, type ServerConfig } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { users } from '../../db/schema/index.ts';
import { orderLinkMail } from '../../drivers/mail/templates.ts';
import type { RequestUser } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { enqueueMail } from '../../jobs/mail.ts';
import { enforceLimit } from '../../lib/rate-limit.ts';
import { describeServerConfig, ROOT_SERVER_NAME } from './root-server.product.ts';
import { taxViewFor } from '../tax/tax.service.ts';

type OrderLinkDeps = Pick<Deps, 'db' | 'env'> & { jobs?: { kick(): void } };

/**
 * "Neue Bestellung" on the customer page (issue 11): staff put a server together for the customer, who
 * receives a mail with the price and a link to the configurator prefilled with it. The customer signs
 * in, accepts the terms and pays there, so capacity, the IP, the price and the fulfilment are exactly
 * those of any other order, decided when the customer pays (docs/decisions/021). The mail is logged
 * under Kommunikation with the staff member as sender.
 */
export async function sendOrderLink(deps: OrderLinkDeps, staff: Pick<RequestUser, 'id'>, customerId: string, input: OrderLinkInput) {
  const [customer] = await deps.db.select({ id: users.id, email: users.email, username: users.username }).from(users)
    .where(and(eq(users.id, customerId), eq(users.role, 'customer'), isNull(users.deletedAt)));
  if (!customer) throw notFound(dm.notFound);
  // Shares the budget of "E-Mail senden": order links are mails from the same person.
  await enforceLimit(deps.db, { key: `staff-mail:${staff.id}`, limit: 60, windowSeconds: 3600 });
  const config: ServerConfig = {
    os: input.os, cpu: input.cpu, ram: input.ram, storage: input.storage, months: input.months,
    ...(input.os === 'linux' ? { distro: input.distro } : { windowsVersion: input.windowsVersion }),
  };
  const osName = config.os === 'linux' ? config.distro! : config.windowsVersion!;
  const summary = `${ROOT_SERVER_NAME} (KVM) – ${describeServerConfig({ os: osName, cpuCores: config.cpu, ramGb: config.ram, storageGb: config.storage, months: config.months })}`;
  const link = `${deps.env.publicUrl.replace(/\/$/, '')}/shop/kvm-server?${orderLinkQuery(config)}`;
  // The customer's price and its tax label (issue 24), as the configurator will show it.
  const tax = await taxViewFor(deps, customer.id);
  await enqueueMail(deps.db, orderLinkMail(customer.email, customer.username, {
    summary, price: formatEuro(displayCents(priceCents(config), tax)), priceLabel: tax.priceLabel, link, message: input.message ?? '', sentBy: staff.id,
  }));
  deps.jobs?.kick();
  return { message: orderLinkMessages.sent };
}
