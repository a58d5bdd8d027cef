/**
 * German message catalogue. Texts quoted from the specification keep their wording, with spelling and
 * grammar corrected and the user addressed as "Sie" (tools/test/german.test.ts keeps it so); the
 * remaining ones follow the same tone.
 */
export const messages = {
  // generic
  invalidInput: 'Die Eingabe ist ungültig. Bitte prüfen Sie Ihre Angaben.',
  controlCharacters: 'Bitte verwenden Sie keine Steuerzeichen.',
  invalidJson: 'Die Anfrage enthält kein gültiges JSON.',
  payloadTooLarge: 'Die Anfrage ist zu groß.',
  unsupportedMediaType: 'Dieses Anfrageformat wird nicht unterstützt.',
  notFound: 'Nicht gefunden.',
  unauthorized: 'Bitte melden Sie sich an.',
  sessionExpired: 'Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.',
  forbidden: 'Dafür fehlt Ihnen die Berechtigung.',
  rateLimited: 'Zu viele Anfragen. Bitte versuchen Sie es in Kürze erneut.',
  serverError: 'Interner Serverfehler',
  alreadyExists: 'Dieser Eintrag existiert bereits.',
  conflictingChange: 'Der Eintrag wird noch verwendet oder wurde gerade geändert. Bitte laden Sie die Seite neu und versuchen Sie es erneut.',
  unavailable: 'Der Dienst ist vorübergehend nicht erreichbar. Bitte versuchen Sie es später erneut.',
  genericError: 'Es ist ein Fehler aufgetreten. Bitte kontaktieren Sie den Support.',

  // login (§5, §8)
  usernameRequired: 'Bitte geben Sie einen Benutzernamen ein.',
  passwordRequired: 'Bitte geben Sie ein Passwort ein.',
  invalidLogin: 'Benutzername oder Passwort nicht korrekt. Bitte prüfen Sie Ihre Eingabe.',
  loginNetwork: 'Es ist ein Fehler aufgetreten. Bitte wenden Sie sich an das Team.',
  emailNotVerified: 'Bitte bestätigen Sie zuerst Ihre E-Mail-Adresse. Wir haben Ihnen einen neuen Code gesendet.',
  accountDisabled: 'Dieses Konto ist gesperrt. Bitte wenden Sie sich an den Support.',

  // registration codes (§8)
  REGISTRATION_SUCCESSFUL: 'Ihr Account wurde erstellt',
  NULL_FORUM: 'Bitte füllen Sie alle Felder aus.',
  USER_TO_SHORT: 'Der Benutzername ist zu kurz (mindestens 3 Zeichen).',
  USER_INVALID: 'Der Benutzername darf nur Buchstaben, Ziffern, Punkt, Binde- und Unterstrich enthalten (höchstens 32 Zeichen).',
  NO_KORREKT_EMAIL: 'Die E-Mail-Adresse ist nicht korrekt.',
  NO_EMAIL: 'Die E-Mail-Adresse ist nicht korrekt.',
  PASSWORT_TO_SHORT: 'Das Passwort muss zwischen 8 und 64 Zeichen lang sein.',
  PASSWORT_NOT_IDENTICALLY: 'Die Passwörter stimmen nicht überein.',
  PASSWORT_NOT: 'Das Passwort braucht einen Großbuchstaben, einen Kleinbuchstaben, eine Ziffer und ein Sonderzeichen.',
  DATA_EXISTS: 'Dieser Benutzername existiert bereits.',
  usernameReserved: 'Dieser Benutzername ist nicht verfügbar. Bitte wählen Sie einen anderen.',
  SERVER_ERROR: 'Interner Serverfehler',
  registrationNetwork: 'Es ist ein Systemfehler aufgetreten.',
  passwordRulesUnmet: 'Bitte erfüllen Sie alle Passwortanforderungen.',

  // e-mail verification (§8)
  codeIncomplete: 'Bitte geben Sie den vollständigen 4-stelligen Code ein.',
  invalidVerificationCode: 'Ungültiger Verifizierungscode. Bitte versuchen Sie es erneut.',
  verificationError: 'Ein Fehler ist aufgetreten. Bitte versuchen Sie es später erneut.',
  resendError: 'Fehler beim Senden des Codes. Bitte versuchen Sie es später erneut.',
  resendTooEarly: 'Bitte warten Sie 60 Sekunden, bevor Sie einen neuen Code anfordern.',
  emailVerified: 'Ihre E-Mail-Adresse ist bestätigt. Sie können sich jetzt anmelden.',
  /** After a verification that a login asked for: the user is signed in and continues where they were. */
  emailVerifiedSignedIn: 'Ihre E-Mail-Adresse ist bestätigt.',

  // password reset (§8)
  resetTooEarly: 'Es kann nur alle 5 Minuten ein Code angefordert werden.',
  invalidOrExpiredCode: 'Ungültiger oder abgelaufener Code.',
  resetRequestFailed: 'Es ist ein Fehler aufgetreten. Bitte versuchen Sie es später erneut.',
  resetFailed: 'Es ist ein grundlegender Fehler aufgetreten. Bitte versuchen Sie es später erneut.',
  passwordsDiffer: 'Die Passwörter stimmen nicht überein.',
  resetPasswordRulesUnmet: 'Bitte erfüllen Sie alle Passwortanforderungen.',

  // MFA
  mfaCodeInvalid: 'Bitte geben Sie einen 6-stelligen Code ein.',
  mfaWrongCode: 'Der Code ist ungültig oder wurde bereits verwendet.',
  mfaBackupCodeInvalid: 'Der Backup-Code ist ungültig oder wurde bereits verwendet.',
  mfaAlreadyEnabled: 'Die Zwei-Faktor-Authentifizierung ist bereits aktiv.',
  mfaNotEnabled: 'Die Zwei-Faktor-Authentifizierung ist nicht aktiv.',
  mfaSetupMissing: 'Bitte starten Sie die Einrichtung der Zwei-Faktor-Authentifizierung erneut.',

  // profile
  profileSaved: 'Profil erfolgreich aktualisiert',
  profileSaveFailed: 'Fehler beim Speichern',
  passwordChanged: 'Passwort erfolgreich geändert',
  passwordChangeFailed: 'Fehler beim Ändern des Passworts',
  currentPasswordWrong: 'Das aktuelle Passwort ist nicht korrekt.',
  currentPasswordRequired: 'Bitte geben Sie Ihr aktuelles Passwort ein.',
  emailTaken: 'Diese E-Mail-Adresse kann nicht verwendet werden.',
  emailChangeCodeSent: 'Wir haben einen Bestätigungscode an die neue Adresse gesendet.',
  emailChanged: 'Ihre E-Mail-Adresse wurde geändert.',
  emailChangeFailed: 'Die E-Mail-Adresse konnte nicht geändert werden.',
  emailUnchanged: 'Das ist bereits Ihre E-Mail-Adresse.',

  // status admin
  incidentTitleRequired: 'Bitte geben Sie einen Titel ein.',
  maintenanceTitleRequired: 'Bitte geben Sie einen Titel ein.',
  maintenanceDescriptionRequired: 'Bitte geben Sie eine Beschreibung ein.',
  updateMessageRequired: 'Bitte geben Sie eine Nachricht ein.',
  incidentRequired: 'Bitte wählen Sie eine Störung aus.',
  serviceNameRequired: 'Bitte geben Sie einen Namen ein.',
  maintenanceEndBeforeStart: 'Das Ende muss nach dem Beginn liegen.',

  // order (kept for the shop issue)
  termsRequired: 'Sie müssen den AGB und Datenschutzbestimmungen zustimmen, um fortzufahren.',
  loginRequiredForOrder: 'Sie müssen angemeldet sein, um einen Server bestellen zu können.',
} as const;

export type MessageKey = keyof typeof messages;
