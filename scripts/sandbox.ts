/**
 * `npm run sandbox -- --port 4010 [--host 127.0.0.1]`: the partner API sandbox on its own, without
 * the app. Base URL: http://HOST:PORT/sandbox/v1.
 */
import { parseArgs } from "node:util";
import { serve } from "@hono/node-server";
import { createSandbox } from "../lib/sandbox/app";

const { values } = parseArgs({
  options: {
    port: { type: "string", short: "p", default: process.env.PORT ?? "4010" },
    host: { type: "string", default: "127.0.0.1" },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`sandbox: --port must be a port number, not ${JSON.stringify(values.port)}`);
  process.exit(2);
}

const sandbox = createSandbox();
const server = serve({ fetch: sandbox.fetch, port, hostname: values.host }, (info) => {
  console.log(`Partner API sandbox listening: http://${values.host}:${info.port}/sandbox/v1`);
});

async function stop() {
  server.close();
  await sandbox.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
