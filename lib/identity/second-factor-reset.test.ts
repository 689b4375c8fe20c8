import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { demoStaffDatabase } from "./testing/demo-staff-database";
import { auditEvents, staffUsers } from "@/lib/db/schema";
import { DEMO_GROUP_PARTNER_ID, DEMO_PARTNER_ID, DEMO_STAFF, DEMO_TOTP_SECRET } from "@/lib/demo/seed";
import { confirmSecondFactorReset, pendingSecondFactorReset, resetMemberSecondFactor, type StaffAdminActor } from "./members";

/*
 * Resetting another administrator's second factor takes two administrators when the partner has a
 * third one to ask: the first requests it (with their own code), another confirms it (with theirs);
 * the one who asked cannot confirm their own request. With nobody else to ask, it is done at once.
 */

const APP_URL = "http://127.0.0.1:3999";
const demo = (id: (typeof DEMO_STAFF)[number]["id"]) => DEMO_STAFF.find((staff) => staff.id === id)!;
const LUCIA = demo("staff_demo_aurora");
const ANA = demo("staff_demo_aurora_security");
const DIEGO = demo("staff_demo_aurora_sessions");
const AGENT = demo("staff_demo_aurora_agent");
const MARCOS = demo("staff_demo_grupo");
const AURORA = { id: DEMO_PARTNER_ID, name: "Viajes Aurora (demo)" };

const db = demoStaffDatabase(APP_URL, { secondPartner: true });
const admin = (who: { id: string; name: string }, partner = AURORA): StaffAdminActor => ({
  db: db(),
  partner,
  user: { id: who.id, name: who.name, role: "admin", canRefund: true },
});
let clock = Date.parse("2026-12-02T10:00:00Z");
const step = () => new Date((clock += 30_000));
const codeAt = (at: Date) => generate({ secret: DEMO_TOTP_SECRET, epoch: Math.floor(at.getTime() / 1000) });
const enrolled = async (id: string) => (await db().select().from(staffUsers).where(eq(staffUsers.id, id)))[0]!.totpEnabledAt !== null;

describe("resetting another administrator's second factor", () => {
  it("is only requested by the first administrator; the requester cannot confirm; a second administrator's confirmation resets it", async () => {
    let now = step();
    const requested = await resetMemberSecondFactor(admin(LUCIA), ANA.id, await codeAt(now), { now, mail: undefined });
    expect(requested).toEqual({ ok: true, delivery: "pending" });
    expect(await enrolled(ANA.id)).toBe(true);
    expect(await pendingSecondFactorReset(db(), DEMO_PARTNER_ID, ANA.id, now)).toMatchObject({
      requestedBy: { id: LUCIA.id, name: LUCIA.name },
    });

    now = step();
    expect(await confirmSecondFactorReset(admin(LUCIA), ANA.id, await codeAt(now), { now })).toEqual({ ok: false, reason: "own_request" });
    expect(
      await confirmSecondFactorReset(admin(MARCOS, { id: DEMO_GROUP_PARTNER_ID, name: "Grupo Demo" }), ANA.id, await codeAt(now), { now }),
    ).toEqual({
      ok: false,
      reason: "not_found",
    });
    expect(await confirmSecondFactorReset(admin(DIEGO), ANA.id, "000000", { now })).toEqual({ ok: false, reason: "code_invalid" });
    expect(await enrolled(ANA.id)).toBe(true);

    now = step();
    const confirmed = await confirmSecondFactorReset(admin(DIEGO), ANA.id, await codeAt(now), { now });
    expect(confirmed).toMatchObject({ ok: true, delivery: "link" });
    expect(await enrolled(ANA.id)).toBe(false);
    expect(await pendingSecondFactorReset(db(), DEMO_PARTNER_ID, ANA.id, now)).toBeUndefined();
    const steps = (await db().select().from(auditEvents))
      .filter((row) => row.kind === "two_factor_reset" && row.result === "ok")
      .map((row) => [row.staffUserId, row.details?.step]);
    expect(steps).toEqual([
      [LUCIA.id, "requested"],
      [DIEGO.id, "confirmed"],
    ]);
  });

  it("an agent's is reset at once by one administrator, as before", async () => {
    const now = step();
    expect(await resetMemberSecondFactor(admin(LUCIA), AGENT.id, await codeAt(now), { now })).toMatchObject({ ok: true, delivery: "link" });
  });

  it("a request expires after a day", async () => {
    // Ana set up again meanwhile; Diego requests, nobody confirms in time.
    await db()
      .update(staffUsers)
      .set({
        totpEnabledAt: new Date(),
        totpSecret: (await db().select().from(staffUsers).where(eq(staffUsers.id, LUCIA.id)))[0]!.totpSecret,
      })
      .where(eq(staffUsers.id, ANA.id));
    let now = step();
    expect(await resetMemberSecondFactor(admin(DIEGO), ANA.id, await codeAt(now), { now })).toEqual({ ok: true, delivery: "pending" });
    now = new Date((clock += 25 * 3_600_000));
    expect(await confirmSecondFactorReset(admin(LUCIA), ANA.id, await codeAt(now), { now })).toEqual({ ok: false, reason: "no_request" });
  });
});
