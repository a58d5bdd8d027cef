import type { FastifyInstance } from 'fastify';
import { ApiError, FirewallDeleteQuery, FirewallMutationResult, FirewallRuleInput, FirewallRuleParams, FirewallState, FirewallToggleInput, FirewallToggleResult, ServerIdParams } from '@hp/contract';
import { addFirewallRule, deleteFirewallRule, getFirewall, setFirewallEnabled } from './firewall.service.ts';
import { signedInRoutes } from '../../http/auth.ts';

const errors = { 400: ApiError, 401: ApiError, 404: ApiError, 409: ApiError, 503: ApiError };

/** The firewall of a customer's (own or shared) server; ownership is checked in every service call. */
export async function firewallRoutes(app: FastifyInstance) {
  const u = signedInRoutes(app);
  const deps = app.deps;
  const base = { config: { access: 'customer' as const } };
  const doc = { tags: ['servers'], security: [{ bearer: [] }] };

  u.get('/api/servers/:id/firewall', { ...base, schema: { ...doc, summary: 'Firewall-Status und Regeln', params: ServerIdParams, response: { 200: FirewallState, ...errors } } },
    async (req) => getFirewall(deps, req.user, req.params.id));

  u.put('/api/servers/:id/firewall', { ...base, schema: { ...doc, summary: 'Firewall ein- oder ausschalten', params: ServerIdParams, body: FirewallToggleInput, response: { 200: FirewallToggleResult, ...errors } } },
    async (req) => setFirewallEnabled(deps, req.user, req.params.id, req.body.enabled));

  u.post('/api/servers/:id/firewall/rules', { ...base, schema: { ...doc, summary: 'Firewall-Regel hinzufügen (wird an erster Stelle eingefügt)', params: ServerIdParams, body: FirewallRuleInput, response: { 201: FirewallMutationResult, ...errors } } },
    async (req, reply) => reply.code(201).send(await addFirewallRule(deps, req.user, req.params.id, req.body)));

  u.delete('/api/servers/:id/firewall/rules/:pos', { ...base, schema: { ...doc, summary: 'Firewall-Regel löschen (Position plus Fingerabdruck)', params: FirewallRuleParams, querystring: FirewallDeleteQuery, response: { 200: FirewallMutationResult, ...errors } } },
    async (req) => deleteFirewallRule(deps, req.user, req.params.id, req.params.pos, req.query.fingerprint));
}
