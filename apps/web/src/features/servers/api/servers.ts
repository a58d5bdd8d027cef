// GET /api/servers, /api/servers/:id and /api/servers/:id/status live in ../api.ts (their polling is tuned
// there, next to the live events); this module gives them the same place as every other endpoint.
export { isTransitional, useServer, useServers, useServerStatus } from '../api.ts';
