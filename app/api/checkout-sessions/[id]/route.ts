import { errorResponse } from "@/lib/app-error";
import { handleGetSession } from "@/lib/checkout/api/sessions-api";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

/** GET /api/checkout-sessions/{id}: the partner reads where its customer's checkout stands. */
async function get(request: Request, { params }: { params: Promise<{ id: string }> }) {
  try {
    return Response.json(await handleGetSession(request, (await params).id), { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error, { "Cache-Control": "no-store" });
  }
}

export const GET = routeHandler("GET /api/checkout-sessions/[id]", get);

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/checkout-sessions/[id]", ["GET"]);
