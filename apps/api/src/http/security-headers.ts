import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { allowedInlineStyleHashes } from './csp.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** HTML routes: a fresh script and style nonce per response, named in the CSP (read it with `cspNonceOf`). */
    cspNonces?: boolean;
  }
}

interface Nonces { script: string; style: string }
const nonces = new WeakMap<ServerResponse, Nonces>();

/** The style nonce of this response's CSP, for a `<style nonce>` in the HTML; empty on a route without nonces. */
export const cspNonceOf = (reply: FastifyReply) => nonces.get(reply.raw)?.style ?? '';

/**
 * Helmet's security headers on every response. The two helmet middlewares (with and without nonces) are
 * built once at start: @fastify/helmet built one anew for every request, about 5 % of a small API
 * route's CPU (issue 22). A route asks for nonces with `config: { cspNonces: true }`.
 */
export function securityHeaders(app: FastifyInstance, { hsts }: { hsts: boolean }) {
  const directives = {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", ...allowedInlineStyleHashes()],
    // Prerendered markup and Radix primitives set style attributes (positions, sizes).
    styleSrcAttr: ["'unsafe-inline'"],
    // blob: for image previews of ticket attachments, fetched with the bearer token.
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: null,
  };
  const options = (csp: HelmetOptions['contentSecurityPolicy']): HelmetOptions => ({
    contentSecurityPolicy: csp,
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: hsts ? { maxAge: 31536000, includeSubDomains: true } : false,
  });
  const nonce = (kind: keyof Nonces) => (_req: IncomingMessage, res: ServerResponse) => `'nonce-${nonces.get(res)?.[kind] ?? ''}'`;
  const plain = helmet(options({ directives }));
  const withNonces = helmet(options({ directives: { ...directives, scriptSrc: [...directives.scriptSrc, nonce('script')], styleSrc: [...directives.styleSrc, nonce('style')] } }));
  // A middleware that fails throws (helmet 8.1+); it would reach Fastify's error handler like any hook error.
  const done = () => undefined;

  app.addHook('onRequest', (req, reply, next) => {
    if (req.routeOptions.config.cspNonces) {
      nonces.set(reply.raw, { script: randomBytes(16).toString('hex'), style: randomBytes(16).toString('hex') });
      withNonces(req.raw, reply.raw, done);
    } else {
      plain(req.raw, reply.raw, done);
    }
    next();
  });
}
