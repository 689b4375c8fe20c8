import { inSpan, SpanKind, tracingEnabled } from "@/lib/tracing/spans";
import type { Db } from "./connection";

/**
 * The database's unit of work as spans: each transaction of a handle (`db.transaction(…)`) runs in
 * a span `db transaction` naming the pool, never a statement or its values. The drivers (postgres.js,
 * PGlite) have no OpenTelemetry instrumentation; a transaction is where the work of a step is.
 * With tracing off, the transaction runs as it was.
 */
export function traceTransactions<T extends Db>(db: T, pool: "requests" | "intake" | "background"): T {
  const transaction = db.transaction.bind(db);
  const attributes = { "db.system.name": "postgresql", "db.pool": pool };
  db.transaction = ((work, config) =>
    tracingEnabled()
      ? inSpan("db transaction", { kind: SpanKind.CLIENT, attributes }, () => transaction(work, config))
      : transaction(work, config)) as T["transaction"];
  return db;
}
