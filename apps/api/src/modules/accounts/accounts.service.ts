import { eq, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { messages, privacyMessages, type ChangeEmailInput, type DeleteAccountInput, type ConfirmEmailChangeInput, type Profile, type UpdateProfileInput } from '@hp/contract';
import type { Deps } from '../../deps.ts';
import { backupCodes, users } from '../../db/schema/index.ts';
import type { RequestUser } from '../../http/auth.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { deleteCustomerAccount } from '../customers/customer-deletion.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { enforceLimit, resetCounter } from '../../lib/rate-limit.ts';
import { encryptSecret, decryptSecret, hmac, randomCode } from '../../lib/secrets.ts';
import { acceptTotp, checkCurrentPassword, mfaRule, totpFor } from '../auth/auth.service.ts';
import { openSession, revokeAllSessions } from '../auth/sessions.ts';
import { emailChangedMail, passwordChangedMail } from '../../drivers/mail/templates.ts';
import { isUniqueViolation } from '../../http/db-errors.ts';
import { enqueueMail } from '../../jobs/mail.ts';
import { enqueueCodeMail } from '../auth/code-mail.ts';
import { consumeCode, issueCode } from '../auth/codes.ts';
import type { JobRunner } from '../../jobs/queue.ts';
import { contactChanged } from '../products/registry.ts';
import { checkAndRecord, latestCheck, needsRecheck } from '../tax/vat-id.service.ts';
import { businessFields, vatCheckSummary } from '../tax/vat-profile.ts';

type AccountDeps = Pick<Deps, 'db' | 'secrets' | 'env' | 'vatCheck' | 'products'> & { jobs?: Pick<JobRunner, 'kick'> };

async function loadUser(deps: AccountDeps, id: string) {
  const [user] = await deps.db.select().from(users).where(eq(users.id, id)).limit(1);
  if (!user) throw notFound();
  return user;
}

const toProfile = (u: typeof users.$inferSelect, vatCheck: Profile['vatCheck'] = null): Profile => ({
  username: u.username,
  customerId: String(u.customerNumber),
  email: u.email,
  phone: u.phone,
  street: u.street,
  zipCode: u.zipCode,
  city: u.city,
  country: u.country,
  companyName: u.companyName,
  industry: u.industry,
  business: u.business,
  vatId: u.vatId ?? '',
  vatCheck,
  mfaEnabled: u.totpEnabled,
});

/** The profile with the latest check of the VAT ID on file (a second query only when there is an ID). */
async function profileOf(deps: Pick<Deps, 'db'>, u: typeof users.$inferSelect): Promise<Profile> {
  return toProfile(u, u.vatId ? vatCheckSummary(u, await latestCheck(deps, u.id)) : null);
}

// The profile is read on every portal visit: a prepared statement, built once per database.
const profileQueries = new WeakMap<object, ReturnType<typeof prepareProfileQuery>>();
const prepareProfileQuery = (db: AccountDeps['db']) =>
  db.select().from(users).where(eq(users.id, sql.placeholder('id'))).limit(1).prepare('profile_by_id');

export async function getProfile(deps: AccountDeps, actor: RequestUser) {
  let query = profileQueries.get(deps.db);
  if (!query) profileQueries.set(deps.db, (query = prepareProfileQuery(deps.db)));
  const [user] = await query.execute({ id: actor.id });
  if (!user) throw notFound();
  return profileOf(deps, user);
}

/**
 * Saves the contact, address and business fields. The e-mail address is not among them
 * (requestEmailChange). A VAT ID that is new, changed, or whose last check was unavailable or is too old
 * is checked (§18e UStG) after saving; the answer, whatever it is, is recorded and comes back in
 * `vatCheck`. The input is saved either way: an invalid or unchecked ID means consumer billing, not a
 * lost form.
 */
export async function updateProfile(deps: AccountDeps, actor: RequestUser, input: UpdateProfileInput) {
  const user = await loadUser(deps, actor.id);
  const fields = businessFields(user, input);
  if ('error' in fields) throw badRequest('VAT_ID_FORMAT', fields.error);
  const { business: _business, vatId: _vatId, ...plain } = input;
  const [updated] = await deps.db.update(users).set({ ...plain, ...fields }).where(eq(users.id, actor.id)).returning();
  if (!updated) throw notFound();
  // Copies of the contact at outside systems (a domain customer's registrant contact) follow the profile.
  await contactChanged(deps.products, deps.db, actor.id);
  if (!updated.vatId) return toProfile(updated);
  let check = await latestCheck(deps, updated.id);
  if (needsRecheck(check, new Date(), deps.env.vatCheck.maxAgeDays, { country: updated.country, vatId: updated.vatId }) || check?.country !== updated.country) {
    check = await checkAndRecord(deps, updated.id, {
      country: updated.country, vatId: updated.vatId,
      company: { name: updated.companyName, street: updated.street, zip: updated.zipCode, city: updated.city },
    });
  }
  return toProfile(updated, vatCheckSummary(updated, check));
}

export const EMAIL_CHANGES_PER_HOUR = 10;

/**
 * Step 1 of an e-mail change (review item 11: an access token alone used to be enough to move the
 * account to another address and take it over by a password reset). Needs the current password
 * (limited per account), then mails a code to the new address through the send-code job. The answer
 * is the same whether the address is free or taken: for a taken one the job sends nothing and the
 * change can never be confirmed (auth/code-mail.ts).
 */
export async function requestEmailChange(deps: AccountDeps, actor: RequestUser, input: ChangeEmailInput) {
  const user = await loadUser(deps, actor.id);
  await enforceLimit(deps.db, { key: `email-change-account:${user.id}`, limit: EMAIL_CHANGES_PER_HOUR, windowSeconds: 3600 });
  await checkCurrentPassword(deps, user, input.currentPassword);
  const newEmail = input.newEmail.toLowerCase();
  if (newEmail === user.email.toLowerCase()) throw badRequest('EMAIL_UNCHANGED', messages.emailUnchanged);
  const issued = await issueCode(deps.db, { userId: user.id, purpose: 'change_email', newEmail });
  await enqueueCodeMail(deps.db, issued.id);
  deps.jobs?.kick();
  return { message: messages.emailChangeCodeSent };
}

/**
 * Step 2: the code from the new address (single use, 10 minutes, 5 tries, bound to the account and the
 * purpose) makes that address the account's. The previous address is told, with the way to report it.
 */
export async function confirmEmailChange(deps: AccountDeps, actor: RequestUser, input: ConfirmEmailChangeInput) {
  const user = await loadUser(deps, actor.id);
  const ok = await consumeCode(deps.db, deps.secrets.hmacKey, { userId: user.id, purpose: 'change_email' }, input.code);
  if (!ok?.newEmail) throw badRequest('INVALID_CODE', messages.invalidOrExpiredCode);
  let updated: typeof users.$inferSelect | undefined;
  try {
    [updated] = await deps.db.update(users).set({ email: ok.newEmail, emailVerifiedAt: new Date() }).where(eq(users.id, user.id)).returning();
    await contactChanged(deps.products, deps.db, user.id);
  } catch (err) {
    // Registered by someone else after the code was sent.
    if (isUniqueViolation(err)) throw badRequest('EMAIL_TAKEN', messages.emailTaken);
    throw err;
  }
  if (!updated) throw notFound();
  await enqueueMail(deps.db, emailChangedMail(user.email, user.username, updated.email, deps.env.company.email));
  deps.jobs?.kick();
  return profileOf(deps, updated);
}

/** Changes the password, ends every other session and returns a fresh session for this browser. */
export async function changePassword(deps: AccountDeps, actor: RequestUser, input: { currentPassword: string; newPassword: string }, userAgent: string) {
  const user = await loadUser(deps, actor.id);
  await checkCurrentPassword(deps, user, input.currentPassword);
  await deps.db.update(users).set({ passwordHash: await hashPassword(input.newPassword) }).where(eq(users.id, user.id));
  await revokeAllSessions(deps.db, user.id);
  await enqueueMail(deps.db, passwordChangedMail(user.email, user.username));
  deps.jobs?.kick();
  return openSession(deps.db, deps.secrets, user, userAgent);
}

/** Starts TOTP enrolment: a new secret that becomes active only after a correct code. */
export async function startMfaSetup(deps: AccountDeps, actor: RequestUser) {
  const user = await loadUser(deps, actor.id);
  if (user.totpEnabled) throw badRequest('MFA_ALREADY_ENABLED', messages.mfaAlreadyEnabled);
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  await deps.db.update(users).set({ totpPendingSecret: encryptSecret(deps.secrets.encryptionKey, secret) }).where(eq(users.id, user.id));
  const otpauthUrl = totpFor(secret, user.username).toString();
  const { default: QRCode } = await import('qrcode');
  const qrDataUrl = await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 220 });
  return { secret, otpauthUrl, qrDataUrl };
}

export const BACKUP_CODE_COUNT = 10;

export async function enableMfa(deps: AccountDeps, actor: RequestUser, input: { code: string }) {
  const user = await loadUser(deps, actor.id);
  if (user.totpEnabled) throw badRequest('MFA_ALREADY_ENABLED', messages.mfaAlreadyEnabled);
  if (!user.totpPendingSecret) throw badRequest('MFA_SETUP_MISSING', messages.mfaSetupMissing);
  const totp = totpFor(decryptSecret(deps.secrets.encryptionKey, user.totpPendingSecret), user.username);
  const delta = totp.validate({ token: input.code, window: 1 });
  if (delta === null) throw badRequest('MFA_INVALID', messages.mfaWrongCode);
  const step = Math.floor(Date.now() / 30_000) + delta;
  const codes = Array.from({ length: BACKUP_CODE_COUNT }, () => randomCode(10));
  await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ totpSecret: user.totpPendingSecret, totpPendingSecret: null, totpEnabled: true, totpLastStep: step }).where(eq(users.id, user.id));
    await tx.delete(backupCodes).where(eq(backupCodes.userId, user.id));
    await tx.insert(backupCodes).values(codes.map((c) => ({ userId: user.id, codeHash: hmac(deps.secrets.hmacKey, `backup:${c}`) })));
  });
  // Sessions opened with the password alone (perhaps by whoever made the user switch MFA on) end now;
  // this browser stays signed in.
  await revokeAllSessions(deps.db, user.id, actor.sessionId);
  // Shown once, formatted for reading; the login accepts them with or without the dash.
  return { backupCodes: codes.map((c) => `${c.slice(0, 5)}-${c.slice(5)}`) };
}

export async function disableMfa(deps: AccountDeps, actor: RequestUser, input: { password: string; code: string }) {
  const user = await loadUser(deps, actor.id);
  if (!user.totpEnabled || !user.totpSecret) throw badRequest('MFA_NOT_ENABLED', messages.mfaNotEnabled);
  await checkCurrentPassword(deps, user, input.password);
  // The code is limited like the MFA login (count first), so the password alone does not allow guessing it.
  const rule = mfaRule(user.id);
  await enforceLimit(deps.db, rule);
  if (!(await acceptTotp(deps, user, user.totpSecret, input.code))) throw new AppError(400, 'MFA_INVALID', messages.mfaWrongCode);
  await resetCounter(deps.db, rule.key);
  await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ totpEnabled: false, totpSecret: null, totpPendingSecret: null }).where(eq(users.id, user.id));
    await tx.delete(backupCodes).where(eq(backupCodes.userId, user.id));
  });
}

/**
 * "Konto löschen": the customer deletes their own account, confirmed with the current password (limited
 * per account like every current-password check). Staff accounts are not deleted this way. The same
 * rules as the owner's deletion apply (customers/customer-deletion.ts, docs/decisions/018).
 */
export async function deleteOwnAccount(deps: AccountDeps, actor: RequestUser, input: DeleteAccountInput) {
  const user = await loadUser(deps, actor.id);
  if (user.role !== 'customer') throw new AppError(403, 'STAFF_ACCOUNT', privacyMessages.staffAccount);
  await checkCurrentPassword(deps, user, input.currentPassword);
  await deleteCustomerAccount(deps, actor, user.id, { self: true });
  return { message: privacyMessages.accountDeleted };
}
