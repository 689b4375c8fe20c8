import { describe, expect, it } from "vitest";
import { sessionAtProvider } from "@/lib/checkout/testing/context";
import { DEMO_PARTNER_ID } from "@/lib/demo/seed";
import { FinancingApiError } from "@/lib/financing/errors";
import { sampleBooking } from "@/lib/financing/testing/samples";
import { auditOf, auroraStaff, auroraWorld, grupoStaffOnAuroras, LUCIA } from "../testing/aurora";
import { cancelOperation, type CancellingStaff } from "./cancel";

const world = auroraWorld();
const audited = (operationId: string) => auditOf(world.database.db, operationId, "operation_cancelled");

const IP = "203.0.113.7";

const aurora = (): CancellingStaff => auroraStaff(world);

/** A partner API that records every call and answers none of them. */
function recordingClient(
  answer: () => never = () => {
    throw new Error("unexpected call");
  },
) {
  const calls: string[] = [];
  const recording = {
    cancelOperation: async (id: string) => {
      calls.push(`cancel ${id}`);
      return answer();
    },
  };
  return { client: recording, calls };
}

/** A new operation of agency 101, not yet requested by its customer (GENERATED): cancellable. */
let bookings = 0;
function newOperation() {
  bookings += 1;
  return world.client.createOperation(sampleBooking({ externalId: `BK-CANCEL-${bookings}` }));
}

describe("cancelling an operation from the back-office", () => {
  it("cancels the partner's own operation at the API and audits who, from where, with what result", async () => {
    const operation = await newOperation();
    expect(await cancelOperation(aurora(), { operationId: operation.id, reason: "  changed plans " }, { ip: IP })).toEqual({ ok: true });

    expect((await world.client.getStatus(operation.id)).status.status).toBe("CANCELLED");
    const [event, ...more] = await audited(operation.id);
    expect(more).toEqual([]);
    expect(event).toMatchObject({ result: "ok", partnerId: DEMO_PARTNER_ID, staffUserId: LUCIA.id, staffName: LUCIA.name, ip: IP });
    // What the staff member typed is not audited.
    expect(JSON.stringify(event)).not.toContain("changed plans");
  });

  it("another partner's staff get 'not found': nothing is asked of the API, nothing changes", async () => {
    const operation = await newOperation();
    const { client: recording, calls } = recordingClient();
    // Grupo Demo's key reaches agency 101, but 101 is Viajes Aurora's.
    const grupo: CancellingStaff = grupoStaffOnAuroras(world, recording);
    expect(await cancelOperation(grupo, { operationId: operation.id, reason: "" }, { ip: IP })).toEqual({ ok: false, reason: "not_found" });
    expect(calls).toEqual([]);
    expect((await world.client.getStatus(operation.id)).status.status).toBe("GENERATED");
    expect(await audited(operation.id)).toEqual([]);
  });

  it("refuses an operation in a status that cannot be cancelled, says which, and audits the failure", async () => {
    // The customer is at the provider: CLIENT_REQUESTED, not cancellable.
    const { operationId } = await sessionAtProvider(world.ctx, world.partner);
    expect(await cancelOperation(aurora(), { operationId: operationId!, reason: "" }, { ip: IP })).toEqual({
      ok: false,
      reason: "not_cancellable",
      status: "CLIENT_REQUESTED",
    });
    expect((await world.client.getStatus(operationId!)).status.status).toBe("CLIENT_REQUESTED");
    const [event] = await audited(operationId!);
    expect(event).toMatchObject({ result: "failed", staffUserId: LUCIA.id, ip: IP, details: { status: 400 } });
  });

  it("a reason longer than the API takes is refused before anything is sent", async () => {
    const { client: recording, calls } = recordingClient();
    const result = await cancelOperation(
      { ...aurora(), client: recording },
      { operationId: "op_any", reason: "x".repeat(256) },
      { ip: IP },
    );
    expect(result).toEqual({ ok: false, reason: "too_long" });
    expect(calls).toEqual([]);
  });

  it("the API unavailable: said so, and the attempt audited", async () => {
    const operation = await newOperation();
    const { client: failing, calls } = recordingClient(() => {
      throw new FinancingApiError({
        kind: "http",
        message: "unavailable",
        endpoint: "POST /operations/{id}/cancel",
        requestId: "r",
        status: 503,
      });
    });
    const result = await cancelOperation({ ...aurora(), client: failing }, { operationId: operation.id, reason: "" }, { ip: IP });
    expect(result).toEqual({ ok: false, reason: "unavailable" });
    expect(calls).toEqual([`cancel ${operation.id}`]);
    expect(await audited(operation.id)).toMatchObject([{ result: "failed", details: { status: 503 } }]);
  });
});
