import { randomUUID } from "node:crypto";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { cancelCheckout, refundCheckout, sessionsSince } from "../examples/checkout-actions";
import { checkoutApi } from "../examples/checkout-client";
import { createOpenApiChecker, type OpenApiChecker } from "../lib/sandbox/testing/openapi-check";
import { expect, test } from "./fixtures";
import { ApiSecretsPanel, PartnersConsole } from "./pages/operator/partners-console";
import { AuditPage } from "./pages/admin/security-pages";
import type { CheckoutPages } from "./pages/checkout-pages";
import { APP_URL, DEMO_PARTNERS, STAFF } from "./support/app";
import type { CheckoutSessionResource, CheckoutSessionsApi } from "./support/checkout-sessions";
import type { Sandbox } from "./support/sandbox";
import { aBookingReference, aCustomer } from "./support/test-data";

/*
 * The checkout sessions API beyond one session, as a partner's backend uses it on the sandbox: its
 * list (filters, pages that neither repeat nor skip while sessions are opened between them), the
 * cancel before the customer signs and the 409 after, the refund's breakdown and the refund of a
 * signed operation (once, however many arrive at once), another partner's sessions not found, and
 * the back-office's audit log naming the secret that cancelled and refunded. Every answer is
 * checked against the document the app serves.
 */

test.use({ baseURL: APP_URL, locale: "en-GB" });

let checker: OpenApiChecker;

test.beforeAll(async ({ request }) => {
  const served = await request.get("/api/openapi.json");
  expect(served.status()).toBe(200);
  checker = createOpenApiChecker(await served.json());
});

/** Any answer of these calls, read for what a test looks at (the document checks the rest). */
interface AnswerBody {
  data: CheckoutSessionResource[];
  hasMore: boolean;
  nextCursor: string | null;
  totalToRefundCents: number;
  error: { code: string; state?: string; fields: { field: string }[] };
}

/** The answer's status, and its body once checked against the served document (with its headers). */
async function documented(method: string, response: APIResponse): Promise<{ status: number; body: AnswerBody }> {
  const path = new URL(response.url()).pathname.replace(/^\/api/, "") + new URL(response.url()).search;
  const body = (await response.json()) as AnswerBody;
  const result = checker.check({ method, path, status: response.status(), body, headers: response.headers() });
  expect(result, `${method} ${path} ${response.status()}: ${JSON.stringify(body)}`).toEqual({ ok: true });
  return { status: response.status(), body };
}

/** A session whose customer signed at the provider and whose financing the provider confirmed. */
async function confirmedSession(
  api: CheckoutSessionsApi,
  checkout: CheckoutPages,
  sandbox: Sandbox,
  email = "ana@example.com",
): Promise<{ sessionId: string; operationId: string }> {
  const session = await checkout.atProvider(api, aBookingReference("E2E-REFUND"), APP_URL, aCustomer({ email }));
  expect((await sandbox.decide(session.operationId, "approve")).status()).toBe(200);
  expect(await sandbox.status(session.operationId)).toBe("CONFIRMED");
  return session;
}

async function refundsAtProvider(sandbox: Sandbox, operationId: string): Promise<number> {
  return (await sandbox.history(operationId)).filter((entry) => entry.status === "REFUNDED").length;
}

test.describe("GET /api/checkout-sessions", () => {
  test("lists the partner's own sessions by filters, newest first, page after page with none repeated or skipped while others are opened", async ({
    checkoutSessions: api,
  }) => {
    const prefix = aBookingReference("E2E-LIST");
    const since = new Date(Date.now() - 1_000).toISOString();
    const mine: CheckoutSessionResource[] = [];
    for (let i = 1; i <= 5; i += 1) mine.push(await api.open({ reference: `${prefix}-${i}`, customer: null }));

    // Page by page, two at a time, opening two more sessions between pages.
    const seen: CheckoutSessionResource[] = [];
    const openedMeanwhile: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await documented("GET", await api.list({ createdFrom: since, limit: "2", ...(cursor ? { cursor } : {}) }));
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data);
      cursor = page.body.nextCursor;
      expect(page.body.hasMore).toBe(cursor !== null);
      for (const n of [1, 2]) openedMeanwhile.push((await api.open({ reference: `${prefix}-new-${seen.length}-${n}`, customer: null })).id);
    } while (cursor);
    const ids = seen.map((session) => session.id);
    expect(new Set(ids).size).toBe(ids.length);
    // Mine, each once, newest first; none of those opened while paging (other specs' sessions may be there too).
    expect(ids.filter((id) => mine.some((session) => session.id === id))).toEqual(mine.map((session) => session.id).toReversed());
    expect(ids.filter((id) => openedMeanwhile.includes(id))).toEqual([]);
    expect(seen.find((session) => session.id === mine[0]!.id)).toMatchObject({ bookingReference: `${prefix}-1`, state: "open" });

    // Filters: a booking reference, a state, a range that ends before them.
    const one = await documented("GET", await api.list({ bookingReference: `${prefix}-3` }));
    expect(one.body.data.map((session) => session.id)).toEqual([mine[2]!.id]);
    expect((await api.cancel(mine[1]!.id)).status()).toBe(200);
    const cancelled = await documented("GET", await api.list({ createdFrom: since, state: "cancelled,refunded", limit: "100" }));
    expect(cancelled.body.data.map((session) => session.id)).toContain(mine[1]!.id);
    expect(cancelled.body.data.every((session) => ["cancelled", "refunded"].includes(session.state))).toBe(true);
    const before = await documented("GET", await api.list({ createdTo: since, bookingReference: `${prefix}-1` }));
    expect(before.body.data).toEqual([]);

    // Another partner's list has none of them.
    const blue = await documented("GET", await api.as(DEMO_PARTNERS["demo-blue"]).list({ createdFrom: since, limit: "100" }));
    expect(blue.body.data.filter((session) => session.bookingReference.startsWith(prefix))).toEqual([]);

    // A bad value: 400 naming it, in the API's format and headers.
    for (const [query, field] of [
      [{ limit: "101" }, "limit"],
      [{ state: "paid" }, "state"],
      [{ createdFrom: "yesterday" }, "createdFrom"],
      [{ cursor: "not-a-cursor" }, "cursor"],
      [{ sort: "asc" }, "sort"],
    ] as const) {
      const refused = await api.list(query);
      const answer = await documented("GET", refused);
      expect(answer.status, JSON.stringify(query)).toBe(400);
      expect(answer.body.error.code).toBe("validation_failed");
      expect(answer.body.error.fields.map((f) => f.field)).toEqual([field]);
      expect(refused.headers()["x-ratelimit-limit"]).toMatch(/^\d+$/);
    }
  });
});

test.describe("POST /api/checkout-sessions/{id}/cancel", () => {
  test("cancels a session before its customer signs (open, or choosing a plan); once at the provider, 409 with its state", async ({
    checkoutSessions: api,
    checkout,
    sandbox,
  }) => {
    // Open: no operation yet, it ends here.
    const open = await api.open({ customer: null });
    const cancelled = await documented("POST", await api.cancel(open.id));
    expect(cancelled).toMatchObject({ status: 200, body: { id: open.id, state: "cancelled", final: true, operation: null } });
    expect((await api.read(open.id)).state).toBe("cancelled");
    const again = await documented("POST", await api.cancel(open.id));
    expect(again).toMatchObject({ status: 409, body: { error: { code: "not_cancellable", state: "cancelled" } } });

    // Choosing a plan: the operation is cancelled at the partner API, with the reason.
    const choosing = await checkout.detailsSent(api, { reference: aBookingReference("E2E-CANCEL"), locale: "en" });
    const { operation } = await api.read(choosing.id);
    expect(await sandbox.status(operation!.id)).toBe("GENERATED");
    const answer = await documented("POST", await api.cancel(choosing.id, { reason: "The customer paid by card" }));
    expect(answer).toMatchObject({ status: 200, body: { state: "cancelled", operation: { id: operation!.id, status: "CANCELLED" } } });
    expect(await sandbox.status(operation!.id)).toBe("CANCELLED");
    expect((await sandbox.history(operation!.id)).at(-1)).toMatchObject({
      status: "CANCELLED",
      note: "cancelled: The customer paid by card",
    });

    // At the provider (signing): too late, the state says why; nothing changed there.
    const signing = await checkout.atProvider(api, aBookingReference("E2E-CANCEL"), APP_URL);
    const late = await documented("POST", await api.cancel(signing.sessionId));
    expect(late).toMatchObject({ status: 409, body: { error: { code: "not_cancellable", state: "pending" } } });
    expect(await sandbox.status(signing.operationId)).toBe("CLIENT_REQUESTED");
  });
});

test.describe("GET and POST /api/checkout-sessions/{id}/refund", () => {
  test("a signed, confirmed session: its breakdown, its refund keeping the agency's charge, then 409; the provider's refusal 422", async ({
    checkoutSessions: api,
    checkout,
    sandbox,
  }) => {
    const { sessionId, operationId } = await confirmedSession(api, checkout, sandbox);
    const details = await sandbox.refundDetails(operationId);
    const breakdown = await documented("GET", await api.refundBreakdown(sessionId));
    expect(breakdown).toMatchObject({
      status: 200,
      body: { sessionId, operationId, currency: "EUR", totalToRefundCents: Math.round(details.totalToRefund.amount * 100) },
    });
    const total = breakdown.body.totalToRefundCents;

    const refunded = await documented(
      "POST",
      await api.refund(sessionId, { agencyFeeCents: 1000, reason: "Trip cancelled", expectedTotalToRefundCents: total - 1000 }),
    );
    expect(refunded).toMatchObject({
      status: 200,
      body: {
        session: { id: sessionId, state: "refunded", final: true },
        refund: { agencyFeeCents: 1000, providerFeeCents: 0, chargesCents: 1000, totalToRefundCents: total - 1000 },
      },
    });
    expect(await sandbox.status(operationId)).toBe("REFUNDED");
    expect(await documented("POST", await api.refund(sessionId))).toMatchObject({
      status: 409,
      body: { error: { code: "not_refundable", state: "refunded" } },
    });
    expect(await documented("GET", await api.refundBreakdown(sessionId))).toMatchObject({ status: 409 });

    // The provider rejects it: said plainly, nothing changed.
    const rejected = await confirmedSession(api, checkout, sandbox, "ana+refund_reject@example.com");
    expect(await documented("POST", await api.refund(rejected.sessionId, { agencyFeeCents: 1000 }))).toMatchObject({
      status: 422,
      body: { error: { code: "refund_rejected", state: "confirmed" } },
    });
    expect(await sandbox.status(rejected.operationId)).toBe("CONFIRMED");

    // Before the customer signs: nothing to refund.
    const open = await api.open({ customer: null });
    expect(await documented("POST", await api.refund(open.id))).toMatchObject({
      status: 409,
      body: { error: { code: "not_refundable", state: "open" } },
    });
  });

  test("two refunds at once: one made, the other a 409, one refund at the provider", async ({
    checkoutSessions: api,
    checkout,
    sandbox,
  }) => {
    const { sessionId, operationId } = await confirmedSession(api, checkout, sandbox);
    const answers = await Promise.all([api.refund(sessionId), api.refund(sessionId)]);
    const statuses = answers.map((answer) => answer.status()).sort();
    expect(statuses).toEqual([200, 409]);
    const refused = await documented(
      "POST",
      answers.find((answer) => answer.status() === 409)!,
    );
    expect(["refund_in_progress", "not_refundable"]).toContain(refused.body.error.code);
    expect(await refundsAtProvider(sandbox, operationId)).toBe(1);
  });
});

test("another partner's session is not found on every call, and nothing changes", async ({ checkoutSessions: api, checkout, sandbox }) => {
  const { sessionId, operationId } = await confirmedSession(api, checkout, sandbox);
  const open = await api.open({ customer: null });
  const blue = api.as(DEMO_PARTNERS["demo-blue"]);
  for (const id of [sessionId, open.id]) {
    for (const [method, call] of [
      ["GET", () => blue.get(id)],
      ["POST", () => blue.cancel(id)],
      ["GET", () => blue.refundBreakdown(id)],
      ["POST", () => blue.refund(id, { agencyFeeCents: 0 })],
    ] as const) {
      expect(await documented(method, await call())).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    }
  }
  expect(await sandbox.status(operationId)).toBe("CONFIRMED");
  expect((await api.read(open.id)).state).toBe("open");
});

test("the back-office's audit log names the secret that cancelled and refunded, beside staff's own", async ({
  page,
  admin,
  checkoutSessions,
  checkout,
  sandbox,
}) => {
  test.setTimeout(180_000);
  // An administrator who may refund makes a secret for the partner's backend, named to be found,
  // that may open, read, cancel and refund.
  const name = `E2E actions ${Date.now().toString(36)}`;
  await admin.signIn(STAFF.aurora);
  await admin.shell.section("apiSecrets").click();
  const secrets = new ApiSecretsPanel(page, new PartnersConsole(page, "en").m);
  const secret = await secrets.create(name, ["sessions:read", "sessions:open", "sessions:cancel", "sessions:refund"]);
  const api = checkoutSessions.withSecret(secret);

  const open = await api.open({ customer: null });
  expect((await api.cancel(open.id, { reason: "Paid by card" })).status()).toBe(200);
  const { sessionId, operationId } = await confirmedSession(api, checkout, sandbox);
  expect((await api.refund(sessionId, { agencyFeeCents: 500 })).status()).toBe(200);

  const audit = new AuditPage(page, admin.m);
  await audit.goto({ kind: "operation_cancelled" });
  const cancelRow = audit.rowsWith(open.bookingReference);
  await expect(cancelRow).toHaveCount(1);
  await expect(cancelRow).toContainText(admin.m.audit.byApi(name));
  await expect(cancelRow).toContainText(admin.m.audit.results.ok);
  await expect(cancelRow).not.toContainText("Paid by card");
  await audit.goto({ kind: "operation_refunded" });
  const refundRow = audit.rowsWith(operationId);
  await expect(refundRow).toHaveCount(1);
  await expect(refundRow).toContainText(admin.m.audit.byApi(name));
  await expect(refundRow).toContainText(admin.m.audit.results.ok);

  await admin.shell.section("apiSecrets").click();
  await expect(secrets.row(name)).toBeVisible();
  await secrets.revokeAll(name);
  expect((await api.list()).status()).toBe(401);
});

test("the typed example client lists, cancels and refunds, a refund's retry with its key answered as the first", async ({
  request,
  checkoutSessions: api,
  checkout,
  sandbox,
}) => {
  const client = checkoutApi(`${APP_URL}/api`, DEMO_PARTNERS.demo.secret);
  const since = new Date(Date.now() - 1_000);
  const open = await api.open({ customer: null });
  expect((await sessionsSince(client, since, ["open"])).map((session) => session.id)).toContain(open.id);
  expect(await cancelCheckout(client, open.id, "Changed plans")).toMatchObject({ id: open.id, state: "cancelled" });
  expect(await cancelCheckout(client, open.id, "Again")).toBeUndefined();
  const { sessionId, operationId } = await confirmedSession(api, checkout, sandbox);
  const key = randomUUID();
  const refunded = await refundCheckout(client, sessionId, 1000, "Trip cancelled", key);
  expect(refunded.session.state).toBe("refunded");
  // The refund sent again with its key (a retry after an answer that got lost): the answer kept, nothing refunded twice.
  const again = await request.post(`/api/checkout-sessions/${sessionId}/refund`, {
    headers: { ...api.authorization, "Idempotency-Key": key },
    data: { agencyFeeCents: 1000, reason: "Trip cancelled", expectedTotalToRefundCents: refunded.refund.totalToRefundCents },
  });
  expect(again.status()).toBe(200);
  expect(again.headers()["idempotent-replayed"]).toBe("true");
  expect((await again.json()).refund).toEqual(refunded.refund);
  expect(await refundsAtProvider(sandbox, operationId)).toBe(1);
  await expect(refundCheckout(client, sessionId, 0, "Again", randomUUID())).rejects.toThrow(/^409 not_refundable: /);
  await assertAllowed(request);
});

/** The methods each new address takes, as its 405 and its OPTIONS say. */
async function assertAllowed(request: APIRequestContext): Promise<void> {
  for (const [path, allow] of [
    ["/api/checkout-sessions", "GET, HEAD, POST, OPTIONS"],
    ["/api/checkout-sessions/cs_doesnotexist000000000000/cancel", "POST, OPTIONS"],
    ["/api/checkout-sessions/cs_doesnotexist000000000000/refund", "GET, HEAD, POST, OPTIONS"],
  ] as const) {
    const refused = await request.fetch(path, { method: "PUT", failOnStatusCode: false });
    expect(refused.status()).toBe(405);
    expect(refused.headers()["allow"]).toBe(allow);
  }
}
