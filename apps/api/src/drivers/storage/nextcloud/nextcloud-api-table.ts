/**
 * What Nextcloud's provisioning API accepts and answers, as data the fake (fake-nextcloud.ts) enforces and
 * the driver must satisfy. Two sources:
 *
 * 1. Routes, methods, parameters and request bodies: provisioning-api.extract.json, a trimmed extract of
 *    nextcloud/server apps/provisioning_api/openapi.json (repository, path and commit are in its x-source).
 *    The fake reads its route table from that file, so a route or a required field it invents is refused.
 * 2. Status codes and texts the OpenAPI file does not list (OCS codes, middleware refusals): read from the
 *    PHP source of nextcloud/server, each entry citing file and the commit read.
 */
import { readFileSync } from 'node:fs';

interface ExtractParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: { type: string; default?: unknown; pattern?: string; nullable?: boolean };
}

interface ExtractOperation {
  operationId: string;
  summary: string;
  description?: string;
  parameters: ExtractParameter[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: { required?: string[]; properties: Record<string, { type: string; default?: unknown; nullable?: boolean }> } } } };
  responses: Record<string, { description: string }>;
}

export interface ProvisioningExtract {
  'x-source': { repository: string; path: string; commit: string };
  paths: Record<string, Record<string, ExtractOperation>>;
}

export const provisioningExtract = JSON.parse(readFileSync(new URL('./provisioning-api.extract.json', import.meta.url), 'utf8')) as ProvisioningExtract;

export const NEXTCLOUD_SOURCE = {
  repository: 'nextcloud/server',
  openapi: { path: 'apps/provisioning_api/openapi.json', commit: provisioningExtract['x-source'].commit },
  controller: { path: 'apps/provisioning_api/lib/Controller/UsersController.php', commit: '90fe35dfdf719d0e80e907474b3326a7733a1976' },
  passwordPolicy: { repository: 'nextcloud/password_policy', commit: '13c29c02201e2067f753fcb01169db006a2c3a66' },
} as const;

export interface Route {
  method: string;
  template: string;
  operation: ExtractOperation;
  /** Matches the path (without query) and answers the path parameters, URL-decoded. */
  match(path: string): Record<string, string> | null;
}

/**
 * The routes of the extract. Symfony's router (lib/private/Route/Router.php) matches routes in the order
 * the app declares them, and provisioning_api declares the fixed paths (/users/details) before the ones
 * with a {userId}; fewer parameters first gives the same answer here. A {param} is one path segment
 * (Symfony's default requirement [^/]+) unless the extract gives a pattern.
 */
export const ROUTES: Route[] = Object.entries(provisioningExtract.paths)
  .flatMap(([template, methods]) => Object.entries(methods).map(([method, operation]) => {
    const names: string[] = [];
    const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const regex = new RegExp(`^${source}$`);
    const patterns = Object.fromEntries(operation.parameters.filter((p) => p.in === 'path' && p.schema.pattern).map((p) => [p.name, new RegExp(p.schema.pattern!)]));
    return {
      method: method.toUpperCase(),
      template,
      operation,
      match(path: string) {
        const m = regex.exec(path);
        if (!m) return null;
        const params: Record<string, string> = {};
        for (const [i, name] of names.entries()) {
          let value: string;
          try {
            value = decodeURIComponent(m[i + 1]!);
          } catch {
            return null;
          }
          if (patterns[name] && !patterns[name].test(value)) return null;
          params[name] = value;
        }
        return params;
      },
    };
  }))
  .sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));

/** The body fields an operation requires (requestBody.required lists them) and the ones it knows. */
export function bodyFieldsOf(operation: ExtractOperation) {
  const schema = operation.requestBody?.content['application/json'].schema;
  return { required: schema?.required ?? [], known: Object.keys(schema?.properties ?? {}) };
}

/** The OCS codes the OCS layer itself uses (lib/public/AppFramework/OCSController.php). */
export const OCS = {
  RESPOND_UNAUTHORISED: 997,
  RESPOND_SERVER_ERROR: 996,
  RESPOND_NOT_FOUND: 998,
  RESPOND_UNKNOWN_ERROR: 999,
} as const;

/**
 * Answers that do not come from a controller, each as Nextcloud sends it on /ocs/v2.php.
 */
export const MIDDLEWARE_ANSWERS = {
  /**
   * No OCS-APIRequest: true (nor a Bearer token) on a request without a CSRF token:
   * SecurityMiddleware::beforeController throws CrossSiteRequestForgeryException (message "CSRF check
   * failed", code 412) and afterException answers it as JSON {message} with that status, outside the OCS
   * envelope; OCSMiddleware only rewraps 401 and 403 (lib/private/AppFramework/Middleware/Security/
   * SecurityMiddleware.php at 01874d9a, OCSMiddleware.php at 00126022). The header must be exactly "true".
   */
  csrf: { status: 412, body: { message: 'CSRF check failed' } },
  /**
   * No valid login: SecurityMiddleware throws NotLoggedInException ("Current user is not logged in",
   * 401); OCSMiddleware::afterController turns the 401 into an OCS answer with 997, which V2Response maps
   * to HTTP 401 (lib/private/AppFramework/OCS/V2Response.php getStatus at 00126022).
   */
  notLoggedIn: { status: 401, statuscode: OCS.RESPOND_UNAUTHORISED, message: 'Current user is not logged in' },
  /** A logged-in user who is no admin, on a method without @NoAdminRequired: NotAdminException, 403. */
  notAdmin: { status: 403, statuscode: 403, message: 'Logged in user must be an admin' },
  /**
   * No route for the path: ocs/v1.php (which v2.php includes) catches ResourceNotFoundException and
   * answers OCS 998 with this text; OC_API::respond maps it to 404 for v2 and writes 404 as statuscode
   * (lib/private/legacy/OC_API.php mapStatusCodes at 07f1524f; ocs/v1.php at 0005a244).
   */
  unknownRoute: {
    status: 404,
    statuscode: 404,
    message: 'Invalid query, please check the syntax. API specifications are here: http://www.freedesktop.org/wiki/Specifications/open-collaboration-services.\n',
  },
  /** A known path with another method: ocs/v1.php catches MethodNotAllowedException, sends 405 and no body. */
  methodNotAllowed: { status: 405 },
  /**
   * A required parameter missing: the Dispatcher passes null to the controller's `string $userid` (lib/
   * private/AppFramework/Http/Dispatcher.php executeController at 0005a244), PHP throws a TypeError that
   * no middleware handles, and ocs/v1.php answers OCS 996 "Internal Server Error", HTTP 500 on v2.
   */
  missingParameter: { status: 500, statuscode: 500, message: 'Internal Server Error\n' },
} as const;

/**
 * OCS codes of UsersController (commit in NEXTCLOUD_SOURCE.controller). On v2, V2Response answers HTTP 400
 * for codes below 200 and keeps the code as meta.statuscode; 998 becomes HTTP 404.
 */
export const USERS_CONTROLLER = {
  addUser: {
    /**
     * userExists($userid): the database backend looks users up by uid_lower = mb_strtolower($uid)
     * (lib/private/User/Database.php loadUser), so "Max" exists when "max" does.
     */
    exists: { statuscode: 102, message: 'User already exists' },
    /** A group in groups[] that does not exist: 'group ' . $group . ' does not exist'. */
    groupMissing: { statuscode: 104 },
    /** A password longer than IUserManager::MAX_PASSWORD_LENGTH (469): 'Invalid password value'. */
    passwordTooLong: { statuscode: 101, message: 'Invalid password value' },
    /** No password and no email: 'To send a password link to the user an email address is required.' */
    noPasswordNoEmail: { statuscode: 108, message: 'To send a password link to the user an email address is required.' },
    /** createUser threw an InvalidArgumentException (validateUserId): its message, code 101. */
    invalidUserId: { statuscode: 101 },
    /** The password policy threw a HintException: its hint, code 107. */
    weakPassword: { statuscode: 107 },
    /** Success: data {id}. */
  },
  getUser: {
    /** getUserData: OCSNotFoundException('User does not exist'), code Http::STATUS_NOT_FOUND. */
    missing: { status: 404, statuscode: 404, message: 'User does not exist' },
  },
  editUser: {
    /** OCSException('', RESPOND_NOT_FOUND). */
    missing: { status: 404, statuscode: OCS.RESPOND_NOT_FOUND, message: '' },
    /** A key the caller may not edit: OCSException('', 113). */
    keyNotPermitted: { statuscode: 113, message: '' },
    /** quota: computerFileSize false, 'Invalid quota value ' . $value; above files/max_quota; unlimited forbidden. */
    invalidQuota: { statuscode: 102 },
    /** password: HintException from the policy: OCSException($e->getMessage(), 107). */
    weakPassword: { statuscode: 107 },
    /** @UserRateThrottle(limit=50, period=600) on editUser: per logged-in user. */
    rateLimit: { limit: 50, periodMs: 600_000 },
  },
  deleteUser: {
    missing: { status: 404, statuscode: OCS.RESPOND_NOT_FOUND, message: '' },
    /** Deleting oneself: OCSException('', 101). */
    self: { statuscode: 101, message: '' },
  },
  setEnabled: {
    /** enableUser/disableUser: a missing user (or oneself) is OCSException('', 101), not 404. */
    missingOrSelf: { statuscode: 101, message: '' },
  },
} as const;

/**
 * Nextcloud's password policy app (nextcloud/password_policy, commit in NEXTCLOUD_SOURCE): on by default,
 * minimum length 10 (PasswordPolicyConfig::getMinLength default), common passwords refused
 * (enforceNonCommonPassword default true). Texts from lib/Validator/LengthValidator.php and
 * CommonPasswordsValidator.php.
 */
export const PASSWORD_POLICY = {
  minLength: 10,
  tooShort: (min: number) => `Password needs to be at least ${min} characters long.`,
  common: 'Password is among the 1,000,000 most common ones. Please make it unique.',
} as const;
