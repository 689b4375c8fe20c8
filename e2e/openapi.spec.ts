import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { checkoutApi, openCheckout, readCheckout } from "../examples/checkout-client";
import { checkoutApiTypes, TYPES_FILE } from "../scripts/openapi-types";
import { openApi31Problems } from "../lib/openapi/testing/validate";
import { createOpenApiChecker } from "../lib/sandbox/testing/openapi-check";
import { expect, test } from "./fixtures";
import { APP_URL, DEMO_PARTNERS } from "./support/app";
import AxeBuilder from "@axe-core/playwright";
import { checkoutSessionBody } from "./support/checkout-sessions";
import { aBookingReference } from "./support/test-data";

const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/*
 * For integrators: the checkout sessions API's OpenAPI document as served (/api/openapi.json), the
 * API's real answers against it, a client generated from it (examples/), and the reference page
 * (/docs) that renders it and the sandbox's.
 */

async function servedDocument(request: APIRequestContext) {
  const response = await request.get("/api/openapi.json");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("application/json");
  return (await response.json()) as { servers: { url: string }[]; paths: object };
}

/** The error codes the document lists (`x-error-codes`) for an answer of an operation, if it lists them. */
function documentedErrorCodes(document: { paths: object }, method: string, path: string, status: number): string[] | undefined {
  const relative = path.replace(/^\/api/, "");
  const paths = document.paths as Record<string, Record<string, { responses?: Record<string, { "x-error-codes"?: string[] }> }>>;
  const template = Object.keys(paths).find((key) => new RegExp(`^${key.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(relative));
  return template ? paths[template]?.[method.toLowerCase()]?.responses?.[String(status)]?.["x-error-codes"] : undefined;
}

test("/api/openapi.json is valid OpenAPI 3.1, and every answer of the API matches it", async ({ request, checkoutSessions: api }) => {
  const document = await servedDocument(request);
  expect(openApi31Problems(document)).toEqual([]);
  expect(document.servers[0]!.url).toBe(`${APP_URL}/api`);

  const checker = createOpenApiChecker(document);
  const expectDocumented = async (method: string, path: string, response: APIResponse) => {
    const body = await response.json();
    const result = checker.check({ method, path, status: response.status(), body, headers: response.headers() });
    expect(result, `${method} ${path} ${response.status()}: ${JSON.stringify(body)}`).toEqual({ ok: true });
    // The schema lets `code` be any of the API's codes: an error must carry one its status lists.
    const listed = documentedErrorCodes(document, method, path, response.status());
    if (listed) expect(listed, `${method} ${path} ${response.status()}: ${JSON.stringify(body)}`).toContain(body.error?.code);
    return body as { id: string };
  };

  const reference = aBookingReference();
  const created = await api.create({ reference });
  expect(created.status()).toBe(201);
  const session = await expectDocumented("POST", "/api/checkout-sessions", created);
  const again = await api.create({ reference });
  expect(again.status()).toBe(200);
  await expectDocumented("POST", "/api/checkout-sessions", again);

  const body = checkoutSessionBody({ reference });
  const conflict = await api.post({ ...body, booking: { ...body.booking, packageName: "Another trip" } });
  expect(conflict.status()).toBe(409);
  await expectDocumented("POST", "/api/checkout-sessions", conflict);

  const invalid = await api.post({ booking: { bookingReference: "" }, returnUrl: "ftp://x" });
  expect(invalid.status()).toBe(400);
  await expectDocumented("POST", "/api/checkout-sessions", invalid);

  const notJson = await request.post("/api/checkout-sessions", {
    headers: { ...api.authorization, "Content-Type": "application/json" },
    data: "{",
  });
  expect(notJson.status()).toBe(400);
  await expectDocumented("POST", "/api/checkout-sessions", notJson);

  const tooLarge = await api.post({ ...checkoutSessionBody(), padding: "x".repeat(70 * 1024) });
  expect(tooLarge.status()).toBe(413);
  await expectDocumented("POST", "/api/checkout-sessions", tooLarge);

  const unauthorized = await api.post(checkoutSessionBody(), {});
  expect(unauthorized.status()).toBe(401);
  await expectDocumented("POST", "/api/checkout-sessions", unauthorized);

  // A path that cannot be read is refused before any handler, in the documented format.
  const unreadable = await request.get("/api/checkout-sessions/%ZZ", { headers: api.authorization });
  expect(unreadable.status()).toBe(400);
  await expectDocumented("GET", "/api/checkout-sessions/cs_unreadable_path_00", unreadable);

  const read = await api.get(session.id);
  expect(read.status()).toBe(200);
  await expectDocumented("GET", `/api/checkout-sessions/${session.id}`, read);
  const notFound = await api.get("cs_nobody");
  expect(notFound.status()).toBe(404);
  await expectDocumented("GET", "/api/checkout-sessions/cs_nobody", notFound);
  const anonymous = await request.get(`/api/checkout-sessions/${session.id}`);
  expect(anonymous.status()).toBe(401);
  await expectDocumented("GET", `/api/checkout-sessions/${session.id}`, anonymous);
  const otherPartners = await api.as(DEMO_PARTNERS["demo-blue"]).get(session.id);
  expect(otherPartners.status()).toBe(404);
  await expectDocumented("GET", `/api/checkout-sessions/${session.id}`, otherPartners);

  // The event feed: a page, a bad cursor, no secret.
  const events = await request.get("/api/events?limit=1", { headers: api.authorization });
  expect(events.status()).toBe(200);
  await expectDocumented("GET", "/api/events", events);
  const badCursor = await request.get("/api/events?after=next", { headers: api.authorization });
  expect(badCursor.status()).toBe(400);
  await expectDocumented("GET", "/api/events", badCursor);
  const anonymousEvents = await request.get("/api/events");
  expect(anonymousEvents.status()).toBe(401);
  await expectDocumented("GET", "/api/events", anonymousEvents);

  // Every documented answer but 500 and 503 (e2e/outage.spec.ts sees that one) was seen.
  expect(checker.covered().sort()).toEqual(
    [
      "POST /checkout-sessions 200",
      "POST /checkout-sessions 201",
      "POST /checkout-sessions 400",
      "POST /checkout-sessions 401",
      "POST /checkout-sessions 409",
      "POST /checkout-sessions 413",
      "GET /checkout-sessions/{id} 200",
      "GET /checkout-sessions/{id} 400",
      "GET /checkout-sessions/{id} 401",
      "GET /checkout-sessions/{id} 404",
      "GET /events 200",
      "GET /events 400",
      "GET /events 401",
    ].sort(),
  );
});

test("a client generated from the served document opens a session and reads it", async ({ request }) => {
  const document = await servedDocument(request);
  // The types the example client is checked against (by the project's type check) are exactly
  // what openapi-typescript generates from the served document.
  expect(await checkoutApiTypes(document)).toBe(await readFile(TYPES_FILE, "utf8"));

  const api = checkoutApi(document.servers[0]!.url, DEMO_PARTNERS.demo.secret);
  const reference = aBookingReference();
  const key = randomUUID();
  const body = checkoutSessionBody({ reference, locale: "en" });
  const opened = await openCheckout(api, body, key);
  expect(opened).toMatchObject({ bookingReference: reference, state: "open", final: false, operation: null });
  expect(opened.url).toBe(`${APP_URL}/checkout/${opened.id}`);
  // Retried with its key: the same answer (as a replay); with that key for another booking: refused.
  expect(await openCheckout(api, body, key)).toEqual(opened);
  await expect(openCheckout(api, checkoutSessionBody({ locale: "en" }), key)).rejects.toThrow(/^422 idempotency_key_reused: /);

  const read = await readCheckout(api, opened.id);
  expect(read).toEqual(opened);
  await expect(readCheckout(checkoutApi(document.servers[0]!.url, "not_a_secret"), opened.id)).rejects.toThrow(/^401 unauthorized: /);
});

test.describe("/docs", () => {
  test("renders the checkout sessions API and the sandbox's document, under the page's policy, asking nothing of another origin", async ({
    page,
    baseURL,
  }) => {
    // What the page's policy refused, by directive (a browser event, recorded from the first script on).
    await page.addInitScript(() => {
      const seen: { directive: string; blocked: string }[] = [];
      (window as unknown as { cspViolations: typeof seen }).cspViolations = seen;
      document.addEventListener("securitypolicyviolation", (event) =>
        seen.push({ directive: event.effectiveDirective, blocked: event.blockedURI }),
      );
    });
    const outside: string[] = [];
    const ours = new URL(baseURL!).origin;
    page.on("request", (request) => {
      if (!/^(data|blob):/.test(request.url()) && new URL(request.url()).origin !== ours) outside.push(request.url());
    });

    await page.goto("/docs");
    await expect(page.getByRole("heading", { name: "Checkout sessions API" }).first()).toBeVisible();
    await expect(page.getByRole("heading", { name: "Open a checkout session" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Read a checkout session" })).toBeVisible();
    await expect(page.getByText("A session reached a state").first()).toBeAttached();
    const violations = await page.evaluate(
      () => (window as unknown as { cspViolations: { directive: string; blocked: string }[] }).cspViolations,
    );

    await page.goto("/docs?api=partner-api-sandbox");
    await expect(page.getByRole("heading", { name: "Travel Financing Partner API (sandbox)" }).first()).toBeVisible();
    await expect(page.getByRole("heading", { name: "Health check" })).toBeAttached();

    expect(outside, "requests to other origins").toEqual([]);
    // Scripts and stylesheets ran with the nonce. What the policy still refuses is Scalar's own, and
    // the reference renders without it: style attributes (style-src-attr), an `eval` (script-src,
    // blocked: 'unsafe-eval' is never allowed), and, on localhost only, its AI agent's calls to its servers.
    const expected = (v: { directive: string; blocked: string }) =>
      v.directive === "style-src-attr" ||
      (v.directive === "script-src" && v.blocked === "eval") ||
      (v.directive === "connect-src" && /^https:\/\/[\w.-]*scalar\.com\//.test(v.blocked));
    expect(violations.filter((v) => !expected(v))).toEqual([]);
  });

  test("the parts of /docs we own pass axe", async ({ page }) => {
    // axe over all of Scalar's rendering takes a while on a shared machine.
    test.setTimeout(120_000);
    await page.goto("/docs");
    await expect(page.getByRole("heading", { name: "Open a checkout session" })).toBeVisible();
    // Ours: the document around the reference (its language, title, viewport). What Scalar renders
    // is a third party's, reported here and listed in docs/contributors/architecture.md, not asserted.
    const ours = await new AxeBuilder({ page })
      .withRules(["document-title", "html-has-lang", "html-lang-valid", "meta-viewport"])
      .analyze();
    expect(ours.violations.map((violation) => violation.id)).toEqual([]);
    expect(ours.passes.map((rule) => rule.id).sort()).toEqual(["document-title", "html-has-lang", "html-lang-valid", "meta-viewport"]);
    const scalar = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
    test.info().annotations.push({
      type: "Scalar's axe violations",
      description: scalar.violations.map((violation) => `${violation.id} (${violation.nodes.length})`).join(", "),
    });
  });
});
