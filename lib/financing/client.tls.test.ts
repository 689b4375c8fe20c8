import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestCa } from "@/e2e/support/test-ca";
import { createFinancingClient } from "./client";
import { FinancingApiError } from "./errors";

/**
 * The partner API behind a private CA (FINANCING_API_CA_FILE): the client trusts the CAs it is
 * given beside the public ones, and a certificate no trusted CA issued is refused, said as such.
 */

const privateCa = createTestCa("Financing API private CA");
const otherCa = createTestCa("Someone else's CA");
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  const { certificate, key } = privateCa.issue(["localhost", "127.0.0.1"]);
  server = createServer({ cert: certificate, key }, (request, response) => {
    response.writeHead(request.url === "/v1/health" ? 200 : 404, { "Content-Type": "application/json" });
    response.end(JSON.stringify({ status: "UP", version: "1.8.0", timestamp: new Date().toISOString(), partnerCode: "TLS" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const client = (caCertificates?: readonly string[]) =>
  createFinancingClient({ baseUrl, apiKey: "fk_live_tls_test", caCertificates, maxAttempts: 1, timeoutMs: 5_000 });

describe("the partner API over TLS", () => {
  it("is reached when its CA is among the trusted ones", async () => {
    expect(await client([privateCa.certificate]).health()).toMatchObject({ status: "UP", partnerCode: "TLS" });
    // Among others: a bundle of several CAs.
    expect(await client([otherCa.certificate, privateCa.certificate]).health()).toMatchObject({ status: "UP" });
  });

  it("refuses a certificate no trusted CA issued, naming the refusal and the setting", async () => {
    for (const trusted of [undefined, [otherCa.certificate]]) {
      const failure = await client(trusted)
        .health()
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failure).toBeInstanceOf(FinancingApiError);
      expect((failure as FinancingApiError).kind).toBe("network");
      expect((failure as FinancingApiError).message).toMatch(/TLS certificate was not accepted \([A-Z_]+\).*FINANCING_API_CA_FILE/);
    }
  });
});
