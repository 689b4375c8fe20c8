/**
 * The HTTP server's replacement of a page's 5xx (lib/ops/error-pages.ts), on a real node:http
 * server standing in for Next: what it sends, and what it leaves alone.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/app-error";
import { renderErrorPage } from "@/lib/embed/error-page";
import { MESSAGES } from "@/lib/i18n/messages";
import { guardPageResponse, noteRequestError, noteRequestLocale, registerErrorPageRenderer, runWithRequestState } from "./error-pages";

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
let handler: Handler;
let server: Server;
let origin: string;

// The page the replacement renders, registered as lib/startup.ts does.
registerErrorPageRenderer(renderErrorPage);

beforeAll(async () => {
  vi.stubEnv("NODE_ENV", "production");
  server = createServer((request, response) =>
    runWithRequestState(() => {
      guardPageResponse(request, response);
      handler(request, response);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await new Promise((resolve) => server.close(resolve));
});

/** What Next does with a failed page: 500, its own HTML document (here gzipped, as its compression would). */
function nextFailedPage(error: unknown, locale?: "es" | "en"): Handler {
  return (_request, response) => {
    if (locale) noteRequestLocale(locale);
    // Reported asynchronously, as Next's onRequestError is.
    void Promise.resolve().then(() => noteRequestError(error));
    response.statusCode = 500;
    response.setHeader("Content-Type", "text/html; charset=utf-8");
    response.setHeader("Content-Encoding", "gzip");
    response.setHeader("Link", '</_next/static/chunks/app.css>; rel=preload; as="style"');
    response.setHeader("X-Request-Id", "req-123");
    response.flushHeaders();
    setTimeout(() => {
      response.write(gzipSync('<html id="__next_error__"><body></body></html>'));
      response.end();
    }, 5);
  };
}

const unreachable = Object.assign(new Error("Failed query"), { query: "select 1", params: [], cause: { code: "ECONNREFUSED" } });

describe("a page's server error, answered by the HTTP server", () => {
  it("the database unreachable: 503, Retry-After, the 'try again' page in the request's language", async () => {
    handler = nextFailedPage(unreachable);
    const answer = await fetch(`${origin}/checkout/cs_abcdefghijkl`, { headers: { "Accept-Language": "en-GB,en;q=0.9" } });
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("10");
    expect(answer.headers.get("content-encoding")).toBeNull();
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const html = await answer.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain(MESSAGES.en.errorPage.unavailableTitle);
    expect(html).toContain('<link rel="stylesheet" href="/_next/static/chunks/app.css">');
    expect(html).toContain("<code>req-123</code>");
  });

  it("an action that failed on the database (our AppError), in the page's language: 503 too", async () => {
    handler = nextFailedPage(new AppError("database_unavailable", "m"), "es");
    const answer = await fetch(`${origin}/checkout/cs_abcdefghijkl`, { headers: { "Accept-Language": "en" } });
    expect(answer.status).toBe(503);
    expect(await answer.text()).toContain(MESSAGES.es.errorPage.unavailableTitle);
  });

  it("any other error: 500, 'something went wrong', no Retry-After", async () => {
    handler = nextFailedPage(new TypeError("Cannot read properties of undefined"));
    const answer = await fetch(`${origin}/checkout/cs_abcdefghijkl?embed=https%3A%2F%2Fshop.example&lang=en`);
    expect(answer.status).toBe(500);
    expect(answer.headers.get("retry-after")).toBeNull();
    expect(await answer.text()).toContain(MESSAGES.en.errorPage.errorTitle);
  });

  it("Next's bare text 500 to a browser (a form posted without JavaScript): the page too", async () => {
    handler = (_request, response) => {
      noteRequestError(unreachable);
      response.writeHead(500, { "Content-Type": "text/plain" }).end("Internal Server Error");
    };
    const answer = await fetch(`${origin}/checkout/cs_abcdefghijkl`, { method: "POST", headers: { Accept: "text/html,*/*" } });
    expect(answer.status).toBe(503);
    expect(await answer.text()).toContain(MESSAGES.es.errorPage.unavailableTitle);
  });

  it("leaves alone: a page that works, a JSON error, the sandbox", async () => {
    handler = (_request, response) => {
      response.writeHead(200, { "Content-Type": "text/html" }).end("<p>fine</p>");
    };
    expect(await (await fetch(`${origin}/checkout/cs_abcdefghijkl`)).text()).toBe("<p>fine</p>");

    handler = (_request, response) => {
      response.writeHead(503, { "Content-Type": "application/json" }).end('{"error":{"code":"database_unavailable"}}');
    };
    const json = await fetch(`${origin}/api/checkout-sessions`, { headers: { Accept: "text/html" } });
    expect(json.status).toBe(503);
    expect(await json.json()).toEqual({ error: { code: "database_unavailable" } });

    handler = (_request, response) => {
      response.writeHead(500, { "Content-Type": "text/html" }).end("<p>the sandbox's own</p>");
    };
    expect(await (await fetch(`${origin}/sandbox/pay/x`)).text()).toBe("<p>the sandbox's own</p>");
  });
});
