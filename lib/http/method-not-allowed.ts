import "server-only";
import { AppError, errorResponse } from "@/lib/app-error";
import { routeHandler } from "./request-scope";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** The `Allow` of a route implementing `allowed` (GET also answers HEAD; OPTIONS is always there). */
function allowOf(allowed: readonly Method[]): string {
  return [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
}

/**
 * The handler for the methods a route of the API does not take: 405 `method_not_allowed` in the
 * API's JSON error format, with `Allow`. Next's own 405 has an empty body and no `Allow`, which
 * leaves a partner's engineer (or their HTTP client's error handling) with nothing to read.
 * Export it under each method the route does not implement (GET also answers HEAD), and
 * {@link allowedMethods} as OPTIONS: Next's own OPTIONS would list every exported method.
 */
export function methodNotAllowed(route: string, allowed: readonly Method[]) {
  const allow = allowOf(allowed);
  return routeHandler(`405 ${route}`, async (request: Request) =>
    errorResponse(new AppError("method_not_allowed", `${request.method} is not allowed here: ${allow}`), {
      Allow: allow,
      "Cache-Control": "no-store",
    }),
  );
}

/** OPTIONS: 204 with the methods the route really takes. */
export function allowedMethods(allowed: readonly Method[]) {
  const allow = allowOf(allowed);
  return () => new Response(null, { status: 204, headers: { Allow: allow } });
}
