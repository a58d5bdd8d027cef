import { z } from 'zod';
import { incidentSeverities, incidentStatuses, maintenanceStatuses, serviceStatuses } from './status-labels.ts';
import { messages } from './messages.ts';
import { plainText } from './text.ts';

/* Status page (spec §2.7, §2.8, §3, §4): services, incidents with updates, maintenances. */

/** German texts of the status feature that the shared catalogue does not hold. */
export const statusMessages = {
  statusInvalid: 'Bitte wählen Sie einen gültigen Status.',
  severityInvalid: 'Bitte wählen Sie einen gültigen Schweregrad.',
  dateInvalid: 'Bitte geben Sie ein gültiges Datum mit Uhrzeit an.',
  nothingToChange: 'Bitte geben Sie mindestens eine Änderung an.',
  textTooLong: (max: number) => `Bitte kürzen Sie den Text auf höchstens ${max} Zeichen.`,
  serviceNameTaken: 'Ein Dienst mit diesem Namen existiert bereits.',
  unknownService: 'Bitte wählen Sie nur vorhandene Dienste aus.',
  tooManyServices: 'Bitte wählen Sie höchstens 50 Dienste aus.',
} as const;

export const SERVICE_NAME_MAX = 100;
export const STATUS_TITLE_MAX = 200;
export const STATUS_TEXT_MAX = 5000;

export const ServiceStatus = z.enum(serviceStatuses, { error: statusMessages.statusInvalid });
export type ServiceStatus = z.infer<typeof ServiceStatus>;
export const IncidentStatus = z.enum(incidentStatuses, { error: statusMessages.statusInvalid });
export type IncidentStatus = z.infer<typeof IncidentStatus>;
export const IncidentSeverity = z.enum(incidentSeverities, { error: statusMessages.severityInvalid });
export type IncidentSeverity = z.infer<typeof IncidentSeverity>;
export const MaintenanceStatus = z.enum(maintenanceStatuses, { error: statusMessages.statusInvalid });
export type MaintenanceStatus = z.infer<typeof MaintenanceStatus>;

// ---- responses (dates are ISO 8601 strings) ----

export const StatusService = z.object({ id: z.number().int(), name: z.string(), status: ServiceStatus });
export type StatusService = z.infer<typeof StatusService>;

export const StatusIncidentUpdate = z.object({ id: z.number().int(), status: IncidentStatus, message: z.string(), date: z.string() });
export type StatusIncidentUpdate = z.infer<typeof StatusIncidentUpdate>;

export const StatusIncident = z.object({
  id: z.number().int(),
  title: z.string(),
  status: IncidentStatus,
  severity: IncidentSeverity,
  date: z.string(),
  /** Newest first. */
  updates: z.array(StatusIncidentUpdate),
});
export type StatusIncident = z.infer<typeof StatusIncident>;

export const StatusMaintenance = z.object({
  id: z.number().int(),
  title: z.string(),
  status: MaintenanceStatus,
  startDate: z.string(),
  endDate: z.string(),
  affectedServices: z.array(z.string()),
  description: z.string(),
});
export type StatusMaintenance = z.infer<typeof StatusMaintenance>;

export const StatusPageData = z.object({
  overallStatus: ServiceStatus,
  services: z.array(StatusService),
  /** Every unresolved incident and the most recently resolved ones, newest first. */
  incidents: z.array(StatusIncident),
  /** Every scheduled or running maintenance and the most recently completed ones, by start date. */
  maintenances: z.array(StatusMaintenance),
});
export type StatusPageData = z.infer<typeof StatusPageData>;

// ---- inputs ----

// Shown on the public status page: no bidi overrides or other invisible controls (line breaks are fine).
const requiredText = (max: number, required: string) =>
  plainText({ error: required, multiline: true }).trim().min(1, required).max(max, statusMessages.textTooLong(max));
// Bounded so that every value (and start + 1 hour) round-trips through PostgreSQL and JavaScript dates.
const DATE_MIN = Date.UTC(2000, 0, 1);
const DATE_MAX = Date.UTC(2999, 11, 31);
const isoDateTime = () =>
  z.iso.datetime({ offset: true, error: statusMessages.dateInvalid }).refine((s) => {
    const t = Date.parse(s);
    return t >= DATE_MIN && t <= DATE_MAX;
  }, statusMessages.dateInvalid);

const serviceName = requiredText(SERVICE_NAME_MAX, messages.serviceNameRequired);
const incidentTitle = requiredText(STATUS_TITLE_MAX, messages.incidentTitleRequired);
const updateMessage = requiredText(STATUS_TEXT_MAX, messages.updateMessageRequired);
const maintenanceTitle = requiredText(STATUS_TITLE_MAX, messages.maintenanceTitleRequired);
const maintenanceDescription = requiredText(STATUS_TEXT_MAX, messages.maintenanceDescriptionRequired);
const affectedServices = z.array(z.string().trim().min(1).max(SERVICE_NAME_MAX), { error: messages.invalidInput }).max(50, statusMessages.tooManyServices);
const strict = { error: messages.invalidInput };
const hasSomeField = (v: object) => Object.values(v).some((x) => x !== undefined);

/** Route parameter of every status entity. */
// Bounded to the int4 range of the id columns: a huge id is refused here instead of failing in the database.
/** A malformed id answers the generic message, as a missing one would. */
const invalidId = { error: messages.invalidInput };
export const StatusIdParams = z.object({ id: z.coerce.number(invalidId).int(invalidId).positive(invalidId).max(2_147_483_647, invalidId) });

export const CreateServiceInput = z.strictObject({ name: serviceName }, strict);
export type CreateServiceInput = z.infer<typeof CreateServiceInput>;

export const UpdateServiceInput = z
  .strictObject({ name: serviceName.optional(), status: ServiceStatus.optional() }, strict)
  .refine(hasSomeField, statusMessages.nothingToChange);
export type UpdateServiceInput = z.infer<typeof UpdateServiceInput>;

export const CreateIncidentInput = z.strictObject({
  title: incidentTitle,
  severity: IncidentSeverity.default('minor'),
  status: IncidentStatus.default('investigating'),
  /** Becomes the first update of the incident. */
  message: z.string().trim().max(STATUS_TEXT_MAX, statusMessages.textTooLong(STATUS_TEXT_MAX)).optional(),
}, strict);
export type CreateIncidentInput = z.infer<typeof CreateIncidentInput>;

/** The incident is chosen by the URL (POST /api/status/incidents/:id/updates). */
export const CreateIncidentUpdateInput = z.strictObject({ status: IncidentStatus, message: updateMessage }, strict);
export type CreateIncidentUpdateInput = z.infer<typeof CreateIncidentUpdateInput>;

/** The form's variant: the incident is picked in a select (spec §5: an update needs a selected incident). */
export const IncidentUpdateForm = CreateIncidentUpdateInput.extend({
  incidentId: z.coerce.number({ error: messages.incidentRequired }).int(messages.incidentRequired).positive(messages.incidentRequired),
});

export const CreateMaintenanceInput = z.strictObject({
  title: maintenanceTitle,
  description: maintenanceDescription,
  startDate: isoDateTime(),
  /** Defaults to start + 1 hour (spec §4). The server refuses an end that is not after the start. */
  endDate: isoDateTime().optional(),
  affectedServices: affectedServices.default([]),
  status: MaintenanceStatus.default('scheduled'),
}, strict);
export type CreateMaintenanceInput = z.infer<typeof CreateMaintenanceInput>;

export const UpdateMaintenanceInput = z
  .strictObject({
    title: maintenanceTitle.optional(),
    description: maintenanceDescription.optional(),
    startDate: isoDateTime().optional(),
    endDate: isoDateTime().optional(),
    affectedServices: affectedServices.optional(),
    status: MaintenanceStatus.optional(),
  }, strict)
  .refine(hasSomeField, statusMessages.nothingToChange);
export type UpdateMaintenanceInput = z.infer<typeof UpdateMaintenanceInput>;

export const MAINTENANCE_DEFAULT_DURATION_MS = 60 * 60 * 1000;

/** Spec §4: a new maintenance ends one hour after its start unless told otherwise. */
export const defaultMaintenanceEnd = (start: Date) => new Date(start.getTime() + MAINTENANCE_DEFAULT_DURATION_MS);

/**
 * The maintenance form: the same fields, with the browser's `datetime-local` values (no offset) that the
 * page converts to ISO instants before sending.
 */
const localDateTime = z.string({ error: statusMessages.dateInvalid }).regex(/^2\d{3}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/, statusMessages.dateInvalid);
export const MaintenanceForm = CreateMaintenanceInput.extend({
  startDate: localDateTime,
  endDate: localDateTime,
  affectedServices: affectedServices,
  status: MaintenanceStatus,
}).refine((v) => v.endDate > v.startDate, { message: messages.maintenanceEndBeforeStart, path: ['endDate'] });
export type MaintenanceForm = z.infer<typeof MaintenanceForm>;
