import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_GROUP_PARTNER_ID, DEMO_PARTNER_ID, DEMO_STAFF, seedDemoPartner, seedDemoStaff } from "@/lib/demo/seed";
import { openDatabase, type Database } from "@/lib/db";
import { loginAttempts, partnerAgencies, partners, staffSessions, staffUsers } from "@/lib/db/schema";
import {
  createStaffSession,
  deleteStaffSession,
  findStaffSession,
  hashToken,
  setStaffSessionAgency,
  signIn,
  STAFF_SESSION_TTL_MS,
} from "./auth";
import { clientIp } from "./rate-limit";
import { openPartnerSecret } from "@/lib/partners/secrets";

const APP_URL = "http://127.0.0.1:3999";
const AURORA = DEMO_STAFF[0];
const GROUP = DEMO_STAFF[1];
const MINUTE = 60_000;

let database: Database;
const db = () => database.db;

beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory://" });
  await seedDemoPartner(database.db, { secret: "test_partner_secret_0123456789", appUrl: APP_URL });
  await seedDemoStaff(database.db, { appUrl: APP_URL });
});

afterAll(async () => {
  await database.close();
});

beforeEach(async () => {
  await db().delete(loginAttempts);
  await db().delete(staffSessions);
});

function at(base: Date, ms: number): Date {
  return new Date(base.getTime() + ms);
}

describe("the seed", () => {
  it("gives the demo partner and Grupo Demo (its own group key, agency 102) one staff member each, hashed", async () => {
    const users = await db().select().from(staffUsers);
    expect(users.map((u) => [u.email, u.partnerId]).sort()).toEqual([
      [GROUP.email, DEMO_GROUP_PARTNER_ID],
      [AURORA.email, DEMO_PARTNER_ID],
    ]);
    for (const user of users) expect(user.passwordHash).toMatch(/^scrypt\$/);
    const [group] = await db().select().from(partners).where(eq(partners.id, DEMO_GROUP_PARTNER_ID));
    expect(group).toMatchObject({ name: "Grupo Demo", financingAgencyId: 102, allowedOrigins: [APP_URL] });
    // Its own key is stored sealed (lib/partners/secrets.ts), and opens to the sandbox's group key.
    expect(group!.financingApiKey).toMatch(/^enc:v1:/);
    expect(openPartnerSecret(group!, "financingApiKey")).toBe("fk_test_sandbox_group_1");
    // Each its own agencies: 101 (reached by Grupo Demo's key too) is Viajes Aurora's only.
    const assigned = await db().select().from(partnerAgencies);
    expect(assigned.map((row) => [row.partnerId, row.agencyId]).sort()).toEqual([
      [DEMO_PARTNER_ID, 101],
      [DEMO_GROUP_PARTNER_ID, 102],
      [DEMO_GROUP_PARTNER_ID, 103],
    ]);
  });

  it("can run again (every start) without touching the accounts", async () => {
    const before = await db().select().from(staffUsers);
    await seedDemoStaff(db(), { appUrl: APP_URL });
    expect(await db().select().from(staffUsers)).toEqual(before);
  });
});

describe("staff sessions", () => {
  it("sign-in opens a session whose cookie token is stored only as its hash", async () => {
    const now = new Date("2026-11-22T10:00:00Z");
    const result = await signIn(db(), { email: ` ${AURORA.email.toUpperCase()} `, password: AURORA.password, ip: "203.0.113.1" }, now);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(Buffer.from(result.token, "base64url")).toHaveLength(32);
    const rows = await db().select().from(staffSessions);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(hashToken(result.token));
    expect(rows[0]!.tokenHash).not.toContain(result.token);
    expect(rows[0]!.expiresAt.getTime() - now.getTime()).toBe(8 * 60 * MINUTE);

    const found = await findStaffSession(db(), result.token, at(now, MINUTE));
    expect(found?.user).toMatchObject({ email: AURORA.email, name: AURORA.name });
    expect(found?.partner.id).toBe(DEMO_PARTNER_ID);
  });

  it("expire after 8 hours", async () => {
    const now = new Date("2026-11-22T10:00:00Z");
    const token = await createStaffSession(db(), GROUP.id, now);
    expect(await findStaffSession(db(), token, at(now, STAFF_SESSION_TTL_MS - 1000))).toBeDefined();
    expect(await findStaffSession(db(), token, at(now, STAFF_SESSION_TTL_MS))).toBeUndefined();
    expect(await findStaffSession(db(), token, at(now, STAFF_SESSION_TTL_MS + MINUTE))).toBeUndefined();
  });

  it("end at sign-out: the same cookie opens nothing afterwards", async () => {
    const now = new Date();
    const token = await createStaffSession(db(), AURORA.id, now);
    expect(await findStaffSession(db(), token, now)).toBeDefined();
    await deleteStaffSession(db(), token);
    expect(await findStaffSession(db(), token, now)).toBeUndefined();
    expect(await db().select().from(staffSessions)).toHaveLength(0);
  });

  it("refuse unknown, empty and absurd tokens", async () => {
    await createStaffSession(db(), AURORA.id);
    expect(await findStaffSession(db(), undefined)).toBeUndefined();
    expect(await findStaffSession(db(), "")).toBeUndefined();
    expect(await findStaffSession(db(), "x".repeat(43))).toBeUndefined();
    expect(await findStaffSession(db(), "x".repeat(5000))).toBeUndefined();
  });

  it("keep the agency a group key's staff member chose", async () => {
    const token = await createStaffSession(db(), GROUP.id);
    expect((await findStaffSession(db(), token))?.session.agencyId).toBeNull();
    await setStaffSessionAgency(db(), token, 102);
    expect((await findStaffSession(db(), token))?.session.agencyId).toBe(102);
  });
});

describe("sign-in rate limit", () => {
  const wrong = (email: string, ip: string, now: Date) => signIn(db(), { email, password: "not-the-password", ip }, now);

  it("locks an e-mail at its 5th failure in 15 minutes, even for the right password, until the lock lapses", async () => {
    const now = new Date("2026-11-22T10:00:00Z");
    // The spec of the limit, written out: four failures are answered "invalid", the fifth locks.
    for (let i = 0; i < 4; i++) {
      expect(await wrong(AURORA.email, `198.51.100.${i}`, at(now, i * MINUTE))).toEqual({ ok: false, reason: "invalid" });
    }
    expect(await wrong(AURORA.email, "198.51.100.9", at(now, 4 * MINUTE))).toEqual({ ok: false, reason: "locked" });
    // Locked: the right password is refused too, from any address.
    const right = (when: Date, ip = "198.51.100.77") => signIn(db(), { email: AURORA.email, password: AURORA.password, ip }, when);
    expect(await right(at(now, 5 * MINUTE))).toEqual({ ok: false, reason: "locked" });
    expect(await right(at(now, 18 * MINUTE))).toEqual({ ok: false, reason: "locked" });
    // 15 minutes after the 5th failure the lock lapses.
    expect(await wrong(AURORA.email, "198.51.100.9", at(now, 19 * MINUTE + 1000))).toEqual({ ok: false, reason: "invalid" });
    expect((await right(at(now, 19 * MINUTE + 2000))).ok).toBe(true);
  });

  it("counts failures in a 15-minute window: older ones are forgotten", async () => {
    const now = new Date("2026-11-22T10:00:00Z");
    for (let i = 0; i < 4; i++) await wrong(GROUP.email, "198.51.100.20", at(now, i * MINUTE));
    // The window started at the first failure; 16 minutes later the count starts again.
    expect(await wrong(GROUP.email, "198.51.100.20", at(now, 16 * MINUTE))).toEqual({ ok: false, reason: "invalid" });
    const [row] = await db()
      .select()
      .from(loginAttempts)
      .where(eq(loginAttempts.key, `email:${GROUP.email}`));
    expect(row?.failures).toBe(1);
  });

  it("forgets an e-mail's failures after a success", async () => {
    const now = new Date("2026-11-22T10:00:00Z");
    for (let i = 0; i < 4; i++) await wrong(AURORA.email, "198.51.100.30", at(now, i * 1000));
    expect((await signIn(db(), { email: AURORA.email, password: AURORA.password, ip: "198.51.100.30" }, at(now, 5000))).ok).toBe(true);
    for (let i = 0; i < 4; i++)
      expect(await wrong(AURORA.email, "198.51.100.30", at(now, 6000 + i * 1000))).toEqual({ ok: false, reason: "invalid" });
  });

  it("treats an unknown e-mail exactly like a known one: same answers, locked at the same count", async () => {
    const now = new Date("2026-11-22T10:00:00Z");
    const known: string[] = [];
    const unknown: string[] = [];
    for (let i = 0; i < 6; i++) {
      const k = await wrong(GROUP.email, `198.51.100.${60 + i}`, at(now, i * 1000));
      const u = await wrong("nobody@grupo-demo.example", `198.51.100.${70 + i}`, at(now, i * 1000));
      known.push(k.ok ? "ok" : k.reason);
      unknown.push(u.ok ? "ok" : u.reason);
    }
    expect(unknown).toEqual(known);
    expect(known).toEqual(["invalid", "invalid", "invalid", "invalid", "locked", "locked"]);
  });

  it("locks an IP at 20 failures, whatever the e-mails", async () => {
    const now = new Date("2026-11-22T10:00:00Z");
    const ip = "192.0.2.50";
    for (let i = 0; i < 19; i++) {
      expect((await wrong(`guess${i}@example.com`, ip, at(now, i * 1000))).ok).toBe(false);
    }
    expect(await wrong("guess-last@example.com", ip, at(now, 30_000))).toEqual({ ok: false, reason: "locked" });
    expect(await signIn(db(), { email: GROUP.email, password: GROUP.password, ip }, at(now, 31_000))).toEqual({
      ok: false,
      reason: "locked",
    });
    // Another address is not held by this one's lock.
    expect((await signIn(db(), { email: GROUP.email, password: GROUP.password, ip: "192.0.2.51" }, at(now, 32_000))).ok).toBe(true);
  });

  it("takes the client IP from the first X-Forwarded-For entry", () => {
    expect(clientIp("203.0.113.7, 10.0.0.1")).toBe("203.0.113.7");
    expect(clientIp(" 2001:db8::1 ")).toBe("2001:db8::1");
    expect(clientIp(null)).toBe("unknown");
    expect(clientIp("")).toBe("unknown");
  });
});
