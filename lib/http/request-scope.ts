import "server-only";
import { headers } from "next/headers";
import { unstable_rethrow } from "next/navigation";
import { AppError, errorHeaders, INTERNAL_MESSAGE, UNAVAILABLE_MESSAGE } from "@/lib/app-error";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { withRequestId } from "@/lib/logging/context";
import { REQUEST_ID_HEADER } from "@/lib/logging/request-id";
import { logError, loggerFor } from "@/lib/logger";

/*
 * How a request's id reaches its log lines: proxy.ts puts it on the request (`x-request-id`, the
 * incoming one when well-formed), and each route handler, server action and page runs inside
 * `withRequestId` with it, so every line logged for it carries it, and the partner API client sends
 * it upstream.
 */

const log = loggerFor("http");

/**
 * A server action's or page's work, run with the request's id (read from the request headers).
 * Outside a request (a unit test calling an action) it runs with a new id.
 */
export async function inRequestScope<T>(fn: () => Promise<T>): Promise<T> {
  let id: string | null = null;
  try {
    id = (await headers()).get(REQUEST_ID_HEADER);
  } catch (error) {
    // Next's own signals (a page rendered statically) must reach Next; "outside a request" is ours.
    unstable_rethrow(error);
  }
  return withRequestId(id, fn);
}

/**
 * A route handler, run with the request's id; an error it did not expect is logged by its safe
 * shape and answered in our error format, never left for Next to print (a database error's
 * message holds the query's parameters): 503 `database_unavailable` with `Retry-After` when the
 * database cannot be reached (the webhook receiver's answer then makes the API redeliver), else
 * 500 `internal`. Next's own signals (redirect, notFound) pass through.
 * `route` names it as a template (`POST /api/webhooks/financing/[token]`): a path may hold a token.
 */
export function routeHandler<A extends unknown[]>(route: string, handler: (request: Request, ...rest: A) => Promise<Response>) {
  return (request: Request, ...rest: A): Promise<Response> =>
    withRequestId(request.headers.get(REQUEST_ID_HEADER), async () => {
      try {
        return await handler(request, ...rest);
      } catch (error) {
        unstable_rethrow(error);
        const unavailable = isDatabaseUnavailable(error);
        logError(log, unavailable ? "a route handler failed: the database is unreachable" : "a route handler failed", error, { route });
        const answer = unavailable ? new AppError("database_unavailable", UNAVAILABLE_MESSAGE) : new AppError("internal", INTERNAL_MESSAGE);
        return Response.json(answer.toBody(), { status: answer.status, headers: errorHeaders(answer, { "Cache-Control": "no-store" }) });
      }
    });
}
