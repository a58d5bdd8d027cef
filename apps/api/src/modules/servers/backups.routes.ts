import type { FastifyInstance } from 'fastify';
import { ApiError, BackupDeleteResult, BackupList, BackupParams, BackupTaskResult, ServerIdParams } from '@hp/contract';
import { createServerBackup, deleteServerBackup, listServerBackups, restoreServerBackup } from './backups.service.ts';
import { signedInRoutes } from '../../http/auth.ts';

const errors = { 400: ApiError, 401: ApiError, 404: ApiError, 409: ApiError, 503: ApiError };

/** Backups of a customer's (own or shared) server; ownership is checked in every service call. */
export async function backupsRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const deps = app.deps;
  const base = { config: { access: 'customer' as const } };
  const doc = { tags: ['servers'], security: [{ bearer: [] }] };

  u.get('/api/servers/:id/backups', { ...base, schema: { ...doc, summary: 'Backups und laufender Backup-/Wiederherstellungsvorgang (5-s-Polling)', params: ServerIdParams, response: { 200: BackupList, ...errors } } },
    async (req) => listServerBackups(deps, req.user, req.params.id));

  u.post('/api/servers/:id/backups', { ...base, schema: { ...doc, summary: 'Backup erstellen (höchstens 1 pro Server)', params: ServerIdParams, response: { 202: BackupTaskResult, ...errors } } },
    async (req, reply) => reply.code(202).send(await createServerBackup(deps, req.user, req.params.id)));

  u.post('/api/servers/:id/backups/:backupId/restore', { ...base, schema: { ...doc, summary: 'Backup wiederherstellen (überschreibt den aktuellen Stand)', params: BackupParams, response: { 202: BackupTaskResult, ...errors } } },
    async (req, reply) => reply.code(202).send(await restoreServerBackup(deps, req.user, req.params.id, req.params.backupId)));

  u.delete('/api/servers/:id/backups/:backupId', { ...base, schema: { ...doc, summary: 'Backup löschen', params: BackupParams, response: { 200: BackupDeleteResult, ...errors } } },
    async (req) => deleteServerBackup(deps, req.user, req.params.id, req.params.backupId));
}
