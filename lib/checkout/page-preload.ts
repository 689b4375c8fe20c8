import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage } from "node:http";
import { getAppContext, type AppContext } from "@/lib/app-context";
import { withRequestId } from "@/lib/logging/context";
import { REQUEST_ID_HEADER } from "@/lib/logging/request-id";
import { metrics } from "@/lib/ops/metrics";
import { CHECKOUT_PATH } from "@/lib/security/page-headers";
import { rawPathAndQuery } from "@/lib/security/request-guard";
import { cachedPartnerById } from "@/lib/partners/cache";
import type { Partner } from "@/lib/partners/partners";
import { loadOffers, pollStatus, showsOffers, type OffersView, type SessionStatusView } from "./flow";
import { getSession, type CheckoutSession } from "./sessions";

/**
 * The reads of the pages that ask the partner API, started by the HTTP server the moment the page's
 * request arrives (lib/ops/http-server.ts), instead of once Next has routed it and rendered the
 * layout: about 8 ms of Next's own work on this machine, which now runs while the partner API
 * answers. The offers page asks for the plans (GET /financing/{id}); the status page for the
 * operation's status (GET /operations/{id}/status, as its poll does), which a customer back from
 * the provider, or waiting on the page, loads. The page then takes what was started (the session,
 * its partner, the partner API's answer) instead of asking again: one session read and at most one
 * upstream call per page, as before.
 *
 * Only for a request the proxy's fast path prepared (lib/security/prepared-page.ts: a GET of a
 * known session's page whose every header is decided without waiting), so nothing after this can
 * turn it away, and not for a router prefetch (which may not render the page). The offers are
 * asked for only when the page will show them (`showsOffers`, the page's own rule): a session in
 * another state is read, and the page redirects, as before, with no upstream call. The status is
 * asked for as the page asks (`pollStatus`: not for a final outcome, which is stored).
 */

/** A checkout page's session, as every part of the page reads it (load-checkout.ts). */
export interface SessionRead {
  ctx: AppContext;
  session: CheckoutSession | undefined;
  partner: Partner | undefined;
}

/**
 * What was started for a page: its session read, and the partner API call the page makes. The
 * offers are undefined when the page does not show them (or the partner is missing: the page
 * reports it); the status, for an unknown session (the page answers 404).
 */
type Preload = { sessionId: string; read: Promise<SessionRead> } & (
  { page: "offers"; upstream: Promise<OffersView | undefined> } | { page: "status"; upstream: Promise<SessionStatusView | undefined> }
);

/** The pages whose reads start as their request arrives, by their last path segment. */
const PRELOADED_PAGES: readonly Preload["page"][] = ["offers", "status"];

/** The page's partner API call (as the page itself would make it), once its session is read. */
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

// One per process, on globalThis: the HTTP server's hook (the instrumentation's bundle) starts the
// reads and the page (the app's bundle) takes them.
const globalForPreload = globalThis as typeof globalThis & { __travelCheckoutPagePreload?: AsyncLocalStorage<Preload> };

function storage(): AsyncLocalStorage<Preload> {
  globalForPreload.__travelCheckoutPagePreload ??= new AsyncLocalStorage<Preload>();
  return globalForPreload.__travelCheckoutPagePreload;
}

/** The session with its partner (from the short-lived partner cache). */
export async function readSession(sessionId: string, context: () => Promise<AppContext> = getAppContext): Promise<SessionRead> {
  const ctx = await context();
  const session = await getSession(ctx.db, sessionId);
  const partner = session ? await cachedPartnerById(ctx.db, session.partnerId) : undefined;
  return { ctx, session, partner };
}

/**
 * Runs `handle` (the request's handling, Next's: the server's `request` event) with the page's
 * reads already under way, when `request` is a prepared GET of the offers or the status page; else
 * runs it at once, as it is.
 *
 * Next is handed the request only once the session is read and the partner API call sent (or known
 * not to be needed): on the turn after the read settles, when the reactions it started have run
 * (the call is made after a few awaits of what is already at hand: the partner, the status's
 * ETag). Handed it at once, Next's first steps (routing, the layout, the shell: ~11 ms of CPU on
 * this machine) ran while the session read was on its way, and on PostgreSQL its answer waited for
 * them: the offers page's call left 6.4 ms after the request arrived instead of ~1
 * (docs/performance.md). They now run while the partner API answers. Returns `true` then (what a
 * `request` listener returns is not used by Node; `emit`'s `true` says a listener took the
 * request). `context`: the app's (tests give theirs).
 */
export function withPagePreload(
  request: IncomingMessage,
  handle: () => boolean,
  context: () => Promise<AppContext> = getAppContext,
): boolean {
  if (request.method !== "GET" || request.headers["next-router-prefetch"] !== undefined) return handle();
  // The page exactly (a trailing slash is redirected by Next: not the page).
  const { pathname } = rawPathAndQuery(request.url ?? "");
  const sessionId = CHECKOUT_PATH.exec(pathname)?.[1];
  const page = sessionId && PRELOADED_PAGES.find((name) => pathname === `/checkout/${sessionId}/${name}`);
  if (!sessionId || !page) return handle();
  const requestId = request.headers[REQUEST_ID_HEADER];
  // With the request's id (the fast path put it on the request), as the page would: on the log
  // lines, and sent upstream.
  const preload = withRequestId(typeof requestId === "string" ? requestId : undefined, (): Preload => {
    const started = ask(page, sessionId, readSession(sessionId, context));
    // The page awaits these and reports their failure (a database down: its 503 page); one it never
    // reaches (it failed before) must not become an unhandled rejection.
    started.read.catch(ignore);
    started.upstream.catch(ignore);
    return started;
  });
  metrics().pagesPreloaded.inc({ page });
  storage().run(preload, () => {
    // A failed read is handed on too: the page reports it.
    const handOn = () => void setImmediate(handle);
    void preload.read.then(handOn, handOn);
  });
  return true;
}

function ignore(): void {}

/** What was started for this request, when it was started for this session. */
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
