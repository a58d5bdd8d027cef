import { z } from 'zod';
import { listPage, listQuery } from './infrastructure.ts';
import { messages } from './messages.ts';
import { plainText } from './text.ts';
import { EmailAddress, UpdateProfileInput } from './profile.ts';
import { ticketMessages } from './tickets.ts';
import { TaxViewResponse } from './business.ts';
import { ProductKind } from './products.ts';

/* Back office: customers (spec "Customer overview"; issue 11). Staff only. */

export const customerMessages = {
  exportFailed: 'Der Export konnte nicht erstellt werden.',
} as const;

/** "Firmenkunde" when the customer buys as a business (the profile's switch, issue 24), otherwise "Privatkunde". */
export const customerKinds = ['private', 'business'] as const;
export type CustomerKind = (typeof customerKinds)[number];
export const customerKindLabels: Record<CustomerKind, string> = { private: 'Privatkunde', business: 'Firmenkunde' };

export const CustomerRow = z.object({
  id: z.string(),
  customerNumber: z.number().int(),
  name: z.string(),
  email: z.string(),
  companyName: z.string(),
  kind: z.enum(customerKinds),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
});
export type CustomerRow = z.infer<typeof CustomerRow>;
export const CustomerPage = listPage(CustomerRow);
export type CustomerPage = z.infer<typeof CustomerPage>;

/** Sort: customer since (default, newest first), name, last login. */
export const customerSortFields = ['createdAt', 'name', 'lastLogin'] as const;
/** Search: name, e-mail or customer number, case-insensitive substring. */
export const CustomerListQuery = listQuery(customerSortFields, {});
export type CustomerListQuery = z.infer<typeof CustomerListQuery>;
/** The CSV export takes the list's search and sort (all matching rows, no paging). */
export const CustomerExportQuery = CustomerListQuery.pick({ q: true, sort: true });
export type CustomerExportQuery = z.infer<typeof CustomerExportQuery>;

export const customerDetailMessages = {
  notFound: 'Kunde nicht gefunden.',
  noteRequired: 'Bitte geben Sie eine Notiz ein.',
  noteTooLong: 'Die Notiz darf höchstens 5.000 Zeichen lang sein.',
  noteSaved: 'Notiz gespeichert.',
  noteFailed: 'Die Notiz konnte nicht gespeichert werden.',
  saved: 'Kundendaten gespeichert.',
  saveFailed: 'Die Kundendaten konnten nicht gespeichert werden.',
  unchanged: 'Es wurde nichts geändert.',
  locked: 'Das Konto ist gesperrt; alle Sitzungen wurden beendet.',
  unlocked: 'Das Konto ist wieder freigegeben.',
  lockFailed: 'Die Sperre konnte nicht geändert werden.',
  subjectRequired: 'Bitte geben Sie einen Betreff ein.',
  subjectTooLong: 'Der Betreff darf höchstens 150 Zeichen lang sein.',
  mailBodyRequired: 'Bitte geben Sie eine Nachricht ein.',
  bodyTooLong: 'Der Text darf höchstens 10.000 Zeichen lang sein.',
  mailQueued: 'Die E-Mail wird versendet und erscheint danach unter Kommunikation.',
  mailFailed: 'Die E-Mail konnte nicht versendet werden.',
  communicationSaved: 'Kommunikation erfasst.',
  communicationFailed: 'Die Kommunikation konnte nicht gespeichert werden.',
  kindRequired: 'Bitte wählen Sie die Art der Kommunikation.',
  emailUnchanged: 'Das ist bereits die E-Mail-Adresse des Kunden.',
  emailInUse: 'Diese E-Mail-Adresse wird bereits von einem anderen Konto verwendet.',
  emailLinkSent: 'Wir haben einen Bestätigungslink an die neue Adresse gesendet. Sie gilt, sobald der Kunde ihn öffnet.',
  emailChangeFailed: 'Der Bestätigungslink konnte nicht gesendet werden.',
  tooManyEmailChanges: 'Zu viele Änderungen der E-Mail-Adresse. Bitte versuchen Sie es später erneut.',
  noPendingEmail: 'Es wartet keine Änderung der E-Mail-Adresse auf Bestätigung.',
  emailChangeCancelled: 'Die Änderung der E-Mail-Adresse wurde verworfen; der Link gilt nicht mehr.',
} as const;

/** The page behind the link a staff-initiated e-mail change sends to the new address. */
export const emailLinkMessages = {
  invalidLink: 'Dieser Bestätigungslink ist ungültig oder abgelaufen. Bitte wenden Sie sich an den Support.',
  confirmed: 'Ihre neue E-Mail-Adresse ist bestätigt. Nachrichten zu Ihrem Konto gehen ab jetzt an diese Adresse.',
  failed: 'Die Adresse konnte nicht bestätigt werden. Bitte versuchen Sie es erneut.',
} as const;

/** Days the link of a staff-initiated e-mail change stays valid (the customer may not read mail at once). */
export const STAFF_EMAIL_LINK_DAYS = 7;

/** Staff change a customer's e-mail address: it applies once the new address confirms by link. */
export const StaffEmailChangeInput = z.strictObject({ newEmail: EmailAddress }, { error: messages.invalidInput });
export type StaffEmailChangeInput = z.infer<typeof StaffEmailChangeInput>;
export const ConfirmEmailLinkInput = z.strictObject({
  id: z.uuid({ error: emailLinkMessages.invalidLink }),
  token: z.string({ error: emailLinkMessages.invalidLink }).regex(/^[A-Za-z0-9_-]{43}$/, emailLinkMessages.invalidLink),
}, { error: emailLinkMessages.invalidLink });
export type ConfirmEmailLinkInput = z.infer<typeof ConfirmEmailLinkInput>;

export const CustomerIdParams = z.object({ id: z.uuid({ error: customerDetailMessages.notFound }) });

export const CustomerNote = z.object({ id: z.string(), body: z.string(), author: z.string(), createdAt: z.string() });
export type CustomerNote = z.infer<typeof CustomerNote>;
export const CreateCustomerNoteInput = z.strictObject({
  body: plainText({ multiline: true, error: customerDetailMessages.noteRequired }).trim().min(1, customerDetailMessages.noteRequired).max(5000, customerDetailMessages.noteTooLong),
}, { error: messages.invalidInput });
export type CreateCustomerNoteInput = z.infer<typeof CreateCustomerNoteInput>;

/** One recorded staff change to a customer: who, when, what (field: old → new). */
export const CustomerAuditEntry = z.object({
  action: z.string(),
  actor: z.string(),
  at: z.string(),
  changes: z.array(z.object({ field: z.string(), from: z.string(), to: z.string() })),
});
export type CustomerAuditEntry = z.infer<typeof CustomerAuditEntry>;
export const customerFieldLabels: Record<string, string> = {
  email: 'E-Mail', phone: 'Telefon', street: 'Straße und Hausnummer', zipCode: 'PLZ', city: 'Ort', country: 'Land', companyName: 'Firma', industry: 'Branche', vatId: 'USt-IdNr.', locked: 'Gesperrt', document: 'Dokument',
};
export const customerAuditLabels: Record<string, string> = {
  'customer.updated': 'Kundendaten geändert', 'customer.locked': 'Konto gesperrt', 'customer.unlocked': 'Konto freigegeben', 'customer.note': 'Notiz hinzugefügt',
  'customer.deleted': 'Kunde gelöscht (anonymisiert)',
  'customer.email_change_requested': 'E-Mail-Änderung angestoßen (Bestätigungslink an die neue Adresse)',
  'customer.email_changed': 'Neue E-Mail-Adresse vom Kunden bestätigt',
  'customer.email_change_cancelled': 'E-Mail-Änderung verworfen',
  'customer.document_uploaded': 'Dokument hochgeladen', 'customer.document_deleted': 'Dokument gelöscht',
};

export const communicationKinds = ['email', 'call', 'meeting', 'other'] as const;
export const communicationKindLabels: Record<(typeof communicationKinds)[number], string> = { email: 'E-Mail', call: 'Anruf', meeting: 'Termin', other: 'Sonstiges' };
export const Communication = z.object({
  id: z.string(),
  kind: z.enum(communicationKinds),
  subject: z.string(),
  /** Null for mails whose content is not kept (one-time codes). */
  body: z.string().nullable(),
  /** Who sent or recorded it; null for the system's own mails. */
  staff: z.string().nullable(),
  createdAt: z.string(),
});
export type Communication = z.infer<typeof Communication>;
const subject = plainText({ error: customerDetailMessages.subjectRequired }).trim().min(1, customerDetailMessages.subjectRequired).max(150, customerDetailMessages.subjectTooLong);
export const SendCustomerMailInput = z.strictObject({
  subject,
  body: plainText({ multiline: true, error: customerDetailMessages.mailBodyRequired }).trim().min(1, customerDetailMessages.mailBodyRequired).max(10_000, customerDetailMessages.bodyTooLong),
}, { error: messages.invalidInput });
export type SendCustomerMailInput = z.infer<typeof SendCustomerMailInput>;
/** Staff record a call, meeting or other contact (mails are logged by themselves). */
export const RecordCommunicationInput = z.strictObject({
  kind: z.enum(['call', 'meeting', 'other'], { error: customerDetailMessages.kindRequired }),
  subject,
  body: plainText({ multiline: true }).trim().max(10_000, customerDetailMessages.bodyTooLong).default(''),
}, { error: messages.invalidInput });
export type RecordCommunicationInput = z.input<typeof RecordCommunicationInput>;

const fieldMatch = z.enum(['match', 'mismatch', 'unknown']);
/** The proof of a VAT-ID check as staff see it: result, service, date, consultation number, name/address match. */
export const CustomerVatCheck = z.object({
  status: z.enum(['valid', 'invalid', 'unavailable']),
  country: z.string(),
  vatId: z.string(),
  service: z.enum(['vies', 'evatr', 'simulated']),
  consultationNumber: z.string().nullable(),
  checkedAt: z.string(),
  matches: z.object({ name: fieldMatch.optional(), street: fieldMatch.optional(), zip: fieldMatch.optional(), city: fieldMatch.optional() }).nullable(),
  /** The service's German words (why invalid or not checked), when it gave any. */
  message: z.string().nullable(),
});
export type CustomerVatCheck = z.infer<typeof CustomerVatCheck>;

/**
 * One subscription on the staff customer page, in the one shape every product fills (its staffSection
 * through the product port): name, what it is, its status and term.
 */
export const StaffSubscriptionItem = z.object({
  id: z.string(),
  /** What staff call it: the server's name, the package's primary domain, the domain as people read it. */
  name: z.string(),
  /** Plan, size, address …, e.g. "Professional · Hosting-ID 10001" or a server's IP; may be empty. */
  detail: z.string(),
  /** The status as staff read it (German label). */
  status: z.string(),
  expiresAt: z.string().nullable(),
  /** What happens at the end of the term when it is not the usual manual renewal, e.g. "verlängert automatisch". */
  note: z.string().optional(),
  /** The staff page of this subscription, where one exists (the staff server page). */
  href: z.string().optional(),
});
export type StaffSubscriptionItem = z.infer<typeof StaffSubscriptionItem>;
export const StaffProductSection = z.object({
  kind: ProductKind,
  title: z.string(),
  /** The text shown when the customer has none of this product. */
  empty: z.string(),
  items: z.array(StaffSubscriptionItem),
});
export type StaffProductSection = z.infer<typeof StaffProductSection>;

/** The customer detail's overview: profile, products, open tickets, the last orders, money, notes. */
export const CustomerDetail = CustomerRow.extend({
  phone: z.string(),
  industry: z.string(),
  address: z.object({ street: z.string(), zipCode: z.string(), city: z.string(), country: z.string() }),
  /** "Firmenkunde" (issue 24). */
  business: z.boolean(),
  /** The VAT ID on file (prefix and number), null when none. */
  vatId: z.string().nullable(),
  /** The latest VAT-ID check and its proof (§18e UStG), null when the customer was never checked. */
  vatCheck: CustomerVatCheck.nullable(),
  /** How the customer is taxed today (issue 24): what an order or a manual invoice would get now. */
  tax: TaxViewResponse,
  disabled: z.boolean(),
  /** Set when the account was deleted (anonymised, docs/decisions/018); the row holds no personal data. */
  deletedAt: z.string().nullable(),
  /** A staff-initiated e-mail change waiting for the new address to confirm it. */
  pendingEmail: z.object({ email: z.string(), expiresAt: z.string() }).nullable(),
  /**
   * One section per product (the registry's order: root server, web hosting, domains, cloud storage),
   * each with the customer's live subscriptions as the product describes them (decisions 033, 035).
   */
  productSections: z.array(StaffProductSection),
  openTickets: z.array(z.object({ id: z.string(), title: z.string(), status: z.string(), createdAt: z.string() })),
  recentOrders: z.array(z.object({ id: z.string(), number: z.number().int(), product: z.string(), kind: z.string(), status: z.string(), grossCents: z.number().int(), createdAt: z.string() })),
  /** Net revenue: invoices minus credit notes, in cents. */
  revenueNetCents: z.number().int(),
  /** What invoices still ask to be paid, in cents (card payments are paid at issue). */
  openCents: z.number().int(),
  notes: z.array(CustomerNote),
  /** The staff changes to this customer, newest first. */
  audit: z.array(CustomerAuditEntry),
  /** Mails sent and contacts recorded, newest first. */
  communications: z.array(Communication),
});
export type CustomerDetail = z.infer<typeof CustomerDetail>;

/** Staff edit a customer's contact data (the e-mail address changes only through its own confirmation). */
export const UpdateCustomerInput = UpdateProfileInput;
export type UpdateCustomerInput = z.infer<typeof UpdateCustomerInput>;
export const LockCustomerInput = z.strictObject({ locked: z.boolean({ error: messages.invalidInput }) }, { error: messages.invalidInput });
export type LockCustomerInput = z.infer<typeof LockCustomerInput>;

/** "Bestellungen" on the customer page: every order, newest first, with its invoice when issued. */
export const CustomerOrderRow = z.object({
  id: z.string(), number: z.number().int(), kind: z.string(), status: z.string(),
  itemCount: z.number().int(), grossCents: z.number().int(), createdAt: z.string(),
  invoiceId: z.string().nullable(), invoiceNumber: z.string().nullable(),
  summary: z.string(),
});
export type CustomerOrderRow = z.infer<typeof CustomerOrderRow>;
export const CustomerOrderPage = z.object({ items: z.array(CustomerOrderRow), total: z.number().int() });
export type CustomerOrderPage = z.infer<typeof CustomerOrderPage>;

/* "Hochgeladene Dokumente" (tab "Dokumente"): files staff keep for a customer, such as contracts.
 * Same types, size limit and download rules as ticket attachments (docs/decisions/015). */
export const customerDocumentMessages = {
  notFound: 'Dokument nicht gefunden.',
  tooLarge: ticketMessages.attachmentTooLarge,
  type: ticketMessages.attachmentType,
  empty: ticketMessages.attachmentEmpty,
  descriptionTooLong: 'Die Beschreibung darf höchstens 200 Zeichen lang sein.',
  uploaded: 'Dokument hochgeladen.',
  uploadFailed: 'Das Dokument konnte nicht hochgeladen werden.',
  deleted: 'Dokument gelöscht.',
  deleteFailed: 'Das Dokument konnte nicht gelöscht werden.',
  downloadFailed: 'Das Dokument konnte nicht geladen werden.',
  none: 'Noch keine Dokumente hochgeladen.',
  confirmDelete: 'Möchten Sie dieses Dokument wirklich löschen? Das kann nicht rückgängig gemacht werden.',
} as const;

export const CustomerDocument = z.object({
  id: z.string(),
  name: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  description: z.string(),
  /** The staff member's user name. */
  uploadedBy: z.string(),
  createdAt: z.string(),
});
export type CustomerDocument = z.infer<typeof CustomerDocument>;
export const CustomerDocumentList = z.object({ documents: z.array(CustomerDocument) });
export type CustomerDocumentList = z.infer<typeof CustomerDocumentList>;

/** `POST /api/staff/customers/:id/documents?name=…&description=…` with the raw bytes (application/octet-stream). */
export const CustomerDocumentUploadQuery = z.object({
  name: z.string({ error: messages.invalidInput }).max(255, messages.invalidInput).optional(),
  description: plainText({ error: messages.invalidInput }).trim().max(200, customerDocumentMessages.descriptionTooLong).optional(),
});
export const CustomerDocumentParams = z.object({
  id: z.uuid({ error: customerDetailMessages.notFound }),
  documentId: z.uuid({ error: customerDocumentMessages.notFound }),
});
