import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_ATTACHMENT_BYTES, messages, ticketMessages } from '@hp/contract';
import { contentDisposition } from '../lib/files.ts';
import { AppError } from './errors.ts';

/**
 * Downloads and uploads of stored files (docs/decisions/015), shared by ticket attachments and customer
 * documents so both follow the same rules.
 */

/**
 * A stored file, always as a download: never rendered by the browser as a page (SVG and HTML are not
 * accepted anyway), never sniffed into a script type, never cached by a shared cache. Image previews
 * fetch the same route and show the bytes from a blob: URL.
 */
export function sendFile(reply: FastifyReply, file: { name: string; contentType: string; size: number; data: Buffer }) {
  return reply
    .header('content-type', file.contentType === 'text/plain' ? 'text/plain; charset=utf-8' : file.contentType)
    .header('content-disposition', contentDisposition(file.name))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, no-store')
    .header('content-length', String(file.size))
    .send(file.data);
}

/**
 * Reads an upload into one buffer. With a declared length (every browser sends one) the buffer is
 * allocated once at that size and each chunk is copied in and dropped, so the request holds one copy of
 * the file, not the chunks plus their concatenation. More bytes than declared or than the limit → 413.
 */
export async function readUpload(stream: AsyncIterable<Buffer>, declaredLength: number): Promise<Buffer> {
  const tooLarge = () => new AppError(413, 'ATTACHMENT_TOO_LARGE', ticketMessages.attachmentTooLarge);
  if (Number.isInteger(declaredLength) && declaredLength >= 0) {
    if (declaredLength > MAX_ATTACHMENT_BYTES) throw tooLarge();
    const target = Buffer.allocUnsafe(declaredLength);
    let offset = 0;
    for await (const chunk of stream) {
      if (offset + chunk.length > declaredLength) throw new AppError(400, 'VALIDATION_ERROR', messages.invalidInput);
      chunk.copy(target, offset);
      offset += chunk.length;
    }
    if (offset !== declaredLength) throw new AppError(400, 'VALIDATION_ERROR', messages.invalidInput);
    return target;
  }
  // Chunked transfer without a length: collect, then join once.
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    if (total > MAX_ATTACHMENT_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/**
 * Registers upload routes in their own scope: the bytes arrive raw (application/octet-stream), at most
 * 10 MB, and the name rides in the query. A declared length over the limit is refused before the body
 * is read. `register` gets the scope and `rawBody`, which refuses any other content type with 415.
 */
export async function uploadRoutes(app: FastifyInstance, register: (scope: FastifyInstance, rawBody: (req: { headers: { 'content-type'?: string }; body: unknown }) => Buffer) => void) {
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/octet-stream', { bodyLimit: MAX_ATTACHMENT_BYTES }, (req: FastifyRequest, payload: FastifyRequest['raw']) => readUpload(payload, Number(req.headers['content-length'] ?? NaN)));
    scope.addHook('onRequest', async (req, reply) => {
      if (Number(req.headers['content-length'] ?? 0) > MAX_ATTACHMENT_BYTES) {
        return reply.code(413).type('application/json').send({ error: { code: 'ATTACHMENT_TOO_LARGE', message: ticketMessages.attachmentTooLarge }, requestId: req.id });
      }
    });
    register(scope, (req) => {
      if (!req.headers['content-type']?.startsWith('application/octet-stream')) throw new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', messages.unsupportedMediaType);
      return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    });
  });
}
