import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { checkoutSessions, partnerNotifications, type CheckoutSessionRow } from "@/lib/db/schema";
import { OPERATION_STATUSES } from "@/lib/financing/contract";
import { SESSION_STATES, type SessionFinancingStatus } from "@/lib/vocabulary/session";
import type { CheckoutContext } from "./flow";
import { storedSession, testContext } from "../testing/context";
import { attachOperation } from "./operation-link";
import { notifyExpiredSessions } from "./outbox";
import { sessionState } from "./session-state";
import { sessionStateCondition } from "./sessions";
import { cancelUnstartedSession } from "./session-status";

let database: Database;
let ctx: CheckoutContext;

beforeAll(async () => {
  ({ ctx, database } = await testContext("http://127.0.0.1:9/v1"));
});
afterAll(async () => {
  await database?.close();
});

describe("a session's state in SQL (sessionStateCondition)", () => {
  it("selects exactly the rows sessionState puts in each state, for every kind of row", async () => {
    const now = new Date();
    const statuses = [null, ...OPERATION_STATUSES, "NOT_IN_THE_CONTRACT"] as const;
    const financing: (SessionFinancingStatus | null)[] = [null, "STARTING", "REQUESTED", "REFUSED"];
    const rows: (typeof checkoutSessions.$inferInsert)[] = [];
    for (const status of statuses)
      for (const financingStatus of financing)
        for (const cancelled of [false, true])
          for (const notEligible of [false, true])
            for (const expired of [false, true]) {
              const n = rows.length;
              rows.push({
                ...storedSession({ id: `cs_state_${n}_00000000`, reference: `STATE-${n}` }),
                operationId: status ? `op_state_${n}` : null,
                operationStatus: status as CheckoutSessionRow["operationStatus"],
                financingStatus,
                cancelledAt: cancelled ? new Date(now.getTime() - 60_000) : null,
                notEligibleAt: notEligible ? new Date(now.getTime() - 60_000) : null,
                expiresAt: new Date(now.getTime() + (expired ? -1 : 1) * 3_600_000),
              });
            }
    await ctx.db.insert(checkoutSessions).values(rows);
    const ids = rows.map((row) => row.id);
    const stored = await ctx.db.select().from(checkoutSessions).where(inArray(checkoutSessions.id, ids));

    for (const state of SESSION_STATES) {
      const selected = await ctx.db.select({ id: checkoutSessions.id }).from(checkoutSessions).where(sessionStateCondition(state, now));
      const expected = stored.filter((row) => sessionState(row, now) === state).map((row) => row.id);
      expect(
        selected
          .map((row) => row.id)
          .filter((id) => ids.includes(id))
          .sort(),
        state,
      ).toEqual(expected.sort());
    }
  });
});

describe("cancelling a session before its customer sent their data (cancelUnstartedSession)", () => {
  async function insert(name: string, overrides: Partial<typeof checkoutSessions.$inferInsert> = {}) {
    const row = { ...storedSession({ id: `cs_cancel_${name}_000000`, reference: `CANCEL-${name}` }), ...overrides };
    await ctx.db.insert(checkoutSessions).values(row);
    return row.id;
  }

  it("cancels it once, tells the partner, and no operation attaches after", async () => {
    const id = await insert("open");
    const [first, second] = await Promise.all([cancelUnstartedSession(ctx.db, id), cancelUnstartedSession(ctx.db, id)]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    const cancelled = (first ?? second)!;
    expect(sessionState(cancelled)).toBe("cancelled");

    const notifications = await ctx.db.select().from(partnerNotifications).where(eq(partnerNotifications.sessionId, id));
    expect(notifications.map((n) => n.state)).toEqual(["cancelled"]);

    // A customer's submit that passed the state check before the cancel: its operation does not attach.
    expect(await attachOperation(ctx.db, id, "op_cancel_late")).toBe("unchanged");
    const [row] = await ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id));
    expect(row).toMatchObject({ operationId: null });
    expect(sessionState(row!)).toBe("cancelled");
  });

  it("refuses a session with an operation, an expired one, and one already cancelled", async () => {
    const withOperation = await insert("operation", { operationId: "op_cancel_has", operationStatus: "GENERATED" });
    const expired = await insert("expired", { expiresAt: new Date(Date.now() - 1000) });
    expect(await cancelUnstartedSession(ctx.db, withOperation)).toBeUndefined();
    expect(await cancelUnstartedSession(ctx.db, expired)).toBeUndefined();
    expect(await cancelUnstartedSession(ctx.db, "cs_nobody_0000000000")).toBeUndefined();
  });

  it("is not announced as expired once its time is up", async () => {
    const id = await insert("later");
    expect(await cancelUnstartedSession(ctx.db, id)).toBeDefined();
    const dayAfter = new Date(Date.now() + 26 * 3_600_000);
    await notifyExpiredSessions(ctx.db, dayAfter, 1_000);
    const notifications = await ctx.db.select().from(partnerNotifications).where(eq(partnerNotifications.sessionId, id));
    expect(notifications.map((n) => n.state)).toEqual(["cancelled"]);
    const [row] = await ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id));
    expect(sessionState(row!, dayAfter)).toBe("cancelled");
  });
});
