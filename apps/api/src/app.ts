import crypto from 'node:crypto';
import pino from 'pino';
import './fastify-instance.ts';
// zod's German messages: imported here by name, because a bundler may drop the contract index's bare
// import of them (esbuild did: the built API answered in English, decision 010).
import '@hp/contract/zod-locale';
import Fastify, { LogController, type FastifyInstance, type FastifyError, type FastifyReply } from 'fastify';
import cookie from '@fastify/cookie';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { serializerCompiler, validatorCompiler, jsonSchemaTransform, hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { messages, registrationCodeOf } from '@hp/contract';
import type { Deps } from './deps.ts';
import { createHostingDriver } from './drivers/hosting/index.ts';
import { createRegistrarDriver } from './drivers/registrar/index.ts';
import { createVatCheck } from './drivers/vat/index.ts';
import { createStorageDriver } from './drivers/storage/index.ts';
import { domainsModule } from './modules/domains/domains.module.ts';
import { storageModule } from './modules/storage/storage.module.ts';
import { vdcModule } from './modules/vdc/vdc.module.ts';
import { JobRunner } from './jobs/queue.ts';
import { createProductRegistry } from './modules/products/registry.ts';
import type { DeclaredModule } from './modules/products/define-product.ts';
import { Scheduler } from './jobs/scheduler.ts';
import type { JobDeps } from './jobs/define.ts';
import { mailModule } from './jobs/mail.ts';
import { authModule } from './modules/auth/auth.module.ts';
import { accountsModule } from './modules/accounts/accounts.module.ts';
import { statusModule } from './modules/status/status.module.ts';
import { siteModule } from './modules/site/site.module.ts';
import { infrastructureModule } from './modules/infrastructure/infrastructure.module.ts';
import { serversModule } from './modules/servers/servers.module.ts';
import { shopModule } from './modules/shop/shop.module.ts';
import { paymentsModule } from './modules/payments/payments.module.ts';
import { ordersModule } from './modules/orders/orders.module.ts';
import { hostingModule } from './modules/hosting/hosting.module.ts';
import { invoicesModule } from './modules/invoices/invoices.module.ts';
import { AppError } from './http/errors.ts';
import { authPlugin, type RegisteredRoute } from './http/auth.ts';
import { constraintFailure, isDatabaseDown, isQueryError, safeDbError } from './http/db-errors.ts';
import { LogThrottle } from './lib/log-throttle.ts';
import { PUBLIC_TOPICS, PublicCache } from './http/public-cache.ts';
import { securityHeaders } from './http/security-headers.ts';
import { webRoutes } from './http/web.ts';
import { eventsModule } from './modules/events/events.module.ts';
import { ticketsModule } from './modules/tickets/tickets.module.ts';
import { changelogModule } from './modules/changelog/changelog.module.ts';
import { customersModule } from './modules/customers/customers.module.ts';
import { statisticsModule } from './modules/statistics/statistics.module.ts';
import { taxModule } from './modules/tax/tax.module.ts';
import { withCommunicationLog } from './modules/customers/communications.ts';

/**
 * Every module of the product, each with its routes, job definitions and schedules (docs/decisions/013).
 * A new module adds its manifest here and nowhere else.
 */
export const modules: DeclaredModule[] = [
  mailModule, authModule, accountsModule, statusModule, siteModule, infrastructureModule,
  serversModule, shopModule, paymentsModule, ordersModule, hostingModule, invoicesModule, eventsModule, ticketsModule, changelogModule, customersModule,
  statisticsModule, taxModule, domainsModule, storageModule, vdcModule,
];

/** Headers for the few responses that bypass the helmet hook. */
const baselineSecurityHeaders = {
  'content-security-policy': "default-src 'self'; script-src 'self'; object-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const isApiUrl = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/** Drivers an entry point may leave out get their embedded default (hosting panel, registrar, VAT-ID check: simulated). */
export type AppDeps = Omit<Deps, 'hosting' | 'registrar' | 'vatCheck' | 'storage' | 'products'> & Partial<Pick<Deps, 'hosting' | 'registrar' | 'vatCheck' | 'storage'>>;

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

export async function buildApp(given: AppDeps): Promise<FastifyInstance> {
  const deps: Deps = {
    ...given,
    hosting: given.hosting ?? createHostingDriver(given.env, given.db),
    registrar: given.registrar ?? createRegistrarDriver(given.env, given.db),
    vatCheck: given.vatCheck ?? createVatCheck(given.env),
    storage: given.storage ?? createStorageDriver(given.env, given.db),
    products: createProductRegistry(modules),
  };
  // As shipped the log is written asynchronously (a buffered SonicBoom on stdout, flushed at close):
  // a synchronous write per line cost the hot routes a third of their throughput (docs/decisions/029).
  const logDestination = deps.logStream ? undefined : pino.destination({ dest: 1, sync: false });
  const app = Fastify({
    // One line per request, written when the answer is sent (below), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    logger: {
      level: deps.env.logLevel,
      ...(deps.logStream ? { stream: deps.logStream } : { stream: logDestination }),
      // Secrets must never reach the log, whatever a future log line includes.
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.password', '*.newPassword', '*.currentPassword', '*.code', '*.token', '*.resetToken', '*.mfaToken', '*.backupCode', '*.secret'],
        censor: '[redacted]',
      },
      serializers: {
        // Drizzle's query errors carry the SQL and its parameters (customers' data) in their message.
        err: (err: Error) => (isQueryError(err) ? { type: 'DatabaseError', message: 'database error', stack: '', ...safeDbError(err) } : pino.stdSerializers.err(err)),
        req: (req) => ({ method: req.method, url: (req.url as string).split('?')[0], remoteAddress: req.ip }),
      },
    },
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    // A hop count becomes proxy-addr's trust function: the socket peer and the next n-1 entries from the
    // right are proxies, the entry after them is the client (docs/decisions/026). Fastify itself treats
    // a bare number as "trust nothing".
    trustProxy: typeof deps.env.trustProxy === 'number' ? trustHops(deps.env.trustProxy) : deps.env.trustProxy,
    bodyLimit: 256 * 1024,
    routerOptions: { caseSensitive: true, ignoreTrailingSlash: true, maxParamLength: 500 },
    // Errors the router raises before any hook runs (malformed percent-encoding): German JSON and the
    // security headers, instead of Fastify's English text echoing the URL.
    frameworkErrors: (err, req, reply) => {
      reply.headers({ ...baselineSecurityHeaders, 'x-request-id': req.id });
      const status = err.code === 'FST_ERR_BAD_URL' ? 400 : (err as FastifyError).statusCode ?? 400;
      return (reply as unknown as FastifyReply).status(status).type('application/json').send({ error: { code: 'BAD_REQUEST', message: messages.invalidInput }, requestId: req.id });
    },
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', deps.db);
  // Every mail a customer receives lands in their communication history (customer detail).
  app.decorate('deps', { ...deps, mail: withCommunicationLog(deps.db, deps.mail, (err) => app.log.warn({ err }, 'communication log failed')) });
  app.decorate('registeredRoutes', [] as RegisteredRoute[]);
  const jobDeps = (): JobDeps => ({ ...app.deps, log: app.log });
  const jobs = new JobRunner(deps.db, jobDeps, { log: app.log, leaseMs: deps.env.jobLeaseMs });
  const scheduler = new Scheduler(deps.db, jobDeps, { owner: jobs.owner, onRun: () => jobs.kick() });
  app.decorate('jobs', jobs);
  app.decorate('scheduler', scheduler);
  const publicCache = new PublicCache();
  app.decorate('publicCache', publicCache);
  const stopListening = deps.realtime?.subscribe((message) => {
    if (message.kind === 'resync') publicCache.invalidateAll();
    else if (message.kind === 'publicChanged' && (PUBLIC_TOPICS as readonly string[]).includes(message.topic)) publicCache.invalidate(message.topic as (typeof PUBLIC_TOPICS)[number]);
  });
  if (stopListening) app.addHook('onClose', async () => stopListening());
  for (const m of modules) {
    for (const job of m.jobs ?? []) jobs.register(job);
    for (const schedule of m.schedules ?? []) scheduler.register(schedule);
  }
  app.addHook('onClose', async () => {
    await scheduler.stop();
    await jobs.stop();
  });

  // The request line: one per request, at info for the API and pages, at debug for health checks and
  // static files (their volume says nothing an operator needs). Failures are logged where they happen.
  app.addHook('onResponse', async (req, reply) => {
    const path = req.url.split('?')[0]!;
    const quiet = path === '/api/health' || (!isApiUrl(path) && /\.[a-z0-9]+$/i.test(path));
    req.log[quiet ? 'debug' : 'info']({ req, res: { statusCode: reply.statusCode }, ms: Math.round(reply.elapsedTime * 10) / 10 }, 'request');
  });
  if (logDestination) app.addHook('onClose', async () => logDestination.flushSync());

  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
    // API answers carry tokens and personal data, public ones included (status, company): neither a
    // shared proxy nor the browser's back/forward cache may keep them. A route that chose its own
    // policy (invoice downloads) keeps it.
    if (isApiUrl(req.url) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  securityHeaders(app, { hsts: deps.env.publicUrl.startsWith('https://') });
  await app.register(cookie);
  await app.register(compress, { global: true, threshold: 1024 });
  await app.register(authPlugin, { jwtKey: deps.secrets.jwtKey, routes: app.registeredRoutes });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Hosting Portal API', version: '1.0.0', description: 'REST-API des Kundenportals. Fehler: { error: { code, message }, requestId }.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  if (deps.env.apiDocs) {
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true, uiConfig: { docExpansion: 'list' } });
    app.get('/api/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());
  }
  app.get('/api/health', { config: { access: 'public' }, schema: { hide: true } }, async () => ({ ok: true }));

  const databaseDownLog = new LogThrottle(5000);
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const send = (status: number, code: string, message: string, details?: Record<string, unknown>) =>
      reply.status(status).type('application/json').send({ error: { code, message, ...(details ? { details } : {}) }, requestId: req.id });

    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      return send(err.statusCode, err.code, err.message, err.details);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      // The contract's message, or zod's German default (the contract configures the locale): passed
      // through as it is. A registration check names its spec code in the issue's params (decision 010).
      const issue = err.validation[0]!;
      const text = issue.message || messages.invalidInput;
      const code = registrationCodeOf((issue.params as { params?: unknown }).params) ?? 'VALIDATION_ERROR';
      const field = issue.instancePath ? issue.instancePath.replace(/^\//, '').replace(/\//g, '.') : undefined;
      return send(400, code, text, field ? { field } : undefined);
    }
    // Validation by anything but zod (no route uses plain JSON schema today): the generic German text.
    if (err.validation) return send(400, 'VALIDATION_ERROR', messages.invalidInput);
    if (isResponseSerializationError(err)) {
      req.log.error({ err }, 'response did not match its schema');
      return send(500, 'SERVER_ERROR', messages.serverError);
    }
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || (err instanceof SyntaxError && err.statusCode === 400)) {
      return send(400, 'INVALID_JSON', messages.invalidJson);
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(413, 'PAYLOAD_TOO_LARGE', messages.payloadTooLarge);
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return send(415, 'UNSUPPORTED_MEDIA_TYPE', messages.unsupportedMediaType);
    if (err.statusCode === 429) return send(429, 'RATE_LIMITED', messages.rateLimited);
    if (isDatabaseDown(err)) {
      // During an outage every request fails the same way: one line per few seconds, not one per request.
      const suppressed = databaseDownLog.take();
      if (suppressed !== undefined) req.log.error({ err: safeDbError(err), suppressed }, 'database unavailable');
      reply.header('retry-after', '5');
      return send(503, 'UNAVAILABLE', messages.unavailable);
    }
    const constraint = constraintFailure(err);
    if (constraint) {
      req.log.warn({ err: safeDbError(err) }, 'database constraint refused the request');
      return send(constraint.status, constraint.code, constraint.code === 'ALREADY_EXISTS' ? messages.alreadyExists : constraint.status === 409 ? messages.conflictingChange : messages.invalidInput);
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return send(err.statusCode, 'BAD_REQUEST', messages.invalidInput);
    req.log.error({ err }, 'unhandled error');
    return send(500, 'SERVER_ERROR', messages.serverError);
  });

  for (const m of modules) for (const routes of m.routes ?? []) await app.register(routes);
  // The web app's pages and the SPA fallback come last.
  await app.register(webRoutes);

  return app;
}
