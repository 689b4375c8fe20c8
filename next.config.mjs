/**
 * Headers every response carries. The Content-Security-Policy is per request (a nonce, and the
 * partner's frame-ancestors on checkout pages): proxy.ts sets it.
 */
const securityHeaders = [
  { key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), browsing-topics=()" },
];

/**
 * The host of APP_URL (as lib/config/env.ts defaults it), which proxy.ts already accepts as our own origin:
 * Next must accept server actions from it too, or a post reaching us by another name (127.0.0.1 for
 * localhost, an internal address behind a proxy) is a 500 instead of an answer.
 */
function appHost() {
  const appUrl = process.env.APP_URL || `http://localhost:${process.env.PORT || 3000}`;
  try {
    return [new URL(appUrl).host];
  } catch {
    return [];
  }
}

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Nothing about the stack is anyone's business; it also narrows what a scanner learns.
  poweredByHeader: false,
  reactStrictMode: true,
  // Several builds side by side (parallel test runs in one checkout): NEXT_DIST_DIR=.next-x.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // PGlite ships WebAssembly and data files that must be loaded from node_modules at run time,
  // and postgres.js and undici (the partner API client's transport) use Node built-ins: none is bundled.
  // Nor is OpenTelemetry: one copy of its API and SDK for Next's spans, ours and the server entry's.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "postgres",
    "undici",
    "@opentelemetry/api",
    "@opentelemetry/core",
    "@opentelemetry/resources",
    "@opentelemetry/sdk-trace-node",
    "@opentelemetry/exporter-trace-otlp-http",
  ],
  // The browser tests' build (playwright.config.ts) skips Next's own type check: `npm test` has just
  // run `tsc --noEmit` on the same code, and the check was a quarter of the build on 2 cores. Every
  // other build checks the types.
  typescript: { ignoreBuildErrors: process.env.SKIP_BUILD_TYPECHECK === "1" },
  experimental: {
    // forbidden() and forbidden.tsx: the back-office's 403 page in its own frame (app/admin/forbidden.tsx).
    authInterrupts: true,
    serverActions: {
      // Our forms are a few kilobytes; Next reads at most this much of an action's body (413 past it).
      bodySizeLimit: "64kb",
      allowedOrigins: appHost(),
    },
    // What Next buffers of a body for the proxy (which may read it) and the route after it: past this,
    // the route gets a truncated body (and refuses it as malformed). The proxy refuses a declared
    // length over each surface's limit before anything is read (lib/security/headers/request-guard.ts).
    proxyClientMaxBodySize: "128kb",
    // Turbopack keeps its build cache on disk for the next build; a CI run builds once from a fresh
    // clone and never reads it, so writing it (tens of seconds on 2 cores) is skipped there.
    turbopackFileSystemCacheForBuild: !process.env.CI,
  },
  async headers() {
    return [
      {
        // On every response, static files included (proxy.ts adds the Content-Security-Policy). HSTS is
        // ignored over plain http (local runs), and binding once served over https.
        source: "/:path*",
        headers: securityHeaders,
      },
      {
        // Not under /sandbox: its hosted pages (another system) send `no-referrer` themselves, and a
        // header from here would replace theirs.
        source: "/((?!sandbox/).*)",
        headers: [{ key: "Referrer-Policy", value: "strict-origin-when-cross-origin" }],
      },
      {
        // Checkout pages carry a customer's personal data: no browser or proxy may keep a copy.
        source: "/checkout/:path*",
        headers: [{ key: "Cache-Control", value: "no-store" }],
      },
      {
        // The back-office shows partners' bookings and customers.
        source: "/admin/:path*",
        headers: [{ key: "Cache-Control", value: "no-store" }],
      },
      {
        // The operator's console shows partners and their people.
        source: "/operator/:path*",
        headers: [{ key: "Cache-Control", value: "no-store" }],
      },
      {
        // The partner-facing scripts: one stable URL each, so caches must come back within the hour.
        source: "/:script(embed|badge).js",
        headers: [{ key: "Cache-Control", value: "public, max-age=3600, stale-while-revalidate=86400" }],
      },
    ];
  },
};

export default nextConfig;
