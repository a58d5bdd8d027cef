/**
 * Uploaded customer documents (tab "Dokumente"): staff upload, list, download and delete them with the
 * file rules of ticket attachments (docs/decisions/015); every change is recorded; the customer's data
 * export holds them and deleting the customer keeps them (docs/decisions/018).
 */
import { beforeAll, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { customerDetailMessages as dm, customerDocumentMessages as docm, type CustomerDetail, type CustomerDocument, type CustomerDocumentList } from '@hp/contract';
import { createUser, describeEachDatabase } from '../../../test/harness.ts';
import { auditEvents, customerDocuments, files } from '../../db/schema/index.ts';

type User = Awaited<ReturnType<typeof createUser>>;
let ipCounter = 0;
const nextIp = () => `10.78.${(++ipCounter >> 8) & 255}.${ipCounter & 255}`;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>');

describeEachDatabase('customer documents', (ctx) => {
  let employee: User;
  let owner: User;
  let anna: User;
  let bert: User;
  beforeAll(async () => {
    employee = await createUser(ctx(), { role: 'employee' });
    owner = await createUser(ctx(), { role: 'owner' });
    anna = await createUser(ctx());
    bert = await createUser(ctx());
  });

  const call = (opts: InjectOptions) => ctx().app.inject({ remoteAddress: nextIp(), ...opts });
  const base = (customer: User) => `/api/staff/customers/${customer.user.id}/documents`;
  const upload = (who: User, customer: User, data: Buffer, name: string, extra = '') =>
    call({ method: 'POST', url: `${base(customer)}?name=${encodeURIComponent(name)}${extra}`, headers: { ...who.auth, 'content-type': 'application/octet-stream' }, payload: data });
  async function uploaded(who: User, customer: User, data: Buffer, name: string, extra = '') {
    const res = await upload(who, customer, data, name, extra);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<CustomerDocument>();
  }
  const list = async (customer: User, who: User = employee) => {
    const res = await call({ method: 'GET', url: base(customer), headers: who.auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<CustomerDocumentList>().documents;
  };
  const download = (who: User, customerId: string, documentId: string) => call({ method: 'GET', url: `/api/staff/customers/${customerId}/documents/${documentId}`, headers: who.auth });
  const remove = (who: User, customerId: string, documentId: string) => call({ method: 'DELETE', url: `/api/staff/customers/${customerId}/documents/${documentId}`, headers: who.auth });

  it('stores an uploaded PDF, lists its metadata and serves it only as a download with the safe headers', async () => {
    const doc = await uploaded(employee, anna, PDF, 'Rahmenvertrag 2026.pdf', `&description=${encodeURIComponent('Unterschrieben')}`);
    expect(doc).toMatchObject({ name: 'Rahmenvertrag 2026.pdf', contentType: 'application/pdf', size: PDF.length, description: 'Unterschrieben', uploadedBy: employee.username });
    expect(doc.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await list(anna, owner)).toEqual([doc]);
    expect(await list(bert)).toEqual([]);

    const res = await download(owner, anna.user.id, doc.id);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="Rahmenvertrag 2026.pdf"; filename*=UTF-8''Rahmenvertrag%202026.pdf`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('refuses an HTML page named .pdf (415), an empty file (400), another content type (415) and a declared size over 10 MB (413), in German', async () => {
    const html = await upload(employee, anna, HTML, 'vertrag.pdf');
    expect(html.statusCode).toBe(415);
    expect(html.json().error).toEqual({ code: 'ATTACHMENT_TYPE', message: docm.type });
    const empty = await upload(employee, anna, Buffer.alloc(0), 'leer.pdf');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe(docm.empty);
    const json = await call({ method: 'POST', url: `${base(anna)}?name=x.pdf`, headers: employee.auth, payload: { a: 1 } });
    expect(json.statusCode).toBe(415);
    expect(json.json().error.message).toMatch(/nicht unterstützt/);
    const big = await call({ method: 'POST', url: `${base(anna)}?name=x.pdf`, headers: { ...employee.auth, 'content-type': 'application/octet-stream', 'content-length': String(11 * 1024 * 1024) }, payload: PDF });
    expect(big.statusCode).toBe(413);
    expect(big.json().error.message).toBe(docm.tooLarge);
    const names = (await list(anna)).map((d) => d.name);
    expect(names).not.toContain('vertrag.pdf');
  });

  it('answers 404 with the same text for another customer\'s document, a missing id and a staff account; customers are refused', async () => {
    const doc = await uploaded(owner, bert, PDF, 'bert.pdf');
    const foreign = await download(employee, anna.user.id, doc.id);
    const missing = await download(employee, anna.user.id, crypto.randomUUID());
    expect(foreign.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(foreign.json().error).toEqual(missing.json().error);
    expect(foreign.json().error.message).toBe(docm.notFound);
    // The document belongs to Bert, but the staff member is no customer: not found either.
    expect((await download(employee, employee.user.id, doc.id)).statusCode).toBe(404);
    // Deleting through another customer's URL changes nothing.
    expect((await remove(employee, anna.user.id, doc.id)).statusCode).toBe(404);
    expect(await list(bert)).toHaveLength(1);
    // Uploading for a staff account or an unknown id: the customer is not found.
    const toStaff = await upload(employee, employee, PDF, 'x.pdf');
    expect(toStaff.statusCode).toBe(404);
    expect(toStaff.json().error.message).toBe(dm.notFound);

    // Customers never reach staff routes (the same 403 as every staff route), not even their own documents.
    for (const res of [
      await download(bert, bert.user.id, doc.id),
      await call({ method: 'GET', url: base(bert), headers: bert.auth }),
      await upload(bert, bert, PDF, 'selbst.pdf'),
      await remove(bert, bert.user.id, doc.id),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    }
    expect(await list(bert)).toHaveLength(1);
  });

  it('lets an employee upload and delete; both are recorded (who, what); deleting removes the file', async () => {
    const doc = await uploaded(employee, anna, PDF, 'Kündigung.pdf');
    const db = ctx().database.db;
    const [row] = await db.select({ fileId: customerDocuments.fileId }).from(customerDocuments).where(eq(customerDocuments.id, doc.id));
    expect(row).toBeDefined();

    const res = await remove(employee, anna.user.id, doc.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(docm.deleted);
    expect(await db.select().from(customerDocuments).where(eq(customerDocuments.id, doc.id))).toEqual([]);
    expect(await db.select({ id: files.id }).from(files).where(eq(files.id, row!.fileId))).toEqual([]);
    expect((await download(employee, anna.user.id, doc.id)).statusCode).toBe(404);
    expect((await remove(employee, anna.user.id, doc.id)).statusCode).toBe(404);

    const entries = await db.select({ action: auditEvents.action, actorId: auditEvents.actorId, details: auditEvents.details }).from(auditEvents)
      .where(and(eq(auditEvents.targetType, 'customer'), eq(auditEvents.targetId, anna.user.id)));
    expect(entries).toEqual(expect.arrayContaining([
      { action: 'customer.document_uploaded', actorId: employee.user.id, details: { documentId: doc.id, changes: [{ field: 'document', from: '', to: 'Kündigung.pdf' }] } },
      { action: 'customer.document_deleted', actorId: employee.user.id, details: { documentId: doc.id, changes: [{ field: 'document', from: 'Kündigung.pdf', to: '' }] } },
    ]));
    // The customer page's change log shows both.
    const detail = await call({ method: 'GET', url: `/api/staff/customers/${anna.user.id}`, headers: owner.auth });
    const actions = detail.json<CustomerDetail>().audit.filter((a) => a.actor === employee.username).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['customer.document_uploaded', 'customer.document_deleted']));
  });

  it('puts the documents into the customer\'s data export (folder dokumente/, without the uploader) and keeps them when the customer is deleted', async () => {
    const carla = await createUser(ctx());
    const first = await uploaded(employee, carla, PDF, 'vertrag.pdf');
    await uploaded(employee, carla, Buffer.from('Zusatzvereinbarung: Wartungsfenster sonntags.\n'), 'vertrag.txt');
    await uploaded(owner, carla, PDF, 'vertrag.pdf');

    const exported = await call({ method: 'GET', url: '/api/account/export', headers: carla.auth });
    expect(exported.statusCode, exported.body.slice(0, 300)).toBe(200);
    const entries = unzipSync(new Uint8Array(exported.rawPayload));
    const documentNames = Object.keys(entries).filter((n) => n.startsWith('dokumente/')).sort();
    expect(documentNames).toEqual(['dokumente/vertrag (2).pdf', 'dokumente/vertrag.pdf', 'dokumente/vertrag.txt']);
    expect(Buffer.from(entries['dokumente/vertrag.pdf']!).equals(PDF)).toBe(true);
    const data = JSON.parse(strFromU8(entries['daten.json']!));
    expect(data.dokumente).toHaveLength(3);
    expect(data.dokumente[0]).toMatchObject({ name: 'vertrag.pdf', typ: 'application/pdf', groesseBytes: PDF.length, datei: 'dokumente/vertrag.pdf' });
    expect(JSON.stringify(data.dokumente)).not.toContain(employee.username);

    const deleted = await call({ method: 'DELETE', url: `/api/staff/customers/${carla.user.id}`, headers: owner.auth });
    expect(deleted.statusCode, deleted.body).toBe(200);
    // Business records (§ 257 HGB): the documents and their bytes stay; staff still read them …
    const kept = await list(carla);
    expect(kept).toHaveLength(3);
    const again = await download(employee, carla.user.id, first.id);
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(PDF)).toBe(true);
    // … but the anonymised account takes no changes, like every staff mutation.
    expect((await upload(employee, carla, PDF, 'neu.pdf')).statusCode).toBe(404);
    expect((await remove(owner, carla.user.id, first.id)).statusCode).toBe(404);
    expect(await list(carla)).toHaveLength(3);
  });
});
