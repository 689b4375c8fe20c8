import { checkoutApiRoute } from "@/lib/checkout/api/api-route";
import { handleListSessions } from "@/lib/checkout/api/session-list";
import { handleCreateSession } from "@/lib/checkout/api/sessions-api";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const dynamic = "force-dynamic";

/**
 * POST /api/checkout-sessions: a partner's backend opens a checkout for a booking. The API's
 * headers, errors, version and Idempotency-Key come from the wrapper (lib/checkout/api/api-route.ts).
 */
export const POST = checkoutApiRoute("POST /api/checkout-sessions", "create", async (request) => {
  const { status, body } = await handleCreateSession(request);
  return Response.json(body, { status });
});

/** GET /api/checkout-sessions: the partner's own sessions, filtered, newest first, a page at a time. */
export const GET = checkoutApiRoute("GET /api/checkout-sessions", "read", async (request) =>
  Response.json(await handleListSessions(request)),
);

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/checkout-sessions", ["GET", "POST"]);
