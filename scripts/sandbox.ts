/**
 * `npm run sandbox -- --port 4010 [--host 127.0.0.1]`: the partner API sandbox on its own, without
 * the app. Base URL: http://HOST:PORT/sandbox/v1 (https with SANDBOX_TLS_CERT_FILE and
 * SANDBOX_TLS_KEY_FILE; SANDBOX_PUBLIC_ORIGIN instead of HOST:PORT when set).
 *
 * Its state is kept in its own database: PGlite under `$DATA_DIR/sandbox` (default `.data/sandbox`),
 * or PostgreSQL when DATABASE_URL is set (tables in the `sandbox` schema). SANDBOX_* variables:
 * see lib/sandbox/config.ts, docs/qa/README.md and docs/going-live-tls.md (the production-like mode).
 */
import { createServer as createHttpsServer } from "node:https";
import path from "node:path";
import { parseArgs } from "node:util";
import { serve } from "@hono/node-server";
import { createSandbox } from "../lib/sandbox/app";
import { isLoopbackUrl } from "../lib/config/env";
import { engineOptionsOf, sandboxConfigFromEnv } from "../lib/sandbox/config";
import { openSandboxDatabase } from "../lib/sandbox/db/connection";
import { logError, loggerFor } from "../lib/logger";
import { envInteger } from "../lib/config/env-integer";

const log = loggerFor("sandbox");

const { values } = parseArgs({
  options: {
    // An empty PORT (`PORT=`) is unset, as for the app; it was read as 0, a random port.
    port: { type: "string", short: "p", default: process.env.PORT || "4010" },
    host: { type: "string", default: "127.0.0.1" },
  },
});
const parsedPort = envInteger({ min: 0, max: 65_535 }).safeParse(values.port);
if (!parsedPort.success) {
  console.error(`sandbox: --port (or PORT) must be a port number, not ${JSON.stringify(values.port)}`);
  process.exit(2);
}
const port = parsedPort.data;

let config: ReturnType<typeof sandboxConfigFromEnv>;
try {
  config = sandboxConfigFromEnv(process.env, { standalone: true });
} catch (error) {
  console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}

const dataDir = path.join(process.env.DATA_DIR || ".data", "sandbox");
// Said before the wait: opening (and, the first time, migrating) its database takes up to a minute
// on a busy machine, and "listening" comes only after it. Where its state is: never the URL's secret.
log.info(
  { database: process.env.DATABASE_URL ? "DATABASE_URL (schema sandbox)" : dataDir },
  "Partner API sandbox starting: opening its database",
);
const sandbox = createSandbox({
  database: openSandboxDatabase({ databaseUrl: process.env.DATABASE_URL || undefined, dataDir }),
  ...engineOptionsOf(config),
  publicOrigin: config.publicOrigin,
  publiclyReachable: config.publicOrigin !== undefined && !isLoopbackUrl(config.publicOrigin),
  productionLike: config.productionLike,
});
try {
  await sandbox.ready;
} catch (error) {
  logError(log, "sandbox: cannot open its database", error);
  process.exit(1);
}

const tls = config.tls;
const scheme = tls ? "https" : "http";
const server = serve(
  {
    fetch: sandbox.fetch,
    port,
    hostname: values.host,
    ...(tls ? { createServer: createHttpsServer, serverOptions: { cert: tls.cert, key: tls.key } } : {}),
  },
  (info) => {
    const origin = config.publicOrigin ?? `${scheme}://${values.host}:${info.port}`;
    log.info(
      { url: `${origin}/sandbox/v1`, tls: tls !== undefined, productionLike: config.productionLike },
      config.productionLike ? "Partner API sandbox listening, production-like (fk_live_ keys)" : "Partner API sandbox listening",
    );
  },
);

async function stop() {
  server.close();
  await sandbox.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
