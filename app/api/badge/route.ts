import { errorResponse } from "@/lib/http/error-response";
import { getAppContext } from "@/lib/app-context";
import { badgeResponse } from "@/lib/embed/badge-response";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

/** GET /api/badge: the installment badge's figures for a partner's price (see lib/embed/badge-response.ts). */
async function get(request: Request) {
  try {
    return await badgeResponse(await getAppContext(), request);
  } catch (error) {
    return errorResponse(error, { "Cache-Control": "no-store" });
  }
}

export const GET = routeHandler("GET /api/badge", get);

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/badge", ["GET"]);
