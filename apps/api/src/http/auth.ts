import fp from 'fastify-plugin';
import { and, eq, isNull, gt, sql } from 'drizzle-orm';
import type {
  ContextConfigDefault, FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, HTTPMethods, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault,
  RouteGenericInterface, RouteHandlerMethod, RouteShorthandOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Role } from '@hp/contract';
import { messages } from '@hp/contract';
import { sessions, users } from '../db/schema/index.ts';
import { verifyToken } from '../lib/tokens.ts';
import { forbidden, unauthorized } from './errors.ts';
import { rejectNulCharacters } from './input.ts';

/**
 * Access policies. Every route declares one in `config.access`; a route without one is refused at
 * request time and fails the generated route test.
 * - public: anyone
 * - customer: any signed-in account (staff have own servers, tickets and a profile too)
 * - staff: employee or owner
 * - owner: owner only
 */
export type AccessPolicy = 'public' | 'customer' | 'staff' | 'owner';
export const accessPolicies: AccessPolicy[] = ['public', 'customer', 'staff', 'owner'];

export interface RequestUser {
  id: string;
  sessionId: string;
  customerId: string;
  username: string;
  role: Role;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: AccessPolicy;
  }
  interface FastifyRequest {
    user: RequestUser | null;
  }
}

/** A request whose route policy requires a signed-in account: `user` was set by the onRequest hook. */
export type SignedInRequest<Req extends FastifyRequest = FastifyRequest> = Req & { user: RequestUser };
/** The policies under which a request always has a user. */
export type SignedInPolicy = Exclude<AccessPolicy, 'public'>;

type ZodHandler<S extends FastifySchema> = RouteHandlerMethod<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, RouteGenericInterface, ContextConfigDefault, S, ZodTypeProvider>;
type ZodOptions<S extends FastifySchema> = RouteShorthandOptions<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, RouteGenericInterface, ContextConfigDefault, S, ZodTypeProvider>;
/** A route handler like Fastify's (zod-typed params, query, body and reply), whose request has a user. */
export type SignedInHandler<S extends FastifySchema> = (
  this: ThisParameterType<ZodHandler<S>>,
  req: SignedInRequest<Parameters<ZodHandler<S>>[0]>,
  reply: Parameters<ZodHandler<S>>[1],
) => ReturnType<ZodHandler<S>>;
type SignedInShorthand = <const S extends FastifySchema>(url: string, opts: ZodOptions<S> & { config: { access: SignedInPolicy } }, handler: SignedInHandler<S>) => void;

/**
 * Routes whose policy requires an account (`customer`, `staff`, `owner`), typed at registration: the
 * handler's `req.user` is a `RequestUser`, never null, so no handler asserts one (a non-null assertion on
 * `req.user` is refused by lint). Options and handler are Fastify's, zod typing and OpenAPI included:
 *
 *   const u = signedInRoutes(app);
 *   u.get('/api/x', { config: { access: 'customer' }, schema }, async (req) => service(deps, req.user));
 *
 * A `public` policy does not type-check here. The onRequest hook has refused anonymous requests before
 * the handler runs; the check in the wrapper only keeps that promise if the hook is ever bypassed.
 */
export function signedInRoutes(app: FastifyInstance) {
  const register = (method: HTTPMethods): SignedInShorthand => (url, opts, handler) => {
    app.route({
      ...(opts as RouteShorthandOptions),
      method,
      url,
      handler(req, reply) {
        if (!req.user) throw unauthorized();
        return (handler as (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) => unknown).call(this, req, reply);
      },
    });
  };
  return { get: register('GET'), post: register('POST'), put: register('PUT'), patch: register('PATCH'), delete: register('DELETE') };
}

/** The Swagger UI mounted by app.ts (routePrefix '/api/docs'). */
const DOCS_PREFIX = '/api/docs';
const isDocsRoute = (url: string) => url === DOCS_PREFIX || url.startsWith(`${DOCS_PREFIX}/`);

export interface RegisteredRoute { method: string; url: string; access: AccessPolicy | undefined }

const allowed: Record<AccessPolicy, (role: Role) => boolean> = {
  public: () => true,
  customer: () => true,
  staff: (role) => role === 'employee' || role === 'owner',
  owner: (role) => role === 'owner',
};

export const authPlugin = fp(async (app: FastifyInstance, opts: { jwtKey: Uint8Array; routes: RegisteredRoute[] }) => {
  app.decorateRequest('user', null);

  app.addHook('onRoute', (route) => {
    // Swagger UI registers its own routes and cannot be given a policy: its pages are public.
    if (!route.config?.access && isDocsRoute(route.url)) route.config = { ...route.config, access: 'public' };
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      opts.routes.push({ method, url: route.url, access: (route.config as { access?: AccessPolicy } | undefined)?.access });
    }
  });

  // Input hygiene for every route, decided before validation and handlers run.
  app.addHook('preValidation', rejectNulCharacters);

  app.addHook('onRequest', async (req) => {
    const policy = req.routeOptions.config?.access;
    // Unmatched URLs reach the not-found handler, which needs no policy.
    if (!req.routeOptions.url) return;
    if (!policy || !accessPolicies.includes(policy)) throw forbidden();
    const header = req.headers.authorization;
    if (policy === 'public') {
      if (header) req.user = await authenticate(app, req, opts.jwtKey).catch(() => null);
      return;
    }
    const user = await authenticate(app, req, opts.jwtKey);
    if (!user) throw unauthorized();
    if (!allowed[policy](user.role)) throw forbidden();
    req.user = user;
  });
});

// Runs on every authenticated request: a prepared statement, built once per database.
const lookups = new WeakMap<object, ReturnType<typeof prepareSessionLookup>>();
function prepareSessionLookup(app: FastifyInstance) {
  return app.db
    .select({ userId: users.id, role: users.role, sessionRole: sessions.role, customerNumber: users.customerNumber, username: users.username, disabledAt: users.disabledAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sql.placeholder('sid')), eq(sessions.userId, sql.placeholder('sub')), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
    .prepare('session_lookup');
}
function sessionLookup(app: FastifyInstance) {
  let lookup = lookups.get(app.db);
  if (!lookup) lookups.set(app.db, (lookup = prepareSessionLookup(app)));
  return lookup;
}

/** Token → user, checked against the session table so that revocation takes effect at once. */
async function authenticate(app: FastifyInstance, req: FastifyRequest, key: Uint8Array): Promise<RequestUser | null> {
  const header = req.headers.authorization;
  if (!header || !header.startsWith('Bearer ')) return null;
  const claims = await verifyToken(key, header.slice(7).trim(), 'access');
  if (!claims || typeof claims.sid !== 'string') return null;
  if (!/^[0-9a-f-]{36}$/i.test(claims.sid) || !/^[0-9a-f-]{36}$/i.test(claims.sub)) return null;
  const [row] = await sessionLookup(app).execute({ sid: claims.sid, sub: claims.sub });
  if (!row || row.disabledAt || row.role !== row.sessionRole || row.role !== claims.role) {
    throw unauthorized(messages.sessionExpired, 'SESSION_EXPIRED');
  }
  return { id: row.userId, sessionId: claims.sid, customerId: String(row.customerNumber), username: row.username, role: row.role };
}
