/**
 * A partner's backend cancelling and refunding its sessions through the checkout sessions API, on
 * the sandbox: the cancel before the customer signs (and the 409 after), the refund's breakdown
 * and the refund once signed (once, whatever arrives at the same moment), the provider's refusal
 * said plainly, another partner's session "not found" for every call, and each call that reached
 * the partner API in the partner's audit log under the secret's name.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/app-error";
import { errorResponse } from "@/lib/http/error-response";
import { auditEvents, partnerNotifications } from "@/lib/db/schema";
import { DEMO_BLUE_PARTNER_SECRET, DEMO_PARTNER_ID, seedDemoPartner } from "@/lib/demo/seed";
import { workSettled } from "@/lib/ops/lifecycle";
import { createApiSecret } from "@/lib/partners/api-secrets";
import { API_SCOPES } from "@/lib/vocabulary/api-scopes";
import { startSandboxServer, decideAtProvider } from "@/lib/sandbox/testing/servers";
import { chooseOffer, loadOffers, type CheckoutContext } from "../session/flow";
import { submitCustomer } from "../session/submit";
import type { CheckoutSession } from "../session/session-state";
import { createSession, requireSession } from "../session/sessions";
import { recordOperationStatus } from "../session/session-status";
import type { Partner } from "@/lib/partners/partners";
import { documented, documentedAnswers } from "../testing/api-document";
import { BROWSER, customerDraft, DEMO_SECRET, sessionInput, testContext, testBuckets } from "../testing/context";
import type { Database } from "@/lib/db";
import { handleCancelSession, handleGetRefund, handleRefundSession } from "./session-actions";
import { handleGetSession, type SessionsApiThrottles } from "./sessions-api";

let sandbox: Awaited<ReturnType<typeof startSandboxServer>>;
let database: Database;
let ctx: CheckoutContext;
let partner: Partner;
/** A secret of the demo partner's made for these tests, under a name of its own. */
let secret: string;
const SECRET_NAME = "Booking engine (tests)";
const APP_URL = "http://127.0.0.1:3999";
const IP = "198.51.100.77";
const context = () => Promise.resolve(ctx);

beforeAll(async () => {
  sandbox = await startSandboxServer();
  ({ ctx, database, partner } = await testContext(sandbox.baseUrl, { appUrl: APP_URL }));
  await seedDemoPartner(ctx.db, { secret: DEMO_SECRET, appUrl: APP_URL, secondPartner: true });
  const created = await createApiSecret(
    ctx.db,
    DEMO_PARTNER_ID,
    SECRET_NAME,
    API_SCOPES,
    { kind: "operator", id: "op_tests", name: "Olga Operator" },
    "sandbox",
    () => true,
  );
  if (!created.ok) throw new Error(created.reason);
  secret = created.secret;
});
afterAll(async () => {
  await sandbox?.close();
  await database?.close();
});

function throttles(actions = 100_000): SessionsApiThrottles {
  const buckets = testBuckets;
  return {
    createPerPartner: buckets(100_000),
    createPerIp: buckets(100_000),
    wrongSecretsPerIp: buckets(100_000),
    readsPerPartner: buckets(100_000),
    actionsPerPartner: buckets(actions),
    // Behind one proxy: the audit's address is X-Forwarded-For's last entry.
    trustedProxyHops: 1,
  };
}

function request(path: string, body?: unknown, as = secret): Request {
  return new Request(`http://localhost/api/checkout-sessions/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${as}`, "Content-Type": "application/json", "X-Forwarded-For": IP },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
}

// Every answer, and every refusal, checked against the API's document as it is given.
const cancel = (id: string, body: unknown = {}, as = secret, limits = throttles()) =>
  documented("POST", `/checkout-sessions/${id}/cancel`, handleCancelSession(request(`${id}/cancel`, body, as), id, limits, context));
const breakdown = (id: string, as = secret) =>
  documented("GET", `/checkout-sessions/${id}/refund`, handleGetRefund(request(`${id}/refund`, undefined, as), id, throttles(), context));
const refund = (id: string, body: unknown = {}, as = secret) =>
  documented("POST", `/checkout-sessions/${id}/refund`, handleRefundSession(request(`${id}/refund`, body, as), id, throttles(), context));

/** The whole refusal, as the route answers it. */
async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error, "expected a refusal").toBeInstanceOf(AppError);
  const response = errorResponse(error);
  const body = (await response.json()) as { error: { code: string; message: string; state?: string; fields?: { field: string }[] } };
  return { status: response.status, ...body.error };
}

/** The sessions's audit events of a kind, by its operation or, without one, its booking reference. */
async function audited(kind: "operation_cancelled" | "operation_refunded", session: CheckoutSession) {
  const rows = await ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.kind, kind), eq(auditEvents.partnerId, DEMO_PARTNER_ID)));
  return rows.filter((row) => row.details?.bookingReference === session.bookingReference);
}

async function sandboxStatus(operationId: string): Promise<string> {
  return (await ctx.clientFor(partner).getStatus(operationId)).status.status;
}

/** A new session whose customer sent their details: choosing a plan, the operation GENERATED. */
async function choosingSession(): Promise<CheckoutSession> {
  const { session } = await createSession(ctx.db, partner, sessionInput({}, APP_URL));
  const sent = await submitCustomer(ctx, session.id, customerDraft(), BROWSER);
  if (!sent.ok) throw new Error("expected the details to be taken");
  return requireSession(ctx.db, session.id);
}

/** A session whose customer chose a plan (at the provider) and, with `decision`, was decided on there. */
async function signedSession(email = "ana@example.com", decision?: "approve"): Promise<CheckoutSession> {
  const { session } = await createSession(ctx.db, partner, sessionInput({}, APP_URL));
  if (!(await submitCustomer(ctx, session.id, customerDraft(email), BROWSER)).ok) throw new Error("expected the details to be taken");
  const view = await loadOffers(ctx, await requireSession(ctx.db, session.id));
  if (view.kind !== "offers") throw new Error("expected offers");
  if ((await chooseOffer(ctx, session.id, view.offers[0]!.id)).kind !== "redirect") throw new Error("expected the provider");
  if (!(await workSettled(5_000))) throw new Error("the status read after the plan request did not settle");
  const atProvider = await requireSession(ctx.db, session.id);
  if (decision) await decideAtProvider(sandbox.origin, atProvider.operationId!, decision);
  return atProvider;
}

describe("POST /api/checkout-sessions/{id}/cancel", () => {
  it("cancels an open session here (no operation yet), tells the partner, audits it by the secret's name and creator, and only once", async () => {
    const { session } = await createSession(ctx.db, partner, sessionInput({}, APP_URL));
    const answer = await cancel(session.id, { reason: "Paid by card instead" });
    expect(answer).toEqual({
      status: 200,
      body: expect.objectContaining({ id: session.id, state: "cancelled", final: true, operation: null }),
    });

    const [event, ...more] = await audited("operation_cancelled", session);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      result: "ok",
      apiActor: SECRET_NAME,
      staffUserId: null,
      operationId: null,
      ip: IP,
      // The secret, and who created it.
      details: {
        bookingReference: session.bookingReference,
        apiSecretId: expect.stringMatching(/^sec_/),
        apiSecretCreatedByKind: "operator",
        apiSecretCreatedBy: "Olga Operator",
      },
    });
    expect(JSON.stringify(event)).not.toContain("Paid by card");
    const told = await ctx.db.select().from(partnerNotifications).where(eq(partnerNotifications.sessionId, session.id));
    expect(told.map((n) => n.state)).toEqual(["cancelled"]);

    // Already final: 409 with the state, nothing more audited.
    expect(await refusal(cancel(session.id))).toMatchObject({ status: 409, code: "not_cancellable", state: "cancelled" });
    expect(await audited("operation_cancelled", session)).toHaveLength(1);
    // The customer can no longer send their details.
    expect(await submitCustomer(ctx, session.id, customerDraft(), BROWSER)).toMatchObject({ ok: false, failure: "closed" });
  });

  it("cancels the operation at the partner API while the customer is choosing a plan, with the reason", async () => {
    const session = await choosingSession();
    const answer = await cancel(session.id, { reason: "Customer changed plans" });
    expect(answer.body).toMatchObject({ state: "cancelled", final: true, operation: { id: session.operationId, status: "CANCELLED" } });
    expect(await sandboxStatus(session.operationId!)).toBe("CANCELLED");
    const history = (await (
      await fetch(`${sandbox.origin}/sandbox/_control/operations/${session.operationId}`, {
        headers: { "X-Service-API-Key": "fk_test_sandbox_agency_101" },
      })
    ).json()) as { history: { status: string; note?: string }[] };
    expect(history.history.at(-1)).toMatchObject({ status: "CANCELLED", note: "cancelled: Customer changed plans" });
    expect(await audited("operation_cancelled", session)).toMatchObject([
      { result: "ok", apiActor: SECRET_NAME, operationId: session.operationId },
    ]);
    // An empty body cancels too (no reason): here already cancelled, so 409.
    expect(await refusal(cancel(session.id, ""))).toMatchObject({ status: 409, code: "not_cancellable", state: "cancelled" });
  });

  it("once the customer asked the provider (signing) or after: 409 not_cancellable with the state, nothing asked of the API", async () => {
    const pending = await signedSession();
    expect(await refusal(cancel(pending.id))).toMatchObject({ status: 409, code: "not_cancellable", state: "pending" });
    expect(await sandboxStatus(pending.operationId!)).toBe("CLIENT_REQUESTED");
    expect(await audited("operation_cancelled", pending)).toEqual([]);
  });

  it("refuses a bad body with a 400 naming the field", async () => {
    const { session } = await createSession(ctx.db, partner, sessionInput({}, APP_URL));
    expect(await refusal(cancel(session.id, { reason: "x".repeat(256) }))).toMatchObject({ status: 400, fields: [{ field: "reason" }] });
    expect(await refusal(cancel(session.id, { reasons: "typo" }))).toMatchObject({ status: 400, fields: [{ field: "reasons" }] });
    expect(await refusal(cancel(session.id, { reason: 42 }))).toMatchObject({ status: 400, fields: [{ field: "reason" }] });
    expect(await refusal(cancel(session.id, "{nope"))).toMatchObject({ status: 400, fields: [{ field: "(body)" }] });
    expect((await handleGetSession(request(session.id), session.id, throttles(), context)).state).toBe("open");
  });

  it("counts against the partner's budget of cancels and refunds: 429 past it", async () => {
    const limits = throttles(1);
    const { session } = await createSession(ctx.db, partner, sessionInput({}, APP_URL));
    await cancel(session.id, {}, secret, limits);
    expect(await refusal(cancel(session.id, {}, secret, limits))).toMatchObject({ status: 429, code: "rate_limited" });
  });
});

describe("GET and POST /api/checkout-sessions/{id}/refund", () => {
  it("answers the breakdown of a signed, confirmed session as the partner API computes it, in cents", async () => {
    const session = await signedSession("ana@example.com", "approve");
    const details = await ctx.clientFor(partner).getRefundDetails(session.operationId!);
    expect(await breakdown(session.id)).toEqual({
      sessionId: session.id,
      operationId: session.operationId,
      currency: "EUR",
      totalReserveCents: details.totalReserve.cents,
      managementFeesCents: details.managementFees.cents,
      cancellationFeeCents: details.serviceCancellationFee.cents,
      cancellationFeePercentage: details.serviceCancellationFeePercentage,
      totalToRefundCents: details.totalToRefund.cents,
    });
  });

  it("refunds it keeping the charges, audits the amounts under the secret's name, and a second refund is a 409", async () => {
    const session = await signedSession("ana@example.com", "approve");
    const { totalToRefundCents } = await breakdown(session.id);
    const answer = await refund(session.id, {
      agencyFeeCents: 1000,
      providerFeeCents: 250,
      reason: "Trip cancelled",
      expectedTotalToRefundCents: totalToRefundCents - 1250,
    });
    expect(answer).toEqual({
      status: 200,
      body: {
        session: expect.objectContaining({ id: session.id, state: "refunded", final: true }),
        refund: {
          currency: "EUR",
          agencyFeeCents: 1000,
          providerFeeCents: 250,
          chargesCents: 1250,
          totalToRefundCents: totalToRefundCents - 1250,
        },
      },
    });
    expect(await sandboxStatus(session.operationId!)).toBe("REFUNDED");
    const [event, ...more] = await audited("operation_refunded", session);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      result: "ok",
      apiActor: SECRET_NAME,
      operationId: session.operationId,
      ip: IP,
      details: { agencyFeeCents: 1000, providerFeeCents: 250, chargesCents: 1250, totalToRefundCents: totalToRefundCents - 1250 },
    });
    expect(await refusal(refund(session.id))).toMatchObject({ status: 409, code: "not_refundable", state: "refunded" });
    expect(await refusal(breakdown(session.id))).toMatchObject({ status: 409, code: "not_refundable", state: "refunded" });
  });

  it("answers the session as stored when a webhook recorded the refund before the refund's own read of the status", async () => {
    const session = await signedSession("ana@example.com", "approve");
    const client = ctx.clientFor(partner);
    // The partner API's webhook, processed while the refund's answer is on its way back.
    const webhookFirst: typeof client = Object.assign(Object.create(client) as typeof client, {
      refund: async (...args: Parameters<typeof client.refund>) => {
        const change = await client.refund(...args);
        const read = await client.getStatus(session.operationId!);
        await recordOperationStatus(ctx.db, { sessionId: session.id, operationId: session.operationId! }, read.status, "webhook");
        return change;
      },
    });
    const answer = await handleRefundSession(request(`${session.id}/refund`, {}), session.id, throttles(), () =>
      Promise.resolve({ ...ctx, clientFor: () => webhookFirst }),
    );
    expect(answer.body.session).toMatchObject({ state: "refunded", operation: { status: "REFUNDED" } });
  });

  it("two refunds at once: one made, the other a 409, one refund at the provider", async () => {
    const session = await signedSession("ana@example.com", "approve");
    const answers = await Promise.allSettled([refund(session.id), refund(session.id)]);
    const made = answers.filter((answer) => answer.status === "fulfilled");
    expect(made).toHaveLength(1);
    const refused = await refusal(Promise.reject((answers.find((answer) => answer.status === "rejected") as PromiseRejectedResult).reason));
    expect(refused.status).toBe(409);
    expect(["refund_in_progress", "not_refundable"]).toContain(refused.code);
    const history = (await (
      await fetch(`${sandbox.origin}/sandbox/_control/operations/${session.operationId}`, {
        headers: { "X-Service-API-Key": "fk_test_sandbox_agency_101" },
      })
    ).json()) as { history: { status: string }[] };
    expect(history.history.filter((entry) => entry.status === "REFUNDED")).toHaveLength(1);
    expect((await audited("operation_refunded", session)).filter((event) => event.result === "ok")).toHaveLength(1);
  });

  it("before the customer signed, or with no operation: 409 not_refundable with the state", async () => {
    const { session } = await createSession(ctx.db, partner, sessionInput({}, APP_URL));
    expect(await refusal(breakdown(session.id))).toMatchObject({ status: 409, code: "not_refundable", state: "open" });
    expect(await refusal(refund(session.id))).toMatchObject({ status: 409, code: "not_refundable", state: "open" });
    const pending = await signedSession();
    expect(await refusal(breakdown(pending.id))).toMatchObject({ status: 409, code: "not_refundable", state: "pending" });
    expect(await refusal(refund(pending.id))).toMatchObject({ status: 409, code: "not_refundable", state: "pending" });
    expect(await audited("operation_refunded", pending)).toEqual([]);
  });

  it("the provider's refusal: 422 refund_rejected, nothing changed, the attempt audited", async () => {
    const session = await signedSession("ana+refund_reject@example.com", "approve");
    expect(await refusal(refund(session.id, { agencyFeeCents: 1000 }))).toMatchObject({
      status: 422,
      code: "refund_rejected",
      state: "confirmed",
    });
    expect(await sandboxStatus(session.operationId!)).toBe("CONFIRMED");
    expect(await audited("operation_refunded", session)).toMatchObject([
      { result: "failed", apiActor: SECRET_NAME, details: { status: 422 } },
    ]);
  });

  it("refuses charges it cannot refund, a total that moved and a bad body with a 4xx naming the field, refunding nothing", async () => {
    const session = await signedSession("ana@example.com", "approve");
    const { totalToRefundCents } = await breakdown(session.id);
    expect(await refusal(refund(session.id, { agencyFeeCents: totalToRefundCents, providerFeeCents: 1 }))).toMatchObject({
      status: 400,
      code: "validation_failed",
      fields: [{ field: "agencyFeeCents" }, { field: "providerFeeCents" }],
    });
    expect(await refusal(refund(session.id, { expectedTotalToRefundCents: totalToRefundCents - 1 }))).toMatchObject({
      status: 409,
      code: "conflict",
      fields: [{ field: "expectedTotalToRefundCents" }],
    });
    for (const [body, field] of [
      [{ agencyFeeCents: -1 }, "agencyFeeCents"],
      [{ agencyFeeCents: 10.5 }, "agencyFeeCents"],
      [{ providerFeeCents: "10" }, "providerFeeCents"],
      [{ agencyFee: 10 }, "agencyFee"],
      [{ reason: "x".repeat(256) }, "reason"],
    ] as const) {
      expect((await refusal(refund(session.id, body))).fields, JSON.stringify(body)).toEqual([expect.objectContaining({ field })]);
    }
    expect(await sandboxStatus(session.operationId!)).toBe("CONFIRMED");
    expect(await audited("operation_refunded", session)).toEqual([]);
    // All of it, exactly: fine.
    expect((await refund(session.id, { agencyFeeCents: totalToRefundCents })).body.refund.totalToRefundCents).toBe(0);
  });
});

describe("another partner's session", () => {
  it("is not found for every call, and nothing is asked of the partner API", async () => {
    const confirmed = await signedSession("ana@example.com", "approve");
    const { session: open } = await createSession(ctx.db, partner, sessionInput({}, APP_URL));
    for (const session of [open, confirmed]) {
      for (const call of [
        cancel(session.id, {}, DEMO_BLUE_PARTNER_SECRET),
        breakdown(session.id, DEMO_BLUE_PARTNER_SECRET),
        refund(session.id, {}, DEMO_BLUE_PARTNER_SECRET),
        // With a bad body too: the session is looked for first.
        refund(session.id, { agencyFee: "x" }, DEMO_BLUE_PARTNER_SECRET),
      ]) {
        expect(await refusal(call)).toMatchObject({ status: 404, code: "not_found" });
      }
    }
    expect(await sandboxStatus(confirmed.operationId!)).toBe("CONFIRMED");
    expect((await handleGetSession(request(open.id), open.id, throttles(), context)).state).toBe("open");
    expect(await audited("operation_cancelled", open)).toEqual([]);
    expect(await audited("operation_refunded", confirmed)).toEqual([]);
  });
});

describe("the answers above", () => {
  it("were each what the API's document says, and covered every answer of these calls but the 5xx", () => {
    const covered = documentedAnswers();
    for (const answer of [
      "POST /checkout-sessions/{id}/cancel 200",
      "POST /checkout-sessions/{id}/cancel 400",
      "POST /checkout-sessions/{id}/cancel 404",
      "POST /checkout-sessions/{id}/cancel 409",
      "POST /checkout-sessions/{id}/cancel 429",
      "GET /checkout-sessions/{id}/refund 200",
      "GET /checkout-sessions/{id}/refund 404",
      "GET /checkout-sessions/{id}/refund 409",
      "POST /checkout-sessions/{id}/refund 200",
      "POST /checkout-sessions/{id}/refund 400",
      "POST /checkout-sessions/{id}/refund 404",
      "POST /checkout-sessions/{id}/refund 409",
      "POST /checkout-sessions/{id}/refund 422",
    ]) {
      expect(covered).toContain(answer);
    }
  });
});
