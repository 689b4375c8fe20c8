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
import { loadOffers, showsOffers, type OffersView } from "./flow";
import { getSession, type CheckoutSession } from "./sessions";

/**
 * The offers page's reads, started by the HTTP server the moment the page's request arrives
 * (lib/ops/http-server.ts), instead of once Next has routed it and rendered the layout: about 8 ms
 * of Next's own work on this machine, which now runs while the partner API answers. The page then
 * takes what was started (the session, its partner, the offers) instead of asking again: one
 * session read and one upstream call per page, as before.
 *
 * Only for a request the proxy's fast path prepared (lib/security/prepared-page.ts: a GET of a
 * known session's page whose every header is decided without waiting), so nothing after this can
 * turn it away, and not for a router prefetch (which may not render the page). The offers are
 * asked for only when the page will show them (`showsOffers`, the page's own rule): a session in
 * another state is read, and the page redirects, as before, with no upstream call.
 */

/** A checkout page's session, as every part of the page reads it (load-checkout.ts). */
export interface SessionRead {
  ctx: AppContext;
  session: CheckoutSession | undefined;
  partner: Partner | undefined;
}

interface Preload {
  sessionId: string;
  read: Promise<SessionRead>;
  /** Undefined when the page does not show the offers (or the partner is missing: the page reports it). */
  offers: Promise<OffersView | undefined>;
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
 * Runs `handle` (the request's handling, Next's: the server's `request` event) with the offers
 * page's reads already under way, when `request` is a prepared offers page's GET; else runs it at
 * once, as it is.
 *
 * For the offers page, Next is handed the request only once the session is read and the partner
 * API call sent (or known not to be needed). Handed it at once, Next's first steps (routing, the
 * layout, the shell: ~11 ms of CPU on this machine) ran while the session read was on its way, and
 * on PostgreSQL its answer waited for them: the call left 6.4 ms after the request arrived instead
 * of ~1 (README, "Checkout performance"). They now run while the partner API answers. Returns
 * `true` then (what a `request` listener returns is not used by Node; `emit`'s `true` says a
 * listener took the request). `context`: the app's (tests give theirs).
 */
export function withPagePreload(
  request: IncomingMessage,
  handle: () => boolean,
  context: () => Promise<AppContext> = getAppContext,
): boolean {
  if (request.method !== "GET" || request.headers["next-router-prefetch"] !== undefined) return handle();
  // The offers page exactly (a trailing slash is redirected by Next: not the page).
  const { pathname } = rawPathAndQuery(request.url ?? "");
  const sessionId = CHECKOUT_PATH.exec(pathname)?.[1];
  if (!sessionId || pathname !== `/checkout/${sessionId}/offers`) return handle();
  const requestId = request.headers[REQUEST_ID_HEADER];
  // With the request's id (the fast path put it on the request), as the page would: on the log
  // lines, and sent upstream.
  const reads = withRequestId(typeof requestId === "string" ? requestId : undefined, () => {
    const read = readSession(sessionId, context);
    const offers = read.then(({ ctx, session, partner }) =>
      session && partner && showsOffers(session) ? loadOffers(ctx, session, partner) : undefined,
    );
    // The page awaits these and reports their failure (a database down: its 503 page); one it never
    // reaches (it failed before) must not become an unhandled rejection.
    read.catch(ignore);
    offers.catch(ignore);
    return { read, offers };
  });
  metrics().offersPreloaded.inc();
  storage().run({ sessionId, ...reads }, () => {
    // The read's reactions run in the order they were added: `offers`' first, which sends the call
    // before this hands the request on. A failed read is handed on too: the page reports it.
    const handOn = () => void handle();
    void reads.read.then(handOn, handOn);
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
  return preloadOf(sessionId)?.offers;
}
