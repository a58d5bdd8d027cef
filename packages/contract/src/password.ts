import { z } from 'zod';
import { messages } from './messages.ts';
import { coded } from './codes.ts';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 64;

export interface PasswordRule {
  id: 'length' | 'upper' | 'lower' | 'digit' | 'special';
  label: string;
  test: (pw: string) => boolean;
}

const rule = (id: PasswordRule['id'], label: string, test: (pw: string) => boolean): PasswordRule => ({ id, label, test });

// Unicode-aware so that "Ä" counts as an uppercase letter and "ß" as lowercase.
const upper = rule('upper', 'Mindestens ein Großbuchstabe', (pw) => /\p{Lu}/u.test(pw));
const lower = rule('lower', 'Mindestens ein Kleinbuchstabe', (pw) => /\p{Ll}/u.test(pw));
const digit = rule('digit', 'Mindestens eine Ziffer', (pw) => /\p{Nd}/u.test(pw));
const special = rule('special', 'Mindestens ein Sonderzeichen', (pw) => /[^\p{L}\p{Nd}\s]/u.test(pw));
const length = rule('length', 'Mindestens 8 Zeichen', (pw) => [...pw].length >= PASSWORD_MIN && [...pw].length <= PASSWORD_MAX);

/** Registration (§5): length, upper, lower, digit, special. */
export const registrationPasswordRules: PasswordRule[] = [length, upper, lower, digit, special];
/** Password reset and profile change (§5 of both documents): no digit rule. */
export const changePasswordRules: PasswordRule[] = [length, upper, lower, special];

export const passwordMeetsRules = (pw: string, rules: PasswordRule[]) => rules.every((r) => r.test(pw));

/** Length bounds are counted in code points so umlauts are not truncated or miscounted. */
export const PasswordField = z
  .string({ error: messages.passwordRequired })
  .refine((pw) => [...pw].length >= PASSWORD_MIN && [...pw].length <= PASSWORD_MAX, coded('PASSWORT_TO_SHORT'))
  .meta({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX });
