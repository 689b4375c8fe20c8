import "server-only";
import { AppError } from "@/lib/app-error";
import { errorResponse } from "./error-response";
import { routeHandler } from "./request-scope";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

const ALLOW_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** The `Allow` of a route implementing `allowed` (GET also answers HEAD; OPTIONS is always there). */
function allowOf(allowed: readonly Method[]): string {
  const all = new Set<string>([...allowed, "OPTIONS", ...(allowed.includes("GET") ? ["HEAD"] : [])]);
  return ALLOW_ORDER.filter((method) => all.has(method)).join(", ");
}

/**
 * The handler for the methods a route of the API does not take: 405 `method_not_allowed` in the
 * API's JSON error format, with `Allow`. Next's own 405 has an empty body and no `Allow`, which
 * leaves a partner's engineer (or their HTTP client's error handling) with nothing to read.
 */
function methodNotAllowed(route: string, allowed: readonly Method[]) {
  const allow = allowOf(allowed);
  return routeHandler(`405 ${route}`, async (request: Request) =>
    errorResponse(new AppError("method_not_allowed", `${request.method} is not allowed here: ${allow}`), {
      Allow: allow,
      "Cache-Control": "no-store",
    }),
  );
}

/** OPTIONS: 204 with the methods the route really takes (Next's own would list every method exported). */
function allowedMethods(allowed: readonly Method[]) {
  const allow = allowOf(allowed);
  return () => new Response(null, { status: 204, headers: { Allow: allow } });
}

type Handler = (request: Request) => Promise<Response>;

/**
 * What every route under `/api/` exports besides its own handlers, in one line:
 * `export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/health", ["GET"]);`
 * Each method the route does not take answers 405 with `Allow` (GET's stand-in answers HEAD too),
 * and OPTIONS answers 204 with the same `Allow`. The type offers only the methods not in `allowed`,
 * so a route cannot take the 405 in place of its own handler.
 */
export function otherMethods<const A extends Method>(
  route: string,
  allowed: readonly A[],
): Record<Exclude<Method, A>, Handler> & { OPTIONS: () => Response } {
  const notAllowed = methodNotAllowed(route, allowed);
  const handlers = { GET: notAllowed, POST: notAllowed, PUT: notAllowed, PATCH: notAllowed, DELETE: notAllowed };
  return { ...handlers, OPTIONS: allowedMethods(allowed) };
}
