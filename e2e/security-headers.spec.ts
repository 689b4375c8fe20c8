import { connect } from "node:net";
import type { APIResponse } from "@playwright/test";
import { expect, test } from "./fixtures";
import { APP_PORT, APP_URL } from "./support/app";
import { aBookingReference } from "./support/test-data";

/*
 * The security headers of every kind of route (docs/operators/monitoring.md, security
 * headers): pages, the checkout's pages, route handlers, the partner-facing scripts, static files,
 * the sandbox's hosted pages and API, a 404. A nonce-based CSP that changes with every request and
 * is on every script of the page; HSTS; nosniff; Referrer-Policy; no X-Powered-By; no-store where
 * a page carries personal data; nothing framed but a partner's checkout, by that partner only.
 */

function directive(policy: string, name: string): string | undefined {
  return policy
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.split(/\s+/)[0] === name);
}

interface Expectation {
  /** An HTML page of the app: a nonce on every script, the nonce in the policy. */
  html?: boolean;
  /** Carries personal data: Cache-Control no-store. */
  personal?: boolean;
  /** Who may frame it: a partner's checkout lists its origins; everything else, none. */
  frameAncestors?: string;
  /** The sandbox's own pages keep their own Referrer-Policy. */
  referrerPolicy?: string;
  sandbox?: boolean;
  /** Next's build output (no CSP: the proxy does not run there). */
  staticFile?: boolean;
}

async function checkHeaders(name: string, response: APIResponse, expected: Expectation = {}): Promise<string | undefined> {
  const headers = response.headers();
  expect(headers["strict-transport-security"], `${name}: HSTS`).toBe("max-age=63072000; includeSubDomains");
  expect(headers["x-content-type-options"], `${name}: nosniff`).toBe("nosniff");
  expect(headers["x-powered-by"], `${name}: no X-Powered-By`).toBeUndefined();
  expect(headers["referrer-policy"], `${name}: Referrer-Policy`).toBe(expected.referrerPolicy ?? "strict-origin-when-cross-origin");
  if (expected.personal) expect(headers["cache-control"], `${name}: no-store`).toContain("no-store");
  if (expected.staticFile) return undefined;

  const policy = headers["content-security-policy"];
  expect(policy, `${name}: a Content-Security-Policy`).toBeTruthy();
  expect(directive(policy!, "frame-ancestors"), `${name}: frame-ancestors`).toBe(`frame-ancestors ${expected.frameAncestors ?? "'none'"}`);
  expect(directive(policy!, "object-src") ?? directive(policy!, "default-src"), `${name}: no plugins`).toMatch(/'none'/);
  if (expected.sandbox) {
    expect(directive(policy!, "default-src")).toBe("default-src 'none'");
    return undefined;
  }
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(directive(policy!, "script-src") ?? "")?.[1];
  expect(nonce, `${name}: a nonce in script-src`).toBeTruthy();
  expect(directive(policy!, "script-src")).toBe(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
  expect(directive(policy!, "base-uri")).toBe("base-uri 'none'");
  if (expected.frameAncestors === undefined) expect(headers["x-frame-options"], `${name}: X-Frame-Options`).toBe("DENY");
  else expect(headers["x-frame-options"], `${name}: framable by its partner`).toBeUndefined();
  if (expected.html) {
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length, `${name}: has scripts`).toBeGreaterThan(0);
    for (const script of scripts) expect(script, `${name}: every script carries the nonce`).toContain(`nonce="${nonce}"`);
  }
  return nonce;
}

test.use({ locale: "es-ES" });

test("every kind of route carries the security headers", async ({ request, checkout, checkoutSessions, sandbox }) => {
  const { page, m, details, offers: offersPage } = checkout;
  // Pages.
  const home1 = await checkHeaders("/", await request.get("/"), { html: true });
  const home2 = await checkHeaders("/ again", await request.get("/"), { html: true });
  expect(home1, "a fresh nonce for every response").not.toBe(home2);
  await checkHeaders("a 404", await request.get("/no-such-page"), { html: true });
  const admin = await request.get("/admin/login");
  await checkHeaders(`/admin/login (${admin.status()})`, admin, { html: admin.status() === 200, personal: true });

  // The checkout sessions API (a POST from a partner's backend) and a checkout session's pages.
  const created = await checkoutSessions.create({ reference: aBookingReference("HEADERS") });
  expect(created.status()).toBe(201);
  await checkHeaders("POST /api/checkout-sessions", created, { personal: true });
  const { id } = (await created.json()) as { id: string };
  const partnerOrigins = (await request.get(`/checkout/${id}`)).headers()["content-security-policy"]!;
  const frameAncestors = directive(partnerOrigins, "frame-ancestors")!.replace("frame-ancestors ", "");
  expect(frameAncestors.split(" ")).toContain(APP_URL);
  expect(frameAncestors).not.toContain("'none'");

  const details1 = await checkHeaders("/checkout/{id}", await request.get(`/checkout/${id}`), {
    html: true,
    personal: true,
    frameAncestors,
  });
  const details2 = await checkHeaders("/checkout/{id} again", await request.get(`/checkout/${id}`), {
    html: true,
    personal: true,
    frameAncestors,
  });
  expect(details1).not.toBe(details2);
  // The customer sends the (prefilled) details in a browser: the session is at the offers.
  await page.goto(`${APP_URL}/checkout/${id}`);
  await details.submit();
  await expect(offersPage.heading).toHaveText(m.offers.title);
  const offers = await request.get(`/checkout/${id}/offers`, { maxRedirects: 0 });
  expect(offers.status()).toBe(200);
  await checkHeaders("/checkout/{id}/offers", offers, { html: true, personal: true, frameAncestors });
  await checkHeaders("/checkout/{id}/status", await request.get(`/checkout/${id}/status`), { html: true, personal: true, frameAncestors });
  await checkHeaders("/checkout/{id}/status/data", await request.get(`/checkout/${id}/status/data`), { personal: true, frameAncestors });
  await checkHeaders("/checkout/{unknown}", await request.get("/checkout/cs_no_such_session_000"), { html: true, personal: true });

  // Route handlers and the partner-facing scripts.
  await checkHeaders("/api/health", await request.get("/api/health"));
  await checkHeaders("/api/badge", await request.get("/api/badge?partner=demo&amount=1234.50"));
  await checkHeaders("/embed.js", await request.get("/embed.js"));
  await checkHeaders("/badge.js", await request.get("/badge.js"));
  await checkHeaders("/embed/theme.css", await request.get("/embed/theme.css?partner=demo"));
  await checkHeaders("/favicon.svg", await request.get("/favicon.svg"));
  const chunk = /<script[^>]+src="(\/_next\/static\/[^"]+)"/.exec(await (await request.get("/")).text())?.[1];
  await checkHeaders("a Next static chunk", await request.get(chunk!), { staticFile: true });

  // The sandbox: another system, its own Referrer-Policy on its hosted pages, never framed.
  const operation = await sandbox.postOperation();
  expect(operation.status()).toBe(201);
  await checkHeaders("POST /sandbox/v1/operations", operation, { sandbox: true });
  const { financingUrl } = (await operation.json()) as { financingUrl: string };
  const hosted = await request.get(new URL(financingUrl).pathname + new URL(financingUrl).search);
  expect(hosted.status()).toBe(200);
  await checkHeaders("the sandbox's financing page", hosted, { sandbox: true, referrerPolicy: "no-referrer", personal: true });
});

test("server actions and form posts are refused from another origin, accepted from ours", async ({ request }) => {
  const html = await (await request.get("/")).text();
  const actionField = /name="(\$ACTION_ID_[0-9a-f]+)"/.exec(html)?.[1];
  expect(actionField, "the language switcher's form (no JavaScript) names its action").toBeTruthy();
  const form = { [actionField!]: "", locale: "en", returnTo: "/" };

  const foreign = await request.post("/", { multipart: form, headers: { Origin: "https://evil.example" }, maxRedirects: 0 });
  expect(foreign.status()).toBe(403);
  expect(foreign.headers()["set-cookie"]).toBeUndefined();

  const nullOrigin = await request.post("/", { multipart: form, headers: { Origin: "null" }, maxRedirects: 0 });
  expect(nullOrigin.status()).toBe(403);

  // The request goes to 127.0.0.1 (the tests' baseURL): that is the host an own form post comes from.
  const own = await request.post("/", { multipart: form, headers: { Origin: `http://127.0.0.1:${APP_PORT}` }, maxRedirects: 0 });
  expect(own.status()).toBe(303);
  expect(own.headers()["set-cookie"]).toContain("locale=en");
});

test("the pages every customer loads get the same headers on every load, the first and the next", async ({ request, checkoutSessions }) => {
  const created = await checkoutSessions.create({ reference: aBookingReference("REPEAT") });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const partnerOrigins = directive((await request.get(`/checkout/${id}`)).headers()["content-security-policy"]!, "frame-ancestors")!;

  // After the first request of a session (its partner looked up, then cached), the same headers.
  await checkHeaders("/ (again)", await request.get("/"), { html: true });
  const details = await request.get(`/checkout/${id}`, { headers: { "X-Request-Id": "agency-trace-repeat-1" } });
  await checkHeaders("/checkout/{id} (again)", details, {
    html: true,
    personal: true,
    frameAncestors: partnerOrigins.replace("frame-ancestors ", ""),
  });
  expect(details.headers()["x-request-id"], "a well-formed incoming request id is kept").toBe("agency-trace-repeat-1");
  // An unknown session: its not-found page, with the same headers.
  const unknown = await request.get("/checkout/cs_repeat_unknown_00");
  expect(unknown.status()).toBe(404);
  await checkHeaders("/checkout/{unknown}", unknown, { html: true, personal: true });
});

/** A request written on a socket: no HTTP client sends a header name Node's parser refuses. */
function rawRequest(head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(APP_PORT, "127.0.0.1", () =>
      socket.write(`${head}\r\nHost: localhost:${APP_PORT}\r\nConnection: close\r\n\r\n`),
    );
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

test("a method no route serves (TRACE, WebDAV's) answers 405 with the security headers on any URL, never a 500", async () => {
  // (TRACK and CONNECT never reach the app: Node's parser answers the first 400, and hands the
  // second to a `connect` listener there is none of, which closes the connection.)
  for (const method of ["TRACE", "PROPFIND", "MKCOL"]) {
    for (const path of [
      "/",
      "/checkout/cs_x",
      "/admin",
      "/api/checkout-sessions",
      "/api/no-such-route",
      "/sandbox/v1/health",
      "/embed.js",
    ]) {
      const answer = await rawRequest(`${method} ${path} HTTP/1.1`);
      const [head = ""] = answer.split("\r\n\r\n", 1);
      const [statusLine, ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]),
      );
      const name = `${method} ${path}`;
      expect(statusLine, name).toBe("HTTP/1.1 405 Method Not Allowed");
      expect(headers.allow, name).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
      expect(headers["strict-transport-security"], name).toBe("max-age=63072000; includeSubDomains");
      expect(headers["x-content-type-options"], name).toBe("nosniff");
      expect(headers["x-frame-options"], name).toBe("DENY");
      expect(headers["content-security-policy"], name).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(headers["cache-control"], name).toBe("no-store");
    }
  }
});
