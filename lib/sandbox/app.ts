import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { partnerApi, SANDBOX_BODY_MAX_BYTES } from "./api";
import { controlApi } from "./control";
import { SandboxEngine, type SandboxEngineOptions } from "./engine";
import { generalError, SandboxError } from "./errors";
import { Faults } from "./faults";
import { hostedPages } from "./pages";

export interface SandboxOptions extends SandboxEngineOptions {
  /** How often (real time) redeliveries and expirations due on the test clock are applied; 0: never. */
  tickMs?: number;
  random?: () => number;
}

export interface Sandbox {
  engine: SandboxEngine;
  faults: Faults;
  /** A Web-standard handler: `Request -> Response`, for paths under `/sandbox`. */
  fetch(request: Request): Promise<Response>;
  /** Stops the timer and waits for webhook deliveries in flight. */
  close(): Promise<void>;
}

/**
 * The sandbox of the partner API: the API under `/sandbox/v1`, the QA control API under
 * `/sandbox/_control`, and the hosted pages the API links to (`/sandbox/pay`, `/sandbox/provider`).
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const engine = new SandboxEngine(options);
  const faults = new Faults(options.random);
  const app = new Hono().basePath("/sandbox");

  // Every body (API, control API, hosted pages' forms) is refused past the limit before it is
  // buffered: by its declared length, else while it streams in.
  app.use(
    "*",
    bodyLimit({
      maxSize: SANDBOX_BODY_MAX_BYTES,
      onError: () => {
        throw generalError(413, "Payload Too Large", `The body is larger than ${SANDBOX_BODY_MAX_BYTES} bytes`, engine.now());
      },
    }),
  );

  app.use("/v1/*", async (c, next) => {
    const path = c.req.path.slice("/sandbox/v1".length) || "/";
    if (path !== "/openapi.json") await faults.apply(c.req.method, path, engine.now());
    await next();
  });
  app.route("/v1", partnerApi(engine));
  app.route("/_control", controlApi(engine, faults));
  app.route("/", hostedPages(engine));

  app.notFound((c) => {
    const error = generalError(404, "Not Found", `No route for ${c.req.method} ${c.req.path}`, engine.now());
    return c.json(error.body, 404);
  });
  app.onError((error, c) => {
    if (error instanceof SandboxError) {
      return c.json(error.body, error.status as ContentfulStatusCode, error.headers);
    }
    console.error("sandbox: unexpected error", error);
    const internal = generalError(500, "Internal Server Error", "Unexpected sandbox error", engine.now());
    return c.json(internal.body, 500);
  });

  const tickMs = options.tickMs ?? 5_000;
  const timer = tickMs > 0 ? setInterval(() => void engine.tick(), tickMs) : undefined;
  // The timer must not keep a script or a test process alive.
  timer?.unref?.();

  return {
    engine,
    faults,
    fetch: async (request) => app.fetch(request),
    async close() {
      if (timer) clearInterval(timer);
      await engine.idle();
    },
  };
}
