import { z } from 'zod';
import { messages } from './messages.ts';
import { PasswordField, passwordMeetsRules, changePasswordRules } from './password.ts';
import { MfaCode } from './auth.ts';
import { plainText } from './text.ts';

export const Country = z.enum(['DE', 'AT', 'CH']);
export const countryLabels: Record<z.infer<typeof Country>, string> = { DE: 'Deutschland', AT: 'Österreich', CH: 'Schweiz' };

// Names and the address reach mails, invoice PDFs and the e-invoice: no control characters.
const optionalText = (max: number) => plainText().trim().max(max, messages.invalidInput);

export const Profile = z.object({
  username: z.string(),
  customerId: z.string(),
  email: z.string(),
  phone: z.string(),
  street: z.string(),
  zipCode: z.string(),
  city: z.string(),
  country: Country,
  companyName: z.string(),
  industry: z.string(),
  mfaEnabled: z.boolean(),
});
export type Profile = z.infer<typeof Profile>;

/** Strict: unknown keys such as role or customerId are refused, not silently applied. */
export const UpdateProfileInput = z.strictObject({
  email: plainText().trim().max(254, messages.NO_KORREKT_EMAIL).pipe(z.email({ error: messages.NO_KORREKT_EMAIL })),
  phone: optionalText(40).regex(/^[0-9 +()/-]*$/, 'Bitte geben Sie eine gültige Telefonnummer ein.'),
  street: optionalText(120),
  zipCode: optionalText(12).regex(/^[0-9A-Za-z -]*$/, 'Bitte geben Sie eine gültige Postleitzahl ein.'),
  city: optionalText(80),
  country: Country,
  companyName: optionalText(120),
  industry: optionalText(80),
}, { error: messages.invalidInput });
export type UpdateProfileInput = z.infer<typeof UpdateProfileInput>;

export const ChangePasswordInput = z
  .object({
    currentPassword: z.string({ error: messages.currentPasswordRequired }).min(1, messages.currentPasswordRequired).max(1024),
    newPassword: PasswordField,
  })
  .refine((v) => passwordMeetsRules(v.newPassword, changePasswordRules), { message: messages.passwordRulesUnmet, path: ['newPassword'] });

export const MfaSetupResult = z.object({ secret: z.string(), otpauthUrl: z.string(), qrDataUrl: z.string() });
export const MfaEnableInput = z.object({ code: MfaCode });
export const MfaEnableResult = z.object({ backupCodes: z.array(z.string()) });
export const MfaDisableInput = z.object({
  password: z.string({ error: messages.currentPasswordRequired }).min(1, messages.currentPasswordRequired).max(1024),
  code: MfaCode,
});
