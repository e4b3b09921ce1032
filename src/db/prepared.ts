/**
 * Queries built once per database handle. Drizzle builds the SQL text of a query on every call (walking
 * its objects, ~0.1 ms of CPU each); a query that runs on every request (the session lookup, the badge
 * counts) is better built once with `sql.placeholder` values and `.prepare(name)`, then executed with
 * its parameters. The prepared query belongs to the handle it was built on, so they are kept per handle.
 * docs/decisions/032-member-page-cost.md
 */
import type { Db } from './client';

const cache = new WeakMap<Db, Map<string, unknown>>();

/**
 * The query `name` built by `build` on `db`, built the first time only. `name` must be unique in the
 * app and `build` must not close over request values (only placeholders vary).
 */
export function preparedOn<T>(db: Db, name: string, build: (db: Db) => T): T {
  let queries = cache.get(db);
  if (!queries) {
    queries = new Map();
    cache.set(db, queries);
  }
  let query = queries.get(name) as T | undefined;
  if (query === undefined) {
    query = build(db);
    queries.set(name, query);
  }
  return query;
}
