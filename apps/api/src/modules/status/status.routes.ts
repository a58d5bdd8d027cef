import type { FastifyInstance } from 'fastify';

// Placeholder until the status module lands (see status.service.ts).
export async function statusRoutes(_app: FastifyInstance) {}
