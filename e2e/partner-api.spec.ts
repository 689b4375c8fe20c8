import { expect, test } from "@playwright/test";

/**
 * The partner-facing API, as a partner's backend uses it: the demo partner's published sandbox
 * secret (DEMO_PARTNER_DEFAULT_SECRET), a return URL on the app's own origin.
 */
const SECRET = "demo_partner_secret_sandbox_only";
const auth = { Authorization: `Bearer ${SECRET}` };

function body(reference: string, overrides: Record<string, unknown> = {}) {
  const port = Number(process.env.E2E_PORT ?? 3100);
  return {
    booking: {
      bookingReference: reference,
      packageName: "Lisboa, 4 noches",
      travellers: 2,
      totalPrice: { amount: 1234.5, currency: "EUR" },
      flights: [{ origin: "MAD", destination: "LIS", departureDate: "2027-05-01", returnDate: "2027-05-05" }],
    },
    customer: { firstName: "Ana", lastName: "García" },
    returnUrl: `http://localhost:${port}/`,
    locale: "es",
    ...overrides,
  };
}

test.describe("POST /api/checkout-sessions", () => {
  test("opens a session, idempotently per booking reference, and GET tells its state", async ({ request }) => {
    const reference = `E2E-${Date.now()}`;
    const created = await request.post("/api/checkout-sessions", { headers: auth, data: body(reference) });
    expect(created.status()).toBe(201);
    const session = await created.json();
    expect(session).toMatchObject({ id: expect.stringMatching(/^cs_/), bookingReference: reference, state: "open", final: false, operation: null });
    expect(session.url).toMatch(new RegExp(`/checkout/${session.id}$`));
    expect(Date.parse(session.expiresAt)).toBeGreaterThan(Date.now());
    expect(created.headers()["cache-control"]).toBe("no-store");

    const again = await request.post("/api/checkout-sessions", { headers: auth, data: body(reference) });
    expect(again.status()).toBe(200);
    expect((await again.json()).id).toBe(session.id);

    const read = await request.get(`/api/checkout-sessions/${session.id}`, { headers: auth });
    expect(read.status()).toBe(200);
    expect(await read.json()).toMatchObject({ id: session.id, state: "open" });
    // Never the customer's data.
    expect(JSON.stringify(await read.json())).not.toContain("García");
  });

  test("the same reference for another booking is a conflict", async ({ request }) => {
    const reference = `E2E-CONFLICT-${Date.now()}`;
    await request.post("/api/checkout-sessions", { headers: auth, data: body(reference) });
    const other = body(reference);
    other.booking.totalPrice = { amount: 99, currency: "EUR" };
    const conflict = await request.post("/api/checkout-sessions", { headers: auth, data: other });
    expect(conflict.status()).toBe(409);
    expect((await conflict.json()).error.code).toBe("conflict");
  });

  test("401 without the partner's secret, or with the financing key instead", async ({ request }) => {
    expect((await request.post("/api/checkout-sessions", { data: body("X-1") })).status()).toBe(401);
    const withKey = await request.post("/api/checkout-sessions", {
      headers: { Authorization: "Bearer fk_test_sandbox_agency_101" },
      data: body("X-1"),
    });
    expect(withKey.status()).toBe(401);
    expect((await withKey.json()).error.code).toBe("unauthorized");
  });

  test("400 naming every bad field, a return URL off the partner's origins included", async ({ request }) => {
    const bad = body(`E2E-BAD-${Date.now()}`, { returnUrl: "https://elsewhere.example/back" });
    (bad.booking as Record<string, unknown>).travellers = 0;
    (bad.booking as Record<string, unknown>).flights = [];
    (bad.booking as Record<string, unknown>).totalPrice = { amount: 10.999, currency: "EUR" };
    const answer = await request.post("/api/checkout-sessions", { headers: auth, data: bad });
    expect(answer.status()).toBe(400);
    const fields = (await answer.json()).error.fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(["booking.travellers", "booking.flights", "booking.totalPrice.amount"]));

    const offOrigin = await request.post("/api/checkout-sessions", { headers: auth, data: body(`E2E-ORIGIN-${Date.now()}`, { returnUrl: "https://elsewhere.example/back" }) });
    expect(offOrigin.status()).toBe(400);
    expect((await offOrigin.json()).error.fields).toEqual([{ field: "returnUrl", message: expect.stringContaining("allowed origins") }]);

    const notJson = await request.post("/api/checkout-sessions", { headers: { ...auth, "Content-Type": "application/json" }, data: "{oops" });
    expect(notJson.status()).toBe(400);
  });

  test("another partner's session, or an unknown one, is not found", async ({ request }) => {
    expect((await request.get("/api/checkout-sessions/cs_doesnotexist000000000000", { headers: auth })).status()).toBe(404);
  });
});

test.describe("the demo partner's notification endpoint", () => {
  test("takes a correctly signed notification and refuses a forged one", async ({ request }) => {
    const { Webhook } = await import("standardwebhooks");
    const { createHash } = await import("node:crypto");
    const secret = `whsec_${createHash("sha256").update(`demo-signing:${SECRET}`).digest("base64")}`;
    const body = JSON.stringify({ type: "checkout.session.confirmed", timestamp: new Date().toISOString(), data: { id: "cs_x", state: "confirmed" } });
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
