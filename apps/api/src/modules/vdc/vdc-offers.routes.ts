import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ApiError, CheckoutResponse, VdcOffer, VdcOfferCheckoutInput, VdcOfferInput, VdcOfferParams, VdcOfferTicketParams, VdcRequestInput, VdcRequestResult,
} from '@hp/contract';
import { signedInRoutes } from '../../http/auth.ts';
import { placeOrder } from '../shop/shop.service.ts';
import * as offers from './vdc-offers.service.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 429: ApiError, 503: ApiError };
const security = [{ bearer: [] }];

/**
 * "Individuelle Anfrage" and staff offers of the virtual data center (decision 036): the request opens a
 * "VDC-Anfrage" ticket, staff answer it with an offer, the customer pays the offer through the shop.
 */
export async function vdcOfferRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const deps = { ...app.deps, log: app.log, jobs: app.jobs };
  const customer = { config: { access: 'customer' as const } };
  const staff = { config: { access: 'staff' as const } };
  const doc = (summary: string) => ({ tags: ['vdc'], summary, security });

  u.post('/api/vdc-requests', { ...customer, schema: { ...doc('Individuelle Anfrage: eröffnet ein Ticket vom Typ „VDC-Anfrage“'), body: VdcRequestInput, response: { 201: VdcRequestResult, ...errors } } },
    async (req, reply) => reply.code(201).send(await offers.sendVdcRequest(deps, req.user, req.body)));
  u.get('/api/tickets/:ticketId/vdc-offers', { ...customer, schema: { ...doc('Angebote eines VDC-Anfrage-Tickets (Kunde des Tickets oder Mitarbeiter)'), params: VdcOfferTicketParams, response: { 200: z.array(VdcOffer), ...errors } } },
    async (req) => offers.listTicketOffers(deps, req.user, req.params.ticketId));
  u.get('/api/vdc-offers/:id', { ...customer, schema: { ...doc('Eigenes Angebot ansehen'), params: VdcOfferParams, response: { 200: VdcOffer, ...errors } } },
    async (req) => offers.getOwnVdcOffer(deps, req.user, req.params.id));
  u.post('/api/shop/vdc/offer-checkout', { ...customer, schema: { ...doc('Eigenes offenes Angebot annehmen und Zahlung starten (Ressourcen und Preis laut Angebot)'), tags: ['shop'], body: VdcOfferCheckoutInput, response: { 201: CheckoutResponse, ...errors } } },
    async (req, reply) => reply.code(201).send(await placeOrder(deps, req.user, offers.vdcOfferProduct, req.body)));

  u.post('/api/admin/tickets/:ticketId/vdc-offers', { ...staff, schema: { ...doc('Angebot in einem VDC-Anfrage-Ticket erstellen (als Antwort im Ticket)'), params: VdcOfferTicketParams, body: VdcOfferInput, response: { 201: VdcOffer, ...errors } } },
    async (req, reply) => reply.code(201).send(await offers.createVdcOffer(deps, req.user, req.params.ticketId, req.body)));
  u.delete('/api/admin/vdc-offers/:id', { ...staff, schema: { ...doc('Offenes Angebot zurückziehen'), params: VdcOfferParams, response: { 200: VdcOffer, ...errors } } },
    async (req) => offers.withdrawVdcOffer(deps, req.params.id));
}
