/**
 * `npm run sandbox -- --port 4010 [--host 127.0.0.1]`: the partner API sandbox on its own, without
 * the app. Base URL: http://HOST:PORT/sandbox/v1.
 *
 * Its state is kept in its own database: PGlite under `$DATA_DIR/sandbox` (default `.data/sandbox`),
 * or PostgreSQL when DATABASE_URL is set (tables in the `sandbox` schema). SANDBOX_* variables:
 * see lib/sandbox/config.ts and the README.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { serve } from "@hono/node-server";
import { createSandbox } from "../lib/sandbox/app";
import { sandboxConfigFromEnv } from "../lib/sandbox/config";
import { openSandboxDatabase } from "../lib/sandbox/db/connection";
import { logError, loggerFor } from "../lib/logger";
import { envInteger } from "../lib/validation/env-integer";

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
  config = sandboxConfigFromEnv();
} catch (error) {
  console.error(`sandbox: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(2);
}

const sandbox = createSandbox({
  database: openSandboxDatabase({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: path.join(process.env.DATA_DIR || ".data", "sandbox"),
  }),
  qaToken: config.qaToken,
  retentionDays: config.retentionDays,
  localMode: config.localMode,
  allowedTargets: config.allowedTargets,
  loopbackPaths: config.loopbackPaths,
  publicOrigin: config.publicOrigin,
});
try {
  await sandbox.ready;
} catch (error) {
  logError(log, "sandbox: cannot open its database", error);
  process.exit(1);
}

const server = serve({ fetch: sandbox.fetch, port, hostname: values.host }, (info) => {
  log.info({ url: `http://${values.host}:${info.port}/sandbox/v1` }, "Partner API sandbox listening");
});

async function stop() {
  server.close();
  await sandbox.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
