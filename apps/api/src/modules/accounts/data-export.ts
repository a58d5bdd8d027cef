import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Zippable } from 'fflate';
import type { Deps } from '../../deps.ts';
import {
  communications, customerDocuments, files, invoicePayments, invoices, orders, sessions, ticketAttachments, ticketMessages, ticketSecrets, tickets, users,
} from '../../db/schema/index.ts';
import type { RequestUser } from '../../http/auth.ts';
import { notFound } from '../../http/errors.ts';
import { readFile } from '../../lib/files.ts';
import { enforceLimit } from '../../lib/rate-limit.ts';
import { berlinDate, invoiceFileName, invoiceState } from '../invoices/invoices.service.ts';
import { renderInvoicePdf } from '../invoices/invoice-pdf.ts';
import { renderXRechnung } from '../invoices/invoice-xrechnung.ts';

type ExportDeps = Pick<Deps, 'db' | 'products'>;

/** Each export renders every invoice twice: a few per hour are plenty for a person, and cheap for us. */
export const EXPORTS_PER_HOUR = 5;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The account's data as a ZIP (Art. 15 and 20 DSGVO, docs/decisions/018): `daten.json` with everything
 * stored about the account, and every invoice and credit note as PDF and XRechnung, rendered from the
 * frozen document like the downloads. Never in it: password and TOTP hashes, codes, tokens, staff notes
 * about the customer, internal ticket messages, values of confidential ticket fields, staff-only fields.
 * Built from explicit column lists, so a new column never slips in by itself.
 */
export async function exportAccountData({ db, products }: ExportDeps, actor: Pick<RequestUser, 'id'>): Promise<{ zip: Uint8Array; fileName: string }> {
  await enforceLimit(db, { key: `data-export:${actor.id}`, limit: EXPORTS_PER_HOUR, windowSeconds: 3600 });
  const [user] = await db.select().from(users).where(eq(users.id, actor.id));
  if (!user) throw notFound();
  const id = user.id;

  const [orderRows, invoiceRows, ticketRows, contactRows, sessionRows, documentRows, productSections] = await Promise.all([
    db.select().from(orders).where(eq(orders.userId, id)).orderBy(asc(orders.createdAt)),
    db.select().from(invoices).where(eq(invoices.userId, id)).orderBy(asc(invoices.createdAt), asc(invoices.number)),
    db.select().from(tickets).where(eq(tickets.customerId, id)).orderBy(asc(tickets.createdAt)),
    db.select().from(communications).where(eq(communications.customerId, id)).orderBy(asc(communications.createdAt)),
    db.select({ createdAt: sessions.createdAt, lastUsedAt: sessions.lastUsedAt, expiresAt: sessions.expiresAt, revokedAt: sessions.revokedAt, userAgent: sessions.userAgent })
      .from(sessions).where(eq(sessions.userId, id)).orderBy(asc(sessions.createdAt)),
    // Documents staff keep for the account (contracts): names and dates, not who uploaded them.
    db.select({ fileId: customerDocuments.fileId, name: files.name, contentType: files.contentType, size: files.size, description: customerDocuments.description, createdAt: customerDocuments.createdAt })
      .from(customerDocuments).innerJoin(files, eq(files.id, customerDocuments.fileId))
      .where(eq(customerDocuments.userId, id)).orderBy(asc(customerDocuments.createdAt), asc(customerDocuments.id)),
    // Each product's own section (servers, web hosting, domains, …), decision 033.
    Promise.all(products.all().map(async (p) => [p.exportSection.key, await p.exportSection.rows(db, id)] as const)),
  ]);
  const invoiceIds = invoiceRows.map((i) => i.id);
  const ticketIds = ticketRows.map((t) => t.id);
  const [paymentRows, messageRows, attachmentRows, secretRows] = await Promise.all([
    invoiceIds.length ? db.select({ invoiceId: invoicePayments.invoiceId, amountCents: invoicePayments.amountCents, method: invoicePayments.method, paidOn: invoicePayments.paidOn }).from(invoicePayments).where(inArray(invoicePayments.invoiceId, invoiceIds)) : [],
    // Internal notes are staff-only: filtered in the query, never loaded.
    ticketIds.length ? db.select({ id: ticketMessages.id, ticketId: ticketMessages.ticketId, fromStaff: ticketMessages.fromStaff, body: ticketMessages.body, createdAt: ticketMessages.createdAt }).from(ticketMessages)
      .where(and(inArray(ticketMessages.ticketId, ticketIds), eq(ticketMessages.internal, false))).orderBy(asc(ticketMessages.seq)) : [],
    ticketIds.length ? db.select({ messageId: ticketAttachments.messageId, name: files.name, size: files.size, contentType: files.contentType }).from(ticketAttachments)
      .innerJoin(files, eq(files.id, ticketAttachments.fileId)).where(inArray(ticketAttachments.ticketId, ticketIds)) : [],
    // The label only: the value is sealed for staff and never leaves the ticket.
    ticketIds.length ? db.select({ ticketId: ticketSecrets.ticketId, label: ticketSecrets.label, createdAt: ticketSecrets.createdAt, wipedAt: ticketSecrets.wipedAt }).from(ticketSecrets).where(inArray(ticketSecrets.ticketId, ticketIds)) : [],
  ]);

  const today = berlinDate(new Date());
  const documentPaths = zipPaths('dokumente', documentRows.map((d) => d.name));
  const data = {
    hinweis: 'Auskunft nach Art. 15 DSGVO und Datenübertragung nach Art. 20 DSGVO: alle zu Ihrem Konto gespeicherten Daten. Beträge in Cent, Zeitpunkte in UTC (ISO 8601). Rechnungen und Gutschriften liegen als PDF und XRechnung im Ordner "rechnungen", Dokumente wie Verträge im Ordner "dokumente".',
    erstelltAm: new Date().toISOString(),
    konto: {
      benutzername: user.username, kundennummer: user.customerNumber, email: user.email, telefon: user.phone,
      adresse: { strasse: user.street, plz: user.zipCode, ort: user.city, land: user.country },
      firma: user.companyName, branche: user.industry, firmenkunde: user.business, ustIdNr: user.vatId, rolle: user.role,
      registriertAm: iso(user.createdAt), emailBestaetigtAm: iso(user.emailVerifiedAt), letzteAnmeldung: iso(user.lastLoginAt),
      zweiFaktorAktiv: user.totpEnabled, gesperrtSeit: iso(user.disabledAt),
    },
    bestellungen: orderRows.map((o) => ({
      nummer: o.number, produkt: o.product, konfiguration: o.config, art: o.kind, status: o.status, erstelltAm: iso(o.createdAt), bezahltAm: iso(o.paidAt), abgeschlossenAm: iso(o.completedAt),
      betriebssystem: o.os, cpuKerne: o.cpuCores, ramGb: o.ramGb, speicherGb: o.storageGb, laufzeitMonate: o.months, ipAdresse: o.ipAddress,
      bruttoCents: o.amountCents, nettoCents: o.netCents, umsatzsteuerCents: o.vatCents, waehrung: o.currency,
      zahlungsanbieter: o.paymentProvider, karte: o.cardBrand ? { marke: o.cardBrand, endziffern: o.cardLast4 } : null,
      rechnungsname: o.billingName, rechnungsadresse: o.billingAddress, zeitraumVon: iso(o.periodStart), zeitraumBis: iso(o.periodEnd),
    })),
    ...Object.fromEntries(productSections),
    rechnungen: invoiceRows.map((i) => ({
      nummer: i.number, art: i.kind === 'credit_note' ? 'Gutschrift' : 'Rechnung', datum: i.issueDate, faelligAm: i.dueDate, bruttoCents: i.grossCents,
      zahlungsstatus: invoiceState(i, today), bezahltAm: iso(i.paidAt),
      zahlungen: paymentRows.filter((p) => p.invoiceId === i.id).map((p) => ({ betragCents: p.amountCents, art: p.method, datum: p.paidOn })),
      dateien: [`rechnungen/${invoiceFileName(i, 'pdf')}`, `rechnungen/${invoiceFileName(i, 'xml')}`],
    })),
    tickets: ticketRows.map((t) => ({
      id: t.id, titel: t.title, beschreibung: t.description, art: t.type, status: t.status, erstelltAm: iso(t.createdAt), geschlossenAm: iso(t.closedAt),
      nachrichten: messageRows.filter((m) => m.ticketId === t.id).map((m) => ({
        von: m.fromStaff ? 'Support' : 'Sie', text: m.body, gesendetAm: iso(m.createdAt),
        anhaenge: attachmentRows.filter((a) => a.messageId === m.id).map((a) => ({ name: a.name, typ: a.contentType, groesseBytes: a.size })),
      })),
      vertraulicheAngaben: secretRows.filter((s) => s.ticketId === t.id).map((s) => ({ bezeichnung: s.label, angelegtAm: iso(s.createdAt), geloeschtAm: iso(s.wipedAt) })),
    })),
    dokumente: documentRows.map((d, i) => ({
      name: d.name, beschreibung: d.description, typ: d.contentType, groesseBytes: d.size, hochgeladenAm: iso(d.createdAt), datei: documentPaths[i],
    })),
    kommunikation: contactRows.map((c) => ({ art: c.kind, betreff: c.subject, text: c.body, am: iso(c.createdAt) })),
    sitzungen: sessionRows.map((s) => ({ angemeldetAm: iso(s.createdAt), zuletztAktiv: iso(s.lastUsedAt), gueltigBis: iso(s.expiresAt), beendetAm: iso(s.revokedAt), browser: s.userAgent })),
  };

  const { strToU8, zipSync } = await import('fflate');
  const entries: Zippable = { 'daten.json': strToU8(`${JSON.stringify(data, null, 2)}\n`) };
  for (const invoice of invoiceRows) {
    // PDFs are compressed already; deflating them again only costs time.
    entries[`rechnungen/${invoiceFileName(invoice, 'pdf')}`] = [await renderInvoicePdf(invoice.document), { level: 0 }];
    entries[`rechnungen/${invoiceFileName(invoice, 'xml')}`] = strToU8(renderXRechnung(invoice.document));
  }
  for (const [i, doc] of documentRows.entries()) {
    const file = await readFile(db, doc.fileId);
    if (file) entries[documentPaths[i]!] = [file.data, { level: doc.contentType === 'text/plain' ? 6 : 0 }];
  }
  return { zip: zipSync(entries, { level: 6 }), fileName: `meine-daten-${today}.zip` };
}

/** Paths in one ZIP folder, unique: a second "vertrag.pdf" becomes "vertrag (2).pdf". */
function zipPaths(folder: string, names: string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let n = 2; taken.has(candidate.toLowerCase()); n += 1) candidate = `${stem} (${n})${ext}`;
    taken.add(candidate.toLowerCase());
    return `${folder}/${candidate}`;
  });
}
