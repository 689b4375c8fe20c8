import { checkoutApiRoute } from "@/lib/checkout/api/api-route";
import { handleListEvents } from "@/lib/checkout/api/events-api";
import { otherMethods } from "@/lib/http/method-not-allowed";

export const dynamic = "force-dynamic";

/**
 * GET /api/events: the partner's notifications in order, delivered or not, to catch up from a
 * cursor. The API's headers, errors and version come from the wrapper (lib/checkout/api/api-route.ts).
 */
export const GET = checkoutApiRoute("GET /api/events", "read", async (request) => Response.json(await handleListEvents(request)));

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/events", ["GET"]);
