import type { MailMessage } from './mail.ts';

const signature = '\n\nViele Grüße\nIhr Support-Team';

export const verificationMail = (to: string, username: string, code: string): MailMessage => ({
  to,
  subject: 'Bestätigen Sie Ihre E-Mail-Adresse',
  text: `Hallo ${username},\n\nIhr Bestätigungscode lautet: ${code}\n\nDer Code ist 10 Minuten gültig.${signature}`,
});

export const resetMail = (to: string, username: string, code: string): MailMessage => ({
  to,
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
