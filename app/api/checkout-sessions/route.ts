import { errorResponse } from "@/lib/app-error";
import { handleCreateSession } from "@/lib/checkout/api/sessions-api";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

/** POST /api/checkout-sessions: a partner's backend opens a checkout for a booking. */
async function post(request: Request) {
  try {
    const { status, body } = await handleCreateSession(request);
    return Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error, { "Cache-Control": "no-store" });
  }
}

export const POST = routeHandler("POST /api/checkout-sessions", post);

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/checkout-sessions", ["POST"]);
