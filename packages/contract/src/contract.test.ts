import { describe, expect, it } from 'vitest';
import { changePasswordRules, passwordMeetsRules, registrationPasswordRules } from './password.ts';
import { RegisterInput, VerificationCode, MfaCode, BackupCode } from './auth.ts';
import { UpdateProfileInput } from './profile.ts';
import { matchesKnownRoute } from './paths.ts';
import { messages } from './messages.ts';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe('password rules', () => {
  it('registration needs length, upper, lower, digit and special character', () => {
    expect(passwordMeetsRules('Sicher!Passwort1', registrationPasswordRules)).toBe(true);
    expect(passwordMeetsRules('Sicher!Passwort', registrationPasswordRules)).toBe(false); // no digit
    expect(passwordMeetsRules('sicher!passwort1', registrationPasswordRules)).toBe(false); // no upper
    expect(passwordMeetsRules('SICHER!PASSWORT1', registrationPasswordRules)).toBe(false); // no lower
    expect(passwordMeetsRules('SicherPasswort1', registrationPasswordRules)).toBe(false); // no special
    expect(passwordMeetsRules('Si!1abc', registrationPasswordRules)).toBe(false); // 7 characters
  });

  it('reset and profile change need no digit (spec), but everything else', () => {
    expect(passwordMeetsRules('Sicher!Passwort', changePasswordRules)).toBe(true);
    expect(passwordMeetsRules('sicher!passwort', changePasswordRules)).toBe(false);
  });

  it('counts umlauts as letters and code points, not bytes', () => {
    expect(passwordMeetsRules('Äöü!ßäöu', registrationPasswordRules)).toBe(false); // no digit
    expect(passwordMeetsRules('Äöü!ßäö1', registrationPasswordRules)).toBe(true);
    const sixtyFour = 'Ä1!' + 'ö'.repeat(61);
    expect([...sixtyFour]).toHaveLength(64);
    expect(passwordMeetsRules(sixtyFour, registrationPasswordRules)).toBe(true);
    expect(passwordMeetsRules(sixtyFour + 'x', registrationPasswordRules)).toBe(false);
  });
});

describe('registration schema', () => {
  const valid = { username: 'kunde1', email: 'kunde@example.com', password: 'Sicher!Passwort1', confirmPassword: 'Sicher!Passwort1' };
  it('accepts a valid registration', () => expect(RegisterInput.safeParse(valid).success).toBe(true));
  it.each([
    [{ ...valid, username: '' }, messages.NULL_FORUM],
    [{ ...valid, username: 'ab' }, messages.USER_TO_SHORT],
    [{ ...valid, email: 'keine-mail' }, messages.NO_KORREKT_EMAIL],
    [{ ...valid, password: 'Kurz!1a', confirmPassword: 'Kurz!1a' }, messages.PASSWORT_TO_SHORT],
    [{ ...valid, password: 'sicherpasswort1', confirmPassword: 'sicherpasswort1' }, messages.PASSWORT_NOT],
    [{ ...valid, confirmPassword: 'Anders!Passwort1' }, messages.PASSWORT_NOT_IDENTICALLY],
  ])('refuses %o with the spec message', (input, message) => {
    expect(firstMessage(RegisterInput.safeParse(input))).toBe(message);
  });
});

describe('codes', () => {
  it('upper-cases verification codes and requires exactly 4 alphanumerics', () => {
    expect(VerificationCode.parse(' ab1z ')).toBe('AB1Z');
    expect(firstMessage(VerificationCode.safeParse('AB1'))).toBe(messages.codeIncomplete);
    expect(VerificationCode.safeParse('AB-1').success).toBe(false);
  });
  it('MFA codes are exactly six digits', () => {
    expect(MfaCode.safeParse('123456').success).toBe(true);
    expect(firstMessage(MfaCode.safeParse('12345'))).toBe(messages.mfaCodeInvalid);
    expect(MfaCode.safeParse('12345a').success).toBe(false);
  });
  it('backup codes accept the dash and lower case', () => {
    expect(BackupCode.parse('abcde-12345')).toBe('ABCDE12345');
  });
});

describe('profile schema', () => {
  it('refuses unknown keys such as role (no mass assignment)', () => {
    const input = { email: 'a@example.com', phone: '', street: '', zipCode: '', city: '', country: 'DE', companyName: '', industry: '' };
    expect(UpdateProfileInput.safeParse(input).success).toBe(true);
    expect(UpdateProfileInput.safeParse({ ...input, role: 'owner' }).success).toBe(false);
    expect(UpdateProfileInput.safeParse({ ...input, country: 'FR' }).success).toBe(false);
  });
});

describe('route table', () => {
  it.each(['/', '/faq', '/shop/kvm-server', '/upgrade/kvm-server/abc', '/user/verification/x', '/dashboard', '/dashboard/linux/1', '/Changelog', '/changelog/v2.5.0', '/faq/'])('knows %s', (p) => {
    expect(matchesKnownRoute(p)).toBe(true);
  });
  it.each(['/gibt-es-nicht', '/faq/extra', '/upgrade/kvm-server/', '/shop', '/CHANGELOG'])('does not know %s', (p) => {
    expect(matchesKnownRoute(p)).toBe(false);
  });
});
