import type { FastifyInstance } from 'fastify';

// Placeholder: the settings routes of a server are registered here.
export async function settingsRoutes(_app: FastifyInstance) {}
