/**
 * The part of INWX's DomRobot API our driver uses, written down from INWX's own sources so the fake
 * (fake-inwx.ts) can refuse what INWX would refuse: every method the driver calls, each with its
 * parameters (required or not, type) and the answer fields the driver reads.
 *
 * Sources (each entry below names the section, file and line it comes from):
 * - DOC: INWX's API documentation "DomRobot XML-RPC, JSON-RPC API Documentation"
 *   (https://www.inwx.de/en/help/apidoc, chapter 2 "Methods", chapter 3 "Datatypes"), read in a stored
 *   Markdown rendering; cited by section and table number, which are INWX's own.
 * - WHMCS: inwx/WHMCS@4171988a72b4837f39c9f2ddb954fc80ccf88bc6, modules/registrars/inwx/inwx.php
 * - TF: inwx/terraform-provider-inwx@9e796846636aa7c96de2d3b2b8a9548dd379c322, inwx/internal/…
 * - PHP: inwx/php-client@d86ed55c7cf4235dc1fd628eb2be1994b876b4f4, src/Domrobot.php
 *
 * Result codes and envelopes of a refused request:
 * - 2003 missing parameter: DOC 1.3/1.4, the example answer
 *   `{code:2003, msg:"Required parameter missing", reasonCode:"MISSING_ID", reason:"The following parameter is missing: id", details:[{code:"PARAM_MISSING", msg:"The parameter 'id' is missing"}]}`.
 * - 2005 wrong type/syntax: a real INWX answer quoted in oGGy990/certbot-dns-inwx issue #18
 *   `{code:2005, msg:"Parameter value syntax error", reasonCode:"INVALID_PASS", reason:"The following parameter is invalid: pass", details:[{code:"PARAM_INVALID", …}]}`.
 * - 2004 value outside an enumeration (period, renewalMode, contactType): the message is DOC's/EPP's
 *   "Parameter value range error" (also seen in inwx/java-client issue #10); the reason text follows the 2005 form.
 * - UNCONFIRMED: which code INWX answers for an unknown parameter and for an unknown method. INWX's result
 *   code list (DOC chapter 4) is empty in every stored copy we could read, and no issue or client shows such
 *   an answer. INWX numbers its codes like EPP (RFC 5730 §3: 2000 "Unknown command", 2001 "Command syntax
 *   error" for an element the command does not define), so the fake answers those two; confirm on OT&E
 *   (`testing: true`) before relying on the number. The driver does not branch on either code: both end as
 *   REMOTE_FAULT (a bug on our side, never the customer's input).
 */

/** INWX's datatypes (DOC chapter 3) as far as our calls use them. */
export type InwxType =
  | 'int' // 3.56 "A valid integer value" (TF sends contact ids as strings: resource_domain_contact.go L284)
  | 'boolean' // 3.19 "0 | 1"; JSON true/false as well (WHMCS L876 sends vat => false, TF resource_domain.go L138 a Go bool)
  | 'text' // text64 / text255 / token255 / password … (3.91–3.103): a string within its length
  | 'array_text' // 3.5 array_domain, 3.12 array_text64: "One or a list"
  | 'nsList' // 3.71 "List of valid nameserver"
  | 'period' // 3.76 1M, 1Y … 10Y
  | 'date' // 3.29 "yyyy-MM-dd"
  | 'contactType' // 3.26 ORG, PERSON, ROLE
  | 'renewalMode' // 3.83 AUTORENEW, AUTODELETE, AUTOEXPIRE
  | 'country' // 3.27 ISO 3166-1 alpha-2
  | 'phone' // 3.77 "+49.178645376-78"
  | 'email' // 3.43
  | 'extData'; // 3.48 a struct

export interface InwxParam {
  type: InwxType;
  required?: true;
  /** Length limits of INWX's text types (text64: 1–64, text0255: 0–255, text10: 2–10 …). */
  min?: number;
  max?: number;
}

export interface InwxMethod {
  params: Record<string, InwxParam>;
  /** The answer fields our driver reads (dotted paths below resData); the fake must write them in this form. */
  reads: readonly string[];
}

const text = (min: number, max: number, required?: true): InwxParam => ({ type: 'text', min, max, ...(required ? { required } : {}) });
const int = (required?: true): InwxParam => ({ type: 'int', ...(required ? { required } : {}) });
const bool: InwxParam = { type: 'boolean' };

/** Accepted by every method: DOC 1.1/1.2 "Main (optional) parameters"; PHP L268 (clTRID) and L370 (lang). */
export const INWX_COMMON_PARAMS: Record<string, InwxParam> = { lang: text(2, 2), clTRID: text(0, 64) };

/** Keys are lower case: INWX matches method names case-insensitively (PHP L271 lower-cases them). */
export const INWX_METHODS: Record<string, InwxMethod> = {
  // DOC 2.1.9 account.login, Tables 2.13 (input) and 2.14 (output); PHP L368-374 (lang, user, pass); TF provider.go L135-139.
  'account.login': {
    params: { user: text(1, 64, true), pass: text(1, 99_999, true), 'case-insensitive': bool },
    reads: ['tfa'],
  },
  // DOC 2.1.12 account.unlock, Table 2.16 (tan: text10, not required); PHP L375-377.
  'account.unlock': { params: { tan: text(2, 10) }, reads: [] },

  // DOC 2.9.1 domain.check, Tables 2.103/2.104. premium is "Domain premium prices", type array; its shape
  // premium.prices.{create,renew,transfer}.price and premium.currency comes from WHMCS L990-998. The
  // top-level `price` is "Domain registration/transfer price" (not the premium price).
  'domain.check': {
    params: { domain: { type: 'array_text' }, sld: text(1, 64), tld: { type: 'array_text' }, region: { type: 'array_text' }, wide: int() },
    reads: ['domain[].domain', 'domain[].avail', 'domain[].status', 'domain[].reason', 'domain[].premium.prices.create.price', 'domain[].premium.currency'],
  },
  // DOC 2.9.7 domain.getPrices, Tables 2.114/2.115: createPrice, renewalPrice, transferPrice are each
  // "price/year"; createPeriod is the minimum term in years (WHMCS L911-915 uses it as MinYears and
  // createPrice as the price, undivided). WHMCS L876 sends vat => false.
  'domain.getprices': {
    params: { tld: { type: 'array_text' }, vat: bool, vatCC: { type: 'country' }, voucher: text(0, 64), page: int(), pagelimit: int() },
    reads: ['price[].tld', 'price[].currency', 'price[].createPrice', 'price[].renewalPrice', 'price[].transferPrice'],
  },
  // DOC 2.6.1 contact.create, Table 2.73 (input) and 2.74 (output: id int); TF resource_domain_contact.go
  // L147-171; TF L190-198: the id comes back as a number, or as a string when the contact existed already.
  'contact.create': {
    params: {
      type: { type: 'contactType', required: true }, name: text(1, 255, true), org: text(0, 255), street: text(1, 64, true),
      city: text(1, 64, true), pc: text(2, 10, true), sp: text(0, 64), cc: { type: 'country', required: true },
      voice: { type: 'phone', required: true }, fax: { type: 'phone' }, email: { type: 'email', required: true },
      remarks: text(0, 255), protection: bool, forceNew: bool, extData: { type: 'extData' }, testing: bool,
    },
    reads: ['id'],
  },
  // DOC 2.6.8 contact.update, Table 2.85: id plus the fields — no `type`. TF resource_domain_contact.go
  // L287-293 refuses a type change ("contact 'type' cannot be updated."); WHMCS L515-521 ("contact.update
  // does not support type") creates a new contact instead.
  'contact.update': {
    params: {
      id: int(true), name: text(1, 255), org: text(0, 255), street: text(1, 64), city: text(1, 64), pc: text(2, 10), sp: text(0, 64),
      cc: { type: 'country' }, voice: text(1, 64), fax: text(0, 64), email: { type: 'email' }, remarks: text(0, 255),
      extData: { type: 'extData' }, testing: bool,
    },
    reads: [],
  },
  // DOC 2.9.2 domain.create, Tables 2.105/2.106 (transferLock defaults to 1); TF resource_domain.go L133-154;
  // WHMCS L674 (renewalMode AUTOEXPIRE), L690 (period "<n>Y"). The driver reads only the result code (1000/1001).
  'domain.create': {
    params: {
      domain: text(1, 255, true), period: { type: 'period' }, registrant: int(true), admin: int(), tech: int(), billing: int(),
      ns: { type: 'nsList' }, transferLock: bool, renewalMode: { type: 'renewalMode' }, whoisProvider: text(0, 255),
      whoisUrl: text(0, 255), scDate: text(1, 64), extData: { type: 'extData' }, asynchron: bool, voucher: text(0, 64), testing: bool,
    },
    reads: [],
  },
  // DOC 2.9.22 domain.transfer, Tables 2.141/2.142 (authCode token255; transferLock defaults to 1);
  // WHMCS L813-866 (authCode, renewalMode, contacts, ns).
  'domain.transfer': {
    params: {
      domain: text(1, 255, true), registrant: int(), admin: int(), tech: int(), billing: int(), ns: { type: 'nsList' },
      nsTakeover: bool, contactTakeover: bool, transferLock: bool, authCode: text(1, 255), renewalMode: { type: 'renewalMode' },
      whoisProvider: text(0, 255), whoisUrl: text(0, 255), extData: { type: 'extData' }, scDate: text(1, 64), asynchron: bool,
      voucher: text(0, 64), testing: bool,
    },
    reads: [],
  },
  // DOC 2.9.17 domain.renew, Tables 2.132/2.133: period and expiration ("Date of current expiration",
  // yyyy-MM-dd) are required; WHMCS L936-948 takes expiration from domain.info's exDate.
  'domain.renew': {
    params: { domain: text(1, 255, true), period: { type: 'period', required: true }, expiration: { type: 'date', required: true }, asynchron: bool, testing: bool },
    reads: ['exDate'],
  },
  // DOC 2.9.25 domain.update, Table 2.145; TF resource_domain.go L243-276 (ns, transferLock, renewalMode …).
  'domain.update': {
    params: {
      domain: text(1, 255, true), registrant: int(), admin: int(), tech: int(), billing: int(), ns: { type: 'nsList' }, transferLock: bool,
      period: { type: 'period' }, authCode: text(1, 255), scDate: text(1, 64), renewalMode: { type: 'renewalMode' },
      transferMode: text(1, 64), whoisProvider: text(0, 255), whoisUrl: text(0, 255), extData: { type: 'extData' }, asynchron: bool, testing: bool,
    },
    reads: [],
  },
  // DOC 2.9.11 domain.info, Tables 2.122/2.123 (exDate dateTime, transferLock boolean, ns nsList);
  // TF resource_domain.go L181-209 (reads ns, transferLock as a bool); WHMCS L941 reads exDate.timestamp.
  'domain.info': {
    params: { domain: text(1, 255), roId: int(), wide: int() },
    reads: ['status', 'exDate', 'authCode', 'transferLock', 'ns'],
  },
};

export const INWX_RESULT_MESSAGES: Record<number, string> = {
  1000: 'Command completed successfully',
  1001: 'Command completed successfully; action pending',
  2000: 'Unknown command',
  2001: 'Command syntax error',
  2002: 'Command use error',
  2003: 'Required parameter missing',
  2004: 'Parameter value range error',
  2005: 'Parameter value syntax error',
  2200: 'Authentication error',
  2202: 'Invalid authorization information',
  2302: 'Object exists',
  2303: 'Object does not exist',
  2304: 'Object status prohibits operation',
  2400: 'Command failed',
  2502: 'Session limit exceeded; server closing connection',
};

/** Unconfirmed numbers (see the head of this file). */
export const INWX_UNKNOWN_METHOD_CODE = 2000;
export const INWX_UNKNOWN_PARAMETER_CODE = 2001;

export interface InwxRefusal {
  code: number;
  msg: string;
  reasonCode?: string;
  reason: string;
  details: { code: string; msg: string }[];
}

const ENUMS: Partial<Record<InwxType, readonly string[]>> = {
  period: ['1M', '1Y', '2Y', '3Y', '4Y', '5Y', '6Y', '7Y', '8Y', '9Y', '10Y'],
  contactType: ['ORG', 'PERSON', 'ROLE'],
  renewalMode: ['AUTORENEW', 'AUTODELETE', 'AUTOEXPIRE'],
};
const HOST = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/i;

function refusal(code: number, name: string, kind: 'MISSING' | 'INVALID' | 'RANGE' | 'UNKNOWN'): InwxRefusal {
  const words = { MISSING: 'missing', INVALID: 'invalid', RANGE: 'out of range', UNKNOWN: 'not allowed for this method' }[kind];
  // reasonCode and details only where INWX's own answers show their form (2003, 2005; see the head of the file).
  const tagged = kind === 'MISSING' || kind === 'INVALID';
  return {
    code,
    msg: INWX_RESULT_MESSAGES[code] ?? 'Command failed',
    ...(tagged ? { reasonCode: `${kind}_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}` } : {}),
    reason: `The following parameter is ${words}: ${name}`,
    details: tagged ? [{ code: `PARAM_${kind}`, msg: `The parameter '${name}' is ${words}` }] : [],
  };
}

/** null: the value fits; 'syntax' → 2005, 'range' → 2004. */
function checkValue(spec: InwxParam, value: unknown): null | 'syntax' | 'range' {
  const isString = typeof value === 'string';
  const lengthOk = (s: string) => s.length >= (spec.min ?? 0) && s.length <= (spec.max ?? Infinity);
  switch (spec.type) {
    case 'int':
      return (typeof value === 'number' && Number.isSafeInteger(value)) || (isString && /^-?\d+$/.test(value)) ? null : 'syntax';
    case 'boolean':
      return [true, false, 0, 1, '0', '1', 'true', 'false'].includes(value as never) ? null : 'syntax';
    case 'text':
      return isString && lengthOk(value) ? null : 'syntax';
    case 'array_text': {
      const list = Array.isArray(value) ? value : [value];
      return list.length > 0 && list.every((v) => typeof v === 'string' && v.length > 0 && v.length <= 255) ? null : 'syntax';
    }
    case 'nsList':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && HOST.test(v)) ? null : 'syntax';
    case 'date':
      return isString && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) ? null : 'syntax';
    case 'country':
      return isString && /^[A-Z]{2}$/.test(value) ? null : 'syntax';
    case 'phone':
      return isString && /^\+\d{1,3}\.\d{4,14}(-\d{1,6})?$/.test(value) ? null : 'syntax';
    case 'email':
      return isString && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? null : 'syntax';
    case 'extData':
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? null : 'syntax';
    case 'period':
    case 'contactType':
    case 'renewalMode':
      if (!isString) return 'syntax';
      return ENUMS[spec.type]!.includes(value) ? null : 'range';
  }
}

/**
 * Checks one request against the table as INWX would: unknown method, then every parameter the method
 * does not define, then missing required ones, then each value's type. Answers the refusal, or null.
 */
export function checkInwxRequest(method: string, params: Record<string, unknown>): InwxRefusal | null {
  const spec = INWX_METHODS[method.toLowerCase()];
  if (!spec) {
    return { code: INWX_UNKNOWN_METHOD_CODE, msg: INWX_RESULT_MESSAGES[INWX_UNKNOWN_METHOD_CODE]!, reason: `Unknown method: ${method}`, details: [] };
  }
  const allowed = { ...INWX_COMMON_PARAMS, ...spec.params };
  for (const name of Object.keys(params)) {
    if (!(name in allowed)) return refusal(INWX_UNKNOWN_PARAMETER_CODE, name, 'UNKNOWN');
  }
  for (const [name, p] of Object.entries(allowed)) {
    if (p.required && (params[name] === undefined || params[name] === null || params[name] === '')) return refusal(2003, name, 'MISSING');
  }
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const problem = checkValue(allowed[name]!, value);
    if (problem) return refusal(problem === 'range' ? 2004 : 2005, name, problem === 'range' ? 'RANGE' : 'INVALID');
  }
  return null;
}
