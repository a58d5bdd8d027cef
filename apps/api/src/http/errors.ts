import { messages } from '@hp/contract';

/** A failure the user is meant to see: HTTP status, stable code and a German message. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (code: string, message: string, details?: Record<string, unknown>) => new AppError(400, code, message, details);
export const unauthorized = (message: string = messages.unauthorized, code = 'UNAUTHORIZED') => new AppError(401, code, message);
export const forbidden = (message: string = messages.forbidden) => new AppError(403, 'FORBIDDEN', message);
export const notFound = (message: string = messages.notFound) => new AppError(404, 'NOT_FOUND', message);
export const conflict = (code: string, message: string) => new AppError(409, code, message);
export const tooManyRequests = (retryAfterSeconds: number, message: string = messages.rateLimited, code = 'RATE_LIMITED') =>
  new AppError(429, code, message, { retryAfterSeconds }, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
export const serviceUnavailable = () => new AppError(503, 'UNAVAILABLE', messages.unavailable);
