import "server-only";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { API_KEY_HEADER, partnerApi, SANDBOX_BODY_MAX_BYTES } from "./api";
import { DEFAULT_QA_TOKEN } from "./config";
import { checkUrl, refusalResponse } from "@/lib/security/headers/request-guard";
import { controlApi, type ClientAddress } from "./control";
import { openSandboxDatabase, type SandboxDatabase } from "./db/connection";
import { SandboxEngine, type SandboxEngineOptions } from "./engine";
import { generalError, SandboxError } from "./errors";
import { Faults } from "./faults";
import { hostedPages } from "./pages";
import { logError, loggerFor } from "@/lib/logger";
import { withRequestId } from "@/lib/logging/context";
import { REQUEST_ID_HEADER } from "@/lib/logging/request-id";

const log = loggerFor("sandbox");

export interface SandboxOptions extends SandboxEngineOptions {
  /** How often (real time) redeliveries, expirations and the retention purge run; 0: never. */
  tickMs?: number;
  random?: () => number;
  /**
   * Where the state lives: a database opened for the sandbox (`openSandboxDatabase`) or the app's
   * (`shareDatabase`); `close()` closes it. Default: a fresh in-memory PGlite (tests).
   */
  database?: SandboxDatabase | Promise<SandboxDatabase>;
  /** The operator's QA token for the control API (`Authorization: Bearer …`). */
  qaToken?: string;
  /** Reached from beyond this machine (a public APP_URL or SANDBOX_PUBLIC_ORIGIN): the published QA token is refused. */
  publiclyReachable?: boolean;
  /**
   * The client's address, for the published QA token (accepted from this machine only): the app
   * serving the sandbox gives the socket's or its proxies' (appClientAddress); by default the
   * socket's when served by @hono/node-server (`npm run sandbox`, the tests' servers), else unknown.
   */
  clientAddress?: ClientAddress;
  /**
   * The origin the sandbox's links are built on (SANDBOX_PUBLIC_ORIGIN: `financingUrl`, the hosted
   * pages' links and redirects, the OpenAPI document's server); by default each request's own.
   */
  publicOrigin?: string;
  /** The origins the hosted pages redirect to on their own (lib/sandbox/pages.ts); default any. */
  redirectOrigins?: readonly string[];
}

export interface Sandbox {
  engine: SandboxEngine;
  faults: Faults;
  /** Resolves once the database is open and migrated; rejects if it cannot be. */
  ready: Promise<void>;
  /** A Web-standard handler: `Request -> Response`, for paths under `/sandbox`. */
  /** `env`: the server's bindings (@hono/node-server's `incoming`, whose socket tells the client's address). */
  fetch(request: Request, env?: unknown): Promise<Response>;
  /** Stops the timer, waits for webhook deliveries in flight, closes the database. */
  close(): Promise<void>;
}

/**
 * The sandbox of the partner API: the API under `/sandbox/v1`, the QA control API under
 * `/sandbox/_control`, and the hosted pages the API links to (`/sandbox/pay`, `/sandbox/provider`).
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const database = Promise.resolve(options.database ?? openSandboxDatabase({ dataDir: "memory://" }));
  const engine = new SandboxEngine(database, options);
  const faults = new Faults(database, options.random);
  const app = new Hono().basePath("/sandbox");
  // Each request's lines carry its id: the X-Request-Id the caller sent (our client sends one per call,
  // the app's proxy sets it in the app), else a new one.
  app.use((c, next) => withRequestId(c.req.header(REQUEST_ID_HEADER), next));

  // A path or query that does not decode to safe text never reaches a route (nor the database,
  // which refuses a NUL): the app's proxy does the same in front of it, but the sandbox also runs alone.
  app.use("*", async (c, next) => {
    const url = new URL(c.req.url);
    const refusal = checkUrl(url.pathname, url.search);
    if (refusal) return refusalResponse(url.pathname, refusal);
    await next();
  });
  app.use(
    "*",
    bodyLimit({
      maxSize: SANDBOX_BODY_MAX_BYTES,
      onError: (c) => {
        const error = generalError(413, "Payload Too Large", `Request bodies are limited to ${SANDBOX_BODY_MAX_BYTES} bytes`, Date.now());
        return c.json(error.body, 413);
      },
    }),
  );
  app.use("/v1/*", async (c, next) => {
    const path = c.req.path.slice("/sandbox/v1".length) || "/";
    // Faults belong to the account of the key sent; a request without a valid key has none (its 401 follows).
    const account = engine.keyOf(c.req.header(API_KEY_HEADER) ?? "")?.account;
    if (path !== "/openapi.json" && account !== undefined) await faults.apply(account, c.req.method, path, await engine.now(account));
    await next();
  });
  app.route("/v1", partnerApi(engine));
  app.route(
    "/_control",
    controlApi(engine, faults, {
      qaToken: options.qaToken ?? DEFAULT_QA_TOKEN,
      publiclyReachable: options.publiclyReachable,
      clientAddress: options.clientAddress,
    }),
  );
  app.route("/", hostedPages(engine, { redirectOrigins: options.redirectOrigins }));

  app.notFound((c) => {
    const error = generalError(404, "Not Found", `No route for ${c.req.method} ${c.req.path}`, Date.now());
    return c.json(error.body, 404);
  });
  app.onError((error, c) => {
    if (error instanceof SandboxError) {
      return c.json(error.body, error.status as ContentfulStatusCode, error.headers);
    }
    logError(log, "sandbox: unexpected error", error, { method: c.req.method, route: c.req.routePath });
    const internal = generalError(500, "Internal Server Error", "Unexpected sandbox error", Date.now());
    return c.json(internal.body, 500);
  });

  const tickMs = options.tickMs ?? 5_000;
  const timer = tickMs > 0 ? setInterval(() => engine.tickInBackground(), tickMs) : undefined;
  // The timer must not keep a script or a test process alive.
  timer?.unref?.();

  return {
    engine,
    faults,
    ready: database.then(() => undefined),
    fetch: async (request, env) => app.fetch(request, env),
    async close() {
      if (timer) clearInterval(timer);
      await engine.idle();
      await (await database).close();
    },
  };
}
