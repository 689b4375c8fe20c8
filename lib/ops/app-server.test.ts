/**
 * The server entry's HTTP server (lib/ops/app-server.ts) around a stand-in for Next's handler:
 * each request counted with the status it was sent with, a page's blank 5xx replaced, and the
 * socket's address the only one the app believes.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { Agent, request as httpRequest } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { renderErrorPage } from "@/lib/embed/error-page";
import { MESSAGES } from "@/lib/i18n/messages";
import { clientIpFrom, SOCKET_ADDRESS_HEADER } from "@/lib/security/network/client-ip";
import { send } from "@/lib/testing/fuzz/run";
import { createAppServer } from "./app-server";
import { registerErrorPageRenderer } from "./error-pages";
import { closeHttpServers } from "./http-server";
import { metrics } from "./metrics";

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
let handler: Handler;
let server: Server;
let port: number;

// The page the replacement renders, registered as lib/startup.ts does.
registerErrorPageRenderer(renderErrorPage);

beforeAll(async () => {
  vi.stubEnv("NODE_ENV", "production");
  server = createAppServer(async (request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await closeHttpServers(1_000);
});

async function counted(method: string, route: string, status: string): Promise<number> {
  const metric = await metrics().httpRequests.get();
  return (
    metric.values.find((v) => v.labels.method === method && v.labels.route === route && String(v.labels.status) === status)?.value ?? 0
  );
}

/** A promise and the function that settles it (the events the tests wait for, never a delay). */
function settled(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** A raw request (fetch would refuse to send some of these headers), its status and body. */
function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the app's HTTP server", () => {
  it("counts every request with the status it was answered with", async () => {
    handler = (_request, response) => response.writeHead(404, { "Content-Type": "text/plain" }).end("none");
    const before = await counted("GET", "/api/health", "404");
    expect((await get("/api/health")).status).toBe(404);
    await vi.waitFor(async () => expect(await counted("GET", "/api/health", "404")).toBe(before + 1));
  });

  it("serves a kept-alive connection reused after an idle time past Node's default 5 s, as a balancer or a test's client reuses one", async () => {
    handler = (_request, response) => void response.end("ok");
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ask = () =>
      new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
        const req = httpRequest({ host: "127.0.0.1", port, path: "/kept", agent }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, socket: req.socket }));
        });
        req.on("error", reject);
        req.end();
      });
    try {
      const first = await ask();
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const second = await ask();
      expect(second.status).toBe(200);
      // The same connection: the server had not closed it.
      expect(second.socket).toBe(first.socket);
    } finally {
      agent.destroy();
    }
  });

  it("counts a request whose client hangs up as soon as it has the status, as the financing API's webhook deliveries do", async () => {
    const route = "/api/webhooks/financing/[token]";
    const closed = settled();
    handler = (request, response) => {
      // Registered after the count's listener (lib/ops/http-metrics.ts), so it runs after it.
      response.once("close", closed.resolve);
      response.writeHead(200, { "Content-Type": "application/json" }).flushHeaders();
      // The body only once the client is gone: this response never finishes.
      request.socket.once("close", () => response.end('{"received":true}'));
    };
    const before = { ok: await counted("POST", route, "200"), gone: await counted("POST", route, "499") };
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/api/webhooks/financing/a-token" }, (res) => {
        // What the sandbox does: the status read, the body cancelled, the connection dropped.
        resolve(res.statusCode);
        req.destroy();
      });
      req.once("error", reject);
      req.end('{"eventId":1}');
    });
    expect(status).toBe(200);
    await closed.promise;
    expect(await counted("POST", route, "200")).toBe(before.ok + 1);
    expect(await counted("POST", route, "499")).toBe(before.gone);
  });

  it("counts a request whose client hung up before any answer once, as 499", async () => {
    const route = "/checkout/[sessionId]/offers";
    const arrived = settled();
    const closed = settled();
    handler = (_request, response) => {
      response.once("close", closed.resolve);
      arrived.resolve();
    };
    const before = await counted("GET", route, "499");
    const req = httpRequest({ host: "127.0.0.1", port, path: "/checkout/cs_abcdefghijkl/offers" });
    req.on("error", () => {});
    req.end();
    await arrived.promise;
    req.destroy();
    await closed.promise;
    expect(await counted("GET", route, "499")).toBe(before + 1);
  });

  it("replaces a page's blank 5xx with a page readable without JavaScript, and counts the status sent", async () => {
    handler = (_request, response) => response.writeHead(500, { "Content-Type": "text/html" }).end('<html id="__next_error__"></html>');
    const before = await counted("GET", "/checkout/[sessionId]", "500");
    const answer = await get("/checkout/cs_abcdefghijkl", { "Accept-Language": "en" });
    expect(answer.status).toBe(500);
    expect(answer.body).toContain(MESSAGES.en.errorPage.errorTitle);
    await vi.waitFor(async () => expect(await counted("GET", "/checkout/[sessionId]", "500")).toBe(before + 1));
  });

  it("gives the app the socket's address: a client-sent copy of the internal header is not believed", async () => {
    let seen: string | undefined;
    handler = (request, response) => {
      const value = request.headers[SOCKET_ADDRESS_HEADER];
      seen = clientIpFrom(new Headers(typeof value === "string" ? { [SOCKET_ADDRESS_HEADER]: value } : {}), 0);
      response.end("ok");
    };
    await get("/", { [SOCKET_ADDRESS_HEADER]: "6.6.6.6", "X-TFC-Socket-Address": "6.6.6.7" });
    expect(seen).toBe("127.0.0.1");
  });

  /** What the server sends back to a raw request line, until it closes the connection (or 5 s). */
  function raw(requestLine: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.write(`${requestLine}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
      let answer = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (answer += chunk));
      socket.on("close", () => resolve(answer));
      socket.on("error", reject);
      socket.setTimeout(5_000, () => socket.destroy());
    });
  }

  it("answers every method, CONNECT and unknown ones too, with a 4xx and the security headers, never a dropped connection", async () => {
    handler = (_request, response) => response.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    for (const requestLine of [
      "CONNECT 127.0.0.1:22 HTTP/1.1",
      "CONNECT /api/health HTTP/1.1",
      "BREW /api/health HTTP/1.1",
      "FOO / HTTP/1.1",
      "TRACE / HTTP/1.1",
      "PROPFIND /checkout/cs_abcdefghijkl HTTP/1.1",
    ]) {
      const answer = await raw(requestLine);
      expect(answer, requestLine).toMatch(/^HTTP\/1\.1 (405|400) /);
      const headers = answer.split("\r\n\r\n")[0]!.toLowerCase();
      for (const header of [
        "strict-transport-security",
        "x-content-type-options: nosniff",
        "x-frame-options: deny",
        "content-security-policy",
      ]) {
        expect(headers, `${requestLine}: ${header}`).toContain(header);
      }
    }
    // A request the parser cannot read (a header line with no colon): a 400 with the same headers.
    const garbage = await raw("GET / HTTP/1.1\r\nno colon in this header");
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(garbage.toLowerCase()).toContain("x-content-type-options: nosniff");
  });

  it("answers an unreadable request after a whole answer on a kept-alive connection, never over one under way", async () => {
    /** Sends `first` on one connection, then `garbage` once `ready` says so; what came after it, until the close. */
    const exchange = (first: string, ready: (received: string) => boolean, garbage: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () => socket.write(first));
        let received = "";
        let sentGarbage = false;
        socket.setEncoding("utf8");
        socket.on("data", (chunk: string) => {
          received += chunk;
          if (!sentGarbage && ready(received)) {
            sentGarbage = true;
            received = "";
            socket.write(garbage);
          }
        });
        socket.on("close", () => (sentGarbage ? resolve(received) : reject(new Error("closed before the first answer"))));
        socket.on("error", reject);
      });
    handler = (_request, response) => response.writeHead(200, { "Content-Type": "text/plain", "Content-Length": "2" }).end("ok");
    const afterWhole = await exchange(
      "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
      (r) => r.endsWith("\r\n\r\nok"),
      "BREW / HTTP/1.1\r\nHost: x\r\n\r\n",
    );
    expect(afterWhole).toMatch(/^HTTP\/1\.1 405 /);
    expect(afterWhole).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/i);

    // An answer whose head is out and whose body is not: the garbage behind it only closes the connection.
    handler = (_request, response) => {
      response.writeHead(200, { "Content-Type": "text/plain", "Content-Length": "4" });
      response.write("ok");
    };
    const overUnderWay = await exchange(
      "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
      (r) => r.endsWith("ok"),
      "GET / HTTP/1.1\r\nno colon in this header\r\n\r\n",
    );
    expect(overUnderWay).toBe("");
  });

  it("the fuzz's sender reads the answer to CONNECT and to an unknown method: a 4xx with the security headers, not a drop", async () => {
    handler = (_request, response) => response.writeHead(200, { "Content-Type": "text/plain" }).end("ok");
    for (const method of ["CONNECT", "BREW", "TRACE"]) {
      const answer = await send(`http://127.0.0.1:${port}`, { surface: "checkout-pages", method, path: "/api/health", headers: {} }, 5_000);
      expect(answer, method).toMatchObject({ klass: "4xx", status: 405 });
      expect(answer.problem, method).toBeUndefined();
    }
  });
});
