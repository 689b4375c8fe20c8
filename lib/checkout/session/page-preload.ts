import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import { getAppContext, type AppContext } from "@/lib/app-context";
import { withRequestId } from "@/lib/logging/context";
import { REQUEST_ID_HEADER, requestIdFrom } from "@/lib/logging/request-id";
import { processSingleton } from "@/lib/process/singleton";
import { CHECKOUT_PATH } from "@/lib/security/headers/page-headers";
import { rawPathAndQuery } from "@/lib/security/headers/request-guard";
import { loadOffers, pollStatus, showsOffers, type OffersView, type SessionStatusView } from "./flow";
import { readSession, type SessionRead } from "./read-session";

/**
 * The reads of the two pages that ask the partner API, started the moment the page's request
 * arrives (a request step of the app's server, lib/ops/request-steps.ts), instead of once Next has
 * run the proxy, routed the request and rendered the layout: that work (several milliseconds of
 * CPU) then runs while the session is read and the partner API answers. The offers page asks for
 * the plans (GET /financing/{id}); the status page for the operation's status (as its poll does).
 * The page takes what was started (the session, its partner, the partner API's answer) instead of
 * asking again: one session read and at most one upstream call per page, as without it.
 *
 * Only for a GET of the page exactly, not a router prefetch (which may not render the page). The
 * offers are asked for only when the page will show them (`showsOffers`, the page's own rule); the
 * status as the page asks (`pollStatus`: a final outcome is stored, not asked). Nothing is asked
 * that the page would not ask itself, so a request the proxy then refuses cost one read at most.
 * Switched off with PAGE_PRELOAD=false (the bench measures the pages with and without it).
 */

type Preload = { sessionId: string; read: Promise<SessionRead> } & (
  { page: "offers"; upstream: Promise<OffersView | undefined> } | { page: "status"; upstream: Promise<SessionStatusView | undefined> }
);

const PRELOADED_PAGES: readonly Preload["page"][] = ["offers", "status"];

function ask(page: Preload["page"], sessionId: string, read: Promise<SessionRead>): Preload {
  return page === "offers"
    ? {
        page,
        sessionId,
        read,
        upstream: read.then(({ ctx, session, partner }) =>
          session && partner && showsOffers(session) ? loadOffers(ctx, session, partner) : undefined,
        ),
      }
    : { page, sessionId, read, upstream: read.then(({ ctx, session }) => (session ? pollStatus(ctx, session) : undefined)) };
}

// One per process (lib/process/singleton.ts): the server's step (outside Next's bundle) starts the
// reads, the page (inside it) takes them.
function storage(): AsyncLocalStorage<Preload> {
  return processSingleton("checkout.page-preload", () => new AsyncLocalStorage<Preload>());
}

/** The page a request is for, when its reads may start early. */
export function preloadedPageOf(method: string | undefined, url: string, headers: IncomingMessage["headers"]) {
  if (method !== "GET" || headers["next-router-prefetch"] !== undefined) return undefined;
  // The page exactly (a trailing slash is redirected by Next: not the page).
  const { pathname } = rawPathAndQuery(url);
  const sessionId = CHECKOUT_PATH.exec(pathname)?.[1];
  const page = sessionId && PRELOADED_PAGES.find((name) => pathname === `/checkout/${sessionId}/${name}`);
  return sessionId && page ? { sessionId, page } : undefined;
}

/**
 * The request step: for a GET of the offers or status page, starts its reads and hands the request
 * to Next on the turn after the session read settles (so Next's first steps run while the partner
 * API answers, not while the database does); else hands it on at once. The request id is fixed
 * here (the proxy keeps a well-formed incoming one, so it is the same), so the upstream call and
 * its log lines carry the id the response will.
 */
export function pagePreloadStep(context: () => Promise<AppContext> = getAppContext) {
  return (request: IncomingMessage, _response: ServerResponse, handOn: () => void): void => {
    const target = preloadedPageOf(request.method, request.url ?? "", request.headers);
    if (!target) return handOn();
    const incoming = request.headers[REQUEST_ID_HEADER];
    const requestId = requestIdFrom(typeof incoming === "string" ? incoming : undefined);
    request.headers[REQUEST_ID_HEADER] = requestId;
    const preload = withRequestId(requestId, (): Preload => {
      const started = ask(target.page, target.sessionId, readSession(target.sessionId, context));
      // The page awaits these and reports their failure (a database down: its 503 page); one it
      // never reaches (the proxy refused the request) must not become an unhandled rejection.
      started.read.catch(ignore);
      started.upstream.catch(ignore);
      return started;
    });
    storage().run(preload, () => {
      const next = () => void setImmediate(handOn);
      void preload.read.then(next, next);
    });
  };
}

function ignore(): void {}

function preloadOf(sessionId: string): Preload | undefined {
  const preload = storage().getStore();
  return preload?.sessionId === sessionId ? preload : undefined;
}

/** The session read started for this request, when it was started for this session. */
export function preloadedSession(sessionId: string): Promise<SessionRead> | undefined {
  return preloadOf(sessionId)?.read;
}

/** The offers asked for this request, when they were asked for this session. */
export function preloadedOffers(sessionId: string): Promise<OffersView | undefined> | undefined {
  const preload = preloadOf(sessionId);
  return preload?.page === "offers" ? preload.upstream : undefined;
}

/** The status asked for this request, when it was asked for this session. */
export function preloadedStatus(sessionId: string): Promise<SessionStatusView | undefined> | undefined {
  const preload = preloadOf(sessionId);
  return preload?.page === "status" ? preload.upstream : undefined;
}
