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
        // Checkout pages carry a customer's personal data: no browser or proxy may keep a copy.
        source: "/checkout/:path*",
        headers: [{ key: "Cache-Control", value: "no-store" }],
      },
    ];
  },
};

export default nextConfig;
