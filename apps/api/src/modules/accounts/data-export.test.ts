/**
 * "Meine Daten exportieren" (Art. 15/20 DSGVO, docs/decisions/018): the ZIP holds daten.json and every
 * invoice as PDF and XRechnung, and never staff-only data, secret values or credentials.
 */
import { expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { createUser, describeEachDatabase } from '../../../test/harness.ts';
import { buyServer, drainJobs } from '../../../test/shop.ts';
import { backupCodes, domains, invoices, ticketMessages, users } from '../../db/schema/index.ts';
import { invoiceFileName } from '../invoices/invoices.service.ts';
import { EXPORTS_PER_HOUR } from './data-export.ts';

describeEachDatabase('data export', (ctx) => {
  it('exports profile, orders, servers, domains, tickets, the mail log and every invoice as PDF and XML, without staff notes, secret values or hashes', async () => {
    const db = ctx().database.db;
    const customer = await createUser(ctx());
    const employee = await createUser(ctx(), { role: 'employee' });
    const invoice = await buyServer(ctx(), customer);
    await db.update(users).set({ totpSecret: 'SEALED-TOTP-SECRET-MARKER', street: 'Exportweg 3' }).where(eq(users.id, customer.user.id));
    await db.insert(backupCodes).values({ userId: customer.user.id, codeHash: 'BACKUP-HASH-MARKER' });
    const domainName = `export-${Math.random().toString(36).slice(2, 8)}.de`;
    const domainExpiry = new Date('2027-05-01T00:00:00Z');
    await db.insert(domains).values({
      ownerId: customer.user.id, domain: domainName, tld: 'de', status: 'active', nameservers: ['ns1.musterhost.de', 'ns2.musterhost.de'],
      yearCents: 1080, expiresAt: domainExpiry, autoRenew: false,
    });

    const ticket = await ctx().app.inject({ method: 'POST', url: '/api/tickets', headers: customer.auth, payload: { title: 'Server startet nicht', description: 'Seit heute früh.', type: 'technical' } });
    expect(ticket.statusCode, ticket.body).toBe(201);
    const ticketId = ticket.json().id as string;
    await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticketId}/messages`, headers: customer.auth, payload: { body: 'Noch eine Frage vom Kunden.' } });
    await db.insert(ticketMessages).values({ ticketId, authorId: employee.user.id, fromStaff: true, internal: true, body: 'INTERNE-NOTIZ: Kunde ist schwierig' });
    const secret = await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticketId}/secrets`, headers: customer.auth, payload: { label: 'Root-Passwort', value: 'GEHEIMWERT-4711' } });
    expect(secret.statusCode, secret.body).toBe(201);
    await ctx().app.inject({ method: 'POST', url: `/api/staff/customers/${customer.user.id}/notes`, headers: employee.auth, payload: { body: 'STAFF-NOTIZ: nur intern' } });
    await ctx().app.inject({ method: 'POST', url: `/api/staff/customers/${customer.user.id}/mails`, headers: employee.auth, payload: { subject: 'Ihr Vertrag bei uns', body: 'Guten Tag, alles bestens.' } });
    await drainJobs(ctx());

    const res = await ctx().app.inject({ method: 'GET', url: '/api/account/export', headers: customer.auth });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="meine-daten-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(res.headers['cache-control']).toContain('no-store');

    const entries = unzipSync(new Uint8Array(res.rawPayload));
    const pdfName = `rechnungen/${invoiceFileName(invoice, 'pdf')}`;
    const xmlName = `rechnungen/${invoiceFileName(invoice, 'xml')}`;
    expect(Object.keys(entries).sort()).toEqual(['daten.json', pdfName, xmlName].sort());
    expect(strFromU8(entries[pdfName]!.subarray(0, 5))).toBe('%PDF-');
    const xml = strFromU8(entries[xmlName]!);
    expect(xml).toContain(invoice.number);
    expect(xml).toContain('urn:cen.eu:en16931');

    const data = JSON.parse(strFromU8(entries['daten.json']!));
    expect(data.konto).toMatchObject({ email: customer.email, benutzername: customer.username, adresse: { strasse: 'Exportweg 3' } });
    expect(data.bestellungen).toHaveLength(1);
    expect(data.server).toHaveLength(1);
    expect(data.domains).toEqual([expect.objectContaining({
      domain: domainName, domainLesbar: domainName, status: 'active', nameserver: ['ns1.musterhost.de', 'ns2.musterhost.de'],
      automatischVerlaengern: false, laeuftAbAm: domainExpiry.toISOString(), erstelltAm: expect.any(String), geloeschtAm: null,
    })]);
    expect(data.rechnungen).toEqual([expect.objectContaining({ nummer: invoice.number, zahlungsstatus: 'paid', dateien: [pdfName, xmlName] })]);
    expect(data.tickets[0]).toMatchObject({ titel: 'Server startet nicht', vertraulicheAngaben: [expect.objectContaining({ bezeichnung: 'Root-Passwort' })] });
    expect(data.tickets[0].nachrichten.map((m: { text: string }) => m.text)).toContain('Noch eine Frage vom Kunden.');
    expect(data.kommunikation.map((c: { betreff: string }) => c.betreff)).toContain('Ihr Vertrag bei uns');

    // Nothing staff-only or secret, anywhere in the archive.
    const [stored] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, customer.user.id));
    const everything = Object.values(entries).map((bytes) => Buffer.from(bytes).toString('latin1')).join('\n') + strFromU8(entries['daten.json']!);
    for (const forbidden of ['INTERNE-NOTIZ', 'GEHEIMWERT-4711', 'STAFF-NOTIZ', 'SEALED-TOTP-SECRET-MARKER', 'BACKUP-HASH-MARKER', stored!.passwordHash, '$argon2id$', customer.refreshToken]) {
      expect(everything, forbidden).not.toContain(forbidden);
    }
    const json = strFromU8(entries['daten.json']!);
    expect(json).not.toMatch(/passwordHash|password_hash|totp|refreshToken|sealed/i);

    // The invoice rows were only read.
    const [after] = await db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(after).toEqual(invoice);
  });

  it('limits exports per account and refuses anonymous callers', async () => {
    const customer = await createUser(ctx());
    const codes: number[] = [];
    for (let i = 0; i <= EXPORTS_PER_HOUR; i++) codes.push((await ctx().app.inject({ method: 'GET', url: '/api/account/export', headers: customer.auth })).statusCode);
    expect(codes).toEqual([...Array(EXPORTS_PER_HOUR).fill(200), 429]);
    expect((await ctx().app.inject({ method: 'GET', url: '/api/account/export' })).statusCode).toBe(401);
  });
});
