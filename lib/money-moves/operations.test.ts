/**
 * The cancel and the refund the back-office and the checkout sessions API share: a refund is made
 * once however many ask at the same moment, from however many instances (a database lease), on
 * PGlite and on PostgreSQL; the audit log names who asked, a staff member or an API secret by its
 * name.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db";
import { throwawayDatabase } from "@/lib/db/testing/throwaway";
import { auditEvents } from "@/lib/db/schema";
import { FinancingApiError } from "@/lib/financing/errors";
import type { FinancingClient } from "@/lib/financing/client";
import type { OperationActor } from "./actor";
import { cancelAtPartnerApi } from "./cancel";
import { computeRefund, REFUND_CLAIM_MS, refundAtPartnerApi, type RefundBase } from "./refund";

const BASE: RefundBase = {
  currency: "EUR",
  totalReserveCents: 125302,
  managementFeesCents: 1852,
  cancellationFeeCents: 2469,
  cancellationFeePercentage: 2,
  totalToRefundCents: 120981,
};

type RefundClient = Pick<FinancingClient, "refund" | "getStatus">;

/**
 * A partner API whose refunds wait for `release` and are counted; `called` settles at the first
 * call (awaited, not polled against a clock); its status is REFUNDED once one went through.
 */
function gatedClient() {
  const calls: string[] = [];
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  let markCalled: () => void = () => {};
  const called = new Promise<void>((resolve) => (markCalled = resolve));
  let refunded = false;
  const client = {
    refund: async (operationId: string) => {
      calls.push(operationId);
      markCalled();
      await gate;
      refunded = true;
      return { operationId, status: "REFUNDED" as const };
    },
    getStatus: async () => ({
      modified: true as const,
      etag: undefined,
      status: { status: refunded ? ("REFUNDED" as const) : ("CONFIRMED" as const), updatedAt: new Date().toISOString() },
    }),
  } as unknown as RefundClient;
  return { client, calls, called, release: () => release() };
}

/** Settles once `count` of `promises` have settled, whichever they are. */
function whenSettled(promises: Promise<unknown>[], count: number): Promise<void> {
  let settled = 0;
  return new Promise((resolve) => {
    for (const promise of promises) {
      void promise.finally(() => {
        settled += 1;
        if (settled === count) resolve();
      });
    }
  });
}

function failingClient(error: FinancingApiError): RefundClient & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    refund: async (operationId: string) => {
      calls.push(operationId);
      throw error;
    },
    getStatus: async () => ({ modified: true, etag: undefined, status: { status: "CONFIRMED", updatedAt: new Date().toISOString() } }),
  } as unknown as RefundClient & { calls: string[] };
}

const apiError = (status: number | undefined, errorCode?: string, kind: "business" | "network" = "business") =>
  new FinancingApiError({ kind, message: "refused", endpoint: "POST /operations/{id}/refund", requestId: "r", status, errorCode });

const api = (db: Database["db"], name = "Booking engine"): OperationActor => ({
  db,
  partnerId: "p_ops_test",
  ip: "198.51.100.20",
  who: { kind: "api", secretId: "sec_ops_test", secretName: name, secretCreatedBy: { kind: "staff", name: "Ana Admin" } },
});
const staff = (db: Database["db"]): OperationActor => ({
  db,
  partnerId: "p_ops_test",
  ip: "203.0.113.20",
  who: { kind: "staff", id: "staff_ops", name: "Lucía Ortega" },
});

let counter = 0;
const refundInput = () => {
  counter += 1;
  return {
    operationId: `op_ops_${counter}_${Date.now()}`,
    base: BASE,
    computed: computeRefund(BASE, { agencyFeeCents: 1000, providerFeeCents: 0 }),
    reason: "",
  };
};

/** `open` answers two handles on one database: two instances (on PostgreSQL, two connection pools). */
function suite(name: string, open: () => Promise<[Database, Database]>) {
  describe(name, () => {
    let one: Database;
    let other: Database;
    beforeAll(async () => {
      [one, other] = await open();
    });
    afterAll(async () => {
      await one?.close();
      if (other !== one) await other?.close();
    });

    it("two refunds of one operation at once, from two instances: one call to the API, the other refused as in progress", async () => {
      const { client, calls, called, release } = gatedClient();
      const input = refundInput();
      const first = refundAtPartnerApi(api(one.db), client, input);
      await called;
      // The second, while the first's call is on its way: refused without asking the API.
      expect(await refundAtPartnerApi(staff(other.db), client, input)).toEqual({ ok: false, reason: "in_progress" });
      release();
      expect(await first).toEqual({ ok: true, status: "REFUNDED" });
      expect(calls).toHaveLength(1);

      // Many at once: still one call.
      const many = gatedClient();
      const next = refundInput();
      const runs = Array.from({ length: 6 }, (_, i) => refundAtPartnerApi(api(i % 2 ? one.db : other.db), many.client, next));
      // One holds the claim and waits at the API; the five others are refused while it does.
      await many.called;
      await whenSettled(runs, 5);
      many.release();
      const outcomes = await Promise.all(runs);
      expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1);
      expect(outcomes.filter((outcome) => !outcome.ok && outcome.reason === "in_progress")).toHaveLength(5);
      expect(many.calls).toHaveLength(1);
    });

    it("a refused refund lets go of the claim at once; an unknown outcome keeps it until it lapses", async () => {
      const rejected = refundInput();
      const provider = failingClient(apiError(422, "OPERATION_NOT_REFUNDABLE"));
      expect(await refundAtPartnerApi(api(one.db), provider, rejected)).toEqual({ ok: false, reason: "rejected", status: "CONFIRMED" });
      expect(await refundAtPartnerApi(api(other.db), provider, rejected)).toMatchObject({ reason: "rejected" });
      expect(provider.calls).toHaveLength(2);

      const unknown = refundInput();
      const silent = failingClient(apiError(undefined, undefined, "network"));
      const now = new Date();
      expect(await refundAtPartnerApi(api(one.db), silent, unknown, now)).toEqual({ ok: false, reason: "unavailable" });
      // Whether it happened is not known: no second call until the claim lapses.
      expect(await refundAtPartnerApi(api(other.db), silent, unknown, new Date(now.getTime() + 60_000))).toEqual({
        ok: false,
        reason: "in_progress",
      });
      expect(silent.calls).toHaveLength(1);
      await refundAtPartnerApi(api(other.db), silent, unknown, new Date(now.getTime() + REFUND_CLAIM_MS + 1_000));
      expect(silent.calls).toHaveLength(2);
    });

    it("maps the API's refusals: not refundable any more, amounts refused", async () => {
      const notConfirmed = failingClient(
        new FinancingApiError({
          kind: "business",
          message: "not confirmed",
          endpoint: "POST /operations/{id}/refund",
          requestId: "r",
          status: 400,
          errorCode: "OPERATION_NOT_REFUNDABLE",
          additionalInfo: { operationStatus: "REFUNDED" },
        }),
      );
      expect(await refundAtPartnerApi(api(one.db), notConfirmed, refundInput())).toEqual({
        ok: false,
        reason: "not_refundable",
        status: "REFUNDED",
      });
      expect(await refundAtPartnerApi(api(one.db), failingClient(apiError(400, "VALIDATION_ERROR")), refundInput())).toEqual({
        ok: false,
        reason: "validation",
      });
    });

    it("audits an API secret's refund and cancel by the secret's name and who created it, and a staff member's by theirs", async () => {
      const { client, release } = gatedClient();
      release();
      const input = refundInput();
      await refundAtPartnerApi(api(one.db, "Night batch"), client, { ...input, details: { bookingReference: "BK-OPS-1" } });
      const [refund] = await one.db.select().from(auditEvents).where(eq(auditEvents.operationId, input.operationId));
      expect(refund).toMatchObject({
        kind: "operation_refunded",
        result: "ok",
        partnerId: "p_ops_test",
        apiActor: "Night batch",
        staffUserId: null,
        staffName: null,
        ip: "198.51.100.20",
        // The secret, and who created it.
        details: {
          bookingReference: "BK-OPS-1",
          apiSecretId: "sec_ops_test",
          apiSecretCreatedByKind: "staff",
          apiSecretCreatedBy: "Ana Admin",
          totalToRefundCents: BASE.totalToRefundCents - 1000,
        },
      });

      const cancelled = `op_ops_cancel_${Date.now()}`;
      const cancelling = { cancelOperation: async (operationId: string) => ({ operationId, status: "CANCELLED" as const }) };
      expect(await cancelAtPartnerApi(staff(one.db), cancelling, { operationId: cancelled, reason: "typed by someone" })).toEqual({
        ok: true,
        change: { operationId: cancelled, status: "CANCELLED" },
      });
      const [cancel] = await one.db.select().from(auditEvents).where(eq(auditEvents.operationId, cancelled));
      expect(cancel).toMatchObject({ kind: "operation_cancelled", staffUserId: "staff_ops", staffName: "Lucía Ortega", apiActor: null });
      expect(JSON.stringify(cancel)).not.toContain("typed by someone");
    });
  });
}

// PGlite is one process's database: one handle, as two requests of one instance share it.
suite("PGlite", async () => {
  const database = await openDatabase({ dataDir: "memory://" });
  return [database, database];
});

describe.runIf(process.env.TEST_DATABASE_URL)("PostgreSQL", () => {
  const throwaway = throwawayDatabase("operation_actions");
  const open = () => openDatabase({ databaseUrl: throwaway.url, dataDir: "unused" });
  suite("PostgreSQL", async () => [await open(), await open()]);
});
