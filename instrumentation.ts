// Next runs this once, while the server entry (server.ts) prepares it, before it listens. The
// start-up code uses Node APIs, so it is imported only in the Node.js runtime (the Edge bundle
// never sees it). It starts tracing first when an OTLP endpoint is configured (lib/ops/tracing.ts),
// so Next's own spans and the app's are exported from the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
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
