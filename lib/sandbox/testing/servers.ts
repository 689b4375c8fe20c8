import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createSandbox, type Sandbox, type SandboxOptions } from "../app";

/** The sandbox on a real loopback port, as partners' QA and our client reach it. */
export async function startSandboxServer(options: SandboxOptions = {}): Promise<{
  sandbox: Sandbox;
  origin: string;
  baseUrl: string;
  close(): Promise<void>;
}> {
  const sandbox = createSandbox({ tickMs: 0, ...options });
  // Booting and migrating the database is the slow part: in the caller's setup, not its first test.
  await sandbox.ready;
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: sandbox.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s as Server));
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    sandbox,
    origin,
    baseUrl: `${origin}/sandbox/v1`,
    async close() {
      await sandbox.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface ReceivedWebhook {
  body: { operationIdentifier: string; operationStatus: string; eventId: number };
  headers: IncomingMessage["headers"];
}

/** A partner's webhook endpoint on a loopback port: records every delivery and answers `status`. */
export async function startWebhookListener(): Promise<{
  url: string;
  received: ReceivedWebhook[];
  answerWith(status: number): void;
  close(): Promise<void>;
}> {
  const received: ReceivedWebhook[] = [];
  let status = 200;
  const server = createServer((request, response) => {
    let raw = "";
    request.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    request.on("end", () => {
      received.push({ body: JSON.parse(raw), headers: request.headers });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/financing`,
    received,
    answerWith(next) {
      status = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
