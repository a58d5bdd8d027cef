import type { FastifyInstance } from 'fastify';

// Placeholder: the firewall routes of a server are registered here.
export async function firewallRoutes(_app: FastifyInstance) {}
