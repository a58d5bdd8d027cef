import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiError, DomainSearchQuery, DomainSearchResult } from '@hp/contract';
import { AvailabilityCache, searchDomains } from './domain-search.service.ts';

const tags = ['domains'];

/** The public domain search of the /domain page (issue 13). */
export async function domainRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const cache = new AvailabilityCache();

  r.get('/api/domains/search', {
    config: { access: 'public' },
    schema: {
      tags,
      summary: 'Domainsuche: Verfügbarkeit und Preis je Endung (öffentlich, je Adresse begrenzt, kurz zwischengespeichert)',
      querystring: DomainSearchQuery,
      response: { 200: DomainSearchResult, 400: ApiError, 429: ApiError, 503: ApiError },
    },
  }, async (req) => searchDomains({ ...deps, log: req.log }, cache, req.query.q, req.ip));
}
