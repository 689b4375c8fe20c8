import { otherMethods } from "@/lib/http/method-not-allowed";
import { routeHandler } from "@/lib/http/request-scope";
import { checkLiveness } from "@/lib/ops/liveness";

// Liveness (lib/ops/liveness.ts): 200 while the process serves requests; `/api/ready` is readiness.
export const dynamic = "force-dynamic";

async function get(_request: Request) {
  return Response.json(await checkLiveness(), { headers: { "Cache-Control": "no-store" } });
}

export const GET = routeHandler("GET /api/health", get);

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/health", ["GET"]);
