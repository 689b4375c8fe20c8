/**
 * The checkout's domain rules against the sandbox over real HTTP, on an embedded database:
 * sessions (idempotency, conflicts), the customer's data, offers, choosing (double submits,
 * refusals, alternatives), and statuses that only move forward.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/app-error";
import type { Database } from "@/lib/db";
import { partnerNotifications, partners } from "@/lib/db/schema";
import { forgetPartner } from "@/lib/partners/cache";
import { decideAtProvider, startSandboxServer } from "@/lib/sandbox/testing/servers";
import { MAX_CORRECTIONS } from "./customer-editor";
import { chooseOffer, loadOffers, pollStatus, providerTarget, refreshStatus, statusView, type CheckoutContext } from "./flow";
import { submitCustomer } from "./submit";
import type { Partner } from "@/lib/partners/partners";
import { getCustomerDraft } from "./customer-store";
import { attachOperation } from "./operation-link";
import { partnerSessionView, sessionState } from "./session-state";
import { createSession, requireSession } from "./sessions";
import { claimFinancingStart, markNotEligible, recordOperationStatus, statusHistory } from "./session-status";
import { DEMO_BLUE_PARTNER_ID, seedDemoPartner } from "@/lib/demo/seed";
import { partnerById } from "@/lib/partners/partners";
import { workSettled } from "@/lib/ops/lifecycle";
import { sessionResource } from "../api/sessions-api";
import { BROWSER, customerDraft, DEMO_SECRET, recordingFetch, sessionInput, testContext, type RecordedCall } from "../testing/context";

let server: Awaited<ReturnType<typeof startSandboxServer>>;
let database: Database;
let ctx: CheckoutContext;
let partner: Partner;
const recorded: RecordedCall[] = [];
/** The partner API calls made, as "METHOD /path". */
const calls = () => recorded.map((call) => `${call.method} ${call.path}`);

beforeAll(async () => {
  server = await startSandboxServer();
  ({ ctx, database, partner } = await testContext(server.baseUrl, { fetch: recordingFetch(recorded) }));
});

afterAll(async () => {
  await database?.close();
  await server?.close();
});

/** The notifications written for a session, in order. */
function notificationsOf(sessionId: string) {
  return ctx.db.select().from(partnerNotifications).where(eq(partnerNotifications.sessionId, sessionId)).orderBy(partnerNotifications.seq);
}

/** A session whose customer has sent valid data (the operation exists). */
async function sessionWithOperation(email?: string) {
  const { session } = await createSession(ctx.db, partner, sessionInput());
  expect(await submitCustomer(ctx, session.id, customerDraft(email), BROWSER)).toEqual({ ok: true });
  return requireSession(ctx.db, session.id);
}

describe("sessions", () => {
  it("are idempotent per partner and booking reference, also when created concurrently", async () => {
    const input = sessionInput();
    const results = await Promise.all(Array.from({ length: 10 }, () => createSession(ctx.db, partner, input)));
    expect(new Set(results.map((r) => r.session.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(results[0]!.session.id).toMatch(/^cs_[\w-]{24}$/);
  });

  it("refuse the same reference for a different booking (409), and a return URL off the partner's origins", async () => {
    const input = sessionInput();
    await createSession(ctx.db, partner, input);
    const changed = { ...input, booking: { ...input.booking, totalPrice: { amount: 999, currency: "EUR" as const } } };
    await expect(createSession(ctx.db, partner, changed)).rejects.toMatchObject({ code: "conflict", status: 409 });
    await expect(createSession(ctx.db, partner, sessionInput({ returnUrl: "https://evil.example/" }))).rejects.toBeInstanceOf(AppError);
  });

  it("keep the partner's prefill apart, as a draft", async () => {
    const { session } = await createSession(ctx.db, partner, sessionInput({ customer: { firstName: "Ana", email: "ana@example.com" } }));
    expect(await getCustomerDraft(ctx.db, session.id)).toMatchObject({
      draft: { firstName: "Ana", email: "ana@example.com" },
      submitted: false,
    });
    expect(sessionState(session)).toBe("open");
  });

  it("expire after their time to live", async () => {
    const { session } = await createSession(ctx.db, partner, sessionInput(), new Date(Date.now() - 25 * 3600 * 1000));
    expect(sessionState(session)).toBe("expired");
    expect(await submitCustomer(ctx, session.id, customerDraft(), BROWSER)).toMatchObject({ ok: false, failure: "expired" });
  });
});

describe("statuses only move forward", () => {
  /** A session linked to a made-up operation id: these rules are the database's, no API involved. */
  async function sessionHolding(operationId: string) {
    const { session } = await createSession(ctx.db, partner, sessionInput());
    await attachOperation(ctx.db, session.id, operationId);
    return { session, target: { sessionId: session.id, operationId } };
  }

  it("ignore an older report, take a newer one, order same-second ones by progress, and keep history", async () => {
    const { session, target } = await sessionHolding("op_forward");
    const t = (s: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, s)).toISOString();
    expect(await recordOperationStatus(ctx.db, target, { status: "CLIENT_REQUESTED", updatedAt: t(10) }, "return")).toBe(true);
    expect(await recordOperationStatus(ctx.db, target, { status: "GENERATED", updatedAt: t(5) }, "webhook")).toBe(false);
    expect(await recordOperationStatus(ctx.db, target, { status: "FAVORABLE", updatedAt: t(20) }, "poll")).toBe(true);
    expect(await recordOperationStatus(ctx.db, target, { status: "CONFIRMED", updatedAt: t(20) }, "poll")).toBe(true);
    expect(await recordOperationStatus(ctx.db, target, { status: "FAVORABLE", updatedAt: t(20) }, "webhook")).toBe(false);
    expect(await recordOperationStatus(ctx.db, target, { status: "CONFIRMED", updatedAt: t(20) }, "webhook")).toBe(false);
    expect((await requireSession(ctx.db, session.id)).operationStatus).toBe("CONFIRMED");
    expect((await statusHistory(ctx.db, session.id)).map((h) => [h.status, h.source])).toEqual([
      ["CLIENT_REQUESTED", "return"],
      ["FAVORABLE", "poll"],
      ["CONFIRMED", "poll"],
    ]);
  });

  it("apply once when many reports race", async () => {
    const { target } = await sessionHolding("op_race");
    const report = { status: "REFUSED" as const, updatedAt: new Date().toISOString() };
    const applied = await Promise.all(Array.from({ length: 20 }, () => recordOperationStatus(ctx.db, target, report, "webhook")));
    expect(applied.filter(Boolean)).toHaveLength(1);
  });

  it("a report about an operation a correction detached does not land on the session that replaced it", async () => {
    // A webhook (or poll) read the old operation's status just before the customer's correction
    // cancelled and replaced it; its write comes after.
    const session = await sessionWithOperation();
    const old = session.operationId!;
    expect(await submitCustomer(ctx, session.id, { ...customerDraft(), firstName: "Anabel" }, BROWSER)).toEqual({ ok: true });
    const replaced = await requireSession(ctx.db, session.id);
    expect(replaced.operationId).not.toBe(old);

    const late = { status: "CANCELLED" as const, updatedAt: new Date(Date.now() + 60_000).toISOString() };
    expect(await recordOperationStatus(ctx.db, { sessionId: session.id, operationId: old }, late, "webhook")).toBe(false);
    const after = await requireSession(ctx.db, session.id);
    expect(after.operationId).toBe(replaced.operationId);
    expect(after.operationStatus).toBe(replaced.operationStatus);
    expect(sessionState(after)).toBe("choosing");
  });
});

describe("the customer's data", () => {
  it("is validated field by field, and nothing is created when it is wrong", async () => {
    const { session } = await createSession(ctx.db, partner, sessionInput());
    const result = await submitCustomer(ctx, session.id, { ...customerDraft(), documentId: "12345678A", birthDate: "2015-01-01" }, BROWSER);
    expect(result).toMatchObject({ ok: false, errors: { documentId: "dni_letter", birthDate: "minor" } });
    expect((await requireSession(ctx.db, session.id)).operationId).toBeNull();
  });

  it("creates the operation with the booking reference, our return handlers and our webhook route", async () => {
    const session = await sessionWithOperation();
    expect(session.operationId).toMatch(/^op_/);
    expect(sessionState(session)).toBe("choosing");
    const detail = await fetch(`${server.origin}/sandbox/_control/operations/${session.operationId}`, {
      headers: { "X-Service-API-Key": "fk_test_sandbox_agency_101" },
    }).then((r) => r.json());
    expect(detail.externalId).toBe(session.bookingReference);
    const { request } = await server.sandbox.engine.getOperation(
      server.sandbox.engine.authenticate("fk_test_sandbox_agency_101", null),
      session.operationId!,
    );
    expect(request.successRedirectUrl).toBe(`${ctx.appUrl}/checkout/${session.id}/return/success`);
    expect(request.errorRedirectUrl).toBe(`${ctx.appUrl}/checkout/${session.id}/return/error`);
    expect(request.webhookUrl).toBe(`${ctx.appUrl}/api/webhooks/financing/${ctx.webhookToken}`);
    expect(request.client.birthDate).toBe("04-07-1990");
    expect(request).not.toHaveProperty("client.documentType");
  });

  it("a second submit does not create a second operation", async () => {
    const session = await sessionWithOperation();
    expect(await submitCustomer(ctx, session.id, customerDraft(), BROWSER)).toEqual({ ok: true });
    expect((await requireSession(ctx.db, session.id)).operationId).toBe(session.operationId);
  });

  it("a correction after Back reaches the provider: the operation is cancelled, a new one is created as {reference}~1 with the new data", async () => {
    const session = await sessionWithOperation();
    const first = session.operationId!;
    const corrected = { ...customerDraft(), firstName: "Anabel", documentId: "87654321X" };
    recorded.length = 0;
    expect(await submitCustomer(ctx, session.id, corrected, BROWSER)).toEqual({ ok: true });
    expect(calls()).toEqual([`POST /operations/${first}/cancel`, "POST /operations"]);

    const after = await requireSession(ctx.db, session.id);
    expect(after.operationId).toMatch(/^op_/);
    expect(after.operationId).not.toBe(first);
    expect(after.operationAttempt).toBe(1);
    expect(sessionState(after)).toBe("choosing");
    const caller = server.sandbox.engine.authenticate("fk_test_sandbox_agency_101", null);
    const old = await server.sandbox.engine.getOperation(caller, first);
    expect(old.status).toBe("CANCELLED");
    const replacement = await server.sandbox.engine.getOperation(caller, after.operationId!);
    expect(replacement.externalId).toBe(`${session.bookingReference}~1`);
    expect(replacement.request.client).toMatchObject({ firstName: "Anabel", documentId: "87654321X" });
    expect(await getCustomerDraft(ctx.db, session.id)).toMatchObject({ status: "present", draft: { firstName: "Anabel" } });

    // The same corrected data again (a double submit): nothing more is sent.
    recorded.length = 0;
    expect(await submitCustomer(ctx, session.id, corrected, BROWSER)).toEqual({ ok: true });
    expect(calls()).toEqual([]);
    // A second correction gets the next derived id.
    expect(await submitCustomer(ctx, session.id, { ...corrected, firstName: "Ana" }, BROWSER)).toEqual({ ok: true });
    const third = await requireSession(ctx.db, session.id);
    expect((await server.sandbox.engine.getOperation(caller, third.operationId!)).externalId).toBe(`${session.bookingReference}~2`);
  });

  it("another partner's booking under the same reference, in the agency both act for, gets an operation of its own", async () => {
    await seedDemoPartner(ctx.db, { secret: DEMO_SECRET, appUrl: ctx.appUrl, secondPartner: true });
    const blue = (await partnerById(ctx.db, DEMO_BLUE_PARTNER_ID))!;
    const input = sessionInput();
    const { session: aurora } = await createSession(ctx.db, partner, input);
    const { session: rutas } = await createSession(ctx.db, blue, input);
    expect(rutas.id).not.toBe(aurora.id);
    expect(await submitCustomer(ctx, aurora.id, customerDraft(), BROWSER)).toEqual({ ok: true });
    const theirs = (await requireSession(ctx.db, aurora.id)).operationId!;

    // The partner API answers the same externalId with Aurora's operation: Rutas Azules takes the next one.
    const other = { ...customerDraft("luis@example.com"), firstName: "Luis" };
    expect(await submitCustomer(ctx, rutas.id, other, BROWSER)).toEqual({ ok: true });
    const ours = await requireSession(ctx.db, rutas.id);
    expect(ours.operationId).toMatch(/^op_/);
    expect(ours.operationId).not.toBe(theirs);
    expect(ours.operationAttempt).toBe(1);
    expect(sessionState(ours)).toBe("choosing");
    const caller = server.sandbox.engine.authenticate("fk_test_sandbox_agency_101", null);
    const operation = await server.sandbox.engine.getOperation(caller, ours.operationId!);
    expect(operation.externalId).toBe(`${input.booking.bookingReference}~1`);
    expect(operation.request.client).toMatchObject({ firstName: "Luis" });
    // Aurora's is untouched, and still only Aurora's.
    expect((await requireSession(ctx.db, aurora.id)).operationId).toBe(theirs);
    expect((await server.sandbox.engine.getOperation(caller, theirs)).request.client).toMatchObject({
      firstName: customerDraft().firstName,
    });
  });

  it("an operation a correction replaced is nobody's to take: another booking under the same reference skips it", async () => {
    await seedDemoPartner(ctx.db, { secret: DEMO_SECRET, appUrl: ctx.appUrl, secondPartner: true });
    const blue = (await partnerById(ctx.db, DEMO_BLUE_PARTNER_ID))!;
    const input = sessionInput();
    const { session: aurora } = await createSession(ctx.db, partner, input);
    expect(await submitCustomer(ctx, aurora.id, customerDraft(), BROWSER)).toEqual({ ok: true });
    const replaced = (await requireSession(ctx.db, aurora.id)).operationId!;
    expect(await submitCustomer(ctx, aurora.id, { ...customerDraft(), firstName: "Anabel" }, BROWSER)).toEqual({ ok: true });
    const current = (await requireSession(ctx.db, aurora.id)).operationId!;

    // The partner API answers the reference with Aurora's cancelled operation, then {reference}~1 with
    // its current one: Rutas Azules takes neither, and gets {reference}~2, open for its customer.
    const { session: rutas } = await createSession(ctx.db, blue, input);
    expect(await submitCustomer(ctx, rutas.id, { ...customerDraft("luis@example.com"), firstName: "Luis" }, BROWSER)).toEqual({ ok: true });
    const ours = await requireSession(ctx.db, rutas.id);
    expect([replaced, current]).not.toContain(ours.operationId);
    expect(ours.operationAttempt).toBe(2);
    expect(sessionState(ours)).toBe("choosing");
    const caller = server.sandbox.engine.authenticate("fk_test_sandbox_agency_101", null);
    expect((await server.sandbox.engine.getOperation(caller, ours.operationId!)).externalId).toBe(`${input.booking.bookingReference}~2`);
  });

  it("a correction once a plan is requested at the provider is refused, never accepted and dropped", async () => {
    const session = await sessionWithOperation();
    const offers = await loadOffers(ctx, session);
    if (offers.kind !== "offers") throw new Error("expected offers");
    expect(await chooseOffer(ctx, session.id, offers.offers[0]!.id)).toMatchObject({ kind: "redirect" });

    const corrected = { ...customerDraft(), firstName: "Anabel" };
    expect(await submitCustomer(ctx, session.id, corrected, BROWSER)).toMatchObject({ ok: false, failure: "closed" });
    const after = await requireSession(ctx.db, session.id);
    expect(after.operationId).toBe(session.operationId);
    expect(await getCustomerDraft(ctx.db, session.id)).toMatchObject({ status: "present", draft: { firstName: "Ana" } });
  });

  it("when the partner API is down, the data is kept and the customer can try again", async () => {
    const { session } = await createSession(ctx.db, partner, sessionInput());
    await fetch(`${server.origin}/sandbox/_control/faults`, {
      method: "PUT",
      headers: { "X-Service-API-Key": "fk_test_sandbox_agency_101", "Content-Type": "application/json" },
      body: JSON.stringify({ route: "POST /operations", fault: "503", count: 3 }),
    });
    expect(await submitCustomer(ctx, session.id, customerDraft(), BROWSER)).toMatchObject({ ok: false, failure: "unavailable" });
    expect((await getCustomerDraft(ctx.db, session.id))?.submitted).toBe(true);
    expect(await submitCustomer(ctx, session.id, customerDraft(), BROWSER)).toEqual({ ok: true });
  });
});

describe("the customer's data, bound to the browser that sent it", () => {
  it("another browser with only the link cannot correct it: nothing changes, nothing reaches the partner API", async () => {
    const session = await sessionWithOperation();
    recorded.length = 0;
    const attacker = { ...customerDraft("mallory@example.com"), firstName: "Mallory", documentId: "87654321X" };
    expect(await submitCustomer(ctx, session.id, attacker, "another-browser")).toEqual({ ok: false, failure: "not_editor", draft: {} });
    expect(calls()).toEqual([]);
    expect((await requireSession(ctx.db, session.id)).operationId).toBe(session.operationId);
    expect(await getCustomerDraft(ctx.db, session.id)).toMatchObject({
      status: "present",
      draft: { firstName: "Ana", email: "ana@example.com" },
    });
  });

  it("a correction types only what changes: a blank field keeps what was sent, and a failure hands back only what was typed", async () => {
    const session = await sessionWithOperation();
    const blanks = { firstName: "", lastName: "", email: "", phone: "", documentId: "", documentValidityDate: "", birthDate: "" };
    const invalid = await submitCustomer(ctx, session.id, { ...blanks, phone: "12" }, BROWSER);
    // The stored data never comes back in the form's state: only the field typed.
    expect(invalid).toEqual({ ok: false, errors: { phone: "phone" }, draft: { ...blanks, phone: "12" } });

    expect(await submitCustomer(ctx, session.id, { ...blanks, firstName: "Anabel" }, BROWSER)).toEqual({ ok: true });
    const after = await requireSession(ctx.db, session.id);
    const caller = server.sandbox.engine.authenticate("fk_test_sandbox_agency_101", null);
    const { request } = await server.sandbox.engine.getOperation(caller, after.operationId!);
    expect(request.client).toMatchObject({
      firstName: "Anabel",
      lastName: customerDraft().lastName,
      documentId: customerDraft().documentId,
    });
  });

  it("a partner's prefill: its identity fields, shown masked, left blank keep the prefill; the name typed replaces it", async () => {
    const prefill = { ...customerDraft(), documentType: "DNI" as const };
    const { session } = await createSession(ctx.db, partner, sessionInput({ customer: prefill }));
    const blanks = { phone: "", documentId: "", documentValidityDate: "", birthDate: "", address: "" };
    // A blank name is not kept: the name is shown in full, so blank means the customer cleared it.
    expect(await submitCustomer(ctx, session.id, { ...prefill, ...blanks, firstName: "" }, BROWSER)).toMatchObject({
      ok: false,
      errors: { firstName: "required" },
    });
    expect(await submitCustomer(ctx, session.id, { ...prefill, ...blanks, firstName: "Anabel" }, BROWSER)).toEqual({ ok: true });
    const after = await requireSession(ctx.db, session.id);
    const caller = server.sandbox.engine.authenticate("fk_test_sandbox_agency_101", null);
    const { request } = await server.sandbox.engine.getOperation(caller, after.operationId!);
    expect(request.client).toMatchObject({ firstName: "Anabel", documentId: prefill.documentId, phone: prefill.phone });
  });

  it("corrections are capped per session: then refused with nothing sent upstream; the data as sent, again, is no correction", async () => {
    const session = await sessionWithOperation();
    for (const firstName of ["Anabel", "Anita", "Ani"].slice(0, MAX_CORRECTIONS)) {
      expect(await submitCustomer(ctx, session.id, { firstName }, BROWSER)).toEqual({ ok: true });
    }
    recorded.length = 0;
    expect(await submitCustomer(ctx, session.id, { firstName: "Zoe" }, BROWSER)).toMatchObject({
      ok: false,
      failure: "too_many_corrections",
    });
    expect(calls()).toEqual([]);
    expect(await submitCustomer(ctx, session.id, {}, BROWSER)).toEqual({ ok: true });
    expect(calls()).toEqual([]);
  });

  it("eight corrections posted at once replace the operation at most the cap's number of times", async () => {
    const session = await sessionWithOperation();
    recorded.length = 0;
    const names = ["Anabel", "Anita", "Ani", "Annie", "Anja", "Anouk", "Antonia", "Ania"];
    const results = await Promise.all(names.map((firstName) => submitCustomer(ctx, session.id, { firstName }, BROWSER)));
    expect(calls().filter((call) => call.endsWith("/cancel")).length).toBeLessThanOrEqual(MAX_CORRECTIONS);
    expect(calls().filter((call) => call === "POST /operations").length).toBeLessThanOrEqual(MAX_CORRECTIONS);
    expect(results.filter((r) => !r.ok && "failure" in r && r.failure === "too_many_corrections")).toHaveLength(
      names.length - MAX_CORRECTIONS,
    );
  });
});

describe("offers and choosing", () => {
  it("offers come sorted by installments, then by what they cost", async () => {
    const session = await sessionWithOperation();
    const view = await loadOffers(ctx, session);
    expect(view.kind).toBe("offers");
    if (view.kind !== "offers") return;
    const counts = view.offers.map((o) => o.installments);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });

  it("a plan request the API took while this instance died (no paymentUrl kept) still leads to the provider", async () => {
    const session = await sessionWithOperation();
    const view = await loadOffers(ctx, session);
    if (view.kind !== "offers") throw new Error("expected offers");
    const offer = view.offers[0]!;
    // The claim is taken and POST /financing reaches the API, whose answer never gets recorded.
    expect(await claimFinancingStart(ctx.db, session.id, offer)).toBe(true);
    expect((await ctx.clientFor(partner).startFinancing(session.operationId!, offer.id)).financingStatus).toBe("REQUESTED");
    await refreshStatus(ctx, session.id, "poll");
    const stuck = await requireSession(ctx.db, session.id);
    expect([sessionState(stuck), stuck.operationStatus, stuck.paymentUrl]).toEqual(["pending", "CLIENT_REQUESTED", null]);
    // Choosing again cannot help (the API took the request): the status page, which links here.
    expect(await chooseOffer(ctx, session.id, offer.id)).toEqual({ kind: "redirect", url: `/checkout/${session.id}/status` });

    const target = await providerTarget(ctx, stuck);
    expect(target).toMatch(/\/sandbox\/pay\/financing\?/);
    const page = await (await fetch(target, { headers: { "Accept-Language": "en" } })).text();
    expect(page).toContain(`Continue at ${offer.companyName}`);
    // Nothing to sign for a session not at the provider: its status page.
    const choosing = await sessionWithOperation();
    expect(await providerTarget(ctx, choosing)).toBe(`/checkout/${choosing.id}/status`);
  });

  it("+not_eligible gets its own answer, and ends the session: not_eligible, final, notified, on the return link, for good", async () => {
    const session = await sessionWithOperation("ana+not_eligible@example.com");
    expect(await loadOffers(ctx, session)).toEqual({ kind: "not_eligible" });
    const ended = await requireSession(ctx.db, session.id);
    expect(statusView(ended)).toMatchObject({ state: "not_eligible", final: true });
    expect(new URL(statusView(ended).returnUrl).searchParams.get("outcome")).toBe("not_eligible");
    expect(sessionResource(ctx, ended, null)).toMatchObject({ state: "not_eligible", final: true, operation: { status: "GENERATED" } });
    const notified = await notificationsOf(session.id);
    expect(notified.map((n) => n.payload.type)).toEqual(["checkout.session.choosing", "checkout.session.not_eligible"]);
    // What GET answers, in the notification.
    const {
      url: _url,
      expiresAt: _e,
      createdAt: _c,
      updatedAt: _u,
      customerDataErasedAt: _d,
      ...resource
    } = sessionResource(ctx, ended, null);
    expect(notified[1]!.payload.data).toEqual(resource);

    // Loaded again (a reload): nothing more is written.
    expect(await loadOffers(ctx, ended)).toEqual({ kind: "not_eligible" });
    // The operation expiring later at the partner API is recorded, but the outcome stays.
    const expired = { status: "EXPIRED" as const, updatedAt: new Date(Date.now() + 60_000).toISOString() };
    expect(await recordOperationStatus(ctx.db, { sessionId: session.id, operationId: session.operationId! }, expired, "webhook")).toBe(
      true,
    );
    expect(sessionState(await requireSession(ctx.db, session.id))).toBe("not_eligible");
    expect(await notificationsOf(session.id)).toHaveLength(2);
    // Nothing goes on: no correction, no plan.
    expect(await submitCustomer(ctx, session.id, customerDraft("ana@example.com"), BROWSER)).toMatchObject({
      ok: false,
      failure: "closed",
    });
    expect(await chooseOffer(ctx, session.id, 1)).toEqual({ kind: "redirect", url: `/checkout/${session.id}/status` });
  });

  it("a plan chosen on an operation that is not eligible ends the session too, and leads to the status", async () => {
    const session = await sessionWithOperation("ana+not_eligible@example.com");
    expect(await chooseOffer(ctx, session.id, 1)).toEqual({ kind: "redirect", url: `/checkout/${session.id}/status` });
    expect(sessionState(await requireSession(ctx.db, session.id))).toBe("not_eligible");
  });

  it("a session past choosing is never marked not eligible", async () => {
    const session = await sessionWithOperation();
    const view = await loadOffers(ctx, session);
    if (view.kind !== "offers") throw new Error("expected offers");
    await chooseOffer(ctx, session.id, view.offers[0]!.id);
    expect(await markNotEligible(ctx.db, { sessionId: session.id, operationId: session.operationId! })).toBe(false);
    expect(sessionState(await requireSession(ctx.db, session.id))).toBe("pending");
  });

  it("choosing redirects to the provider; five simultaneous submits send POST /financing once", async () => {
    const session = await sessionWithOperation();
    const view = await loadOffers(ctx, session);
    if (view.kind !== "offers") throw new Error("expected offers");
    const before = calls().filter((c) => c === "POST /financing").length;
    const results = await Promise.all(Array.from({ length: 5 }, () => chooseOffer(ctx, session.id, view.offers[0]!.id)));
    expect(calls().filter((c) => c === "POST /financing").length - before).toBe(1);
    const redirects = results.filter((r) => r.kind === "redirect");
    expect(redirects.length).toBeGreaterThanOrEqual(1);
    expect(new Set(redirects.map((r) => (r.kind === "redirect" ? r.url : "")))).toEqual(
      new Set([expect.stringContaining("/sandbox/provider/checkout/")]),
    );
    expect(results.every((r) => r.kind === "redirect" || r.kind === "in_progress")).toBe(true);
    // Later repeats (the back button) go to the same provider checkout.
    expect(await chooseOffer(ctx, session.id, view.offers[0]!.id)).toEqual(redirects[0]);
    // The plan chosen is kept with its figures, for the status page.
    const { id: _id, extra: _extra, ...figures } = view.offers[0]!;
    expect((await requireSession(ctx.db, session.id)).chosenPlan).toEqual(figures);
  });

  it("the status is read again once a plan is requested, before `pending` is recorded: its notification and GET say the same status", async () => {
    const session = await sessionWithOperation();
    expect(session.operationStatus).toBe("GENERATED");
    const view = await loadOffers(ctx, session);
    if (view.kind !== "offers") throw new Error("expected offers");
    expect(await chooseOffer(ctx, session.id, view.offers[0]!.id)).toMatchObject({ kind: "redirect" });
    // Read before the redirect: nothing left in the background.
    const atProvider = await requireSession(ctx.db, session.id);
    expect([sessionState(atProvider), atProvider.operationStatus]).toEqual(["pending", "CLIENT_REQUESTED"]);
    expect(sessionResource(ctx, atProvider, null).operation).toMatchObject({ status: "CLIENT_REQUESTED" });
    const pending = (await notificationsOf(session.id)).find((n) => n.state === "pending")!;
    expect(pending.payload.data).toEqual(partnerSessionView(atProvider));
    expect(pending.payload.data.operation).toEqual(sessionResource(ctx, atProvider, null).operation);
    expect(atProvider.operationUpdatedAt!.getTime()).toBeGreaterThanOrEqual(session.operationUpdatedAt!.getTime());
    expect((await statusHistory(ctx.db, session.id)).map((entry) => entry.source)).toContain("action");
  });

  it("an offer id that is not the operation's is not trusted", async () => {
    const session = await sessionWithOperation();
    expect(await chooseOffer(ctx, session.id, 12345)).toEqual({ kind: "offer_gone" });
  });

  it.each([
    ["+refuse_offer", "refuse_offer", "refused", "REFUSED"],
    ["+error_offer", "error_offer", "error", "ERROR"],
  ] as const)(
    "%s: %s with alternatives, which no longer include that count; another plan is accepted",
    async (_name, tag, kind, financingStatus) => {
      const session = await sessionWithOperation(`ana+${tag}@example.com`);
      const first = await loadOffers(ctx, session);
      if (first.kind !== "offers") throw new Error("expected offers");
      const refused = first.offers[0]!;
      expect(await chooseOffer(ctx, session.id, refused.id)).toEqual({ kind, hasAlternatives: true });
      const after = await requireSession(ctx.db, session.id);
      expect(after).toMatchObject({ financingStatus, hasAlternatives: true });
      expect(sessionState(after)).toBe("choosing");
      const second = await loadOffers(ctx, after);
      if (second.kind !== "offers") throw new Error("expected offers");
      expect(second.offers.some((o) => o.installments === refused.installments)).toBe(false);
      const next = await chooseOffer(ctx, session.id, second.offers[0]!.id);
      expect(next).toEqual({ kind: "redirect", url: expect.stringContaining("/sandbox/provider/checkout/") });
    },
  );

  it("+refuse_all: refused without alternatives, the session ends refused", async () => {
    const session = await sessionWithOperation("ana+refuse_all@example.com");
    const view = await loadOffers(ctx, session);
    if (view.kind !== "offers") throw new Error("expected offers");
    expect(await chooseOffer(ctx, session.id, view.offers[0]!.id)).toEqual({ kind: "refused", hasAlternatives: false });
    expect(sessionState(await requireSession(ctx.db, session.id))).toBe("refused");
  });

  it("+error: the session ends in error", async () => {
    const session = await sessionWithOperation("ana+error@example.com");
    const view = await loadOffers(ctx, session);
    if (view.kind !== "offers") throw new Error("expected offers");
    expect(await chooseOffer(ctx, session.id, view.offers[0]!.id)).toEqual({ kind: "error", hasAlternatives: false });
    expect(sessionState(await requireSession(ctx.db, session.id))).toBe("error");
  });
});

describe("coming back", () => {
  it("the outcome is read from the partner API, not from the browser, and polling stops when it is final", async () => {
    const session = await sessionWithOperation();
    const view = await loadOffers(ctx, session);
    if (view.kind !== "offers") throw new Error("expected offers");
    await chooseOffer(ctx, session.id, view.offers[0]!.id);
    expect((await pollStatus(ctx, session.id)).state).toBe("pending");
    await decideAtProvider(server.origin, session.operationId!);
    const back = await refreshStatus(ctx, session.id, "return");
    expect(sessionState(back)).toBe("confirmed");
    const polled = await pollStatus(ctx, session.id);
    expect(polled).toMatchObject({ state: "confirmed", final: true, operationStatus: "CONFIRMED" });
    expect(new URL(polled.returnUrl).searchParams.get("outcome")).toBe("confirmed");
    const statusCalls = calls().filter((c) => c.endsWith(`/operations/${session.operationId}/status`)).length;
    await pollStatus(ctx, session.id);
    expect(calls().filter((c) => c.endsWith(`/operations/${session.operationId}/status`)).length).toBe(statusCalls);
  });

  it("the status page's poll uses the session it was given: nothing new locks nothing, a change on a copy read before it is recorded", async () => {
    const session = await sessionWithOperation();
    const view = await loadOffers(ctx, session);
    if (view.kind !== "offers") throw new Error("expected offers");
    await chooseOffer(ctx, session.id, view.offers[0]!.id);
    await pollStatus(ctx, session.id);
    const current = await requireSession(ctx.db, session.id);
    const transactions = vi.spyOn(ctx.db, "transaction");
    try {
      expect((await pollStatus(ctx, current)).state).toBe("pending");
      expect(transactions).not.toHaveBeenCalled();
      await decideAtProvider(server.origin, session.operationId!);
      // `current` was read before the decision: the poll records it all the same.
      expect(await pollStatus(ctx, current)).toMatchObject({ state: "confirmed", operationStatus: "CONFIRMED" });
      expect(transactions).toHaveBeenCalledTimes(1);
      expect((await requireSession(ctx.db, session.id)).operationStatus).toBe("CONFIRMED");
    } finally {
      transactions.mockRestore();
    }
  });
});

describe("a disabled partner's checkout", () => {
  async function setDisabled(disabled: boolean) {
    await ctx.db
      .update(partners)
      .set({ disabledAt: disabled ? new Date() : null })
      .where(eq(partners.id, partner.id));
    forgetPartner(partner.id);
  }

  it("goes no further: no data stored, no operation, no plan requested, nobody sent to the provider", async () => {
    const open = (await createSession(ctx.db, partner, sessionInput())).session;
    const choosing = await sessionWithOperation();
    const view = await loadOffers(ctx, choosing);
    if (view.kind !== "offers") throw new Error("expected offers");
    const pending = await sessionWithOperation();
    expect((await chooseOffer(ctx, pending.id, view.offers[0]!.id)).kind).toBe("redirect");
    // The status read that follows a plan request, off the customer's way: done before counting.
    expect(await workSettled(5_000)).toBe(true);
    const atProvider = await requireSession(ctx.db, pending.id);
    const before = calls().length;

    await setDisabled(true);
    try {
      expect(await submitCustomer(ctx, open.id, customerDraft(), BROWSER)).toMatchObject({ ok: false, failure: "agency_unavailable" });
      expect(await getCustomerDraft(ctx.db, open.id)).toBeUndefined();
      expect(await chooseOffer(ctx, choosing.id, view.offers[0]!.id)).toEqual({ kind: "agency_unavailable" });
      expect(await providerTarget(ctx, atProvider)).toBe(`/checkout/${pending.id}/status`);
      expect(calls().slice(before)).toEqual([]);
      expect((await requireSession(ctx.db, choosing.id)).financingStatus).toBeNull();
    } finally {
      await setDisabled(false);
    }
    // Enabled again: the same checkout goes on.
    expect(await submitCustomer(ctx, open.id, customerDraft(), BROWSER)).toEqual({ ok: true });
  });
});
