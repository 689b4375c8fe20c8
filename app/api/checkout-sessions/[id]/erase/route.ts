import { checkoutApiRoute } from "@/lib/checkout/api/api-route";
import { handleEraseSession } from "@/lib/checkout/api/session-actions";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const dynamic = "force-dynamic";

/**
 * POST /api/checkout-sessions/{id}/erase: the partner erases a session's customer data once the
 * customer's outcome is known. The API's headers, errors, version and Idempotency-Key come from the
 * wrapper (lib/checkout/api/api-route.ts).
 */
export const POST = checkoutApiRoute(
  "POST /api/checkout-sessions/[id]/erase",
  "action",
  async (request, { params }: { params: Promise<{ id: string }> }) => {
    const { status, body } = await handleEraseSession(request, (await params).id);
    return Response.json(body, { status });
  },
);

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/checkout-sessions/[id]/erase", ["POST"]);
