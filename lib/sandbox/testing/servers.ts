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

/**
 * Decides an operation at the sandbox's provider through its QA control API, as a QA engineer
 * would (approve: signed and confirmed), with the demo agency's key. Throws unless it was taken.
 */
export async function decideAtProvider(
  origin: string,
  operationId: string,
  decision: "approve" | "decline" | "error" = "approve",
): Promise<void> {
  const response = await fetch(`${origin}/sandbox/_control/operations/${operationId}/decision`, {
    method: "POST",
    headers: { "X-Service-API-Key": "fk_test_sandbox_agency_101", "Content-Type": "application/json" },
    body: JSON.stringify({ decision }),
  });
  if (response.status !== 200) throw new Error(`the sandbox's decision answered ${response.status}: ${await response.text()}`);
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
