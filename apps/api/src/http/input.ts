import type { FastifyRequest } from 'fastify';
import { messages } from '@hp/contract';
import { badRequest } from './errors.ts';

/** True when a string, or any key or string inside an object or array, contains a NUL character. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
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
