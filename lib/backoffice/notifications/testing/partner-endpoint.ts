import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

/** A notification as a partner's endpoint received it. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A partner's endpoint of the test's own, on loopback: answers `status` (changeable), keeps what came. */
export interface PartnerEndpoint {
  url: string;
  received: Received[];
  status: number;
  server: Server;
}

export async function startPartnerEndpoint(status = 204): Promise<PartnerEndpoint> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      response.writeHead(endpoint.status).end();
    });
  });
  const endpoint: PartnerEndpoint = { url: "", received, status, server };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return endpoint;
}

/** Whether a received notification's signature verifies with the secret. */
export function verifies(secret: string, received: Received): boolean {
  try {
    new Webhook(secret).verify(received.body, received.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}
