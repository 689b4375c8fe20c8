import { createServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestCa } from "@/e2e/support/test-ca";
import { notificationPolicy } from "./addresses";
import { parseAllowList } from "@/lib/config/allow-list";
import { DestinationRefused, postToCheckedDestination, type Resolve } from "./outbound";

let server: Server;
let port: number;
const seen: { host: string | undefined; body: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      seen.push({ host: request.headers.host, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const sandbox = notificationPolicy("sandbox");
const send = (url: string, resolve?: Resolve, policy = sandbox) =>
  postToCheckedDestination(url, { headers: { "Content-Type": "application/json" }, body: "{}", timeoutMs: 2_000, policy, resolve });

describe("a POST to a URL a partner chose", () => {
  it("connects to the address that was checked, not to whatever the name resolves to later (DNS rebinding)", async () => {
    let lookups = 0;
    // First answer: loopback (allowed on the sandbox); any later answer would be the metadata service.
    const rebinding: Resolve = async () =>
      lookups++ === 0 ? [{ address: "127.0.0.1", family: 4 }] : [{ address: "169.254.169.254", family: 4 }];
    const result = await send(`http://partner-hooks.test:${port}/n`, rebinding);
    expect(result.status).toBe(204);
    expect(lookups).toBe(1);
    expect(seen.at(-1)?.host).toBe(`partner-hooks.test:${port}`);
  });

  it("refuses a name resolving to a refused address before connecting", async () => {
    const before = seen.length;
    await expect(send(`http://evil.test:${port}/n`, async () => [{ address: "169.254.169.254", family: 4 }])).rejects.toBeInstanceOf(
      DestinationRefused,
    );
    await expect(
      send(`http://mixed.test:${port}/n`, async () => [
        { address: "127.0.0.1", family: 4 },
        { address: "10.0.0.7", family: 4 },
      ]),
    ).rejects.toBeInstanceOf(DestinationRefused);
    expect(seen.length).toBe(before);
  });

  it("in production, refuses loopback in every spelling, and plain http", async () => {
    const production = notificationPolicy("production");
    for (const url of [
      `https://127.0.0.1:${port}/`,
      `https://2130706433:${port}/`,
      `https://0x7f.1:${port}/`,
      `https://[::ffff:127.0.0.1]:${port}/`,
      `https://[::1]:${port}/`,
      `http://hooks.partner.example/`,
    ]) {
      await expect(
        send(url, async () => [{ address: "203.0.113.10", family: 4 }], production),
        url,
      ).rejects.toBeInstanceOf(DestinationRefused);
    }
    await expect(send(`https://localhost:${port}/`, async () => [{ address: "127.0.0.1", family: 4 }], production)).rejects.toBeInstanceOf(
      DestinationRefused,
    );
  });

  it("gives up on an endpoint that does not answer within the timeout", async () => {
    const hanging = createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    const hangingPort = (hanging.address() as AddressInfo).port;
    const started = Date.now();
    await expect(
      postToCheckedDestination(`http://127.0.0.1:${hangingPort}/`, { headers: {}, body: "{}", timeoutMs: 300, policy: sandbox }),
    ).rejects.toThrow(/no answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
    hanging.closeAllConnections();
    await new Promise((resolve) => hanging.close(resolve));
  });
});

describe("a partner endpoint on a private network, behind a private CA", () => {
  const privateCa = createTestCa("Partner network CA");
  const otherCa = createTestCa("Another CA");
  let tlsServer: ReturnType<typeof createHttpsServer>;
  let tlsPort: number;
  const received: string[] = [];

  beforeAll(async () => {
    const { certificate, key } = privateCa.issue(["hooks.partner.internal", "127.0.0.1"]);
    tlsServer = createHttpsServer({ cert: certificate, key }, (request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        received.push(body);
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => tlsServer.listen(0, "127.0.0.1", resolve));
    tlsPort = (tlsServer.address() as AddressInfo).port;
  });

  afterAll(async () => {
    tlsServer.closeAllConnections();
    await new Promise((resolve) => tlsServer.close(resolve));
  });

  const listed = (text: string) => {
    const parsed = parseAllowList(text);
    if (!parsed.ok) throw new Error(parsed.entry);
    return notificationPolicy("production", parsed.list);
  };
  const post = (url: string, policy: ReturnType<typeof notificationPolicy>, caCertificates?: readonly string[], resolve?: Resolve) =>
    postToCheckedDestination(url, { headers: {}, body: "{}", timeoutMs: 5_000, policy, caCertificates, resolve });

  it("is refused in production without the operator's list, before any connection", async () => {
    const before = received.length;
    await expect(post(`https://127.0.0.1:${tlsPort}/n`, notificationPolicy("production"), [privateCa.certificate])).rejects.toBeInstanceOf(
      DestinationRefused,
    );
    expect(received.length).toBe(before);
  });

  it("is reached when listed and its CA trusted, by address or by host name (the name checked against the certificate)", async () => {
    expect(await post(`https://127.0.0.1:${tlsPort}/n`, listed("127.0.0.1"), [privateCa.certificate])).toEqual({ status: 204 });
    const byName: Resolve = async () => [{ address: "127.0.0.1", family: 4 }];
    expect(
      await post(`https://hooks.partner.internal:${tlsPort}/n`, listed("hooks.partner.internal"), [privateCa.certificate], byName),
    ).toEqual({ status: 204 });
  });

  it("is refused when its certificate's CA is not trusted", async () => {
    for (const trusted of [undefined, [otherCa.certificate]]) {
      await expect(post(`https://127.0.0.1:${tlsPort}/n`, listed("127.0.0.1"), trusted)).rejects.toMatchObject({
        code: expect.stringMatching(/CERT|SELF_SIGNED|UNABLE_TO/),
      });
    }
  });
});
