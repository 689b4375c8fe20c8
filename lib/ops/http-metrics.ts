import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { metrics } from "./metrics";
import { routeLabel } from "./route-label";

/**
 * The HTTP metrics of one request (every page, action, route and static file), with the status
 * actually sent: counted by the server entry (server.ts) when the response has finished.
 */
export function countRequest(request: IncomingMessage, response: ServerResponse): void {
  const started = performance.now();
  const method = METHODS.has(request.method ?? "") ? request.method! : "OTHER";
  const route = routeLabel(request.url);
  response.once("finish", () => {
    const m = metrics();
    m.httpRequests.inc({ method, route, status: String(response.statusCode) });
    m.httpDuration.observe({ method, route }, (performance.now() - started) / 1000);
  });
}

// A made-up method must not make a new series either.
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
