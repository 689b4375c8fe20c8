import { errorResponse } from "@/lib/app-error";
import { sessionsApiHeaders } from "@/lib/checkout/api/api-headers";
import { handleListSessions } from "@/lib/checkout/api/session-list";
import { handleCreateSession } from "@/lib/checkout/api/sessions-api";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

/** POST /api/checkout-sessions: a partner's backend opens a checkout for a booking. */
async function post(request: Request) {
  try {
    const { status, body } = await handleCreateSession(request);
    return Response.json(body, { status, headers: sessionsApiHeaders("create") });
  } catch (error) {
    return errorResponse(error, sessionsApiHeaders("create"));
  }
}

/** GET /api/checkout-sessions: the partner's own sessions, filtered, newest first, a page at a time. */
async function get(request: Request) {
  try {
    return Response.json(await handleListSessions(request), { headers: sessionsApiHeaders("read") });
  } catch (error) {
    return errorResponse(error, sessionsApiHeaders("read"));
  }
}

export const POST = routeHandler("POST /api/checkout-sessions", post);
export const GET = routeHandler("GET /api/checkout-sessions", get);

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/checkout-sessions", ["GET", "POST"]);
