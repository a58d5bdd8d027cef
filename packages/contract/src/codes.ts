import { messages } from './messages.ts';

/**
 * The specification's registration error codes. A registration check that fails with one of them says
 * so in the schema: it is a refinement whose issue carries `params.code` (see `coded`), and the API's
 * error handler sends that code as `error.code` (decision 010). No code is derived from a message text.
 */
export const registrationCodes = ['NULL_FORUM', 'USER_TO_SHORT', 'USER_INVALID', 'NO_KORREKT_EMAIL', 'NO_EMAIL', 'PASSWORT_TO_SHORT', 'PASSWORT_NOT_IDENTICALLY', 'PASSWORT_NOT'] as const;
export type RegistrationCode = (typeof registrationCodes)[number];

/** Refinement options for a check that fails with `code`: the catalogue's message and `params.code`. */
export const coded = (code: RegistrationCode, path?: string[]) => ({ error: messages[code], params: { code }, ...(path ? { path } : {}) });

/** The registration code a zod issue carries in its params, if any. */
export function registrationCodeOf(params: unknown): RegistrationCode | undefined {
  const code = (params as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && (registrationCodes as readonly string[]).includes(code) ? (code as RegistrationCode) : undefined;
}
