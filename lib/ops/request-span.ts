import type { IncomingMessage, ServerResponse } from "node:http";
import { ROOT_CONTEXT, SpanStatusCode } from "@opentelemetry/api";
import { contextFromTraceparent, runInRequestSpan, SpanKind, tracer, tracingEnabled } from "@/lib/tracing/spans";
import { routeLabel } from "./route-label";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The server span of one request, made by the HTTP server (lib/ops/app-server.ts) around everything
 * that serves it: Next's own spans (the page, the server action, the route handler) are its
 * children. Made here because OpenTelemetry's patching of node:http cannot reach a server created
 * before the tracer provider is registered (server.ts creates it; instrumentation.ts registers
 * later), and the framework's documented hooks are kept to.
 *
 * Its name and attributes carry the route's template only (lib/ops/route-label.ts), never the path's
 * ids or tokens nor the query. A `traceparent` sent to `/api/*` (an agency's backend calling the
 * checkout sessions API, the partner API's webhook) is continued; a browser's page request starts a
 * trace of its own: a page's trace is not the visitor's to choose. Pages of a checkout session are
 * linked to the session's trace by the domain (noteSessionOnSpan).
 */
export function traceRequest(request: IncomingMessage, response: ServerResponse, handle: () => void): void {
  if (!tracingEnabled()) {
    handle();
    return;
  }
  const route = routeLabel(request.url);
  const method = METHODS.has(request.method ?? "") ? request.method! : "_OTHER";
  const parent = route.startsWith("/api/") ? (incomingContext(request) ?? ROOT_CONTEXT) : ROOT_CONTEXT;
  const span = tracer().startSpan(
    `${method} ${route}`,
    { kind: SpanKind.SERVER, attributes: { "http.request.method": method, "http.route": route } },
    parent,
  );
  response.once("close", () => {
    span.setAttribute("http.response.status_code", response.statusCode);
    if (response.statusCode >= 500 || !response.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  runInRequestSpan(parent, span, handle);
}

function incomingContext(request: IncomingMessage) {
  const traceparent = request.headers.traceparent;
  const tracestate = request.headers.tracestate;
  return contextFromTraceparent(
    typeof traceparent === "string" ? traceparent : undefined,
    typeof tracestate === "string" ? tracestate : undefined,
  );
}
