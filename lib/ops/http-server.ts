import "server-only";
import { Server, type IncomingMessage, type ServerResponse } from "node:http";
import { withPagePreload } from "@/lib/checkout/page-preload";
import { preparePageRequest } from "@/lib/security/prepared-page";
import { unservedMethodAnswer } from "@/lib/security/request-guard";
import { guardPageResponse, runWithRequestState } from "./error-pages";
import { metrics } from "./metrics";
import { routeLabel } from "./route-label";
import { compressWhole } from "./whole-compression";

/**
 * Next creates and owns the HTTP server (`next start`), and route handlers never see the socket or
 * the response as sent. Four things need them: the HTTP metrics (every page, action, route and static
 * file, with the status actually sent), a graceful shutdown (which must stop the server taking
 * connections before it closes the database), and pages' server errors readable without JavaScript
 * (lib/ops/error-pages.ts: each request runs with its own state, and a page's HTML 5xx is replaced),
 * and the proxy's fast path for the pages every customer loads (lib/security/prepared-page.ts), with
 * the offers and status pages' reads started at once (lib/checkout/page-preload.ts) and their documents
 * compressed in one piece (lib/ops/whole-compression.ts).
 * So the server's `request` event is observed, once per process, and the servers that emit it are
 * remembered.
 */

const globalForServers = globalThis as typeof globalThis & { __travelCheckoutServers?: Set<Server> };

export function observeHttpServers(): void {
  if (globalForServers.__travelCheckoutServers) return;
  const servers = new Set<Server>();
  globalForServers.__travelCheckoutServers = servers;
  // EventEmitter's emit, as Server inherits it: (event, ...args) => boolean.
  const emit = Server.prototype.emit as (this: Server, event: string, ...args: unknown[]) => boolean;
  Server.prototype.emit = function (this: Server, event: string, ...args: unknown[]): boolean {
    if (event === "request") {
      servers.add(this);
      const [request, response] = args as [IncomingMessage, ServerResponse];
      countRequest(request, response);
      // A method no route serves (TRACE…): 405 here, since Next cannot even read it (request-guard.ts).
      const unserved = unservedMethodAnswer(request.method, request.url);
      if (unserved) {
        response.writeHead(unserved.status, unserved.headers).end(unserved.body);
        return true;
      }
      const prepared = preparePageRequest(request, response);
      return runWithRequestState(() => {
        guardPageResponse(request, response);
        if (prepared) compressWhole(response);
        const handle = () => emit.call(this, event, ...args);
        return prepared ? withPagePreload(request, handle) : handle();
      });
    }
    return emit.call(this, event, ...args);
  };
}

function countRequest(request: IncomingMessage, response: ServerResponse): void {
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

/**
 * Stops the servers taking connections and waits for the requests under way (idle keep-alive
 * connections are closed at once), for at most `ms`; then the rest are cut.
 */
export async function closeHttpServers(ms: number): Promise<void> {
  const servers = [...(globalForServers.__travelCheckoutServers ?? [])];
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            server.closeAllConnections();
            resolve();
          }, ms);
          timer.unref();
          server.close(() => {
            clearTimeout(timer);
            resolve();
          });
          server.closeIdleConnections();
        }),
    ),
  );
}
