import { otherMethods } from "@/lib/http/method-not-allowed";
import { routeHandler } from "@/lib/http/request-scope";
import { checkReadiness } from "@/lib/ops/readiness";

// Readiness for load balancers and orchestrators; `/api/health` stays the liveness check.
export const dynamic = "force-dynamic";

async function get(_request: Request) {
  const { ready, checks } = await checkReadiness();
  return Response.json(
    { status: ready ? "ready" : "unavailable", checks },
    { status: ready ? 200 : 503, headers: { "Cache-Control": "no-store" } },
  );
}

export const GET = routeHandler("GET /api/ready", get);

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/ready", ["GET"]);
