// Next runs this once per server start. The start-up code uses Node APIs, so it is imported only in
// the Node.js runtime (the Edge bundle never sees it).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // Before anything else: every request from now on carries the socket's address (lib/security/client-ip.ts).
    const [http, https, { installSocketAddressStamp }] = await Promise.all([
      import("node:http"),
      import("node:https"),
      import("@/lib/security/socket-address"),
    ]);
    installSocketAddressStamp([http.Server.prototype, https.Server.prototype]);
    const { startServer } = await import("@/lib/startup");
    await startServer();
  }
}

/**
 * Next calls this for every error a page, a server action or a route handler threw (after its own
 * logging): what failed is noted for the request, so that its error page says "try again in a
 * moment" (503) when the database was unreachable, and "something went wrong" (500) otherwise
 * (lib/ops/error-pages.ts).
 */
export async function onRequestError(error: unknown) {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { noteRequestError } = await import("@/lib/ops/error-pages");
    noteRequestError(error);
  }
}
