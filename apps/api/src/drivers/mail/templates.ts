import type { MailMessage } from './mail.ts';

/** The closing of every mail (product modules with mails of their own use it too). */
export const signature = '\n\nViele Grüße\nIhr Support-Team';

export const verificationMail = (to: string, username: string, code: string): MailMessage => ({
  to,
  sensitive: true,
  subject: 'Bestätigen Sie Ihre E-Mail-Adresse',
  text: `Hallo ${username},\n\nIhr Bestätigungscode lautet: ${code}\n\nDer Code ist 10 Minuten gültig.${signature}`,
});

export const resetMail = (to: string, username: string, code: string): MailMessage => ({
  to,
  sensitive: true,
  subject: 'Passwort zurücksetzen',
  text: `Hallo ${username},\n\nIhr Code zum Zurücksetzen des Passworts lautet: ${code}\n\nDer Code ist 10 Minuten gültig. Wenn Sie das nicht angefordert haben, können Sie diese Nachricht ignorieren.${signature}`,
});

export const registrationAttemptMail = (to: string): MailMessage => ({
  to,
  subject: 'Registrierungsversuch mit Ihrer E-Mail-Adresse',
  text: `Hallo,\n\njemand hat versucht, mit Ihrer E-Mail-Adresse ein neues Konto anzulegen. Sie haben bereits ein Konto. Falls Sie Ihr Passwort vergessen haben, können Sie es auf der Anmeldeseite zurücksetzen.${signature}`,
});

export const passwordChangedMail = (to: string, username: string): MailMessage => ({
  to,
  subject: 'Ihr Passwort wurde geändert',
  text: `Hallo ${username},\n\nIhr Passwort wurde soeben geändert. Alle anderen Sitzungen wurden abgemeldet. Wenn Sie das nicht waren, wenden Sie sich bitte sofort an den Support.${signature}`,
});

export const emailChangeCodeMail = (to: string, username: string, code: string): MailMessage => ({
  to,
  sensitive: true,
  subject: 'Bestätigen Sie Ihre neue E-Mail-Adresse',
  text: `Hallo ${username},\n\nSie möchten diese Adresse für Ihr Konto verwenden. Ihr Bestätigungscode lautet: ${code}\n\nDer Code ist 10 Minuten gültig. Erst nach der Eingabe des Codes wird die neue Adresse verwendet. Wenn Sie das nicht angefordert haben, können Sie diese Nachricht ignorieren.${signature}`,
});

/** Staff changed the customer's address: the new one confirms by opening the link (docs/decisions/021). */
export const emailChangeLinkMail = (to: string, username: string, link: string, validDays: number): MailMessage => ({
  to,
  sensitive: true,
  subject: 'Bestätigen Sie Ihre neue E-Mail-Adresse',
  text: `Hallo ${username},\n\nunser Support hat auf Ihren Wunsch diese Adresse für Ihr Kundenkonto eingetragen. Bitte bestätigen Sie sie über diesen Link:\n\n${link}\n\nDer Link ist ${validDays} Tage gültig. Erst nach der Bestätigung wird die neue Adresse verwendet. Wenn Sie das nicht erwartet haben, können Sie diese Nachricht ignorieren.${signature}`,
});

/** To the current address when staff start a change: the holder learns of it before it can apply. */
export const emailChangeStartedMail = (to: string, username: string, newEmail: string, supportEmail: string, validDays: number): MailMessage => ({
  to,
  subject: 'Änderung Ihrer E-Mail-Adresse angestoßen',
  text: `Hallo ${username},\n\nunser Support hat die Änderung der E-Mail-Adresse Ihres Kontos auf ${newEmail} angestoßen. Sie gilt erst, wenn der Link in der Mail an diese Adresse bestätigt wird (innerhalb von ${validDays} Tagen); bis dahin bleibt diese Adresse gültig.\n\nFalls Sie das nicht veranlasst haben, melden Sie sich bitte sofort beim Support: ${supportEmail}${signature}`,
});

/** To the previous address after a confirmed change, with the way to report it. */
export const emailChangedMail = (to: string, username: string, newEmail: string, supportEmail: string): MailMessage => ({
  to,
  subject: 'Die E-Mail-Adresse Ihres Kontos wurde geändert',
  text: `Hallo ${username},\n\ndie E-Mail-Adresse Ihres Kontos wurde soeben auf ${newEmail} geändert. Nachrichten zu Ihrem Konto gehen ab jetzt an diese Adresse.\n\nFalls Sie das nicht waren, ändern Sie Ihr Passwort und wenden Sie sich an den Support: ${supportEmail}${signature}`,
});

/** A date as mails print it (Berlin day). */
export const germanDate = (d: Date) => new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', day: '2-digit', month: '2-digit', year: 'numeric' }).format(d);

/** How the invoice is settled: already paid by card, or to be transferred by the due date. */
export type InvoiceMailPayment = { paidByCard: true } | { paidByCard: false; dueDate: Date };

export const invoiceMail = (to: string, name: string, kind: 'invoice' | 'credit_note', number: string, amount: string, attachments: NonNullable<MailMessage['attachments']>, payment: InvoiceMailPayment = { paidByCard: true }): MailMessage => ({
  to,
  subject: kind === 'invoice' ? `Ihre Rechnung ${number}` : `Ihre Gutschrift ${number}`,
  text: kind === 'invoice'
    ? payment.paidByCard
      ? `Hallo ${name},\n\nvielen Dank für Ihre Bestellung. Anbei erhalten Sie Ihre Rechnung ${number} über ${amount} als PDF und als E-Rechnung (XRechnung). Der Betrag wurde bereits per Kreditkarte bezahlt.\n\nSie finden alle Rechnungen auch im Kundenportal unter „Rechnungen“.${signature}`
      : `Hallo ${name},\n\nanbei erhalten Sie Ihre Rechnung ${number} über ${amount} als PDF und als E-Rechnung (XRechnung). Bitte überweisen Sie den Betrag bis zum ${germanDate(payment.dueDate)} auf das in der Rechnung genannte Konto und geben Sie die Rechnungsnummer als Verwendungszweck an.\n\nSie finden alle Rechnungen auch im Kundenportal unter „Rechnungen“.${signature}`
    : payment.paidByCard
      ? `Hallo ${name},\n\nanbei erhalten Sie die Gutschrift ${number} über ${amount}. Der Betrag wird auf Ihr ursprüngliches Zahlungsmittel erstattet.${signature}`
      : `Hallo ${name},\n\nanbei erhalten Sie die Gutschrift ${number} über ${amount}. Sie gleicht die zugehörige Rechnung aus; ein bereits gezahlter Betrag wird Ihnen erstattet.${signature}`,
  attachments,
});

/** Stage 1 on the due date, stage 2 seven days later (invoice-reminder jobs). */
export const invoiceReminderMail = (to: string, name: string, number: string, amount: string, dueDate: Date, stage: 1 | 2, attachments: NonNullable<MailMessage['attachments']>): MailMessage => ({
  to,
  subject: stage === 1 ? `Zahlungserinnerung: Rechnung ${number} ist heute fällig` : `2. Zahlungserinnerung: Rechnung ${number} ist überfällig`,
  text: stage === 1
    ? `Hallo ${name},\n\nheute ist Ihre Rechnung ${number} über ${amount} fällig. Falls Sie bereits überwiesen haben, betrachten Sie diese Nachricht bitte als gegenstandslos.\n\nBitte überweisen Sie den offenen Betrag unter Angabe der Rechnungsnummer auf das in der Rechnung genannte Konto. Die Rechnung hängt noch einmal an.${signature}`
    : `Hallo ${name},\n\nfür Ihre Rechnung ${number} über ${amount}, fällig seit dem ${germanDate(dueDate)}, haben wir noch keinen Zahlungseingang. Bitte überweisen Sie den offenen Betrag umgehend unter Angabe der Rechnungsnummer. Falls sich Ihre Zahlung mit dieser Nachricht überschnitten hat, ist sie gegenstandslos.\n\nBei Fragen antworten Sie einfach auf diese E-Mail oder öffnen Sie ein Ticket im Kundenportal.${signature}`,
  attachments,
});

export const expiryReminderMail = (to: string, name: string, server: string, expiresAt: Date, renewUrl: string): MailMessage => ({
  to,
  subject: `Ihr Server ${server} läuft am ${germanDate(expiresAt)} ab`,
  text: `Hallo ${name},\n\ndie bezahlte Laufzeit Ihres Servers ${server} endet am ${germanDate(expiresAt)}. Danach wird der Server gestoppt.\n\nSie können ihn hier verlängern: ${renewUrl}${signature}`,
});

export const serverSuspendedMail = (to: string, name: string, server: string, deleteAt: Date, renewUrl: string): MailMessage => ({
  to,
  subject: `Ihr Server ${server} wurde gestoppt`,
  text: `Hallo ${name},\n\ndie bezahlte Laufzeit Ihres Servers ${server} ist abgelaufen, deshalb wurde er gestoppt. Ihre Daten bleiben bis zum ${germanDate(deleteAt)} erhalten; danach wird der Server endgültig gelöscht.\n\nVerlängern Sie jetzt, um ihn sofort wieder zu starten: ${renewUrl}${signature}`,
});

export const serverDeletedMail = (to: string, name: string, server: string): MailMessage => ({
  to,
  subject: `Ihr Server ${server} wurde gelöscht`,
  text: `Hallo ${name},\n\nda die Laufzeit Ihres Servers ${server} nicht verlängert wurde, haben wir ihn nach Ablauf der Kulanzfrist gelöscht. Sie können jederzeit einen neuen Server bestellen.${signature}`,
});

export const hostingExpiryReminderMail = (to: string, name: string, pkg: string, expiresAt: Date, renewUrl: string): MailMessage => ({
  to,
  subject: `Ihr Hosting-Paket ${pkg} läuft am ${germanDate(expiresAt)} ab`,
  text: `Hallo ${name},\n\ndie bezahlte Laufzeit Ihres Hosting-Pakets ${pkg} endet am ${germanDate(expiresAt)}. Danach wird die Website gesperrt.\n\nSie können das Paket hier verlängern: ${renewUrl}${signature}`,
});

export const hostingSuspendedMail = (to: string, name: string, pkg: string, deleteAt: Date, renewUrl: string): MailMessage => ({
  to,
  subject: `Ihr Hosting-Paket ${pkg} wurde gesperrt`,
  text: `Hallo ${name},\n\ndie bezahlte Laufzeit Ihres Hosting-Pakets ${pkg} ist abgelaufen, deshalb ist die Website gesperrt. Dateien, Datenbanken und Backups bleiben bis zum ${germanDate(deleteAt)} erhalten; danach wird das Paket endgültig gelöscht.\n\nVerlängern Sie jetzt, um die Website sofort wieder freizuschalten: ${renewUrl}${signature}`,
});

export const hostingDeletedMail = (to: string, name: string, pkg: string): MailMessage => ({
  to,
  subject: `Ihr Hosting-Paket ${pkg} wurde gelöscht`,
  text: `Hallo ${name},\n\nda die Laufzeit Ihres Hosting-Pakets ${pkg} nicht verlängert wurde, haben wir es nach Ablauf der Kulanzfrist mit allen Dateien, Datenbanken und Backups gelöscht.${signature}`,
});

/** Domains (decision 024): the registrar lets an unpaid domain run out by itself (AUTOEXPIRE). */
export const domainExpiryReminderMail = (to: string, name: string, domain: string, expiresAt: Date, renewUrl: string): MailMessage => ({
  to,
  subject: `Ihre Domain ${domain} läuft am ${germanDate(expiresAt)} ab`,
  text: `Hallo ${name},\n\ndie bezahlte Laufzeit Ihrer Domain ${domain} endet am ${germanDate(expiresAt)}. Wenn Sie sie bis dahin nicht verlängern, läuft sie bei der Vergabestelle aus: Website und E-Mail unter dieser Domain funktionieren dann nicht mehr, und jemand anderes kann sie registrieren.\n\nSie können die Domain hier verlängern: ${renewUrl}${signature}`,
});

export const domainExpiredMail = (to: string, name: string, domain: string, releaseAt: Date, renewUrl: string): MailMessage => ({
  to,
  subject: `Ihre Domain ${domain} ist abgelaufen`,
  text: `Hallo ${name},\n\ndie Laufzeit Ihrer Domain ${domain} ist abgelaufen. Bis zum ${germanDate(releaseAt)} können Sie sie noch verlängern; danach geben wir sie frei.\n\nJetzt verlängern: ${renewUrl}${signature}`,
});

export const domainReleasedMail = (to: string, name: string, domain: string): MailMessage => ({
  to,
  subject: `Ihre Domain ${domain} wurde freigegeben`,
  text: `Hallo ${name},\n\nda Ihre Domain ${domain} nicht verlängert wurde, haben wir sie nach Ablauf der Kulanzfrist freigegeben. Sie erscheint nicht mehr in Ihrem Kundenportal.${signature}`,
});

export const domainActiveMail = (to: string, name: string, domain: string, expiresAt: Date | null, transfer: boolean): MailMessage => ({
  to,
  subject: transfer ? `Der Transfer von ${domain} ist abgeschlossen` : `Ihre Domain ${domain} ist registriert`,
  text: `Hallo ${name},\n\n${transfer ? `Ihre Domain ${domain} ist jetzt bei uns.` : `Ihre Domain ${domain} ist jetzt auf Sie registriert.`}${expiresAt ? ` Sie ist bis zum ${germanDate(expiresAt)} bezahlt.` : ''} Nameserver, Transfersperre und Auth-Code verwalten Sie im Kundenportal unter „Meine Produkte“.${signature}`,
});

// Ticket mails are plain text (no HTML part), so a title or message with markup arrives as the characters
// the customer typed and can never become a link or a script. Internal notes are never passed in.

/** To the customer: staff answered. */
export const ticketAnsweredMail = (to: string, name: string, title: string, answer: string, ticketUrl: string): MailMessage => ({
  to,
  subject: `Neue Antwort auf Ihr Ticket „${oneLine(title)}“`,
  text: `Hallo ${name},\n\nder Support hat auf Ihr Ticket „${oneLine(title)}“ geantwortet:\n\n${answer}\n\nSie können direkt im Kundenportal antworten: ${ticketUrl}${signature}`,
});

/** To the customer: staff closed the ticket. */
export const ticketClosedMail = (to: string, name: string, title: string, ticketUrl: string): MailMessage => ({
  to,
  subject: `Ihr Ticket „${oneLine(title)}“ wurde geschlossen`,
  text: `Hallo ${name},\n\nIhr Ticket „${oneLine(title)}“ wurde geschlossen. Den Verlauf finden Sie im Kundenportal: ${ticketUrl}\n\nWenn Sie weitere Fragen haben, eröffnen Sie bitte ein neues Ticket.${signature}`,
});

/** To staff: a new ticket or a customer reply waits. */
export const ticketWaitingMail = (to: string, kind: 'new' | 'reply', customer: string, title: string, ticketUrl: string): MailMessage => ({
  to,
  subject: kind === 'new' ? `Neues Ticket: ${oneLine(title)}` : `Neue Kundenantwort: ${oneLine(title)}`,
  text: `Hallo,\n\n${kind === 'new' ? `${customer} hat ein neues Ticket eröffnet` : `${customer} hat auf das Ticket geantwortet`}: „${oneLine(title)}“.\n\nZum Ticket: ${ticketUrl}${signature}`,
});

/** A subject never carries a line break (header injection); titles are single-line already, this is belt and braces. */
function oneLine(text: string) {
  return text.replace(/[\r\n]+/g, ' ');
}

/** A message a staff member writes to a customer from the customer page. */
/** "Neue Bestellung" by staff: the configuration, its price with the customer's tax label ("inkl. 19 % USt.", "Reverse Charge") and the link to pay it (customers/order-link.ts). */
export const orderLinkMail = (to: string, username: string, order: { summary: string; price: string; priceLabel: string; link: string; message: string; sentBy: string }): MailMessage => ({
  to,
  subject: 'Ihre Serverbestellung: bitte prüfen und bezahlen',
  text: `Hallo ${username},\n\n${order.message ? `${order.message}\n\n` : ''}wir haben für Sie folgenden Server zusammengestellt:\n\n${order.summary}\nGesamtpreis: ${order.price} ${order.priceLabel}, zahlbar im Voraus für die gesamte Laufzeit\n\nÜber diesen Link prüfen Sie die Konfiguration, stimmen den AGB zu und bezahlen. Danach wird Ihr Server automatisch eingerichtet:\n\n${order.link}\n\nDer Preis und die Verfügbarkeit gelten zum Zeitpunkt Ihrer Bestellung.${signature}`,
  sentBy: order.sentBy,
});

export const staffMail = (to: string, subject: string, body: string, staffId: string): MailMessage => ({
  to,
  subject,
  text: `${body}${signature}`,
  sentBy: staffId,
});

/** A paid order that could not be delivered was paid back automatically (decision 023). */
export const orderRefundedMail = (to: string, name: string, order: { number: string; product: string; amount: string; creditNote: boolean }): MailMessage => ({
  to,
  subject: `Ihre Bestellung ${order.number} wurde erstattet`,
  text: `Hallo ${name},\n\nIhre Bestellung ${order.number} (${order.product}) konnte leider nicht ausgeführt werden. Den bezahlten Betrag von ${order.amount} haben wir auf Ihre Karte zurückgezahlt; je nach Bank ist er in einigen Tagen auf Ihrem Konto.\n\n${order.creditNote ? 'Die Gutschrift zu Ihrer Rechnung erhalten Sie mit einer eigenen E-Mail.' : 'Für diese Bestellung wurde keine Rechnung ausgestellt.'}\n\nBei Fragen antworten Sie einfach auf diese E-Mail oder öffnen Sie ein Ticket im Kundenportal.${signature}`,
});
