import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { luhnValid, SIM_TEST_CARDS, type SimulatedPayments } from '../../drivers/payments/simulated.ts';
import { emptyValues, renderCheckoutPage, renderClosedPage, SIM_COUNTRY_CODES, type SimPageValues } from './simulated-checkout.page.ts';
import { cspNonceOf } from '../../http/security-headers.ts';

const Params = z.object({ sessionId: z.string().regex(/^cs_sim_[0-9a-f]{32}$/, { error: 'Diese Zahlung wurde nicht gefunden.' }) });
const FormBody = z.record(z.string(), z.string().max(200, { error: 'Die Eingabe ist zu lang.' }));


/** Validates the card form like a payment page would; returns German errors. */
function checkForm(v: SimPageValues & { cvc: string }, now = new Date()) {
  const errors: string[] = [];
  const digits = v.card.replace(/[\s-]/g, '');
  if (!luhnValid(digits)) errors.push('Die Kartennummer ist ungültig.');
  const exp = /^\s*(\d{2})\s*\/\s*(\d{2})\s*$/.exec(v.exp);
  if (!exp || Number(exp[1]) < 1 || Number(exp[1]) > 12) errors.push('Das Ablaufdatum ist ungültig (MM/JJ).');
  else {
    const end = new Date(Date.UTC(2000 + Number(exp[2]), Number(exp[1]), 1));
    if (end <= now) errors.push('Die Karte ist abgelaufen.');
  }
  if (!/^\d{3,4}$/.test(v.cvc.trim())) errors.push('Die Prüfziffer (CVC) ist ungültig.');
  if (!v.name.trim()) errors.push('Bitte geben Sie den Namen auf der Karte an.');
  if (!v.street.trim()) errors.push('Bitte geben Sie Straße und Hausnummer an.');
  if (!/^[A-Za-z0-9 -]{3,10}$/.test(v.zip.trim())) errors.push('Bitte geben Sie eine gültige PLZ an.');
  if (!v.city.trim()) errors.push('Bitte geben Sie den Ort an.');
  if (!SIM_COUNTRY_CODES.includes(v.country)) errors.push('Bitte wählen Sie ein Land.');
  return { errors, digits };
}

/**
 * The hosted page of the simulated payment provider (embedded default). Public like Stripe's page: the
 * session id (128 random bits) is the capability. Registered only when PAYMENTS is not stripe.
 */
export async function simulatedCheckoutRoutes(app: FastifyInstance, opts: { payments: SimulatedPayments; merchant: string }) {
  const { payments, merchant } = opts;

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8 * 1024 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);

  app.get('/pay/sim/:sessionId', {
    config: { access: 'public', cspNonces: true }, schema: { hide: true, params: Params },
  }, async (req, reply) => {
    const { sessionId } = req.params as z.infer<typeof Params>;
    const session = await payments.findSession(sessionId);
    if (!session) return html(reply, 404, renderClosedPage(cspNonceOf(reply), merchant, 'Diese Zahlung wurde nicht gefunden.'));
    if (session.status !== 'open' || session.expiresAt <= new Date()) {
      return html(reply, 410, renderClosedPage(cspNonceOf(reply), merchant, session.paymentStatus === 'paid' ? 'Die Zahlung ist bereits abgeschlossen.' : 'Diese Zahlung ist abgelaufen oder wurde abgebrochen. Eine neue Zahlung starten Sie mit „Erneut versuchen“ auf der Ergebnisseite Ihrer Bestellung, solange sie für Sie reserviert ist.'));
    }
    return html(reply, 200, renderCheckoutPage({
      nonce: cspNonceOf(reply), sessionId, merchant, amountCents: session.amountCents, productName: session.productName,
      email: session.customerEmail, values: emptyValues, errors: [],
    }));
  });

  app.post('/pay/sim/:sessionId', {
    config: { access: 'public', cspNonces: true }, schema: { hide: true, params: Params, body: FormBody },
  }, async (req, reply) => {
    const { sessionId } = req.params as z.infer<typeof Params>;
    const form = req.body as Record<string, string>;
    const session = await payments.findSession(sessionId);
    if (!session) return html(reply, 404, renderClosedPage(cspNonceOf(reply), merchant, 'Diese Zahlung wurde nicht gefunden.'));
    const back = (url: string) => reply.redirect(url.replace('{CHECKOUT_SESSION_ID}', sessionId), 303);

    if (session.status !== 'open' || session.expiresAt <= new Date()) {
      return session.paymentStatus === 'paid' ? back(session.successUrl) : back(session.cancelUrl);
    }
    if (form.action === 'cancel') {
      await payments.endSession(sessionId, 'canceled');
      return back(session.cancelUrl);
    }

    const values: SimPageValues = {
      name: form.name ?? '', street: form.street ?? '', zip: form.zip ?? '', city: form.city ?? '',
      country: form.country ?? 'DE', card: form.card ?? '', exp: form.exp ?? '',
    };
    const { errors, digits } = checkForm({ ...values, cvc: form.cvc ?? '' });
    if (errors.length) {
      return html(reply, 400, renderCheckoutPage({
        nonce: cspNonceOf(reply), sessionId, merchant, amountCents: session.amountCents, productName: session.productName,
        email: session.customerEmail, values, errors,
      }));
    }
    const known = SIM_TEST_CARDS[digits];
    if (known?.outcome === 'declined') {
      await payments.endSession(sessionId, 'declined');
      return back(session.cancelUrl);
    }
    // Any other valid number is accepted like a test card, with a brand guessed from its prefix.
    const brand = known?.brand ?? (digits.startsWith('4') ? 'visa' : /^5[1-5]/.test(digits) ? 'mastercard' : /^3[47]/.test(digits) ? 'amex' : 'card');
    const outcome = await payments.completeSession(sessionId, {
      card: { brand, last4: digits.slice(-4) },
      name: values.name.trim(),
      address: { line1: values.street.trim(), line2: null, postalCode: values.zip.trim(), city: values.city.trim(), country: values.country },
    });
    return outcome === 'complete' ? back(session.successUrl) : back(session.cancelUrl);
  });
}
