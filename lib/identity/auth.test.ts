import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_GROUP_PARTNER_ID, DEMO_PARTNER_ID, DEMO_STAFF, seedDemoPartner, seedDemoStaff } from "@/lib/demo/seed";
import { openDatabase, type Database } from "@/lib/db";
import { loginThrottles, partnerAgencies, partners, staffSessions, staffUsers } from "@/lib/db/schema";
import {
  createStaffSession,
  deleteStaffSession,
  findStaffSession,
  hashToken,
  setStaffSessionAgency,
  STAFF_SESSION_TTL_MS,
} from "./staff-sessions";
import { signIn } from "./auth";
import { openPartnerSecret } from "@/lib/partners/secrets";

const APP_URL = "http://127.0.0.1:3999";
/** A demo account by its id: not by its place in the list, which grows. */
const demoStaff = (id: (typeof DEMO_STAFF)[number]["id"]) => DEMO_STAFF.find((staff) => staff.id === id)!;
const AURORA = demoStaff("staff_demo_aurora");
const GROUP = demoStaff("staff_demo_grupo");
const SECURITY = demoStaff("staff_demo_aurora_security");
const SESSIONS = demoStaff("staff_demo_aurora_sessions");
const NEW = demoStaff("staff_demo_aurora_new");
const AGENT = demoStaff("staff_demo_aurora_agent");
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
  await db().delete(loginThrottles);
  await db().delete(staffSessions);
});

function at(base: Date, ms: number): Date {
  return new Date(base.getTime() + ms);
}

describe("the seed", () => {
  it("gives the demo partner and Grupo Demo (its own group key, agency 102) one staff member each, hashed", async () => {
    const users = await db().select().from(staffUsers);
    expect(users.map((u) => [u.email, u.partnerId]).sort()).toEqual([
      [AGENT.email, DEMO_PARTNER_ID],
      [NEW.email, DEMO_PARTNER_ID],
      [SECURITY.email, DEMO_PARTNER_ID],
      [SESSIONS.email, DEMO_PARTNER_ID],
      [GROUP.email, DEMO_GROUP_PARTNER_ID],
      [AURORA.email, DEMO_PARTNER_ID],
    ]);
    for (const user of users) expect(user.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
    // Pre-enrolled with the published TOTP secret, but for the account that shows enrolment.
    expect(
      users
        .filter((u) => u.totpEnabledAt)
        .map((u) => u.email)
        .sort(),
    ).toEqual([SECURITY.email, SESSIONS.email, GROUP.email, AURORA.email, AGENT.email].sort());
    // Every flow the demo shows keeps working: admins who may refund; one agent who may not.
    expect(users.filter((u) => u.role === "admin" && u.canRefund).length).toBe(DEMO_STAFF.length - 1);
    expect(users.find((u) => u.email === AGENT.email)).toMatchObject({ role: "agent", canRefund: false });
    expect(users.find((u) => u.email === NEW.email)?.totpSecret).toBeNull();
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
    expect(found?.partner?.id).toBe(DEMO_PARTNER_ID);
  });

  it("expire after 8 hours, even in use", async () => {
    const now = new Date("2026-11-22T10:00:00Z");
    const token = await createStaffSession(db(), GROUP.id, now);
    // Used every 20 minutes, so never idle for 30.
    for (let ms = 20 * MINUTE; ms < STAFF_SESSION_TTL_MS; ms += 20 * MINUTE) {
      expect(await findStaffSession(db(), token, at(now, ms))).toBeDefined();
    }
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
