import { errorResponse } from "@/lib/app-error";
import { sessionsApiHeaders } from "@/lib/checkout/api/api-headers";
import { handleCancelSession } from "@/lib/checkout/api/session-actions";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

/** POST /api/checkout-sessions/{id}/cancel: the partner cancels a session before its customer signs. */
async function post(request: Request, { params }: { params: Promise<{ id: string }> }) {
  try {
    const { status, body } = await handleCancelSession(request, (await params).id);
    return Response.json(body, { status, headers: sessionsApiHeaders("action") });
  } catch (error) {
    return errorResponse(error, sessionsApiHeaders("action"));
  }
}

export const POST = routeHandler("POST /api/checkout-sessions/[id]/cancel", post);

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/checkout-sessions/[id]/cancel", ["POST"]);
