import { checkoutApiRoute } from "@/lib/checkout/api/api-route";
import { handleGetSession } from "@/lib/checkout/api/sessions-api";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const dynamic = "force-dynamic";

/**
 * GET /api/checkout-sessions/{id}: the partner reads where its customer's checkout stands. The
 * API's headers, errors and version come from the wrapper (lib/checkout/api/api-route.ts).
 */
export const GET = checkoutApiRoute(
  "GET /api/checkout-sessions/[id]",
  "read",
  async (request, { params }: { params: Promise<{ id: string }> }) => Response.json(await handleGetSession(request, (await params).id)),
);

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/checkout-sessions/[id]", ["GET"]);
