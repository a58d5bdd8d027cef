import { asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import {
  deriveOverallStatus,
  defaultMaintenanceEnd,
  messages,
  statusMessages,
  type CreateIncidentInput,
  type CreateIncidentUpdateInput,
  type CreateMaintenanceInput,
  type CreateServiceInput,
  type StatusIncident,
  type StatusMaintenance,
  type StatusPageData,
  type StatusService,
  type UpdateMaintenanceInput,
  type UpdateServiceInput,
} from '@hp/contract';
import type { Deps } from '../../deps.ts';
import type { Db } from '../../db/client.ts';
import { statusIncidents, statusIncidentUpdates, statusMaintenances, statusServices } from '../../db/schema/index.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';

type StatusDeps = Pick<Deps, 'db'>;

/** How many resolved incidents and completed maintenances the page shows as history. */
export const STATUS_HISTORY_LIMIT = 10;

type ServiceRow = typeof statusServices.$inferSelect;
type IncidentRow = typeof statusIncidents.$inferSelect;
type UpdateRow = typeof statusIncidentUpdates.$inferSelect;
type MaintenanceRow = typeof statusMaintenances.$inferSelect;

const toService = (s: ServiceRow): StatusService => ({ id: s.id, name: s.name, status: s.status });

const toIncident = (i: IncidentRow, updates: UpdateRow[]): StatusIncident => ({
  id: i.id,
  title: i.title,
  status: i.status,
  severity: i.severity,
  date: i.createdAt.toISOString(),
  updates: updates.map((u) => ({ id: u.id, status: u.status, message: u.message, date: u.createdAt.toISOString() })),
});

const toMaintenance = (m: MaintenanceRow): StatusMaintenance => ({
  id: m.id,
  title: m.title,
  status: m.status,
  startDate: m.startDate.toISOString(),
  endDate: m.endDate.toISOString(),
  affectedServices: m.affectedServices,
  description: m.description,
});

/** Updates of many incidents in one query, newest first per incident. */
async function findUpdatesByIncident(db: Db, incidentIds: number[]) {
  const byIncident = new Map<number, UpdateRow[]>(incidentIds.map((id) => [id, []]));
  if (!incidentIds.length) return byIncident;
  const rows = await db
    .select()
    .from(statusIncidentUpdates)
    .where(inArray(statusIncidentUpdates.incidentId, incidentIds))
    .orderBy(desc(statusIncidentUpdates.createdAt), desc(statusIncidentUpdates.id));
  for (const row of rows) byIncident.get(row.incidentId)?.push(row);
  return byIncident;
}

async function findIncident(db: Db, id: number): Promise<StatusIncident> {
  const [incident] = await db.select().from(statusIncidents).where(eq(statusIncidents.id, id));
  if (!incident) throw notFound();
  const updates = await findUpdatesByIncident(db, [id]);
  return toIncident(incident, updates.get(id) ?? []);
}

/**
 * Everything the public page shows: services, every open incident and maintenance, plus a short history
 * of resolved incidents and completed maintenances so the response stays bounded.
 */
export async function findStatusPage({ db }: StatusDeps): Promise<StatusPageData> {
  const [services, openIncidents, resolvedIncidents, openMaintenances, completedMaintenances] = await Promise.all([
    db.select().from(statusServices).orderBy(asc(statusServices.position), asc(statusServices.id)),
    db.select().from(statusIncidents).where(ne(statusIncidents.status, 'resolved')),
    db.select().from(statusIncidents).where(eq(statusIncidents.status, 'resolved'))
      .orderBy(desc(statusIncidents.createdAt), desc(statusIncidents.id)).limit(STATUS_HISTORY_LIMIT),
    db.select().from(statusMaintenances).where(ne(statusMaintenances.status, 'completed')),
    db.select().from(statusMaintenances).where(eq(statusMaintenances.status, 'completed'))
      .orderBy(desc(statusMaintenances.startDate), desc(statusMaintenances.id)).limit(STATUS_HISTORY_LIMIT),
  ]);

  const incidents = [...openIncidents, ...resolvedIncidents].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
  const updates = await findUpdatesByIncident(db, incidents.map((i) => i.id));
  const maintenances = [...openMaintenances, ...completedMaintenances].sort((a, b) => a.startDate.getTime() - b.startDate.getTime() || a.id - b.id);

  const serviceList = services.map(toService);
  return {
    overallStatus: deriveOverallStatus(serviceList),
    services: serviceList,
    incidents: incidents.map((i) => toIncident(i, updates.get(i.id) ?? [])),
    maintenances: maintenances.map(toMaintenance),
  };
}

async function assertServiceNameFree(db: Db, name: string, exceptId?: number) {
  const clash = await db
    .select({ id: statusServices.id })
    .from(statusServices)
    .where(sql`lower(${statusServices.name}) = ${name.toLowerCase()}${exceptId === undefined ? sql`` : sql` and ${statusServices.id} <> ${exceptId}`}`);
  if (clash.length) throw conflict('SERVICE_NAME_TAKEN', statusMessages.serviceNameTaken);
}

export async function createService({ db }: StatusDeps, input: CreateServiceInput): Promise<StatusService> {
  await assertServiceNameFree(db, input.name);
  const [created] = await db
    .insert(statusServices)
    .values({ name: input.name, position: sql`(select coalesce(max(${statusServices.position}), 0) + 1 from ${statusServices})` })
    .returning();
  return toService(created!);
}

export async function updateService({ db }: StatusDeps, id: number, input: UpdateServiceInput): Promise<StatusService> {
  if (input.name !== undefined) await assertServiceNameFree(db, input.name, id);
  const [updated] = await db
    .update(statusServices)
    .set({ ...(input.name !== undefined && { name: input.name }), ...(input.status && { status: input.status }), updatedAt: new Date() })
    .where(eq(statusServices.id, id))
    .returning();
  if (!updated) throw notFound();
  return toService(updated);
}

export async function deleteService({ db }: StatusDeps, id: number) {
  const deleted = await db.delete(statusServices).where(eq(statusServices.id, id)).returning({ id: statusServices.id });
  if (!deleted.length) throw notFound();
}

/** Creates an incident; a given message becomes its first update, with the incident's status. */
export async function createIncident({ db }: StatusDeps, input: CreateIncidentInput): Promise<StatusIncident> {
  const id = await db.transaction(async (tx) => {
    const [incident] = await tx.insert(statusIncidents).values({ title: input.title, severity: input.severity, status: input.status }).returning();
    if (input.message) {
      await tx.insert(statusIncidentUpdates).values({ incidentId: incident!.id, status: input.status, message: input.message, createdAt: incident!.createdAt });
    }
    return incident!.id;
  });
  return findIncident(db, id);
}

/** Spec §4: adding an update sets the incident's status to the update's status. */
export async function addIncidentUpdate({ db }: StatusDeps, incidentId: number, input: CreateIncidentUpdateInput): Promise<StatusIncident> {
  await db.transaction(async (tx) => {
    const [incident] = await tx.update(statusIncidents).set({ status: input.status }).where(eq(statusIncidents.id, incidentId)).returning({ id: statusIncidents.id });
    if (!incident) throw notFound();
    await tx.insert(statusIncidentUpdates).values({ incidentId, status: input.status, message: input.message });
  });
  return findIncident(db, incidentId);
}

export async function deleteIncident({ db }: StatusDeps, id: number) {
  // The updates go with it (ON DELETE CASCADE).
  const deleted = await db.delete(statusIncidents).where(eq(statusIncidents.id, id)).returning({ id: statusIncidents.id });
  if (!deleted.length) throw notFound();
}

const uniqueNames = (names: string[]) => [...new Map(names.map((n) => [n.toLowerCase(), n])).values()];

/** Affected services are stored by name (spec §3); they must name services that exist now. */
async function resolveAffectedServices(db: Db, names: string[]) {
  const wanted = uniqueNames(names);
  if (!wanted.length) return [];
  const services = await db.select({ name: statusServices.name }).from(statusServices);
  const byLower = new Map(services.map((s) => [s.name.toLowerCase(), s.name]));
  return wanted.map((name) => {
    const known = byLower.get(name.toLowerCase());
    if (!known) throw badRequest('UNKNOWN_SERVICE', statusMessages.unknownService, { field: 'affectedServices' });
    return known;
  });
}

function assertEndAfterStart(start: Date, end: Date) {
  if (end.getTime() <= start.getTime()) throw badRequest('MAINTENANCE_END_BEFORE_START', messages.maintenanceEndBeforeStart, { field: 'endDate' });
}

export async function createMaintenance({ db }: StatusDeps, input: CreateMaintenanceInput): Promise<StatusMaintenance> {
  const startDate = new Date(input.startDate);
  const endDate = input.endDate ? new Date(input.endDate) : defaultMaintenanceEnd(startDate);
  assertEndAfterStart(startDate, endDate);
  const affectedServices = await resolveAffectedServices(db, input.affectedServices);
  const [created] = await db
    .insert(statusMaintenances)
    .values({ title: input.title, description: input.description, status: input.status, startDate, endDate, affectedServices })
    .returning();
  return toMaintenance(created!);
}

export async function updateMaintenance({ db }: StatusDeps, id: number, input: UpdateMaintenanceInput): Promise<StatusMaintenance> {
  const [current] = await db.select().from(statusMaintenances).where(eq(statusMaintenances.id, id));
  if (!current) throw notFound();
  const startDate = input.startDate ? new Date(input.startDate) : current.startDate;
  const endDate = input.endDate ? new Date(input.endDate) : current.endDate;
  if (input.startDate || input.endDate) assertEndAfterStart(startDate, endDate);
  const affectedServices = input.affectedServices ? await resolveAffectedServices(db, input.affectedServices) : undefined;
  const [updated] = await db
    .update(statusMaintenances)
    .set({
      ...(input.title !== undefined && { title: input.title }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.status && { status: input.status }),
      ...(affectedServices && { affectedServices }),
      startDate,
      endDate,
    })
    .where(eq(statusMaintenances.id, id))
    .returning();
  if (!updated) throw notFound();
  return toMaintenance(updated);
}

export async function deleteMaintenance({ db }: StatusDeps, id: number) {
  const deleted = await db.delete(statusMaintenances).where(eq(statusMaintenances.id, id)).returning({ id: statusMaintenances.id });
  if (!deleted.length) throw notFound();
}
