import { errorResponse } from "@/lib/app-error";
import { sessionsApiHeaders } from "@/lib/checkout/api/api-headers";
import { handleListEvents } from "@/lib/checkout/api/events-api";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

/** GET /api/events: the partner's notifications in order, delivered or not, to catch up from a cursor. */
async function get(request: Request) {
  try {
    return Response.json(await handleListEvents(request), { headers: sessionsApiHeaders("read") });
  } catch (error) {
    return errorResponse(error, sessionsApiHeaders("read"));
  }
}

export const GET = routeHandler("GET /api/events", get);

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/events", ["GET"]);
