import type { FastifyInstance } from 'fastify';

// Placeholder: the backups routes of a server are registered here.
export async function backupsRoutes(_app: FastifyInstance) {}
