import { describe, expect, it } from 'vitest';
import { changePasswordRules, passwordMeetsRules, registrationPasswordRules } from './password.ts';
import { RegisterInput, VerificationCode, MfaCode, BackupCode } from './auth.ts';
import { ChangeEmailInput, ConfirmEmailChangeInput, ProfileFormInput, UpdateProfileInput } from './profile.ts';
import { matchesKnownRoute } from './paths.ts';
import { messages } from './messages.ts';
import { hasControlCharacters } from './text.ts';
import { CreateIncidentInput } from './status.ts';

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
    const input = { phone: '', street: '', zipCode: '', city: '', country: 'DE', companyName: '', industry: '' };
    expect(UpdateProfileInput.safeParse(input).success).toBe(true);
    expect(UpdateProfileInput.safeParse({ ...input, role: 'owner' }).success).toBe(false);
    // Every ISO country is a country now (issue 24); a made-up code is not.
    expect(UpdateProfileInput.safeParse({ ...input, country: 'FR' }).success).toBe(true);
    expect(UpdateProfileInput.safeParse({ ...input, country: 'XX' }).success).toBe(false);
  });
  it('does not change the e-mail address: that needs the current password and a code', () => {
    const input = { phone: '', street: '', zipCode: '', city: '', country: 'DE', companyName: '', industry: '' };
    expect(UpdateProfileInput.safeParse({ ...input, email: 'neu@example.com' }).success).toBe(false);
    expect(ProfileFormInput.safeParse({ ...input, business: false, vatId: '', email: 'neu@example.com' }).success).toBe(true);
    expect(ChangeEmailInput.safeParse({ newEmail: ' Neu@Example.com ', currentPassword: 'x' })).toMatchObject({ success: true, data: { newEmail: 'Neu@Example.com' } });
    expect(firstMessage(ChangeEmailInput.safeParse({ newEmail: 'neu@example.com', currentPassword: '' }))).toBe(messages.currentPasswordRequired);
    expect(firstMessage(ChangeEmailInput.safeParse({ newEmail: 'keine-mail', currentPassword: 'x' }))).toBe(messages.NO_KORREKT_EMAIL);
    expect(firstMessage(ChangeEmailInput.safeParse({ newEmail: 'neu\u202E@example.com', currentPassword: 'x' }))).toBe(messages.controlCharacters);
    expect(ConfirmEmailChangeInput.parse({ code: 'ab1z' })).toEqual({ code: 'AB1Z' });
  });
});

describe('control characters', () => {
  // Bidi embeddings/overrides/isolates, zero-width and other format characters, C0/C1 controls, separators.
  const invisible = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200B', '\u200E', '\u200F', '\uFEFF', '\u00AD', '\u0007', '\u001B', '\u0085', '\u2028', '\u2029', '\t', '\n'];
  const profile = { phone: '', street: 'Hauptstraße 1', zipCode: '12345', city: 'Köln', country: 'DE', companyName: 'Müller & Söhne GmbH', industry: 'Hosting' };
  const registration = { username: 'kunde1', email: 'kunde@example.com', password: 'Sicher!Passwort1', confirmPassword: 'Sicher!Passwort1' };

  it('refuses bidi controls and other invisible characters in names and the address, with a German message', () => {
    expect(UpdateProfileInput.safeParse(profile).success).toBe(true);
    for (const c of invisible) {
      for (const field of ['street', 'city', 'companyName', 'industry'] as const) {
        const result = UpdateProfileInput.safeParse({ ...profile, [field]: `Ev${c}il` });
        expect(result.success, `${field} with U+${c.codePointAt(0)!.toString(16)}`).toBe(false);
        expect(firstMessage(result)).toBe(messages.controlCharacters);
      }
    }
    expect(firstMessage(UpdateProfileInput.safeParse({ ...profile, companyName: 'ACME \u202Egnp.exe' }))).toBe('Bitte verwenden Sie keine Steuerzeichen.');
  });

  it('refuses them in registration user names and e-mail addresses', () => {
    expect(RegisterInput.safeParse(registration).success).toBe(true);
    expect(firstMessage(RegisterInput.safeParse({ ...registration, username: 'kun\u202Ede1' }))).toBe(messages.controlCharacters);
    expect(firstMessage(RegisterInput.safeParse({ ...registration, email: 'kunde\u200B@example.com' }))).toBe(messages.controlCharacters);
  });

  it('keeps umlauts, accents, emoji and other scripts, and line breaks where text may have several lines', () => {
    for (const text of ['Straße', 'Ærøskøbing', 'São Paulo', 'Zürich', 'Łódź', 'Καλημέρα', 'שלום', 'e\u0301', '😀', '👩‍💻'.replace('\u200D', '')]) {
      expect(hasControlCharacters(text), text).toBe(false);
      expect(UpdateProfileInput.safeParse({ ...profile, city: text }).success, text).toBe(true);
    }
    expect(CreateIncidentInput.safeParse({ title: 'Störung', message: 'Zeile 1\nZeile 2\tEnde' }).success).toBe(true);
    const bidi = CreateIncidentInput.safeParse({ title: 'St\u202Eörung' });
    expect(bidi.success).toBe(false);
    expect(firstMessage(bidi)).toBe(messages.controlCharacters);
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
