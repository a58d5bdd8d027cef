import type { FastifyRequest } from 'fastify';
import { messages } from '@hp/contract';
import { badRequest } from './errors.ts';

/**
 * True when a string, or any key or string inside a parsed JSON object or array, contains a NUL
 * character. Binary bodies (uploads arrive as a Buffer) are bytes, not text: they are never walked
 * (walking a 10 MB Buffer entry by entry stalled the whole instance for half a minute, issue 21), and
 * neither are streams or other class instances.
 */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  // Only parsed data is text: plain objects from JSON, forms and query strings. A stream, a Buffer or
  // any other instance (a route that hands its request stream on as the body) is never walked: the
  // socket's object graph once kept the whole instance busy at the first ISO upload piece.
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v, depth + 1));
}

/**
 * PostgreSQL text cannot hold NUL: such input would fail deep in a query with a 500. It is refused up
 * front as invalid input instead, for every route.
 */
export async function rejectNulCharacters(req: FastifyRequest) {
  if (containsNul(req.body) || containsNul(req.query) || containsNul(req.params)) {
    throw badRequest('VALIDATION_ERROR', messages.invalidInput);
  }
}
