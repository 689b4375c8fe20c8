import "server-only";
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { logError, loggerFor } from "@/lib/logger";
import { unreadableRequestAnswer, unservedMethodAnswer, type PlainAnswer } from "@/lib/security/headers/request-guard";
import { stampSocketAddress } from "@/lib/security/network/socket-address";
import { guardPageResponse, runWithRequestState } from "./error-pages";
import { countRequest } from "./http-metrics";
import { trackHttpServer } from "./http-server";
import { traceRequest } from "./request-span";
import { runRequestSteps } from "./request-steps";

const log = loggerFor("http");

/** Next's request handler (`next(…).getRequestHandler()`), or a test's. */
export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

/**
 * The app's HTTP server (server.ts creates it around Next's handler): each request, in this order,
 * - carries the socket's address (lib/security/network/socket-address.ts; a client's copy deleted first);
 * - is counted in the HTTP metrics with the status sent (lib/ops/http-metrics.ts);
 * - with a method no route serves (TRACE, WebDAV's), is answered 405 with the security headers here,
 *   since Next cannot even build a Request for TRACE (lib/security/headers/request-guard.ts); so is
 *   CONNECT (which Node hands to a `connect` listener, or drops the connection without one) and a
 *   method Node's parser does not know (its `clientError`: 405), and any request the parser cannot
 *   read gets its 400 (408, 431) with the security headers too, not Node's bare one;
 * - runs in its server span when tracing is on (lib/ops/request-span.ts), with its own state, and a page's blank HTML 5xx is replaced by a page readable without
 *   JavaScript (lib/ops/error-pages.ts);
 * - goes through the steps the domains registered (lib/ops/request-steps.ts: the checkout's page
 *   preload, lib/checkout/session/page-preload.ts), then to Next (proxy.ts first, for every route
 *   but Next's static files).
 * The server is remembered for the graceful shutdown (lib/ops/http-server.ts).
 */
export function createAppServer(handle: RequestHandler): Server {
  const server = createServer((request, response) => {
    stampSocketAddress(request);
    countRequest(request, response);
    const unserved = unservedMethodAnswer(request.method, request.url);
    if (unserved) {
      response.writeHead(unserved.status, unserved.headers).end(unserved.body);
      return;
    }
    traceRequest(request, response, () =>
      runWithRequestState(() => {
        guardPageResponse(request, response);
        runRequestSteps(request, response, () => void handle(request, response).catch((error: unknown) => failed(response, error)));
      }),
    );
  });
  server.on("connect", (request: IncomingMessage, socket: Duplex) => {
    stampSocketAddress(request);
    answerOnSocket(socket, unservedMethodAnswer("CONNECT", request.url)!);
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // No answer over one under way (its bytes would be cut into), nor to a client that reset. After
    // a whole answer on a kept-alive connection, this one is answered too: Node's own rule (nothing
    // ever written) would drop it, and a client would see a dropped connection for an unknown method.
    const current = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    const underWay = current != null && current.headersSent && !current.writableEnded;
    if (error.code === "ECONNRESET" || !socket.writable || underWay) {
      socket.destroy();
      return;
    }
    const answer =
      error.code === "HPE_INVALID_METHOD"
        ? unservedMethodAnswer(undefined, "/")!
        : unreadableRequestAnswer(error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400);
    answerOnSocket(socket, answer);
  });
  // An idle kept-alive connection stays open longer than the clients and balancers that reuse one
  // (60 s is the usual balancer's idle timeout): with Node's 5 s, a request sent on a connection the
  // server was just closing failed with a reset, which a client cannot retry safely for a POST.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  trackHttpServer(server);
  return server;
}

/** How long an idle kept-alive connection is kept: above a balancer's usual 60 s. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Writes a whole answer on a socket no ServerResponse holds (CONNECT, an unreadable request), then closes it. */
function answerOnSocket(socket: Duplex, answer: PlainAnswer): void {
  const body = Buffer.from(answer.body);
  const headers = { ...answer.headers, "Content-Length": String(body.length), Connection: "close" };
  const head = [`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ""}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  socket.end(Buffer.concat([Buffer.from(`${head.join("\r\n")}\r\n\r\n`), body]));
}

/** What Next's handler let through (it answers its own errors): a bare 500, or the connection cut. */
function failed(response: ServerResponse, error: unknown): void {
  logError(log, "a request failed outside Next's handling", error);
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.statusCode = 500;
  response.setHeader("Content-Type", "text/plain; charset=utf-8");
  response.end("Internal Server Error");
}
