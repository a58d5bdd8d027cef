import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ApiError, VDC_ISO_CHUNK_BYTES, VdcIdParams, VdcIso, VdcIsoAttachInput, VdcIsoCreateInput, VdcIsoList, VdcIsoParams, VdcVmIsoState, VdcVmParams,
} from '@hp/contract';
import { signedInRoutes } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import * as isos from './vdc-isos.service.ts';

const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError, 413: ApiError, 415: ApiError, 503: ApiError };
const security = [{ bearer: [] }];
const customer = { config: { access: 'customer' as const } };
const doc = (summary: string) => ({ tags: ['vdc'], summary, security });

const UploadHeaders = z.object({
  'upload-offset': z.string({ error: isos.isoMessages.offsetHeader }).regex(/^\d{1,16}$/, { error: isos.isoMessages.offsetHeader }),
});

/**
 * The VDC's ISO library (owner only; another customer's ids answer 404). No route ever sends an image's
 * bytes back: the library is for booting VMs, not a download store.
 */
export async function vdcIsoRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const deps = app.deps;

  u.get('/api/vdcs/:id/isos', { ...customer, schema: { ...doc('ISO-Bibliothek eines Virtual Data Centers mit Kontingent'), params: VdcIdParams, response: { 200: VdcIsoList, ...errors } } },
    async (req) => isos.getIsoLibrary(deps, req.user.id, req.params.id));
  u.post('/api/vdcs/:id/isos', { ...customer, schema: { ...doc('ISO-Upload beginnen: Name und genaue Größe (reserviert das Kontingent)'), params: VdcIdParams, body: VdcIsoCreateInput, response: { 201: VdcIso, ...errors } } },
    async (req, reply) => reply.code(201).send(await isos.startIsoUpload(deps, req.user.id, req.params.id, req.body)));
  // HEAD answers the same headers: where a resumed upload continues.
  u.get('/api/vdcs/:id/isos/:isoId', { ...customer, schema: { ...doc('Ein ISO-Image mit Upload-Stand (Kopf Upload-Offset; auch als HEAD)'), params: VdcIsoParams, response: { 200: VdcIso, ...errors } } },
    async (req, reply) => {
      const iso = await isos.getIso(deps, req.user.id, req.params.id, req.params.isoId);
      return reply.header('upload-offset', String(iso.receivedBytes)).header('upload-length', String(iso.sizeBytes)).send(iso);
    });
  u.delete('/api/vdcs/:id/isos/:isoId', { ...customer, schema: { ...doc('ISO-Image löschen oder Upload abbrechen (nicht, solange eine VM es eingelegt hat)'), params: VdcIsoParams, response: { 204: z.null(), ...errors } } },
    async (req, reply) => {
      await isos.deleteIso(deps, req.user.id, req.params.id, req.params.isoId);
      return reply.code(204).send(null);
    });
  u.put('/api/vdcs/:id/vms/:vmId/iso', { ...customer, schema: { ...doc('ISO-Image in das CD-Laufwerk einer VM legen und davon starten, oder auswerfen (isoId: null)'), params: VdcVmParams, body: VdcIsoAttachInput, response: { 200: VdcVmIsoState, ...errors } } },
    async (req) => isos.setVmIso(deps, req.user.id, req.params.id, req.params.vmId, req.body.isoId));

  // The pieces arrive raw and are streamed to disk as they come: the parser leaves the bytes unread in
  // the request stream (req.raw), and the service counts every byte against the piece limit. It must not
  // hand the stream on as the body: the global input hooks walk a parsed body, and walking a socket's
  // IncomingMessage (its socket, server, parser …, 32 levels deep) blocked the whole instance for good.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/octet-stream', (_req: FastifyRequest, _payload: FastifyRequest['raw'], done: (err: Error | null, body?: unknown) => void) => done(null, undefined));
    scope.addHook('onRequest', async (req, reply) => {
      if (Number(req.headers['content-length'] ?? 0) > VDC_ISO_CHUNK_BYTES) {
        return reply.code(413).type('application/json').send({ error: { code: 'ISO_CHUNK_TOO_LARGE', message: isos.isoMessages.chunkTooLarge }, requestId: req.id });
      }
    });
    const up = signedInRoutes(scope);
    up.put('/api/vdcs/:id/isos/:isoId/content', {
      ...customer,
      schema: {
        ...doc(`Nächsten Abschnitt des ISO-Images senden (application/octet-stream, höchstens ${VDC_ISO_CHUNK_BYTES / 1024 / 1024} MB, ab Byte Upload-Offset)`),
        params: VdcIsoParams, headers: UploadHeaders, response: { 200: VdcIso, ...errors },
      },
    }, async (req, reply) => {
      // Any other type was parsed (and read) by another parser: only raw bytes are left unread in req.raw.
      if (!req.headers['content-type']?.startsWith('application/octet-stream') || req.body !== undefined || req.raw.readableEnded) {
        throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', isos.isoMessages.octetStream);
      }
      const iso = await isos.receiveIsoChunk(deps, req.user.id, req.params.id, req.params.isoId, Number(req.headers['upload-offset']), req.raw);
      return reply.header('upload-offset', String(iso.receivedBytes)).send(iso);
    });
  });
}
