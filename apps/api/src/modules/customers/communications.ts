import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { customerDetailMessages as dm, type Communication, type RecordCommunicationInput, type SendCustomerMailInput } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { communications, users } from '../../db/schema/index.ts';
import type { Mailer, MailMessage } from '../../drivers/mail/mail.ts';
import { notFound } from '../../http/errors.ts';
import type { RequestUser } from '../../http/auth.ts';
import { enqueueMail } from '../../jobs/mail.ts';
import { staffMail } from '../../drivers/mail/templates.ts';
import { enforceLimit } from '../../lib/rate-limit.ts';

type CommunicationDeps = Pick<Deps, 'db'>;
const staffUsers = alias(users, 'staff_users');

/**
 * The mail port with a memory: every mail the driver accepted for a customer's address is logged in the
 * customer's communication history (subject and text; for mails with one-time codes the subject only).
 * Logging never fails a delivery: a mail that went out must not be sent again because its log failed.
 */
export function withCommunicationLog(db: Db, mail: Mailer, warn: (err: unknown) => void): Mailer {
  return {
    kind: mail.kind,
    close: mail.close?.bind(mail),
    async send(message: MailMessage) {
      await mail.send(message);
      try {
        const [customer] = await db.select({ id: users.id }).from(users)
          .where(and(sql`lower(${users.email}) = ${message.to.toLowerCase()}`, eq(users.role, 'customer')));
        if (!customer) return;
        await db.insert(communications).values({
          customerId: customer.id, kind: 'email', subject: message.subject,
          body: message.sensitive ? null : message.text, staffId: message.sentBy ?? null,
        });
      } catch (err) {
        warn(err);
      }
    },
  };
}

export async function listCommunications({ db }: CommunicationDeps, customerId: string, limit = 50): Promise<Communication[]> {
  const rows = await db.select({ c: communications, staff: staffUsers.username }).from(communications)
    .leftJoin(staffUsers, eq(staffUsers.id, communications.staffId))
    .where(eq(communications.customerId, customerId)).orderBy(desc(communications.createdAt), desc(communications.id)).limit(limit);
  return rows.map(({ c, staff }) => ({
    id: c.id, kind: c.kind, subject: c.subject, body: c.body, staff, createdAt: c.createdAt.toISOString(),
  }));
}

async function customerEmail({ db }: CommunicationDeps, id: string) {
  const [customer] = await db.select({ email: users.email }).from(users).where(and(eq(users.id, id), eq(users.role, 'customer'), isNull(users.deletedAt)));
  if (!customer) throw notFound(dm.notFound);
  return customer.email;
}

/** "E-Mail senden": a real mail through the mail job; the driver's log records it once delivered. */
export async function sendCustomerMail(deps: CommunicationDeps & { jobs?: { kick(): void } }, staff: Pick<RequestUser, 'id'>, id: string, input: SendCustomerMailInput) {
  const to = await customerEmail(deps, id);
  await enforceLimit(deps.db, { key: `staff-mail:${staff.id}`, limit: 60, windowSeconds: 3600 });
  await enqueueMail(deps.db, staffMail(to, input.subject, input.body, staff.id));
  deps.jobs?.kick();
  return { message: dm.mailQueued };
}

/** "Kommunikation erfassen": a call, meeting or other contact, recorded by staff. */
export async function recordCommunication(deps: CommunicationDeps, staff: Pick<RequestUser, 'id'>, id: string, input: RecordCommunicationInput): Promise<Communication> {
  await customerEmail(deps, id);
  const [row] = await deps.db.insert(communications).values({ customerId: id, kind: input.kind, subject: input.subject, body: input.body || null, staffId: staff.id }).returning({ id: communications.id });
  const [saved] = (await listCommunications(deps, id, 5)).filter((c) => c.id === row!.id);
  return saved!;
}
