import { checkoutApiRoute } from "@/lib/checkout/api/api-route";
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

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/checkout-sessions", ["POST"]);
