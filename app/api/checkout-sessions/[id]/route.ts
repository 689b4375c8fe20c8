import { errorResponse } from "@/lib/app-error";
import { sessionsApiHeaders } from "@/lib/checkout/api/api-headers";
import { handleGetSession } from "@/lib/checkout/api/sessions-api";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

/** GET /api/checkout-sessions/{id}: the partner reads where its customer's checkout stands. */
async function get(request: Request, { params }: { params: Promise<{ id: string }> }) {
  try {
    return Response.json(await handleGetSession(request, (await params).id), { headers: sessionsApiHeaders("read") });
  } catch (error) {
    return errorResponse(error, sessionsApiHeaders("read"));
  }
}

export const GET = routeHandler("GET /api/checkout-sessions/[id]", get);

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/checkout-sessions/[id]", ["GET"]);
