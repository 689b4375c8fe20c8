import { NextResponse, type NextRequest } from "next/server";
import { getEnv } from "@/lib/config/env";
import { REQUEST_ID_HEADER, requestIdFrom } from "@/lib/logging/request-id";
import { newNonce, sandboxCsp } from "@/lib/security/headers/csp";
import { frameAncestorsOf, isUnknownCheckoutSession } from "@/lib/security/headers/frame-ancestors";
import { CHECKOUT_PAGE_PATH, CHECKOUT_PATH, isHttps, pageHeaders } from "@/lib/security/headers/page-headers";
import { refusesCrossOriginPost } from "@/lib/security/headers/origin";
import { rawPathAndQuery, refuseHostileRequest } from "@/lib/security/headers/request-guard";
import { checkoutApiProxyStep, withSessionsApiHeaders } from "@/lib/checkout/api/api-headers";

/**
 * Next 16's proxy (formerly middleware; Node.js runtime), in front of every route but Next's static
 * files: the Content-Security-Policy of each response, with a fresh nonce that Next puts on its own
 * scripts (it reads it from the request's CSP header), `frame-ancestors` from the session's partner
 * on checkout pages (all from one function, lib/security/headers/page-headers.ts), and the refusal of
 * cross-origin form posts and server actions. The headers that never vary (HSTS, nosniff,
 * Referrer-Policy, Cache-Control of personal-data pages) come from next.config.mjs, which also
 * covers the static files this proxy skips.
 */
export async function proxy(request: NextRequest) {
  // Every request's id (a well-formed incoming X-Request-Id, else a new one): on the request for the
  // route, action or page to log with and send upstream, and on the response for support to quote.
  const requestId = requestIdFrom(request.headers.get(REQUEST_ID_HEADER));
  const response = await answer(request, requestId);
  response.headers.set("X-Request-Id", requestId);
  return response;
}

async function answer(request: NextRequest, requestId: string): Promise<NextResponse | Response> {
  const env = getEnv();
  const { pathname } = request.nextUrl;

  if (refusesCrossOriginPost(request.method, pathname, request.headers, env.APP_URL, env.TRUSTED_PROXY_HOPS)) {
    return new NextResponse("Cross-origin form posts are not accepted.", {
      status: 403,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
        "Cache-Control": "no-store",
      },
    });
  }

  // A URL Next cannot decode, a body over its surface's limit, a malformed action post: a 4xx in
  // the surface's format, before any routing (lib/security/headers/request-guard.ts).
  const raw = rawPathAndQuery(request.url);
  const hostile = await refuseHostileRequest(
    { method: request.method, headers: request.headers, rawPathname: raw.pathname, rawSearch: raw.search, pathname },
    () => request.clone().arrayBuffer(),
  );
  // Under the checkout sessions API, still with its headers (its document states them on every answer).
  if (hostile) return withSessionsApiHeaders(request.method, pathname, hostile);
  // The checkout sessions API: a version it does not have refused here, for every address of it;
  // the version put on every answer (lib/checkout/api/api-headers.ts).
  const api = checkoutApiProxyStep(request.method, pathname, request.headers);
  if (api.refusal) return api.refusal;

  if ((pathname === "/sandbox" || pathname.startsWith("/sandbox/")) && !env.SANDBOX_ENABLED) {
    // Not served (always so with the production API, lib/config/env.ts): every URL under it is a 404,
    // the API, the control API and the hosted pages alike, whatever the route behind would do.
    return Response.json(
      { error: "Not Found", timestamp: new Date().toISOString() },
      { status: 404, headers: { "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'", "Cache-Control": "no-store" } },
    );
  }
  if (pathname === "/sandbox" || pathname.startsWith("/sandbox/")) {
    // Another system's pages: their own stylesheet, no nonce, never framed.
    const sandboxHeaders = new Headers(request.headers);
    sandboxHeaders.set(REQUEST_ID_HEADER, requestId);
    const response = NextResponse.next({ request: { headers: sandboxHeaders } });
    response.headers.set("Content-Security-Policy", sandboxCsp());
    response.headers.set("X-Frame-Options", "DENY");
    // Its hosted pages send `no-referrer` themselves (their URLs carry tokens), which a header set
    // here would replace: only its API gets ours.
    if (!/^\/sandbox\/(pay|provider)(\/|$)/.test(pathname)) response.headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
    return response;
  }

  const session = CHECKOUT_PATH.exec(pathname);
  const frameAncestors = session ? await frameAncestorsOf(session[1]!) : [];
  const prepared = pageHeaders({
    pathname,
    search: request.nextUrl.search,
    requestId,
    nonce: newNonce(),
    frameAncestors,
    https: isHttps(request.nextUrl.protocol === "https:", request.headers.get("x-forwarded-proto")),
    appUrl: env.APP_URL,
    financingBaseUrl: env.financing.baseUrl,
    development: process.env.NODE_ENV === "development",
  });
  const requestHeaders = new Headers(request.headers);
  for (const name of prepared.dropFromRequest) requestHeaders.delete(name);
  for (const [name, value] of Object.entries(prepared.request)) requestHeaders.set(name, value);
  // A checkout page of a session that does not exist (a typo, a guess): rendered as an unmatched
  // URL, whose 404 Next renders in the HTML itself. A page's own notFound() gives a 404 whose body
  // is empty until JavaScript runs (vercel/next.js#98954); the pages keep it as a second net.
  const unknownPage =
    (request.method === "GET" || request.method === "HEAD") &&
    CHECKOUT_PAGE_PATH.test(pathname) &&
    (!session || isUnknownCheckoutSession(session[1]!));
  const response = unknownPage
    ? NextResponse.rewrite(new URL("/checkout-not-found", request.url), { request: { headers: requestHeaders } })
    : NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries({ ...prepared.response, ...api.responseHeaders })) response.headers.set(name, value);
  return response;
}

export const config = {
  // Everything but Next's build output and image optimiser: pages, route handlers, public files.
  matcher: ["/((?!_next/static|_next/image).*)"],
};
