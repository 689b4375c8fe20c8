import "server-only";
import { checkDatabase, getDatabase, type DatabaseCheck } from "@/lib/db";
import { logError, loggerFor } from "@/lib/logger";

/** A liveness probe is answered at once: a database that does not answer within this is "unavailable". */
export const LIVENESS_DATABASE_MS = 1_000;

/**
 * Liveness: the process serves requests. The database's state is said, for a person looking, but
 * does not fail it: during a database outage the process is fine and recovers by itself
 * (docs/operators/monitoring.md), so an orchestrator must not restart it; it is readiness
 * (lib/ops/readiness.ts) that goes red and takes the instance out of the load balancer.
 */
export async function checkLiveness(
  check: () => Promise<DatabaseCheck> = () => getDatabase().then(checkDatabase),
  timeoutMs = LIVENESS_DATABASE_MS,
): Promise<{ status: "ok"; database: "ok" | "unavailable" }> {
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([
    check().catch((error: unknown) => ({ ok: false as const, error })),
    new Promise<{ ok: false; error: Error }>((resolve) => {
      timer = setTimeout(() => resolve({ ok: false, error: new Error(`no answer within ${timeoutMs} ms`) }), timeoutMs);
    }),
  ]).finally(() => clearTimeout(timer));
  if (!result.ok) logError(loggerFor("health"), "health: database check failed", result.error);
  return { status: "ok", database: result.ok ? "ok" : "unavailable" };
}
