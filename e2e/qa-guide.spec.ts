import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

/*
 * A checkout tested end to end against the sandbox, as a QA team writes it: the partner's backend
 * opens a session through the checkout sessions API, the customer goes through the checkout (found
 * by roles and labels), the provider decides through the sandbox's control API, the test clock
 * moves, and the partner's backend is told. Needs only `baseURL` (the app, e.g.
 * http://localhost:3000) in playwright.config.ts. The values below are the sandbox's published
 * demo values, not secrets. Moving the clock moves it for every operation of the key's account:
 * run this against a deployment (or an account) of the QA team's own.
 */

/** The demo partner's secret for the checkout sessions API (and for reading its notifications). */
const PARTNER_SECRET = "demo_partner_secret_sandbox_only";
/** The sandbox key the app uses for the demo partner: the control API acts on its account. */
const SANDBOX_KEY = "fk_test_sandbox_agency_101";

/** A day `years` years and `days` days from today, yyyy-MM-dd. */
function day(years: number, days = 0): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear() + years, now.getUTCMonth(), now.getUTCDate() + days)).toISOString().slice(0, 10);
}

interface Session {
  id: string;
  url: string;
  state: string;
  operation: { id: string; status: string } | null;
}

/** The partner's backend opens a checkout session for a trip, with the customer's details it knows. */
async function openSession(request: APIRequestContext, baseURL: string): Promise<Session> {
  const response = await request.post("/api/checkout-sessions", {
    headers: { Authorization: `Bearer ${PARTNER_SECRET}` },
    data: {
      booking: {
        bookingReference: `QA-${Date.now()}-${Math.floor(Math.random() * 1e6)}`,
        packageName: "Lisboa, 4 noches",
        travellers: 2,
        totalPrice: { amount: 1234.5, currency: "EUR" },
        flights: [{ origin: "MAD", destination: "LIS", departureDate: day(1), returnDate: day(1, 4) }],
      },
      customer: {
        firstName: "Ana",
        lastName: "García López",
        email: "ana@example.com",
        prefix: "+34",
        phone: "612345678",
        documentType: "DNI",
        documentId: "12345678Z",
        documentValidityDate: day(5),
        gender: "FEMALE",
        birthDate: "1990-07-04",
        nationality: "ESP",
        address: "Calle Mayor 1, 3º B",
        city: "Madrid",
        postalCode: "28013",
        countryCode: "ESP",
      },
      returnUrl: `${baseURL}/`,
      locale: "en",
    },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as Session;
}

/** The session as the partner's backend reads it. */
async function readSession(request: APIRequestContext, id: string): Promise<Session> {
  const response = await request.get(`/api/checkout-sessions/${id}`, { headers: { Authorization: `Bearer ${PARTNER_SECRET}` } });
  expect(response.status()).toBe(200);
  return (await response.json()) as Session;
}

/** The notifications the demo partner's backend received for a session (their types). */
async function notificationsOf(request: APIRequestContext, sessionId: string): Promise<string[]> {
  const response = await request.get(`/api/demo/notifications?session=${sessionId}`, {
    headers: { Authorization: `Bearer ${PARTNER_SECRET}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { notifications: { type: string }[] }).notifications.map((n) => n.type);
}

/** The sandbox's QA control API, on the account of the app's key. */
function control(request: APIRequestContext, method: "GET" | "POST", path: string, data?: unknown) {
  return request.fetch(`/sandbox/_control${path}`, { method, headers: { "X-Service-API-Key": SANDBOX_KEY }, data });
}

/** The customer, in a browser: the details the partner sent are there; a plan is chosen; the provider's checkout shows. */
async function customerChoosesAPlan(page: Page, session: Session): Promise<void> {
  await page.goto(session.url);
  await expect(page.getByRole("heading", { level: 1, name: "Your details" })).toBeVisible();
  await expect(page.getByLabel("E-mail", { exact: true })).toHaveValue("ana@example.com");
  // Sending the details creates the financing operation: give the API a few seconds.
  await page.getByRole("button", { name: "Continue", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Choose how to pay" })).toBeVisible({ timeout: 15_000 });
  await page.getByRole("button", { name: /^Choose this plan\s*: 12 installments with Financiera Olivo$/ }).click();
  // The provider's checkout (a page of the sandbox), where the customer would sign.
  await expect(page.getByRole("heading", { level: 1, name: "Review and sign your plan" })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole("button", { name: "Sign and accept" })).toBeVisible();
}

test.describe("paying a trip in installments", () => {
  test("the provider approves: the session is confirmed and the partner is told", async ({ page, request, baseURL }) => {
    const session = await openSession(request, baseURL!);
    await customerChoosesAPlan(page, session);
    // At the provider: the session is pending, and its financing operation is known.
    const { state, operation } = await readSession(request, session.id);
    expect(state).toBe("pending");
    expect(operation).not.toBeNull();

    // The provider approves without the customer: the outcome reaches the app by webhook alone.
    expect((await control(request, "POST", `/operations/${operation!.id}/decision`, { decision: "approve" })).status()).toBe(200);
    await expect.poll(async () => (await readSession(request, session.id)).state, { timeout: 15_000 }).toBe("confirmed");
    // The app acknowledged the webhook, so the sandbox stops redelivering it.
    const events = await (await control(request, "GET", `/operations/${operation!.id}/webhooks`)).json();
    expect(events).toEqual([expect.objectContaining({ status: "CONFIRMED", acknowledged: true })]);
    // And the partner's backend was told, signed (its endpoint verified the signature).
    await expect.poll(() => notificationsOf(request, session.id), { timeout: 15_000 }).toContain("checkout.session.confirmed");
  });

  test("the customer never signs: a day later the plan has expired, and the partner is told", async ({ page, request, baseURL }) => {
    const session = await openSession(request, baseURL!);
    await customerChoosesAPlan(page, session);
    const { operation } = await readSession(request, session.id);

    // The sandbox's test clock: operations not finished 24 hours after their creation expire.
    expect((await control(request, "POST", "/clock/advance", { seconds: 25 * 3600 })).status()).toBe(200);
    await expect.poll(async () => (await readSession(request, session.id)).state, { timeout: 15_000 }).toBe("expired");
    expect((await readSession(request, session.id)).operation).toMatchObject({ id: operation!.id, status: "EXPIRED" });
    await expect.poll(() => notificationsOf(request, session.id), { timeout: 15_000 }).toContain("checkout.session.expired");
  });
});
