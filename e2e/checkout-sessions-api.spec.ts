import { expect, test } from "./fixtures";
import { DEMO_PARTNERS } from "./support/app";
import { checkoutSessionBody } from "./support/checkout-sessions";
import { SANDBOX_AGENCY_KEY } from "./support/sandbox";
import { aBookingReference, aCustomer, isoDayFromToday } from "./support/test-data";

/**
 * The checkout sessions API, our own API for agencies, as a partner's backend uses it: the demo
 * partner's published sandbox secret (DEMO_PARTNER_DEFAULT_SECRET), a return URL on the app's own
 * origin, the test booking with the test customer prefilled.
 */

test.describe("POST /api/checkout-sessions", () => {
  test("opens a session, idempotently per booking reference, and GET tells its state", async ({ checkoutSessions: api }) => {
    const reference = aBookingReference();
    // A document number of its own: the form's help text quotes 12345678Z as its example.
    const customer = aCustomer({ documentId: "87654321X" });
    const created = await api.post(checkoutSessionBody({ reference, locale: "es", customer }));
    expect(created.status()).toBe(201);
    const session = await created.json();
    expect(session).toMatchObject({
      id: expect.stringMatching(/^cs_/),
      bookingReference: reference,
      state: "open",
      final: false,
      operation: null,
    });
    expect(session.url).toMatch(new RegExp(`/checkout/${session.id}$`));
    expect(Date.parse(session.expiresAt)).toBeGreaterThan(Date.now());
    expect(created.headers()["cache-control"]).toBe("no-store");

    const again = await api.post(checkoutSessionBody({ reference, locale: "es", customer }));
    expect(again.status()).toBe(200);
    expect((await again.json()).id).toBe(session.id);

    const read = await api.get(session.id);
    expect(read.status()).toBe(200);
    expect(await read.json()).toMatchObject({ id: session.id, state: "open" });
    // Never the customer's data.
    expect(JSON.stringify(await read.json())).not.toContain("García");

    // Nor does the link show the prefilled identity data in full, to whoever holds it.
    const page = await (await api.request.get(session.url)).text();
    for (const value of [customer.documentId, customer.phone, customer.address]) expect(page).not.toContain(value);
  });

  test("the same reference for another booking is a conflict", async ({ checkoutSessions: api }) => {
    const reference = aBookingReference("E2E-CONFLICT");
    await api.post(checkoutSessionBody({ reference, locale: "es" }));
    const other = checkoutSessionBody({ reference, locale: "es" });
    other.booking.totalPrice = { amount: 99, currency: "EUR" };
    const conflict = await api.post(other);
    expect(conflict.status()).toBe(409);
    expect((await conflict.json()).error.code).toBe("conflict");
  });

  test("401 without the partner's secret, or with the financing key instead", async ({ checkoutSessions: api }) => {
    const body = checkoutSessionBody({ reference: "X-1", locale: "es" });
    expect((await api.post(body, {})).status()).toBe(401);
    const withKey = await api.post(body, { Authorization: `Bearer ${SANDBOX_AGENCY_KEY}` });
    expect(withKey.status()).toBe(401);
    expect((await withKey.json()).error.code).toBe("unauthorized");
  });

  test("400 naming every bad field, a return URL off the partner's origins included", async ({ checkoutSessions: api }) => {
    const bad = checkoutSessionBody({ reference: aBookingReference("E2E-BAD"), returnUrl: "https://elsewhere.example/back", locale: "es" });
    (bad.booking as Record<string, unknown>).travellers = 0;
    (bad.booking as Record<string, unknown>).flights = [];
    (bad.booking as Record<string, unknown>).totalPrice = { amount: 10.999, currency: "EUR" };
    const answer = await api.post(bad);
    expect(answer.status()).toBe(400);
    const fields = (await answer.json()).error.fields.map((f: { field: string }) => f.field);
    // All at once: the return URL off the partner's origins with the booking's errors, not after them.
    expect(fields).toEqual(expect.arrayContaining(["booking.travellers", "booking.flights", "booking.totalPrice.amount", "returnUrl"]));

    const offOrigin = await api.post(
      checkoutSessionBody({ reference: aBookingReference("E2E-ORIGIN"), returnUrl: "https://elsewhere.example/back", locale: "es" }),
    );
    expect(offOrigin.status()).toBe(400);
    expect((await offOrigin.json()).error.fields).toEqual([{ field: "returnUrl", message: expect.stringContaining("allowed origins") }]);

    const notJson = await api.post("{oops", { ...api.authorization, "Content-Type": "application/json" });
    expect(notJson.status()).toBe(400);
  });

  test("400 naming the date: a trip in the past, a return before the departure, a hotel stay of no night", async ({
    checkoutSessions: api,
  }) => {
    const bad = checkoutSessionBody({ reference: aBookingReference("E2E-DATES"), locale: "es" });
    (bad.booking as Record<string, unknown>).flights = [
      { origin: "MAD", destination: "LIS", departureDate: isoDayFromToday({ days: 30 }), returnDate: isoDayFromToday({ days: 29 }) },
      { origin: "LIS", destination: "MAD", departureDate: isoDayFromToday({ days: -2 }) },
    ];
    (bad.booking as Record<string, unknown>).hotels = [
      { name: "Hotel Tejo", checkInDate: isoDayFromToday({ days: 30 }), checkOutDate: isoDayFromToday({ days: 30 }) },
    ];
    const answer = await api.post(bad);
    expect(answer.status()).toBe(400);
    const body = await answer.json();
    expect(body.error.code).toBe("validation_failed");
    expect(body.error.fields).toEqual([
      { field: "booking.flights.0.returnDate", message: "must not be before departureDate" },
      {
        field: "booking.flights.1.departureDate",
        message: expect.stringMatching(/^must not be before today \(\d{4}-\d{2}-\d{2} in Europe\/Madrid\)$/),
      },
      { field: "booking.hotels.0.checkOutDate", message: "must be after checkInDate" },
    ]);
  });

  test("another partner's session, or an unknown one, is not found", async ({ checkoutSessions: api }) => {
    expect((await api.get("cs_doesnotexist000000000000")).status()).toBe(404);
  });
});

test.describe("a method the API does not take", () => {
  // Next's own 405 had an empty body and no Allow: nothing for a partner's HTTP client to read.
  for (const [method, path, allow] of [
    ["DELETE", "/api/checkout-sessions", "GET, HEAD, POST, OPTIONS"],
    ["PUT", "/api/checkout-sessions", "GET, HEAD, POST, OPTIONS"],
    ["PUT", "/api/checkout-sessions/cs_doesnotexist000000000000", "GET, HEAD, OPTIONS"],
    ["POST", "/api/checkout-sessions/cs_doesnotexist000000000000", "GET, HEAD, OPTIONS"],
    ["GET", "/api/checkout-sessions/cs_doesnotexist000000000000/cancel", "POST, OPTIONS"],
    ["DELETE", "/api/checkout-sessions/cs_doesnotexist000000000000/cancel", "POST, OPTIONS"],
    ["PATCH", "/api/checkout-sessions/cs_doesnotexist000000000000/refund", "GET, HEAD, POST, OPTIONS"],
    ["GET", "/api/webhooks/financing/not-the-token", "POST, OPTIONS"],
    ["POST", "/api/badge", "GET, HEAD, OPTIONS"],
    ["DELETE", "/api/health", "GET, HEAD, OPTIONS"],
    ["POST", "/api/ready", "GET, HEAD, OPTIONS"],
    ["PUT", "/api/metrics", "GET, HEAD, OPTIONS"],
    ["POST", "/api/openapi.json", "GET, HEAD, OPTIONS"],
    ["PATCH", "/api/demo/notifications", "GET, HEAD, POST, OPTIONS"],
  ] as const) {
    test(`${method} ${path.replace(/cs_\w+/, "{id}")}: 405 method_not_allowed, with Allow`, async ({ request }) => {
      const answer = await request.fetch(path, { method, failOnStatusCode: false });
      expect(answer.status()).toBe(405);
      expect(answer.headers()["allow"]).toBe(allow);
      expect(answer.headers()["content-type"]).toContain("application/json");
      expect((await answer.json()).error).toMatchObject({ code: "method_not_allowed", message: expect.stringContaining(allow) });
      // And OPTIONS lists the same methods (Next's own would list every method the module exports).
      const options = await request.fetch(path, { method: "OPTIONS", failOnStatusCode: false });
      expect(options.status()).toBe(204);
      expect(options.headers()["allow"]).toBe(allow);
    });
  }
});

test.describe("an address under /api/ that does not exist", () => {
  // It used to get the HTML not-found page: a partner's HTTP client expects the API's JSON error.
  for (const [method, path] of [
    ["GET", "/api/nope"],
    ["POST", "/api/checkout-session"],
    ["GET", "/api/checkout-sessions/cs_doesnotexist000000000000/state"],
    ["DELETE", "/api/webhooks/financing"],
    ["OPTIONS", "/api/nope"],
  ] as const) {
    test(`${method} ${path.replace(/cs_\w+/, "{id}")}: 404 not_found, in JSON`, async ({ request }) => {
      const answer = await request.fetch(path, { method, failOnStatusCode: false });
      expect(answer.status()).toBe(404);
      expect(answer.headers()["content-type"]).toContain("application/json");
      expect(answer.headers()["cache-control"]).toBe("no-store");
      expect((await answer.json()).error).toMatchObject({ code: "not_found", message: expect.stringContaining("/api/openapi.json") });
    });
  }

  test("HEAD: 404 with the JSON error's headers and no body", async ({ request }) => {
    const answer = await request.head("/api/nope", { failOnStatusCode: false });
    expect(answer.status()).toBe(404);
    expect(answer.headers()["content-type"]).toContain("application/json");
    expect(await answer.body()).toHaveLength(0);
  });
});

test.describe("the demo partner's notification endpoint", () => {
  test("takes a correctly signed notification and refuses a forged one", async ({ request }) => {
    const { Webhook } = await import("standardwebhooks");
    const { createHash } = await import("node:crypto");
    const secret = `whsec_${createHash("sha256").update(`demo-signing:${DEMO_PARTNERS.demo.secret}`).digest("base64")}`;
    const body = JSON.stringify({
      type: "checkout.session.confirmed",
      timestamp: new Date().toISOString(),
      data: { id: "cs_x", state: "confirmed" },
    });
    const now = new Date();
    const headers = {
      "Content-Type": "application/json",
      "webhook-id": "msg_e2e_sent",
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign("msg_e2e_other", now, body),
    };
    // Signed for another id: invalid.
    expect((await request.post("/api/demo/notifications", { headers, data: body })).status()).toBe(401);
    const id = `msg_e2e_ok_${Date.now()}`;
    const good = { ...headers, "webhook-id": id, "webhook-signature": new Webhook(secret).sign(id, now, body) };
    expect((await request.post("/api/demo/notifications", { headers: good, data: body })).status()).toBe(204);
  });
});
