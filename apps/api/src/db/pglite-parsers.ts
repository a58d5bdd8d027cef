import { types, type PGlite, type Transaction } from '@electric-sql/pglite';

/**
 * The result types Drizzle reads as text from PGlite (its own parsers turn them into Dates and strings):
 * timestamp, timestamptz, interval and date, and the arrays numeric[], timestamp[], timestamptz[],
 * interval[] and date[]. Drizzle hands PGlite this list with every query (drizzle-orm/pglite/session.js);
 * pglite-parsers.test.ts fails if a Drizzle update changes it.
 */
export const drizzleTextTypes = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182] as const;

type QueryOptions = Parameters<PGlite['query']>[2];
const asText = (value: string) => value;

const textTypes = new Set<number>(drizzleTextTypes);

/**
 * The options without Drizzle's `parsers`: the client's own table already reads those types as text. Parsers
 * for any other type are passed on unchanged, so a caller's own parsers still apply.
 */
function withoutParsers(options: QueryOptions): QueryOptions {
  if (!options?.parsers || !Object.keys(options.parsers).every((oid) => textTypes.has(Number(oid)))) return options;
  const { parsers: _ignored, ...rest } = options;
  return rest;
}

function forwardWithoutParsers(tx: Transaction): Transaction {
  return Object.create(tx, {
    query: { value: (query: string, params?: unknown[], options?: QueryOptions) => tx.query(query, params, withoutParsers(options)) },
  }) as Transaction;
}

/**
 * PGlite merges per-query parsers into a copy of its whole parser table (about 320 entries with the array
 * types) on every query: about 0.1 ms, a third of a one-row select (profiled 2026-11-29). Drizzle's parsers are the same for every query, so they are set on the client once
 * and the queries Drizzle sends go without them: each query reads the same table as before, uncopied.
 *
 * The client's table is changed after `PGlite.create`, which installs the array types' parsers last. Every
 * query through this client then reads these types as text, as Drizzle's did; the app queries PGlite only
 * through Drizzle (the live-event listener only listens).
 */
export function readTextTypesOnce(client: PGlite): PGlite {
  for (const oid of drizzleTextTypes) client.parsers[oid] = asText;
  const query = client.query.bind(client);
  const transaction = client.transaction.bind(client);
  return Object.assign(client, {
    query: ((q: string, params?: unknown[], options?: QueryOptions) => query(q, params, withoutParsers(options))) as PGlite['query'],
    transaction: (<T>(callback: (tx: Transaction) => Promise<T>) => transaction((tx) => callback(forwardWithoutParsers(tx)))) as PGlite['transaction'],
  });
}
