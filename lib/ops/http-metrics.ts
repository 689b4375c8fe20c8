import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { metrics } from "./metrics";
import { routeLabel } from "./route-label";

/** The `status` of a request whose client hung up before any answer was sent (nginx's code for it). */
export const CLIENT_CLOSED_STATUS = "499";

/**
 * The HTTP metrics of one request (every page, action, route and static file), with the status
 * actually sent: counted by the server entry (server.ts) once, when the response closes. Its
 * `close`, not its `finish`: a client that hangs up as soon as it has the status (the financing
 * API's webhook deliveries cancel the body they do not read) leaves a response that never
 * finishes, and such requests went uncounted; `close` comes once in either case. A client gone
 * before any answer is counted with CLIENT_CLOSED_STATUS.
 */
export function countRequest(request: IncomingMessage, response: ServerResponse): void {
  const started = performance.now();
  const method = METHODS.has(request.method ?? "") ? request.method! : "OTHER";
  const route = routeLabel(request.url);
  response.once("close", () => {
    const m = metrics();
    const status = response.headersSent ? String(response.statusCode) : CLIENT_CLOSED_STATUS;
    m.httpRequests.inc({ method, route, status });
    m.httpDuration.observe({ method, route }, (performance.now() - started) / 1000);
  });
}

// A made-up method must not make a new series either.
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
