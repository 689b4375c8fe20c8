import type { Db } from "./connection";

/**
 * A query built once per database handle, then run with its placeholders
 * (`sql.placeholder("id")`): for the reads every checkout page and status poll makes.
 *
 * Why: drizzle builds a query's SQL, and its PGlite driver its per-query settings, on every call;
 * for a one-row read that is more than half of the read's CPU (measured: a session read 0.62–0.75
 * ms per call, prepared 0.42, PGlite's own query 0.25), which a checkout page under load paid
 * twice (docs/contributors/performance.md).
 *
 * Per handle, not per process: a transaction (`tx`) is a handle of its own, so a read inside it runs
 * on the transaction's connection and sees its writes; each test's database gets its own too. The
 * handles are weakly held: a finished transaction's statement goes with it.
 */
export function preparedPerDb<Query>(build: (db: Db) => Query): (db: Db) => Query {
  const byDb = new WeakMap<Db, Query>();
  return (db) => {
    let query = byDb.get(db);
    if (query === undefined) {
      query = build(db);
      byDb.set(db, query);
    }
    return query;
  };
}
