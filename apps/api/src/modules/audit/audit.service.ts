import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditEvents, users } from '../../db/schema/index.ts';

export type AuditTarget = { type: 'server' | 'customer'; id: string };

/** Records what a staff member did to a customer's object (append-only, staff-only). */
export async function recordAudit(db: Db, actorId: string, action: string, target: AuditTarget, details: Record<string, unknown> = {}) {
  await db.insert(auditEvents).values({ actorId, action, targetType: target.type, targetId: target.id, details });
}

/** The newest entries for one object, with the staff member's username. */
export async function findAudit(db: Db, target: AuditTarget, limit = 20) {
  const rows = await db.select({ action: auditEvents.action, actor: users.username, at: auditEvents.createdAt, details: auditEvents.details })
    .from(auditEvents).innerJoin(users, eq(users.id, auditEvents.actorId))
    .where(and(eq(auditEvents.targetType, target.type), eq(auditEvents.targetId, target.id)))
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id)).limit(limit);
  return rows.map((r) => ({ ...r, at: r.at.toISOString() }));
}
