import type { FastifyInstance } from 'fastify';

// Placeholder: the console routes of a server are registered here.
export async function consoleRoutes(_app: FastifyInstance) {}
