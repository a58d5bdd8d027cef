import { z } from 'zod';
import { messages } from './messages.ts';
import { plainText } from './text.ts';
import { listPage, listQuery } from './infrastructure.ts';

/* Support tickets (spec §2 "Support", "Ticket chat", "Supporter ticket view", "Support overview"; §3, §5, §8). */

/** German texts of the support desk. Texts quoted from the spec (§8) keep its wording; their spelling and grammar are corrected. */
export const ticketMessages = {
  // spec §8
  alreadyClosed: 'Das Ticket wurde bereits von jemand anderem geschlossen.',
  closeFailedStaff: 'Fehler beim Schließen des Tickets.',
  closed: 'Sie haben das Ticket erfolgreich geschlossen.',
  closeFailed: 'Fehler beim Schließen.',
  statusFailed: 'Fehler beim Aktualisieren des Status.',
  statusUpdated: 'Status erfolgreich aktualisiert.',
  statusSendFailed: 'Fehler beim Senden des Status.',
  alreadyTaken: 'Das Ticket wurde bereits von jemand anderem übernommen.',
  takeOverFailed: 'Fehler beim Übernehmen des Tickets.',
  takenOver: 'Sie haben das Ticket übernommen.',
  sendIdFailed: 'Fehler beim Senden der ID.',
  // ours, same tone
  titleRequired: 'Bitte geben Sie einen Titel ein.',
  titleTooLong: 'Der Titel darf höchstens 150 Zeichen lang sein.',
  descriptionRequired: 'Bitte beschreiben Sie Ihr Anliegen.',
  descriptionTooLong: 'Die Beschreibung darf höchstens 10.000 Zeichen lang sein.',
  typeRequired: 'Bitte wählen Sie die Art des Tickets.',
  messageRequired: 'Bitte geben Sie eine Nachricht ein.',
  messageTooLong: 'Die Nachricht darf höchstens 10.000 Zeichen lang sein.',
  ticketNotFound: 'Ticket nicht gefunden.',
  serverNotFound: 'Server nicht gefunden. Bitte wählen Sie einen Ihrer Server.',
  ticketIsClosed: 'Dieses Ticket ist geschlossen. Bitte eröffnen Sie ein neues Ticket.',
  statusInvalid: 'Bitte wählen Sie „Offen“ oder „In Bearbeitung“.',
  created: 'Ihr Ticket wurde erstellt.',
  createFailed: 'Das Ticket konnte nicht erstellt werden.',
  sendFailed: 'Die Nachricht konnte nicht gesendet werden.',
  noteSaved: 'Interne Notiz gespeichert.',
  mailSettingSaved: 'Benachrichtigungen gespeichert.',
  mailSettingFailed: 'Die Einstellung konnte nicht gespeichert werden.',
  // attachments (docs/decisions/015)
  attachmentTooLarge: 'Die Datei ist zu groß. Erlaubt sind höchstens 10 MB pro Datei.',
  attachmentType: 'Dieser Dateityp wird nicht unterstützt. Erlaubt sind Bilder (PNG, JPEG, GIF, WebP), PDF und Textdateien.',
  attachmentEmpty: 'Die Datei ist leer.',
  tooManyAttachments: 'Höchstens 5 Anhänge pro Nachricht.',
  attachmentNotFound: 'Anhang nicht gefunden. Bitte laden Sie die Datei erneut hoch.',
  attachmentMissing: 'Anhang nicht gefunden.',
  uploadFailed: 'Die Datei konnte nicht hochgeladen werden.',
  downloadFailed: 'Die Datei konnte nicht geladen werden.',
  // confidential fields
  secretLabelRequired: 'Bitte geben Sie an, worum es sich handelt (z. B. Root-Passwort).',
  secretLabelTooLong: 'Die Bezeichnung darf höchstens 80 Zeichen lang sein.',
  secretValueRequired: 'Bitte geben Sie die vertrauliche Angabe ein.',
  secretValueTooLong: 'Die vertrauliche Angabe darf höchstens 4.000 Zeichen lang sein.',
  secretSaved: 'Die vertrauliche Angabe wurde verschlüsselt hinterlegt.',
  secretSaveFailed: 'Die vertrauliche Angabe konnte nicht gespeichert werden.',
  secretNotFound: 'Vertrauliche Angabe nicht gefunden.',
  secretWiped: 'Diese vertrauliche Angabe wurde beim Schließen des Tickets gelöscht.',
} as const;
const m = ticketMessages;

/**
 * Spec §3: question, issue, problem, technical, billing, other; and "VDC-Anfrage" (issue 25), which only
 * the virtual data center's "Individuelle Anfrage" opens (`POST /api/vdc-requests`).
 */
export const ticketTypes = ['question', 'issue', 'problem', 'technical', 'billing', 'other', 'vdc_request'] as const;
export const TicketType = z.enum(ticketTypes, { error: m.typeRequired });
export type TicketType = z.infer<typeof TicketType>;
export const ticketTypeLabels: Record<TicketType, string> = {
  question: 'Frage', issue: 'Störung', problem: 'Problem', technical: 'Technische Frage', billing: 'Zahlung', other: 'Sonstiges', vdc_request: 'VDC-Anfrage',
};
/** The types a customer picks in "Neues Ticket"; the others come from their own forms. */
export const customerTicketTypes = ['question', 'issue', 'problem', 'technical', 'billing', 'other'] as const satisfies readonly TicketType[];
export const CustomerTicketType = z.enum(customerTicketTypes, { error: m.typeRequired });

/** Spec §3: a new ticket is open; staff set open or in progress; closing ends it. */
export const ticketStatuses = ['open', 'in_progress', 'closed'] as const;
export const TicketStatus = z.enum(ticketStatuses, { error: messages.invalidInput });
export type TicketStatus = z.infer<typeof TicketStatus>;
export const ticketStatusLabels: Record<TicketStatus, string> = { open: 'Offen', in_progress: 'In Bearbeitung', closed: 'Geschlossen' };

/** The label of staff messages in the customer's chat (spec "Ticket chat"). */
export const SUPPORT_AGENT_LABEL = 'Support Agent';

export const TicketIdParams = z.object({ id: z.uuid({ error: m.ticketNotFound }) });

export const CreateTicketInput = z.strictObject({
  title: plainText({ error: m.titleRequired }).trim().min(1, m.titleRequired).max(150, m.titleTooLong),
  description: plainText({ multiline: true, error: m.descriptionRequired }).trim().min(1, m.descriptionRequired).max(10_000, m.descriptionTooLong),
  type: CustomerTicketType,
  /** One of the customer's own servers, checked on the server. */
  serverId: z.uuid({ error: m.serverNotFound }).nullable().optional(),
}, { error: messages.invalidInput });
export type CreateTicketInput = z.infer<typeof CreateTicketInput>;

/** Attachments: at most this many per message, each at most this large (docs/decisions/015). */
export const MAX_ATTACHMENTS_PER_MESSAGE = 5;
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** What the file picker offers; the server decides by the bytes. */
export const ATTACHMENT_ACCEPT = 'image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain,.log,.txt';

const messageBody = plainText({ multiline: true, error: m.messageRequired }).trim().max(10_000, m.messageTooLong);
/** Ids of files uploaded before (POST …/attachments); a message may be only attachments. */
const attachmentIds = z.array(z.uuid({ error: m.attachmentNotFound }), { error: messages.invalidInput })
  .max(MAX_ATTACHMENTS_PER_MESSAGE, m.tooManyAttachments)
  .refine((ids) => new Set(ids).size === ids.length, { error: messages.invalidInput })
  .default([]);
const needsContent = (v: { body: string; attachmentIds: string[] }) => v.body.length > 0 || v.attachmentIds.length > 0;

export const PostTicketMessageInput = z.strictObject({ body: messageBody, attachmentIds }, { error: messages.invalidInput })
  .refine(needsContent, { error: m.messageRequired, path: ['body'] });
export type PostTicketMessageInput = z.input<typeof PostTicketMessageInput>;

/** Staff answer the customer, or write an internal note that only staff ever see. */
export const StaffTicketMessageInput = z.strictObject({ body: messageBody, attachmentIds, internal: z.boolean({ error: messages.invalidInput }).default(false) }, { error: messages.invalidInput })
  .refine(needsContent, { error: m.messageRequired, path: ['body'] });
export type StaffTicketMessageInput = z.input<typeof StaffTicketMessageInput>;

/** A file in the chat. `preview`: an image the view may show (fetched through the same download route). */
export const TicketAttachment = z.object({
  id: z.string(),
  name: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  preview: z.boolean(),
});
export type TicketAttachment = z.infer<typeof TicketAttachment>;

/** `POST …/attachments?name=…` with the raw bytes (Content-Type: application/octet-stream). */
export const AttachmentUploadQuery = z.object({ name: z.string({ error: messages.invalidInput }).max(255, messages.invalidInput).optional() });
export const AttachmentParams = z.object({ id: z.uuid({ error: m.ticketNotFound }), fileId: z.uuid({ error: m.attachmentNotFound }) });

/** A confidential field ("vertrauliche Angabe"): the value itself only through the logged staff route. */
export const TicketSecret = z.object({
  id: z.string(),
  label: z.string(),
  createdAt: z.string(),
  /** Wiped when the ticket was closed: the value is gone for good. */
  wiped: z.boolean(),
  /** Staff views only: who opened it, and when (customers get an empty list). */
  openings: z.array(z.object({ name: z.string(), openedAt: z.string() })),
});
export type TicketSecret = z.infer<typeof TicketSecret>;
export const TicketSecretList = z.object({ secrets: z.array(TicketSecret) });
export type TicketSecretList = z.infer<typeof TicketSecretList>;
export const CreateTicketSecretInput = z.strictObject({
  label: plainText({ error: m.secretLabelRequired }).trim().min(1, m.secretLabelRequired).max(80, m.secretLabelTooLong),
  // Passwords may contain anything printable, keys span lines; no trimming (a trailing space can be
  // part of a password).
  value: plainText({ multiline: true, error: m.secretValueRequired }).min(1, m.secretValueRequired).max(4000, m.secretValueTooLong),
}, { error: messages.invalidInput });
export type CreateTicketSecretInput = z.infer<typeof CreateTicketSecretInput>;
export const SecretParams = z.object({ id: z.uuid({ error: m.ticketNotFound }), secretId: z.uuid({ error: m.secretNotFound }) });
export const TicketSecretValue = z.object({ value: z.string() });
export type TicketSecretValue = z.infer<typeof TicketSecretValue>;

export const TicketStatusInput = z.strictObject({ status: z.enum(['open', 'in_progress'], { error: m.statusInvalid }) }, { error: messages.invalidInput });
export type TicketStatusInput = z.infer<typeof TicketStatusInput>;

export const TicketServer = z.object({ id: z.string(), name: z.string() });

/** A ticket as its customer sees it. Staff names and notes are not part of it. */
export const Ticket = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  type: TicketType,
  status: TicketStatus,
  server: TicketServer.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Ticket = z.infer<typeof Ticket>;
export const TicketList = z.object({ tickets: z.array(Ticket) });
export type TicketList = z.infer<typeof TicketList>;

/** One chat message. `author` is who wrote it; customers never receive internal notes or staff names. */
export const TicketMessage = z.object({
  id: z.string(),
  body: z.string(),
  author: z.enum(['customer', 'staff']),
  /** Staff views only: who wrote it. Customers see 'Support Agent' for every staff message. */
  authorName: z.string().nullable(),
  internal: z.boolean(),
  attachments: z.array(TicketAttachment),
  createdAt: z.string(),
});
export type TicketMessage = z.infer<typeof TicketMessage>;

/** Newest first; `nextCursor` loads the older ones (chat paging for long tickets). */
export const TicketMessagePage = z.object({ items: z.array(TicketMessage), nextCursor: z.string().nullable() });
export type TicketMessagePage = z.infer<typeof TicketMessagePage>;

export const TicketMessagesQuery = z.object({
  before: z.string().regex(/^[1-9][0-9]{0,15}$/, messages.invalidInput).optional(),
  limit: z.coerce.number({ error: messages.invalidInput }).int(messages.invalidInput).min(1, messages.invalidInput).max(100, messages.invalidInput).default(50),
});
export type TicketMessagesQuery = z.infer<typeof TicketMessagesQuery>;

// ---- staff ----

export const StaffTicketRow = z.object({
  id: z.string(),
  title: z.string(),
  type: TicketType,
  status: TicketStatus,
  customer: z.object({ customerNumber: z.number().int(), name: z.string() }),
  assignee: z.object({ name: z.string() }).nullable(),
  /** The customer's oldest unanswered message (null: nothing waits for an answer). */
  waitingSince: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type StaffTicketRow = z.infer<typeof StaffTicketRow>;
export const StaffTicketPage = listPage(StaffTicketRow);
export type StaffTicketPage = z.infer<typeof StaffTicketPage>;
export const staffTicketSortFields = ['createdAt', 'status', 'type', 'waiting'] as const;
/** Staff ticket lists: search title or customer name (case-insensitive); filter by status and type. */
export const StaffTicketListQuery = listQuery(staffTicketSortFields, {
  status: TicketStatus.optional(),
  type: z.enum(ticketTypes, { error: messages.invalidInput }).optional(),
});
export type StaffTicketListQuery = z.infer<typeof StaffTicketListQuery>;

export const StaffTicketDetail = Ticket.extend({
  assignee: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** The signed-in staff member holds the ticket. */
  mine: z.boolean(),
  waitingSince: z.string().nullable(),
  firstResponseAt: z.string().nullable(),
  customer: z.object({
    /** For the link to the customer detail page. */
    id: z.string(),
    customerNumber: z.number().int(),
    name: z.string(),
    email: z.string(),
    servers: z.array(z.object({ id: z.string(), name: z.string(), status: z.string(), ip: z.string().nullable() })),
  }),
  affectedServer: z.object({
    id: z.string(), name: z.string(), status: z.string(), ip: z.string().nullable(), node: z.string(),
    /** The last five operations on the server (power, backup, reinstall …), newest first. */
    recentTasks: z.array(z.object({ id: z.string(), kind: z.string(), status: z.enum(['running', 'ok', 'failed']), startedAt: z.string() })),
  }).nullable(),
});
export type StaffTicketDetail = z.infer<typeof StaffTicketDetail>;

/** Staff: mails about new tickets and customer replies (on by default; each staff member may switch them off). */
export const TicketMailSetting = z.strictObject({ enabled: z.boolean({ error: messages.invalidInput }) }, { error: messages.invalidInput });
export type TicketMailSetting = z.infer<typeof TicketMailSetting>;

// ---- presence (staff only) ----

/** Heartbeat of a staff member in the supporter ticket view: there, and typing or not. */
export const TicketPresenceInput = z.strictObject({ typing: z.boolean({ error: messages.invalidInput }) }, { error: messages.invalidInput });
export type TicketPresenceInput = z.infer<typeof TicketPresenceInput>;

/** Another staff member in the same ticket view (never the caller), sorted by name. */
export const TicketViewer = z.object({ name: z.string(), typing: z.boolean() });
export type TicketViewer = z.infer<typeof TicketViewer>;
export const TicketPresence = z.object({ viewers: z.array(TicketViewer) });
export type TicketPresence = z.infer<typeof TicketPresence>;

/** The collision warning's line for one viewer. It warns and never blocks. */
export const ticketPresenceText = (viewer: TicketViewer) =>
  (viewer.typing ? `${viewer.name} schreibt …` : `${viewer.name} sieht sich dieses Ticket an`);
