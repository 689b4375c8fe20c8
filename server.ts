/**
 * The app's one HTTP entry (`npm run serve`; Next.js's documented custom server): it creates the
 * HTTP server, whose every request goes through the steps lib/ops/app-server.ts lists (the
 * socket's address, the metrics, pages' server errors readable without JavaScript) and then to
 * Next's handler. Next still runs instrumentation.ts's register() (the start-up: configuration,
 * database, background work, the shutdown on SIGTERM): it starts it as it prepares the app, and
 * the port opens once it has finished.
 *
 * `npm run build` compiles it to `.next/server-entry.mjs` (scripts/build-server.mjs), which
 * `npm run serve` runs with plain node (`npm run dev` runs this file through tsx); PORT (default
 * 3000) and HOSTNAME (default: every interface), as `next start`; NODE_ENV defaults to production
 * (`development` runs Next's dev server).
 */
export {};

const env = process.env as Record<string, string | undefined>;
env.NODE_ENV ??= "production";
const dev = env.NODE_ENV === "development";
const port = Number(env.PORT || 3000);
const hostname = env.HOSTNAME || undefined;

// Imported once NODE_ENV is set: Next and the logger read it as they load.
const [{ default: next }, { createAppServer }, { whenStarted }, { warmUp }, { logError, loggerFor }] = await Promise.all([
  import("next"),
  import("@/lib/ops/app-server"),
  import("@/lib/ops/lifecycle"),
  import("@/lib/ops/warm-up"),
  import("@/lib/logger"),
]);
const log = loggerFor("server");

const app = next({ dev, port, hostname });
try {
  await app.prepare();
} catch (error) {
  logError(log, "The server cannot start: Next could not prepare the app.", error);
  process.exit(1);
}
// Next starts instrumentation.ts's register() (the start-up: database migrated, demo seeded,
// background work started) as it prepares; the port opens once it has finished, so the first
// customer is not the one who waits for it (a fresh PGlite folder takes seconds). A start-up that
// fails exits the process. The dev server compiles register() on demand: it listens at once.
if (!dev) await whenStarted();
const handle = app.getRequestHandler();
// The pages a first customer loads (the home page, a checkout page: an unknown session's 404 still
// loads the checkout's code), loaded once before the port opens, so the first request is like the tenth.
if (!dev) log.info({ warmed: await warmUp(handle, ["/", "/checkout/cs_warm_up_0000", "/api/health"]) }, "warmed up");
const server = createAppServer(handle);
server.once("error", (error) => {
  logError(log, `The server cannot start: port ${port} could not be listened on.`, error);
  process.exit(1);
});
server.listen(port, hostname, () => log.info({ port, dev }, "listening"));
