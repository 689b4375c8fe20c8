import { errorResponse } from "@/lib/app-error";
import { sessionsApiHeaders } from "@/lib/checkout/api/api-headers";
import { handleGetRefund, handleRefundSession } from "@/lib/checkout/api/session-actions";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

/** GET /api/checkout-sessions/{id}/refund: what a refund of the session would give back now. */
async function get(request: Request, { params }: Params) {
  try {
    return Response.json(await handleGetRefund(request, (await params).id), { headers: sessionsApiHeaders("read") });
  } catch (error) {
    return errorResponse(error, sessionsApiHeaders("read"));
  }
}

/** POST /api/checkout-sessions/{id}/refund: the partner refunds a confirmed session, once. */
async function post(request: Request, { params }: Params) {
  try {
    const { status, body } = await handleRefundSession(request, (await params).id);
    return Response.json(body, { status, headers: sessionsApiHeaders("action") });
  } catch (error) {
    return errorResponse(error, sessionsApiHeaders("action"));
  }
}

export const GET = routeHandler("GET /api/checkout-sessions/[id]/refund", get);
export const POST = routeHandler("POST /api/checkout-sessions/[id]/refund", post);

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/checkout-sessions/[id]/refund", ["GET", "POST"]);
