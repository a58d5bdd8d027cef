import type { FastifyInstance } from 'fastify';

// Placeholder: the software routes of a server are registered here.
export async function softwareRoutes(_app: FastifyInstance) {}
