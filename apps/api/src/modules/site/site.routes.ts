import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CompanyInfo } from '@hp/contract';

/** Configuration the public pages need (legal pages show the company from configuration). */
export async function siteRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/site/company', {
    config: { access: 'public' },
    schema: { tags: ['site'], summary: 'Firmenangaben für Impressum und Rechtstexte', response: { 200: CompanyInfo } },
  }, async () => app.deps.env.company);
}
