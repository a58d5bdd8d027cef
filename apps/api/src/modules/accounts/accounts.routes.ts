import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiError, ChangeEmailInput, ConfirmEmailLinkInput, DeleteAccountInput, ChangePasswordInput, ConfirmEmailChangeInput, MessageResult, MfaDisableInput, MfaEnableInput, MfaEnableResult, MfaSetupResult, Profile, TokenResult,
  UpdateProfileInput,
} from '@hp/contract';
import { REFRESH_COOKIE, REFRESH_TTL_DAYS } from '../auth/sessions.ts';
import { changePassword, confirmEmailChange, deleteOwnAccount, disableMfa, enableMfa, getProfile, requestEmailChange, startMfaSetup, updateProfile } from './accounts.service.ts';
import { signedInRoutes } from '../../http/auth.ts';
import { exportAccountData } from './data-export.ts';
import { confirmEmailLink } from '../customers/email-change.ts';

const errors = { 400: ApiError, 401: ApiError, 404: ApiError, 429: ApiError };

export async function accountRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const deps = { ...app.deps, jobs: app.jobs };
  const secure = deps.env.publicUrl.startsWith('https://');

  u.get('/api/account/profile', {
    config: { access: 'customer' },
    schema: { tags: ['account'], summary: 'Eigenes Profil', security: [{ bearer: [] }], response: { 200: Profile, ...errors } },
  }, async (req) => getProfile(deps, req.user));

  u.put('/api/account/profile', {
    config: { access: 'customer' },
    schema: { tags: ['account'], summary: 'Profil speichern (ohne E-Mail-Adresse)', security: [{ bearer: [] }], body: UpdateProfileInput, response: { 200: Profile, ...errors } },
  }, async (req) => updateProfile(deps, req.user, req.body));

  u.post('/api/account/email', {
    config: { access: 'customer' },
    schema: {
      tags: ['account'], summary: 'E-Mail-Adresse ändern, Schritt 1: aktuelles Passwort, Code an die neue Adresse', security: [{ bearer: [] }],
      body: ChangeEmailInput, response: { 200: MessageResult, ...errors },
    },
  }, async (req) => requestEmailChange(deps, req.user, req.body));

  u.post('/api/account/email/confirm', {
    config: { access: 'customer' },
    schema: { tags: ['account'], summary: 'E-Mail-Adresse ändern, Schritt 2: Code bestätigen', security: [{ bearer: [] }], body: ConfirmEmailChangeInput, response: { 200: Profile, ...errors } },
  }, async (req) => confirmEmailChange(deps, req.user, req.body));

  // Public: the link of a staff-initiated change works without a login (the old mailbox may be lost).
  app.withTypeProvider<ZodTypeProvider>().post('/api/account/email/link', {
    config: { access: 'public' },
    schema: { tags: ['account'], summary: 'Von Mitarbeitern geänderte E-Mail-Adresse über den Link bestätigen', body: ConfirmEmailLinkInput, response: { 200: MessageResult, ...errors } },
  }, async (req) => confirmEmailLink(deps, req.body, req.ip));

  u.post('/api/account/password', {
    config: { access: 'customer' },
    schema: { tags: ['account'], summary: 'Passwort ändern (beendet alle anderen Sitzungen)', security: [{ bearer: [] }], body: ChangePasswordInput, response: { 200: TokenResult, ...errors } },
  }, async (req, reply) => {
    const session = await changePassword(deps, req.user, req.body, req.headers['user-agent'] ?? '');
    reply.setCookie(REFRESH_COOKIE, session.refreshToken, { httpOnly: true, sameSite: 'strict', secure, path: '/api/auth', maxAge: REFRESH_TTL_DAYS * 86400 });
    return { token: session.token };
  });

  u.post('/api/account/mfa/setup', {
    config: { access: 'customer' },
    schema: { tags: ['account'], summary: 'TOTP-Einrichtung starten (QR-Code)', security: [{ bearer: [] }], response: { 200: MfaSetupResult, ...errors } },
  }, async (req) => startMfaSetup(deps, req.user));

  u.post('/api/account/mfa/enable', {
    config: { access: 'customer' },
    schema: { tags: ['account'], summary: 'TOTP mit einem Code aktivieren (beendet alle anderen Sitzungen); liefert die Backup-Codes einmalig', security: [{ bearer: [] }], body: MfaEnableInput, response: { 200: MfaEnableResult, ...errors } },
  }, async (req) => enableMfa(deps, req.user, req.body));

  u.post('/api/account/mfa/disable', {
    config: { access: 'customer' },
    schema: { tags: ['account'], summary: 'TOTP abschalten (Passwort und Code nötig)', security: [{ bearer: [] }], body: MfaDisableInput, response: { 204: z.null(), ...errors } },
  }, async (req, reply) => {
    await disableMfa(deps, req.user, req.body);
    return reply.code(204).send(null);
  });

  u.get('/api/account/export', {
    config: { access: 'customer' },
    schema: { tags: ['account'], summary: 'Meine Daten exportieren (Art. 15/20 DSGVO): ZIP mit daten.json und allen Rechnungen als PDF und XRechnung', security: [{ bearer: [] }], response: { 200: z.any(), ...errors } },
  }, async (req, reply) => {
    const { zip, fileName } = await exportAccountData(deps, req.user);
    return reply.type('application/zip').header('cache-control', 'private, no-store').header('x-content-type-options', 'nosniff')
      .header('content-disposition', `attachment; filename="${fileName}"`).send(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength));
  });

  u.post('/api/account/deletion', {
    config: { access: 'customer' },
    schema: {
      tags: ['account'], summary: 'Konto löschen (aktuelles Passwort; nicht bei aktiven Servern oder offenen Rechnungen)', security: [{ bearer: [] }],
      body: DeleteAccountInput, response: { 200: MessageResult, ...errors, 403: ApiError, 409: ApiError },
    },
  }, async (req, reply) => {
    const result = await deleteOwnAccount(deps, req.user, req.body);
    reply.clearCookie(REFRESH_COOKIE, { httpOnly: true, sameSite: 'strict', secure, path: '/api/auth' });
    return result;
  });
}
