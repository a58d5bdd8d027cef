import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError, ReinstallInput, RootPasswordInput, RootPasswordResult, ServerIdParams, ServerSettings, ShareInput, ShareParams, ShareResult, SshKeysInput, SshKeysResult, TaskAccepted } from '@hp/contract';
import { changeRootPassword, getSettings, saveSshKeys, shareServer, startReinstall, unshareServer } from './settings.service.ts';
import { signedInRoutes } from '../../http/auth.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 503: ApiError };

/**
 * Einstellungen tab: SSH keys and root password (owner and shared users), sharing by username and the
 * reinstall (owner only). Another customer's server is 404 everywhere.
 */
export async function settingsRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const deps = { ...app.deps, log: app.log };
  const base = { config: { access: 'customer' as const } };
  const doc = (summary: string) => ({ tags: ['servers'], summary, security: [{ bearer: [] }] });

  u.get('/api/servers/:id/settings', { ...base, schema: { ...doc('Einstellungen des Servers'), params: ServerIdParams, response: { 200: ServerSettings, ...errors } } },
    async (req) => getSettings(deps, req.user, req.params.id));

  u.put('/api/servers/:id/ssh-keys', { ...base, schema: { ...doc('SSH-Schlüssel setzen (nur Linux; Windows: 409)'), params: ServerIdParams, body: SshKeysInput, response: { 200: SshKeysResult, ...errors } } },
    async (req) => saveSshKeys(deps, req.user, req.params.id, req.body.keys));

  u.put('/api/servers/:id/root-password', { ...base, schema: { ...doc('Root- bzw. Administrator-Passwort ändern (wird nicht gespeichert)'), params: ServerIdParams, body: RootPasswordInput, response: { 200: RootPasswordResult, ...errors } } },
    async (req) => changeRootPassword(deps, req.user, req.params.id, req.body.password));

  u.post('/api/servers/:id/access', { ...base, schema: { ...doc('Server mit einem Benutzer teilen (nur Besitzer)'), params: ServerIdParams, body: ShareInput, response: { 201: ShareResult, ...errors } } },
    async (req, reply) => reply.code(201).send(await shareServer(deps, req.user, req.params.id, req.body.username)));

  u.delete('/api/servers/:id/access/:username', { ...base, schema: { ...doc('Freigabe entfernen (nur Besitzer)'), params: ShareParams, response: { 204: z.null(), ...errors } } },
    async (req, reply) => {
      await unshareServer(deps, req.user, req.params.id, req.params.username);
      return reply.code(204).send(null);
    });

  u.post('/api/servers/:id/reinstall', { ...base, schema: { ...doc('Server neu installieren (nur Besitzer, alle Daten gehen verloren)'), params: ServerIdParams, body: ReinstallInput, response: { 202: TaskAccepted, ...errors } } },
    async (req, reply) => reply.code(202).send(await startReinstall(deps, req.user, req.params.id, req.body)));
}
