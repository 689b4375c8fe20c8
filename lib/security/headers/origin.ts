/**
 * Server actions (and any other form post to a page) are accepted only from our own origin. Next
 * checks the Origin header against the Host itself; proxy.ts refuses a foreign one before Next sees
 * it, with a plain 403, and for every page route (a form post without JavaScript included). The
 * embedded checkout's actions come from its own frame, whose origin is ours, so they pass.
 *
 * Route handlers under /api and the sandbox take cross-site calls by design (partners' backends,
 * webhooks, the provider's forms), with their own authentication: they are not concerned.
 */

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isCrossOriginCheckExempt(pathname: string): boolean {
  return pathname.startsWith("/api/") || pathname === "/api" || pathname.startsWith("/sandbox/") || pathname === "/sandbox";
}

/**
 * The hosts that are us: the Host the request came to, and APP_URL's. `X-Forwarded-Host` counts only
 * behind a configured proxy (`trustedProxyHops` > 0, TRUSTED_PROXY_HOPS), which sets it; with none,
 * it is whatever the client wrote, and believing it would let a forged post name its own origin.
 */
export function isOwnOrigin(origin: string, headers: Headers, appUrl: string, trustedProxyHops = 0): boolean {
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false; // "null" (a sandboxed frame, a privacy redirect) or garbage
  }
  const forwarded = trustedProxyHops > 0 ? headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  const candidates = [forwarded, headers.get("host") ?? undefined, new URL(appUrl).host].filter(Boolean);
  return candidates.includes(host);
}

/** Whether to refuse this request: an unsafe method from a foreign origin, on a page route. */
export function refusesCrossOriginPost(method: string, pathname: string, headers: Headers, appUrl: string, trustedProxyHops = 0): boolean {
  if (SAFE_METHODS.has(method.toUpperCase()) || isCrossOriginCheckExempt(pathname)) return false;
  const origin = headers.get("origin");
  // No Origin: not a browser's cross-site form (every current browser sends one on POST); Next's
  // own check decides, as it does for such requests.
  if (origin === null) return false;
  return !isOwnOrigin(origin, headers, appUrl, trustedProxyHops);
}
