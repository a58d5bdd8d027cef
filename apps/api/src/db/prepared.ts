import type { Db } from './client.ts';

/**
 * A query the hot paths run on every request, built once per database as a named prepared statement:
 * building Drizzle's SQL per request was a fifth of a server page's CPU (decision 029). `build` must
 * use `sql.placeholder` for every value and end with `.prepare(name)`.
 */
export function preparedQuery<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const byDb = new WeakMap<object, Q>();
  return (db) => {
    let query = byDb.get(db);
    if (!query) byDb.set(db, (query = build(db)));
    return query;
  };
}
