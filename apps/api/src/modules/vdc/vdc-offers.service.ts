import { and, desc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  displayCents, formatEuro, vdcOfferMessages as om,
  type VdcOffer, type VdcOfferCheckoutInput, type VdcOfferInput, type VdcRequestInput, type VdcRequestResult,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { orders, tickets, users, vdcOffers } from '../../db/schema/index.ts';
import type { RequestUser } from '../../http/auth.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { syncCheckout } from '../payments/payments.service.ts';
import type { ProductModule } from '../products/product-module.ts';
import { taxViewFor } from '../tax/tax.service.ts';
import { openTicket, postStaffMessage } from '../tickets/tickets.service.ts';
import { describeVdcPool, reserveFromOffer, vdcProduct } from './vdc.product.ts';

/**
 * "Individuelle Anfrage" and staff offers (issue 25, decision 036). A request is a support ticket of
 * type "VDC-Anfrage", opened through the tickets service, so staff are told like for any ticket. Staff
 * answer it with an offer: a priced pool that may lie beyond the sliders, stored here and announced by a
 * staff message in the ticket (which mails the customer). The customer pays it through the common
 * checkout; like a staff-prepared order (decision 021) nothing is held before that, so capacity is
 * decided at payment and paying marks the offer accepted (the product's fulfil).
 */

type OfferDeps = Pick<Deps, 'db' | 'env'>;
type OfferRow = typeof vdcOffers.$inferSelect;

const DAY_MS = 24 * 60 * 60 * 1000;
const isStaffRole = (role: string) => role === 'employee' || role === 'owner';

export const vdcOfferPath = (offerId: string) => `/shop/vdc-request?offer=${offerId}`;

/** Open past its validity counts as expired (no schedule has to flip it first). */
function offerStatus(row: OfferRow, now = new Date()): VdcOffer['status'] {
  return row.status === 'open' && row.validUntil <= now ? 'expired' : row.status;
}

function toOffer(row: OfferRow): VdcOffer {
  const status = offerStatus(row);
  return {
    id: row.id, ticketId: row.ticketId,
    cpu: row.cpuCores, ram: row.ramGb, storage: row.storageGb, ipv4: row.ipv4Count, months: row.months,
    priceCents: row.priceCents, status,
    validUntil: row.validUntil.toISOString(),
    payPath: status === 'open' ? vdcOfferPath(row.id) : null,
    createdAt: row.createdAt.toISOString(),
  };
}

const berlinDate = (d: Date) => d.toLocaleDateString('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' });
const monthsText = (n: number) => `${n} ${n === 1 ? 'Monat' : 'Monate'}`;

// ── The request ──────────────────────────────────────────────────────────────────────────────────

export const VDC_REQUEST_TITLE = 'VDC-Anfrage';

/** The ticket's first message: the customer's words, then budget and phone when given. */
export function describeVdcRequest(input: VdcRequestInput): string {
  return [
    `Bedarf:\n${input.needs}`,
    `Budget: ${input.budget || 'keine Angabe'}`,
    `Telefon für Rückfragen: ${input.phone || 'keine Angabe'}`,
  ].join('\n\n');
}

/** "Individuelle Anfrage": a ticket of type "VDC-Anfrage" (rate limited like every new ticket). */
export async function sendVdcRequest(deps: OfferDeps, user: Pick<RequestUser, 'id' | 'username'>, input: VdcRequestInput): Promise<VdcRequestResult> {
  const ticket = await openTicket(deps, user, { title: VDC_REQUEST_TITLE, description: describeVdcRequest(input), type: 'vdc_request', serverId: null });
  return { ticketId: ticket.id };
}

// ── Staff's offers ───────────────────────────────────────────────────────────────────────────────

/** The offer as the ticket message states it: figures, the customer's price with its tax label, validity and link. */
function offerMessage(deps: OfferDeps, offer: OfferRow, price: string) {
  return [
    'Gerne machen wir Ihnen folgendes Angebot für Ihr Virtual Data Center:',
    `Ressourcen-Pool: ${describeVdcPool({ cpu: offer.cpuCores, ram: offer.ramGb, storage: offer.storageGb, ipv4: offer.ipv4Count })}`,
    `Laufzeit: ${monthsText(offer.months)}`,
    `Preis: ${price} für die gesamte Laufzeit, zahlbar im Voraus`,
    `Gültig bis: ${berlinDate(offer.validUntil)}`,
    '',
    `Angebot ansehen und bezahlen: ${deps.env.publicUrl.replace(/\/$/, '')}${vdcOfferPath(offer.id)}`,
    'Der Pool wird nach Zahlungseingang eingerichtet; Platz auf unseren Hosts reservieren wir erst mit der Bestellung.',
  ].join('\n');
}

/** Staff's offer in a "VDC-Anfrage" ticket of a customer; posted into the ticket as a staff answer (mailed). */
export async function createVdcOffer(deps: OfferDeps, staff: Pick<RequestUser, 'id'>, ticketId: string, input: VdcOfferInput): Promise<VdcOffer> {
  const [row] = await deps.db.select({ ticket: tickets, role: users.role, deletedAt: users.deletedAt }).from(tickets)
    .innerJoin(users, eq(users.id, tickets.customerId)).where(eq(tickets.id, ticketId));
  if (!row) throw notFound(om.ticketNotFound);
  if (row.ticket.type !== 'vdc_request' || row.role !== 'customer' || row.deletedAt) throw conflict('NOT_A_VDC_REQUEST', om.notARequest);
  if (row.ticket.status === 'closed') throw conflict('TICKET_CLOSED', om.ticketClosed);

  const [offer] = await deps.db.insert(vdcOffers).values({
    ticketId, customerId: row.ticket.customerId, createdById: staff.id,
    cpuCores: input.cpu, ramGb: input.ram, storageGb: input.storage, ipv4Count: input.ipv4, months: input.months,
    priceCents: input.priceCents, status: 'open', validUntil: new Date(Date.now() + input.validDays * DAY_MS),
  }).returning();
  // The customer's price and its tax label, as the shop will show it (issue 24), like the order link.
  const tax = await taxViewFor(deps, row.ticket.customerId);
  const price = `${formatEuro(displayCents(offer!.priceCents, tax))} (${tax.priceLabel})`;
  try {
    await postStaffMessage(deps, staff, ticketId, { body: offerMessage(deps, offer!, price), internal: false, attachmentIds: [] });
  } catch (err) {
    // Closed in between: an offer the customer was never told of must not stay payable.
    await deps.db.delete(vdcOffers).where(eq(vdcOffers.id, offer!.id));
    throw err;
  }
  return toOffer(offer!);
}

/** The offers of a ticket, newest first: for its customer (another customer's ticket answers 404) or staff. */
export async function listTicketOffers({ db }: OfferDeps, user: Pick<RequestUser, 'id' | 'role'>, ticketId: string): Promise<VdcOffer[]> {
  const [ticket] = await db.select({ customerId: tickets.customerId }).from(tickets).where(eq(tickets.id, ticketId));
  if (!ticket || (!isStaffRole(user.role) && ticket.customerId !== user.id)) throw notFound(om.ticketNotFound);
  const rows = await db.select().from(vdcOffers).where(eq(vdcOffers.ticketId, ticketId)).orderBy(desc(vdcOffers.createdAt), desc(vdcOffers.id));
  return rows.map(toOffer);
}

/** One offer for the shop page: its customer's only (anyone else, staff included, gets 404 like a missing one). */
export async function getOwnVdcOffer({ db }: OfferDeps, user: Pick<RequestUser, 'id'>, id: string): Promise<VdcOffer> {
  const [row] = await db.select().from(vdcOffers).where(and(eq(vdcOffers.id, id), eq(vdcOffers.customerId, user.id)));
  if (!row) throw notFound(om.notFound);
  return toOffer(row);
}

/**
 * Staff withdraw an open offer (one conditional UPDATE). A payment page the customer already opened for
 * it is ended and settled like a replaced checkout: a payment that arrived meanwhile is still fulfilled.
 */
export async function withdrawVdcOffer(deps: Pick<Deps, 'db' | 'env' | 'payments' | 'products'> & { log?: { warn: (obj: object, msg: string) => void } }, id: string): Promise<VdcOffer> {
  const [row] = await deps.db.update(vdcOffers).set({ status: 'withdrawn' })
    .where(and(eq(vdcOffers.id, id), eq(vdcOffers.status, 'open'))).returning();
  if (!row) {
    const [exists] = await deps.db.select({ id: vdcOffers.id }).from(vdcOffers).where(eq(vdcOffers.id, id));
    if (!exists) throw notFound(om.notFound);
    throw conflict('OFFER_NOT_OPEN', om.notOpen);
  }
  const open = await deps.db.select({ sessionId: orders.paymentSessionId }).from(orders).where(and(
    eq(orders.product, 'vdc'), eq(orders.status, 'pending'), gt(orders.holdUntil, new Date()), isNotNull(orders.paymentSessionId),
    sql`${orders.config}->>'offerId' = ${id}`,
  ));
  for (const { sessionId } of open) {
    try {
      await deps.payments.expireCheckoutSession(sessionId!);
      await syncCheckout(deps, sessionId!, { cancelUnpaid: true });
    } catch (err) {
      // The provider is unreachable: the checkout keeps its hold until it runs out.
      deps.log?.warn({ offerId: id, err: { message: (err as Error).message } }, 'checkout of a withdrawn VDC offer could not be ended');
    }
  }
  return toOffer(row);
}

// ── Paying an offer ──────────────────────────────────────────────────────────────────────────────

async function lockPayableOffer(db: Pick<Db, 'select'>, userId: string, offerId: string) {
  const [offer] = await db.select().from(vdcOffers)
    .where(and(eq(vdcOffers.id, offerId), eq(vdcOffers.customerId, userId))).for('update');
  if (!offer) throw notFound(om.notFound);
  const status = offerStatus(offer);
  if (status === 'expired') throw conflict('OFFER_EXPIRED', om.expired);
  if (status === 'withdrawn') throw conflict('OFFER_WITHDRAWN', om.withdrawn);
  if (status === 'accepted') throw conflict('OFFER_ACCEPTED', om.accepted);
  return offer;
}

/**
 * The checkout of an offer: the VDC product with the offer's figures and the price staff stored (never
 * the client's). Orders, payment, fulfilment and invoices are the VDC product's own (`kind` 'vdc'); the
 * order names the offer, and a second checkout of the same offer replaces the first.
 */
export const vdcOfferProduct: ProductModule<VdcOfferCheckoutInput> = {
  ...vdcProduct,
  precheck: undefined,
  sameOrder: (input) => and(eq(orders.kind, 'new'), isNull(orders.subscriptionId), sql`${orders.config}->>'offerId' = ${input.offerId}`),
  async reserve(tx, ctx, input) {
    const offer = await lockPayableOffer(tx, ctx.userId, input.offerId);
    try {
      return await reserveFromOffer(tx, ctx, offer, input.name);
    } catch (err) {
      // The standard pool's refusal suggests a smaller pool; an offer's figures are fixed.
      if (err instanceof AppError && err.code === 'NOT_ENOUGH_RESOURCES') throw conflict('NOT_ENOUGH_RESOURCES', om.noCapacity);
      throw err;
    }
  },
};
