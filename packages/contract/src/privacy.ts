import { z } from 'zod';
import { messages } from './messages.ts';

/* Data protection (DSGVO): deleting a customer account and the self-service data export (docs/decisions/018). */

export const privacyMessages = {
  /** Spec "Customer detail", Einstellungen: the danger zone's confirmation, verbatim. */
  deleteCustomerConfirm: 'Sind Sie sicher, dass Sie diesen Kunden löschen möchten? Diese Aktion kann nicht rückgängig gemacht werden.',
  customerDeleted: 'Der Kunde wurde gelöscht. Seine persönlichen Daten wurden entfernt.',
  customerDeleteFailed: 'Der Kunde konnte nicht gelöscht werden.',
  activeServers: 'Das Kundenkonto kann nicht gelöscht werden, solange noch Server aktiv sind. Bitte löschen Sie zuerst alle Server oder warten Sie, bis sie abgelaufen sind.',
  activeHosting: 'Das Kundenkonto kann nicht gelöscht werden, solange noch Hosting-Pakete bestehen. Bitte warten Sie, bis sie abgelaufen sind, oder wenden Sie sich an den Support.',
  activeDomains: 'Das Kundenkonto kann nicht gelöscht werden, solange noch Domains bestehen. Bitte warten Sie, bis sie abgelaufen sind, oder wenden Sie sich an den Support.',
  openInvoices: 'Das Kundenkonto kann nicht gelöscht werden, solange offene oder überfällige Rechnungen bestehen.',
  openOrders: 'Das Kundenkonto kann nicht gelöscht werden, solange eine Bestellung noch bezahlt oder bearbeitet wird.',
  alreadyDeleted: 'Dieses Kundenkonto wurde bereits gelöscht.',
  staffAccount: 'Mitarbeiterkonten können nicht auf diesem Weg gelöscht werden.',
  accountDeleted: 'Ihr Konto wurde gelöscht. Ihre persönlichen Daten wurden entfernt; Rechnungen bewahren wir nur so lange auf, wie das Gesetz es verlangt.',
  accountDeleteFailed: 'Das Konto konnte nicht gelöscht werden.',
  exportFailed: 'Der Datenexport konnte nicht erstellt werden.',
  exportReady: 'Ihr Datenexport wurde heruntergeladen.',
  /** The name an anonymised account shows everywhere (tickets, invoices list of staff, audit). */
  deletedCustomerName: 'Gelöschter Kunde',
} as const;

/** Self-service deletion ("Konto löschen"): the current password confirms it. */
export const DeleteAccountInput = z.strictObject({
  currentPassword: z.string({ error: messages.currentPasswordRequired }).min(1, messages.currentPasswordRequired).max(1024),
}, { error: messages.invalidInput });
export type DeleteAccountInput = z.infer<typeof DeleteAccountInput>;
