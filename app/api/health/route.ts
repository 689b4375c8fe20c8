import { checkDatabase, getDatabase } from "@/lib/db";
import { logError, loggerFor } from "@/lib/logger";
import { routeHandler } from "@/lib/http/request-scope";

// Our own readiness (load balancers, the e2e web server); the partner API's health is a back-office view.
export const dynamic = "force-dynamic";

async function get(_request: Request) {
  const check = await getDatabase().then(checkDatabase, (error: unknown) => ({ ok: false as const, error }));
  if (!check.ok) {
    logError(loggerFor("health"), "health: database check failed", check.error);
    return Response.json({ status: "unavailable", database: "unavailable" }, { status: 503, headers: noStore });
  }
  return Response.json({ status: "ok", database: "ok" }, { headers: noStore });
}

const noStore = { "Cache-Control": "no-store" };

export const GET = routeHandler("GET /api/health", get);
