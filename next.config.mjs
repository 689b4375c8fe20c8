/**
 * Headers every response carries. The Content-Security-Policy is per request (a nonce, and the
 * partner's frame-ancestors on checkout pages): proxy.ts sets it.
 */
const securityHeaders = [
  { key: "Strict-Transport-Security", value: "max-age=63072000; includeSubDomains" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), browsing-topics=()" },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Nothing about the stack is anyone's business; it also narrows what a scanner learns.
  poweredByHeader: false,
  reactStrictMode: true,
  // Several builds side by side (parallel test runs in one checkout): NEXT_DIST_DIR=.next-x.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // PGlite ships WebAssembly and data files that must be loaded from node_modules at run time,
  // and postgres.js uses Node built-ins: neither is bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
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
        // The partner-facing scripts: one stable URL each, so caches must come back within the hour.
        source: "/:script(embed|badge).js",
        headers: [{ key: "Cache-Control", value: "public, max-age=3600, stale-while-revalidate=86400" }],
      },
    ];
  },
};

export default nextConfig;
