/**
 * Errors of the database, told apart by their SQLSTATE or socket code. Drizzle wraps the driver's error
 * (node-postgres or PGlite) in a DrizzleQueryError whose message holds the SQL and its parameters, with
 * the original in `cause`; everything here looks through that chain.
 */
interface ErrorLike { code?: unknown; sqlState?: unknown; message?: unknown; cause?: unknown; constraint?: unknown; errno?: unknown }

/** The error and its causes, outermost first (bounded, in case of a cycle). */
function causeChain(err: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  for (let e = err as ErrorLike | undefined, depth = 0; e && typeof e === 'object' && depth < 6; e = e.cause as ErrorLike | undefined, depth++) {
    chain.push(e);
    // AggregateError (pg tries IPv4 and IPv6) keeps the real reasons in `errors`.
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner) && inner[0]) chain.push(...causeChain(inner[0]));
  }
  return chain;
}

/** PostgreSQL SQLSTATE of a failed query, if any. */
export function pgCode(err: unknown): string | undefined {
  for (const e of causeChain(err)) {
    const code = e.code ?? e.sqlState;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';

const downCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', '57P01', '57P02', '57P03', '08000', '08003', '08006', '08001', '08004', '53300']);
const downMessage = /Connection terminated|connection timeout|Client has encountered a connection error|timeout exceeded when trying to connect|Cannot use a pool after calling end|the database system is (starting up|shutting down)|terminating connection due to administrator command/i;

/** Connection-level failures of PostgreSQL (server down, restarting, pool exhausted). */
export function isDatabaseDown(err: unknown): boolean {
  return causeChain(err).some((e) => (typeof e.code === 'string' && downCodes.has(e.code)) || downMessage.test(typeof e.message === 'string' ? e.message : ''));
}

/**
 * A constraint the database refused that no service turned into its own message: the request conflicts
 * with stored data (409) or carries a value the schema let through but the table does not take (400).
 */
export function constraintFailure(err: unknown): { status: 400 | 409; code: string } | undefined {
  const code = pgCode(err);
  if (!code) return undefined;
  if (code === UNIQUE_VIOLATION) return { status: 409, code: 'ALREADY_EXISTS' };
  if (code === FOREIGN_KEY_VIOLATION || code === '23P01' || code === '40001' || code === '40P01') return { status: 409, code: 'CONFLICT' };
  // 23xxx integrity (not null, check), 22xxx data exceptions (value out of range, bad text).
  if (code.startsWith('23') || code.startsWith('22')) return { status: 400, code: 'INVALID_VALUE' };
  return undefined;
}

/**
 * What may be logged of a database error: its codes and the driver's own message, never Drizzle's
 * "Failed query: <sql> params: <values>" text, which would put customers' data into the log.
 */
export function safeDbError(err: unknown): Record<string, unknown> {
  const chain = causeChain(err);
  const driver = chain.find((e, i) => i > 0 && typeof e.message === 'string') ?? chain[0];
  const message = typeof driver?.message === 'string' ? driver.message.replace(/^Failed query:[\s\S]*$/, 'Failed query') : undefined;
  return {
    type: (err as { constructor?: { name?: string } })?.constructor?.name ?? 'Error',
    message: message ?? 'database error',
    // Not `code`: the logger redacts every `code` field (e-mail codes).
    sqlState: pgCode(err) ?? chain.map((e) => e.code ?? e.sqlState).find((c) => typeof c === 'string'),
    constraint: chain.map((e) => e.constraint).find((c) => typeof c === 'string'),
  };
}

/** True for errors that came out of a database query (and may carry SQL with parameters). */
export function isQueryError(err: unknown): boolean {
  return causeChain(err).some((e) => typeof e.message === 'string' && e.message.startsWith('Failed query:')) || pgCode(err) !== undefined;
}

/** A unique index refused the write (PostgreSQL 23505), also when wrapped by Drizzle. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code === '23505' || e?.cause?.code === '23505';
}
