/** Shop, payment, order and invoice texts (public spec §5, §8; portal spec §8): the spec's wording, spelling and grammar corrected.
 * Free of schemas, so a shop page can show them without loading zod (issue 22); shop.ts re-exports them. */
export const shopMessages = {
  termsRequired: 'Sie müssen den AGB und Datenschutzbestimmungen zustimmen, um fortzufahren.',
  sameOrderOpen: 'Diese Bestellung haben Sie gerade in einem anderen Fenster begonnen. Bitte schließen Sie die Zahlung dort ab oder versuchen Sie es in einem Moment erneut.',
  tooManyOpenCheckouts: 'Sie haben bereits 3 offene Bestellungen, die noch nicht bezahlt sind. Bitte schließen Sie eine Zahlung ab oder brechen Sie sie auf der Zahlungsseite ab; unbezahlte Bestellungen verfallen nach kurzer Zeit.',
  loginRequired: 'Sie müssen angemeldet sein, um einen Server bestellen zu können.',
  notEnoughResourcesTitle: 'Nicht genügend Ressourcen',
  notEnoughResources: 'Die ausgewählte Serverleistung ist derzeit leider nicht verfügbar. Wir verkaufen nur Ressourcen, die physisch vorhanden sind. Bitte wählen Sie eine kleinere Konfiguration oder versuchen Sie es später erneut.',
  noFreeIpTitle: 'Keine IP-Adressen',
  noFreeIp: 'Derzeit sind keine IP-Adressen mehr verfügbar. Bitte kontaktieren Sie den Support.',
  genericError: 'Es ist ein Fehler aufgetreten. Bitte kontaktieren Sie den Support.',
  paymentSuccess: 'Zahlung erfolgreich!',
  paymentFailed: 'Zahlung fehlgeschlagen',
  storageShrink: 'Der Speicher kann nicht verkleinert werden.',
  osMismatch: 'Das Betriebssystem kann bei einer Verlängerung nicht gewechselt werden. Nutzen Sie dafür die Neuinstallation.',
  serverNotUpgradable: 'Dieser Server kann derzeit nicht verlängert werden.',
  pdfNotice: 'Ihre PDF-Rechnung wird erstellt, bitte haben Sie etwas Geduld.',
  webhookInvalid: 'Ungültige Webhook-Signatur.',
  orderNotFound: 'Bestellung nicht gefunden.',
  orderAlreadyPaid: 'Diese Bestellung ist bereits bezahlt.',
  orderNoLongerPayable: 'Die Reservierung dieser Bestellung ist abgelaufen, sie wurde storniert. Bitte konfigurieren Sie Ihre Bestellung neu.',
  orderReplaced: 'Diese Bestellung wurde storniert, weil Sie danach eine neue Bestellung desselben Produkts aufgegeben haben. Es wurde nichts berechnet.',
} as const;
