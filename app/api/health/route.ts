import { checkDatabase, getDatabase } from "@/lib/db";
import { logError, loggerFor } from "@/lib/logger";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { routeHandler } from "@/lib/http/request-scope";

/*
 * Liveness: 200 while the process serves requests. The database's state is in the body, for a
 * person looking, but does not fail it: during a database outage the process is fine and recovers
 * by itself (docs/operators/monitoring.md), so an orchestrator must not restart it;
 * it is readiness (`/api/ready`) that goes red and takes the instance out of the load balancer.
 */
export const dynamic = "force-dynamic";

/** A liveness probe is answered at once: a database that does not answer within this is "unavailable". */
const DATABASE_CHECK_MS = 1_000;

async function get(_request: Request) {
  let timer: NodeJS.Timeout | undefined;
  const check = await Promise.race([
    getDatabase().then(checkDatabase, (error: unknown) => ({ ok: false as const, error })),
    new Promise<{ ok: false; error: Error }>((resolve) => {
      timer = setTimeout(() => resolve({ ok: false, error: new Error("no answer within 1 s") }), DATABASE_CHECK_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  if (!check.ok) logError(loggerFor("health"), "health: database check failed", check.error);
  return Response.json({ status: "ok", database: check.ok ? "ok" : "unavailable" }, { headers: noStore });
}

const noStore = { "Cache-Control": "no-store" };

export const GET = routeHandler("GET /api/health", get);

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/health", ["GET"]);
