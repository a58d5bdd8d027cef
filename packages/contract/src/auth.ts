import { z } from 'zod';
import { messages } from './messages.ts';
import { PasswordField, passwordMeetsRules, registrationPasswordRules, changePasswordRules } from './password.ts';
import { plainText } from './text.ts';
import { coded } from './codes.ts';
import { checkBusinessFields, Country } from './business.ts';

export const Role = z.enum(['customer', 'employee', 'owner']);
export type Role = z.infer<typeof Role>;

const trimmed = (max: number, required: string) => z.string({ error: required }).trim().min(1, required).max(max, messages.invalidInput);

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;
const USERNAME_PATTERN = /^[A-Za-z0-9._-]+$/;

export const RegisterInput = z
  .object({
    // Each check is a refinement built with coded(): its failure carries the spec's code (decision 010).
    username: plainText({ error: messages.NULL_FORUM })
      .trim()
      .refine((v) => v.length >= 1, coded('NULL_FORUM'))
      .refine((v) => v.length === 0 || v.length >= USERNAME_MIN, coded('USER_TO_SHORT'))
      .refine((v) => v.length <= USERNAME_MAX && (v.length < USERNAME_MIN || USERNAME_PATTERN.test(v)), coded('USER_INVALID'))
      .meta({ minLength: USERNAME_MIN, maxLength: USERNAME_MAX, pattern: USERNAME_PATTERN.source }),
    email: plainText({ error: messages.NULL_FORUM })
      .trim()
      .refine((v) => v.length >= 1, coded('NO_EMAIL'))
      .refine((v) => v.length === 0 || (v.length <= 254 && z.regexes.email.test(v)), coded('NO_KORREKT_EMAIL'))
      .meta({ format: 'email', maxLength: 254 }),
    password: z.string({ error: messages.NULL_FORUM }).refine((v) => v.length >= 1, coded('NULL_FORUM')).pipe(PasswordField),
    confirmPassword: z.string({ error: messages.NULL_FORUM }).refine((v) => v.length >= 1, coded('NULL_FORUM')),
    // Issue 24, all optional (left out: Germany, a consumer): the country and, for a company, its name
    // and VAT ID. The ID is checked after the account exists; the profile shows the result.
    country: Country.optional(),
    business: z.boolean().optional(),
    companyName: plainText().trim().max(120, messages.invalidInput).optional(),
    vatId: plainText().trim().max(20, messages.invalidInput).optional(),
  })
  .refine((v) => passwordMeetsRules(v.password, registrationPasswordRules), coded('PASSWORT_NOT', ['password']))
  .refine((v) => v.password === v.confirmPassword, coded('PASSWORT_NOT_IDENTICALLY', ['confirmPassword']))
  .superRefine((v, ctx) => checkBusinessFields({ country: v.country ?? 'DE', companyName: v.companyName ?? '', business: v.business, vatId: v.vatId }, ctx));
export type RegisterInput = z.infer<typeof RegisterInput>;

export const RegisterResult = z.object({
  code: z.literal('REGISTRATION_SUCCESSFUL'),
  message: z.string(),
  /** The account to verify on /user/verification/{userId}. */
  userId: z.string(),
});
export type RegisterResult = z.infer<typeof RegisterResult>;

export const VerificationCode = z
  .string({ error: messages.codeIncomplete })
  .trim()
  .transform((s) => s.toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9]{4}$/, messages.codeIncomplete));

export const VerifyEmailInput = z.object({
  userId: z.uuid({ error: messages.invalidVerificationCode }),
  code: VerificationCode,
  /**
   * From the login that asked for the verification (`EMAIL_NOT_VERIFIED` details): the password was
   * right, so the code completes that login and the answer carries a session.
   */
  loginToken: z.string({ error: messages.invalidInput }).max(2048, messages.invalidInput).optional(),
});
export type VerifyEmailInput = z.infer<typeof VerifyEmailInput>;
/** `token`: only when a valid `loginToken` came along (the user is then signed in). */
export const VerifyEmailResult = z.object({ message: z.string(), token: z.string().optional() });
export type VerifyEmailResult = z.infer<typeof VerifyEmailResult>;
export const ResendVerificationInput = z.object({ userId: z.uuid({ error: messages.resendError }) });
export type ResendVerificationInput = z.infer<typeof ResendVerificationInput>;
export const ResendVerificationResult = z.object({ retryAfterSeconds: z.number().int() });
export type ResendVerificationResult = z.infer<typeof ResendVerificationResult>;
export const MessageResult = z.object({ message: z.string() });
export type MessageResult = z.infer<typeof MessageResult>;

export const LoginInput = z.object({
  username: trimmed(254, messages.usernameRequired),
  password: z.string({ error: messages.passwordRequired }).min(1, messages.passwordRequired).max(1024, messages.invalidLogin),
});
export type LoginInput = z.infer<typeof LoginInput>;

export const LoginResult = z.union([
  z.object({ token: z.string() }),
  z.object({ mfaRequired: z.literal(true), mfaToken: z.string() }),
]);
export type LoginResult = z.infer<typeof LoginResult>;
export const TokenResult = z.object({ token: z.string() });
export type TokenResult = z.infer<typeof TokenResult>;

export const MfaCode = z.string({ error: messages.mfaCodeInvalid }).regex(/^\d{6}$/, messages.mfaCodeInvalid);
export const BackupCode = z
  .string({ error: messages.mfaBackupCodeInvalid })
  .trim()
  .transform((s) => s.toUpperCase().replace(/[^A-Z0-9]/g, ''))
  .pipe(z.string().regex(/^[A-Z0-9]{10}$/, messages.mfaBackupCodeInvalid));

export const MfaLoginInput = z.union([
  z.object({ mfaToken: z.string().min(1).max(4096), code: MfaCode }),
  z.object({ mfaToken: z.string().min(1).max(4096), backupCode: BackupCode }),
], { error: messages.mfaCodeInvalid });
export type MfaLoginInput = z.infer<typeof MfaLoginInput>;

export const ResetRequestInput = z.object({
  email: z.string({ error: messages.NO_EMAIL }).trim().max(254, messages.NO_KORREKT_EMAIL).pipe(z.email({ error: messages.NO_KORREKT_EMAIL })),
});
export type ResetRequestInput = z.infer<typeof ResetRequestInput>;
export const ResetRequestResult = z.object({ resetId: z.string() });
export type ResetRequestResult = z.infer<typeof ResetRequestResult>;
/**
 * Step 2 names the code either by the resetId of step 1 or, when the page was left in between, by the
 * account's e-mail address (the mailed code is bound to the account, not to the browser).
 */
export const ResetVerifyInput = z.object({
  resetId: z.uuid({ error: messages.invalidOrExpiredCode }).optional(),
  email: z.string({ error: messages.NO_EMAIL }).trim().max(254, messages.NO_KORREKT_EMAIL).pipe(z.email({ error: messages.NO_KORREKT_EMAIL })).optional(),
  code: VerificationCode,
}).refine((v) => v.resetId !== undefined || v.email !== undefined, { message: messages.invalidOrExpiredCode, path: ['resetId'] });
export type ResetVerifyInput = z.infer<typeof ResetVerifyInput>;
export const ResetVerifyResult = z.object({ resetToken: z.string() });
export type ResetVerifyResult = z.infer<typeof ResetVerifyResult>;
export const ResetCompleteInput = z
  .object({
    resetToken: z.string().min(1).max(4096),
    newPassword: PasswordField,
  })
  .refine((v) => passwordMeetsRules(v.newPassword, changePasswordRules), { message: messages.resetPasswordRulesUnmet, path: ['newPassword'] });
export type ResetCompleteInput = z.infer<typeof ResetCompleteInput>;

export const CurrentUser = z.object({
  id: z.string(),
  customerId: z.string(),
  username: z.string(),
  email: z.string(),
  role: Role,
  mfaEnabled: z.boolean(),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

/** Claims of the access token as the SPA reads them (spec: customerId and role). */
export interface AccessClaims {
  sub: string;
  customerId: string;
  role: Role;
  pur: 'access';
  exp: number;
}
