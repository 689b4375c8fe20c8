import { AppError } from "@/lib/app-error";
import { errorResponse } from "@/lib/http/error-response";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

/**
 * Any address under /api/ that no route takes (a typo such as /api/checkout-session, a guess),
 * whatever the method: 404 `not_found` in the API's JSON error format, where Next rendered its HTML
 * not-found page. The routes that exist are matched before this one.
 */
const notFound = routeHandler("404 /api/[...path]", async () =>
  errorResponse(new AppError("not_found", "No such address in this API: see /api/openapi.json"), { "Cache-Control": "no-store" }),
);

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
