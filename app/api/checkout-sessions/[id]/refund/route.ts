import { checkoutApiRoute } from "@/lib/checkout/api/api-route";
import { handleGetRefund, handleRefundSession } from "@/lib/checkout/api/session-actions";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

/** GET /api/checkout-sessions/{id}/refund: what a refund of the session would give back now. */
export const GET = checkoutApiRoute("GET /api/checkout-sessions/[id]/refund", "read", async (request, { params }: Params) =>
  Response.json(await handleGetRefund(request, (await params).id)),
);

/**
 * POST /api/checkout-sessions/{id}/refund: the partner refunds a confirmed session, once. The
 * API's headers, errors, version and Idempotency-Key come from the wrapper
 * (lib/checkout/api/api-route.ts).
 */
export const POST = checkoutApiRoute("POST /api/checkout-sessions/[id]/refund", "action", async (request, { params }: Params) => {
  const { status, body } = await handleRefundSession(request, (await params).id);
  return Response.json(body, { status });
});

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/checkout-sessions/[id]/refund", ["GET", "POST"]);
