import { z } from 'zod';
import { messages } from './messages.ts';
import { PasswordField, passwordMeetsRules, changePasswordRules } from './password.ts';
import { MfaCode, VerificationCode } from './auth.ts';
import { plainText } from './text.ts';
import { Country, checkBusinessFields } from './business.ts';

export { Country, countryLabels, profileMessages, vatCheckServiceLabels, vatCheckStatusLabels } from './business.ts';

/** The latest check of the customer's VAT ID, as the customer sees it (the proof itself: CustomerVatCheck). */
export const VatCheckSummary = z.object({
  status: z.enum(['valid', 'invalid', 'unavailable']),
  /** The ID that was checked (prefix and number). */
  vatId: z.string(),
  service: z.enum(['vies', 'evatr', 'simulated']),
  consultationNumber: z.string().nullable(),
  checkedAt: z.string(),
  /** German: the confirmation, or why the customer is billed as a consumer (the tax engine's explanation). */
  message: z.string(),
});
export type VatCheckSummary = z.infer<typeof VatCheckSummary>;

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
  /** "Firmenkunde": buys as a business (§3a Abs. 2 UStG). */
  business: z.boolean(),
  /** The VAT ID as stored (prefix and number), '' when none. */
  vatId: z.string(),
  /** The latest check of `vatId`; null when there is none (or it was for another ID). */
  vatCheck: VatCheckSummary.nullable(),
  mfaEnabled: z.boolean(),
});
export type Profile = z.infer<typeof Profile>;

export const EmailAddress = plainText({ error: messages.NO_KORREKT_EMAIL }).trim().max(254, messages.NO_KORREKT_EMAIL).pipe(z.email({ error: messages.NO_KORREKT_EMAIL }));

/**
 * Strict: unknown keys such as role or customerId are refused, not silently applied. The e-mail address
 * is not part of it: changing it needs the current password and a code (ChangeEmailInput).
 */
const profileFields = {
  phone: optionalText(40).regex(/^[0-9 +()/-]*$/, 'Bitte geben Sie eine gültige Telefonnummer ein.'),
  street: optionalText(120),
  zipCode: optionalText(12).regex(/^[0-9A-Za-z -]*$/, 'Bitte geben Sie eine gültige Postleitzahl ein.'),
  city: optionalText(80),
  country: Country,
  companyName: optionalText(120),
  industry: optionalText(80),
  /** Optional for clients that predate issue 24: left out, the saved status and ID stay. */
  business: z.boolean().optional(),
  vatId: optionalText(20).optional(),
};

export const UpdateProfileInput = z.strictObject(profileFields, { error: messages.invalidInput }).superRefine(checkBusinessFields);
export type UpdateProfileInput = z.infer<typeof UpdateProfileInput>;

/** The profile form: the saved fields plus the e-mail field, whose change runs through ChangeEmailInput. */
export const ProfileFormInput = z.strictObject({ ...profileFields, business: z.boolean(), vatId: optionalText(20), email: EmailAddress }, { error: messages.invalidInput }).superRefine(checkBusinessFields);
export type ProfileFormInput = z.infer<typeof ProfileFormInput>;

const CurrentPassword = z.string({ error: messages.currentPasswordRequired }).min(1, messages.currentPasswordRequired).max(1024);

/** Step 1 of an e-mail change: the new address and the current password; a code goes to the new address. */
export const ChangeEmailInput = z.strictObject({ newEmail: EmailAddress, currentPassword: CurrentPassword }, { error: messages.invalidInput });
export type ChangeEmailInput = z.infer<typeof ChangeEmailInput>;
/** Step 2: the code from the new address; only then the address changes. */
export const ConfirmEmailChangeInput = z.strictObject({ code: VerificationCode }, { error: messages.invalidInput });
export type ConfirmEmailChangeInput = z.infer<typeof ConfirmEmailChangeInput>;

export const ChangePasswordInput = z
  .object({
    currentPassword: CurrentPassword,
    newPassword: PasswordField,
  })
  .refine((v) => passwordMeetsRules(v.newPassword, changePasswordRules), { message: messages.passwordRulesUnmet, path: ['newPassword'] });
export type ChangePasswordInput = z.infer<typeof ChangePasswordInput>;

export const MfaSetupResult = z.object({ secret: z.string(), otpauthUrl: z.string(), qrDataUrl: z.string() });
export type MfaSetupResult = z.infer<typeof MfaSetupResult>;
export const MfaEnableInput = z.object({ code: MfaCode });
export type MfaEnableInput = z.infer<typeof MfaEnableInput>;
export const MfaEnableResult = z.object({ backupCodes: z.array(z.string()) });
export type MfaEnableResult = z.infer<typeof MfaEnableResult>;
export const MfaDisableInput = z.object({
  password: z.string({ error: messages.currentPasswordRequired }).min(1, messages.currentPasswordRequired).max(1024),
  code: MfaCode,
});
export type MfaDisableInput = z.infer<typeof MfaDisableInput>;
