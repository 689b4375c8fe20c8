import { describe, expect, it } from "vitest";
import { sessionAtProvider } from "@/lib/checkout/testing/context";
import { DEMO_PARTNER_ID } from "@/lib/demo/seed";
import { decideAtProvider } from "@/lib/sandbox/testing/servers";
import { auditOf, auroraStaff, auroraWorld, grupoStaffOnAuroras, LUCIA } from "../testing/aurora";
import { FinancingApiError } from "@/lib/financing/errors";
import { openRefund, refundStep, type RefundingStaff } from "./refund";

const world = auroraWorld();
const audited = (operationId: string) => auditOf(world.database.db, operationId, "operation_refunded");

const IP = "203.0.113.9";
const NO_CHARGES = { agencyFee: "", providerFee: "", reason: "" };

const aurora = (): RefundingStaff => auroraStaff(world);

/** A partner API that records each call and answers none: to show that nothing was asked of it. */
function recordingClient(calls: string[]): RefundingStaff["client"] {
  return new Proxy({} as RefundingStaff["client"], {
    get: (_target, name: string) => () => {
      calls.push(name);
      throw new Error("unexpected call");
    },
  });
}

/** An operation of Viajes Aurora's checkout, confirmed at the provider: refundable. */
async function confirmedOperation(): Promise<string> {
  const { operationId } = await sessionAtProvider(world.ctx, world.partner);
  await decideAtProvider(world.sandbox.origin, operationId!);
  return operationId!;
}

describe("refunding an operation from the back-office", () => {
  it("reviews the charges against a fresh breakdown, refunds what was confirmed, and audits the amounts", async () => {
    const operationId = await confirmedOperation();
    const values = { agencyFee: "10", providerFee: "2,50", reason: "client asked" };
    const review = await refundStep(aurora(), { operationId, intent: "review", values }, { ip: IP });
    if (review.step !== "confirm") throw new Error(`expected the review, got ${review.step}`);
    expect(review.computed).toMatchObject({ agencyFeeCents: 1000, providerFeeCents: 250, chargesCents: 1250 });
    expect(review.computed.totalToRefundCents).toBe(review.base.totalToRefundCents - 1250);
    // Nothing moved on a review.
    expect(await audited(operationId)).toEqual([]);

    const total = String(review.computed.totalToRefundCents);
    const done = await refundStep(aurora(), { operationId, intent: "confirm", values, expectedTotal: total }, { ip: IP });
    expect(done).toMatchObject({ step: "done", status: "REFUNDED", computed: review.computed });
    const [event, ...more] = await audited(operationId);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      result: "ok",
      partnerId: DEMO_PARTNER_ID,
      staffUserId: LUCIA.id,
      ip: IP,
      details: { currency: "EUR", agencyFeeCents: 1000, providerFeeCents: 250, chargesCents: 1250, totalToRefundCents: Number(total) },
    });
    expect(JSON.stringify(event)).not.toContain("client asked");
  });

  it("a total that no longer holds is shown again to confirm, and nothing is refunded", async () => {
    const operationId = await confirmedOperation();
    const step = await refundStep(aurora(), { operationId, intent: "confirm", values: NO_CHARGES, expectedTotal: "1" }, { ip: IP });
    expect(step).toMatchObject({ step: "confirm", changed: true });
    expect((await world.client.getStatus(operationId)).status.status).toBe("CONFIRMED");
    expect(await audited(operationId)).toEqual([]);
  });

  it("another partner's staff get 'not found': nothing is asked of the API, nothing is refunded", async () => {
    const operationId = await confirmedOperation();
    const calls: string[] = [];
    const recording = recordingClient(calls);
    // Grupo Demo's key reaches agency 101, but 101 and this checkout's operation are Viajes Aurora's.
    const grupo: RefundingStaff = grupoStaffOnAuroras(world, recording);
    for (const intent of ["review", "confirm"] as const) {
      expect(await refundStep(grupo, { operationId, intent, values: NO_CHARGES, expectedTotal: "0" }, { ip: IP })).toEqual({
        step: "failed",
        reason: "not_found",
        status: null,
      });
    }
    expect(calls).toEqual([]);
    expect((await world.client.getStatus(operationId)).status.status).toBe("CONFIRMED");
    expect(await audited(operationId)).toEqual([]);
  });

  it("a member without the refund permission gets 'not found' at every step: nothing is asked of the API, the refusal is audited", async () => {
    const operationId = await confirmedOperation();
    const calls: string[] = [];
    const recording = recordingClient(calls);
    const agent: RefundingStaff = {
      ...aurora(),
      user: { id: "staff_demo_aurora_agent", name: "Carmen Vega", role: "agent", canRefund: false },
      client: recording,
    };
    for (const intent of ["edit", "review", "confirm"] as const) {
      expect(await refundStep(agent, { operationId, intent, values: NO_CHARGES, expectedTotal: "0" }, { ip: IP })).toEqual({
        step: "failed",
        reason: "not_found",
        status: null,
      });
    }
    expect(calls).toEqual([]);
    expect((await world.client.getStatus(operationId)).status.status).toBe("CONFIRMED");
    expect(await audited(operationId)).toEqual([]);
    const refused = await auditOf(world.database.db, operationId, "permission_refused");
    expect(refused.map((event) => [event.staffUserId, event.result, event.details])).toEqual(
      Array(3).fill(["staff_demo_aurora_agent", "refused", { permission: "refund" }]),
    );

    // The same agent, once an administrator granted the permission, may.
    const granted: RefundingStaff = { ...aurora(), user: { ...agent.user, canRefund: true } };
    expect(await refundStep(granted, { operationId, intent: "review", values: NO_CHARGES }, { ip: IP })).toMatchObject({ step: "confirm" });
  });

  it("an operation that is not confirmed is not refundable, and its status is said", async () => {
    const { operationId } = await sessionAtProvider(world.ctx, world.partner);
    const step = await refundStep(aurora(), { operationId: operationId!, intent: "review", values: NO_CHARGES }, { ip: IP });
    expect(step).toEqual({ step: "failed", reason: "not_refundable", status: "CLIENT_REQUESTED" });
    expect(await audited(operationId!)).toEqual([]);
  });

  it("charges above the total go back to the form, on the charge to lower", async () => {
    const operationId = await confirmedOperation();
    const values = { agencyFee: "999999", providerFee: "", reason: "" };
    const step = await refundStep(aurora(), { operationId, intent: "review", values }, { ip: IP });
    expect(step).toMatchObject({ step: "edit", values, errors: { agencyFee: "exceeds" } });
  });
});

describe("opening the refund page", () => {
  it("opens on the API's breakdown, the same the steps recompute from", async () => {
    const operationId = await confirmedOperation();
    const opening = await openRefund(aurora(), operationId);
    if (opening.step !== "edit") throw new Error(`expected the form, got ${opening.reason}`);
    const review = await refundStep(aurora(), { operationId, intent: "review", values: NO_CHARGES }, { ip: IP });
    expect(review).toMatchObject({ step: "confirm", base: opening.base });
  });

  it("someone else's operation is 'not found' before any call; one not confirmed says its status", async () => {
    const operationId = await confirmedOperation();
    const calls: string[] = [];
    const recording = recordingClient(calls);
    expect(await openRefund(grupoStaffOnAuroras(world, recording), operationId)).toEqual({
      step: "failed",
      reason: "not_found",
      status: null,
    });
    expect(calls).toEqual([]);

    const { operationId: open } = await sessionAtProvider(world.ctx, world.partner);
    expect(await openRefund(aurora(), open!)).toEqual({ step: "failed", reason: "not_refundable", status: "CLIENT_REQUESTED" });
  });

  it("an operation the API does not know or does not show this key is 'not found'; any other failure 'unavailable'", async () => {
    const operationId = await confirmedOperation();
    const failing = (status: number | undefined): RefundingStaff => ({
      ...aurora(),
      client: {
        ...world.client,
        getRefundDetails: () => {
          throw new FinancingApiError({
            kind: status ? "http" : "network",
            message: "refused",
            endpoint: "GET /operations/{id}/refund/details",
            requestId: "r",
            status,
          });
        },
      },
    });
    expect(await openRefund(failing(404), operationId)).toEqual({ step: "failed", reason: "not_found", status: null });
    expect(await openRefund(failing(403), operationId)).toEqual({ step: "failed", reason: "not_found", status: null });
    expect(await openRefund(failing(503), operationId)).toEqual({ step: "failed", reason: "unavailable", status: null });
    expect(await openRefund(failing(undefined), operationId)).toEqual({ step: "failed", reason: "unavailable", status: null });
  });
});
