import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { getEnv } from "@/lib/env";
import { REQUEST_ID_HEADER, requestIdFrom } from "@/lib/logging/request-id";
import { metrics } from "@/lib/ops/metrics";
import { newNonce } from "./csp";
import { cachedFrameAncestors } from "./frame-ancestors";
import { CHECKOUT_PAGE_PATH, CHECKOUT_PATH, PREPARED_HEADER, isHttps, pageHeaders } from "./page-headers";
import { checkUrl, rawPathAndQuery } from "./request-guard";

/**
 * The proxy's fast path for the pages every customer loads: the shop's home page and a known
 * session's checkout pages, read with GET (or HEAD). Running Next's proxy costs a page request
 * about 1.5 ms of CPU on this machine (a NextRequest built from the Node request, a second set of
 * headers, the response's merged back), and for these pages it does nothing but set headers. So the
 * HTTP server (lib/ops/http-server.ts) sets the same headers itself (lib/security/page-headers.ts,
 * which the proxy uses too) and marks the request with PREPARED_HEADER, which the proxy's matcher
 * skips.
 *
 * Only when the answer is certain without waiting; everything else goes through the proxy, as
 * before: any other method, path or page; a URL the proxy would refuse (lib/security/request-guard.ts)
 * or rewrite (an unknown session: its not-found page); a body; a checkout page whose partner's
 * origins are not in the cache yet (its first request, or a minute later: the proxy looks them up
 * and fills the cache); `next dev`; and any request before this hook is installed at start-up.
 *
 * The marker cannot be forged: `@` is not allowed in a header name, so Node's HTTP parser answers
 * 400 to a client that sends it, before any of our code (e2e/security-headers.spec.ts).
 */

/** Prepares `request` and marks it when it can; returns whether it did. */
export function preparePageRequest(request: IncomingMessage, response: ServerResponse): boolean {
  if (process.env.NODE_ENV !== "production") return false;
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  const url = request.url ?? "";
  if (!url.startsWith("/") || url.includes("#")) return false;
  if (request.headers["transfer-encoding"] !== undefined) return false;
  if (request.headers["content-length"] !== undefined && request.headers["content-length"] !== "0") return false;

  const { pathname, search: rawSearch } = rawPathAndQuery(url);
  let frameAncestors: readonly string[] = [];
  if (pathname !== "/") {
    // A checkout page (details, offers, status) of a well-formed session id.
    const session = CHECKOUT_PAGE_PATH.test(pathname) ? CHECKOUT_PATH.exec(pathname) : null;
    const cached = session ? cachedFrameAncestors(session[1]!) : undefined;
    if (cached === undefined) return false;
    frameAncestors = cached;
  }
  if (checkUrl(pathname, rawSearch) !== undefined) return false;

  const env = getEnv();
  const requestId = requestIdFrom(firstValue(request.headers[REQUEST_ID_HEADER]));
  const prepared = pageHeaders({
    pathname,
    search: rawSearch === "" ? "" : proxySearch(url),
    requestId,
    nonce: newNonce(),
    frameAncestors,
    https: isHttps((request.socket as { encrypted?: boolean }).encrypted === true, firstValue(request.headers["x-forwarded-proto"])),
    appUrl: env.APP_URL,
    financingBaseUrl: env.financing.baseUrl,
    development: false,
  });
  for (const name of prepared.dropFromRequest) delete request.headers[name];
  Object.assign(request.headers, prepared.request);
  request.headers[PREPARED_HEADER] = "1";
  for (const [name, value] of Object.entries(prepared.response)) response.setHeader(name, value);
  metrics().pagesPrepared.inc();
  return true;
}

/**
 * The query as the proxy's `nextUrl.search` has it: Next drops its internal `_rsc` parameter there,
 * which serialises the whole query again (`%20` becomes `+`, `?a` becomes `?a=`).
 */
function proxySearch(url: string): string {
  const parsed = new URL(url, "http://localhost");
  parsed.searchParams.delete("_rsc");
  return parsed.search;
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
