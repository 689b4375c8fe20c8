import { randomBytes, scryptSync } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { throwawayDatabase } from "@/lib/db/testing/throwaway";
import { openDatabase, type Database } from "@/lib/db";
import { auditEvents, loginThrottles, staffRecoveryCodes, staffSessions, staffUsers } from "@/lib/db/schema";
import { DEMO_PARTNER_ID, DEMO_TOTP_SECRET, seedDemoPartner } from "@/lib/demo/seed";
import { recordAudit } from "@/lib/audit/audit";
import { changePassword, checkCurrentPassword, signIn } from "./auth";
import { completeSecondFactor, turnOffSecondFactor } from "./second-factor-steps";
import { createStaffSession, findStaffSession, hashToken, STAFF_IDLE_TIMEOUT_MS, type StaffSession } from "./staff-sessions";
import { PASSWORD_COST, verifyPassword } from "./passwords";
import { LOGIN_LIMITS } from "./rate-limit";
import { checkSecondFactor, confirmEnrolment, disableTwoFactor, enrolmentSecret, enrolWithSecret, newRecoveryCodes } from "./two-factor";

/*
 * The staff sign-in as an attacker would try it: parallel guessing, locking someone else
 * out, replaying a code, reusing a recovery code, a stolen idle session, and rewriting the audit log.
 */

const MINUTE = 60_000;
const VICTIM = { id: "staff_victim", email: "victim@viajes-aurora.example", name: "Víctima", password: "victim-password-123" };
const OTHER = { id: "staff_other", email: "other@viajes-aurora.example", name: "Otra", password: "other-password-123" };

/** A hash at a low, older cost (N=2^10): cheap for tests, and what a rehash must replace. */
function oldCostHash(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password.normalize("NFC"), salt, 32, { N: 1024, r: 8, p: 1 });
  return ["scrypt", 1024, 8, 1, salt.toString("base64"), hash.toString("base64")].join("$");
}

async function setUp(database: Database) {
  const { db } = database;
  await seedDemoPartner(db, { secret: "test_partner_secret_0123456789", appUrl: "http://127.0.0.1:3999" });
  for (const user of [VICTIM, OTHER]) {
    await db
      .insert(staffUsers)
      .values({
        id: user.id,
        partnerId: DEMO_PARTNER_ID,
        role: "admin",
        email: user.email,
        name: user.name,
        passwordHash: oldCostHash(user.password),
      })
      .onConflictDoNothing();
    // Enrolled: without a second factor, a password opens no session at all.
    await enrolWithSecret(db, user.id, DEMO_TOTP_SECRET, []);
  }
}

/** Counts the password checks a sign-in makes (the reservation must come before them). */
function countingVerify() {
  const counter = { checks: 0 };
  const verify = async (password: string, stored: string) => {
    counter.checks++;
    return verifyPassword(password, stored);
  };
  return { counter, verify };
}

/** A database opened by `open`, with the accounts set up, for the describe block that calls this. */
function setUpDatabase(open: () => Promise<Database>): () => Database["db"] {
  let database: Database | undefined;
  beforeAll(async () => {
    database = await open();
    await setUp(database);
  });
  afterAll(async () => {
    await database?.close();
  });
  return () => database!.db;
}

function signInSuite(name: string, open: () => Promise<Database>) {
  describe(`sign-in limits (${name})`, () => {
    const db = setUpDatabase(open);
    beforeEach(async () => {
      await db().delete(loginThrottles);
      await db().delete(staffSessions);
    });

    it("40 parallel wrong passwords get at most 5 password checks", async () => {
      const { counter, verify } = countingVerify();
      const now = new Date();
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          signIn(db(), { email: VICTIM.email, password: `guess-${i}`, ip: "198.51.100.40" }, now, { verify }),
        ),
      );
      expect(counter.checks).toBeLessThanOrEqual(LOGIN_LIMITS.perPair);
      expect(counter.checks).toBeGreaterThan(0);
      expect(results.every((r) => !r.ok)).toBe(true);
      expect(results.filter((r) => !r.ok && r.reason === "locked").length).toBeGreaterThanOrEqual(40 - LOGIN_LIMITS.perPair);
    });

    it("an attacker from another IP cannot lock the victim out", async () => {
      const now = new Date("2026-11-22T10:00:00Z");
      for (let i = 0; i < 12; i++) {
        await signIn(db(), { email: VICTIM.email, password: `guess-${i}`, ip: "192.0.2.66" }, new Date(now.getTime() + i * 1000));
      }
      // The attacker's own address is locked out of the account…
      expect(
        await signIn(db(), { email: VICTIM.email, password: VICTIM.password, ip: "192.0.2.66" }, new Date(now.getTime() + 20_000)),
      ).toEqual({ ok: false, reason: "locked" });
      // …the victim, from theirs, signs in.
      const victim = await signIn(
        db(),
        { email: VICTIM.email, password: VICTIM.password, ip: "203.0.113.10" },
        new Date(now.getTime() + 21_000),
      );
      expect(victim.ok).toBe(true);
    });
  });
}

signInSuite("PGlite", () => openDatabase({ dataDir: "memory://" }));

const testDatabaseUrl = process.env.TEST_DATABASE_URL;
// Without TEST_DATABASE_URL there is no server: skipping is expected on a laptop; CI sets it.
describe.runIf(testDatabaseUrl)("on PostgreSQL", () => {
  const throwaway = throwawayDatabase("staff_security_test");
  signInSuite("PostgreSQL", () => openDatabase({ databaseUrl: throwaway.url, dataDir: "unused" }));
});

describe("locks by (e-mail, IP)", () => {
  const db = setUpDatabase(() => openDatabase({ dataDir: "memory://" }));
  beforeEach(async () => {
    await db().delete(loginThrottles);
  });
  // A wrong password is known to be wrong without paying scrypt for it (these tests count, they do not hash).
  const verify = async (password: string, stored: string) => password !== "wrong-password" && verifyPassword(password, stored);
  const wrong = (ip: string, at: Date, email = OTHER.email) => signIn(db(), { email, password: "wrong-password", ip }, at, { verify });

  it("the 5th failure locks for 1 minute, the next lock for 2, growing", async () => {
    const t0 = new Date("2026-11-22T10:00:00Z");
    const at = (ms: number) => new Date(t0.getTime() + ms);
    for (let i = 0; i < 4; i++) expect(await wrong("198.51.100.7", at(i * 1000))).toEqual({ ok: false, reason: "invalid" });
    expect(await wrong("198.51.100.7", at(4000))).toEqual({ ok: false, reason: "locked" });
    // Locked for a minute: the right password is refused too, from this address.
    expect(await signIn(db(), { email: OTHER.email, password: OTHER.password, ip: "198.51.100.7" }, at(30_000), { verify })).toEqual({
      ok: false,
      reason: "locked",
    });
    // After it: five more tries, then a lock of 2 minutes.
    for (let i = 0; i < 4; i++) expect(await wrong("198.51.100.7", at(MINUTE + 5000 + i * 1000))).toEqual({ ok: false, reason: "invalid" });
    expect(await wrong("198.51.100.7", at(MINUTE + 10_000))).toEqual({ ok: false, reason: "locked" });
    expect(await wrong("198.51.100.7", at(2 * MINUTE + 9000))).toEqual({ ok: false, reason: "locked" });
    expect(await wrong("198.51.100.7", at(3 * MINUTE + 11_000))).toEqual({ ok: false, reason: "invalid" });
  });

  it("treats an unknown e-mail exactly like a known one", async () => {
    const t0 = new Date("2026-11-22T11:00:00Z");
    const known: string[] = [];
    const unknown: string[] = [];
    for (let i = 0; i < 6; i++) {
      const k = await wrong("198.51.100.60", new Date(t0.getTime() + i * 1000));
      const u = await wrong("198.51.100.60", new Date(t0.getTime() + i * 1000), "nobody@viajes-aurora.example");
      known.push(k.ok ? "ok" : k.reason);
      unknown.push(u.ok ? "ok" : u.reason);
    }
    expect(unknown).toEqual(known);
    expect(known).toEqual(["invalid", "invalid", "invalid", "invalid", "locked", "locked"]);
  });

  it("keeps a looser limit per address over all e-mails", async () => {
    const t0 = new Date("2026-11-22T12:00:00Z");
    for (let i = 0; i < LOGIN_LIMITS.perIp - 1; i++) {
      expect((await wrong("192.0.2.50", new Date(t0.getTime() + i * 100), `guess${i}@example.com`)).ok).toBe(false);
    }
    expect(await wrong("192.0.2.50", new Date(t0.getTime() + 6000), "last@example.com")).toEqual({ ok: false, reason: "locked" });
    expect(
      await signIn(db(), { email: OTHER.email, password: OTHER.password, ip: "192.0.2.50" }, new Date(t0.getTime() + 7000), { verify }),
    ).toEqual({
      ok: false,
      reason: "locked",
    });
    expect(
      (await signIn(db(), { email: OTHER.email, password: OTHER.password, ip: "192.0.2.51" }, new Date(t0.getTime() + 8000), { verify }))
        .ok,
    ).toBe(true);
  });
});

describe("passwords, sessions and the second factor", () => {
  const db = setUpDatabase(() => openDatabase({ dataDir: "memory://" }));

  async function sessionOf(token: string, now = new Date()): Promise<StaffSession> {
    const found = await findStaffSession(db(), token, now);
    if (!found) throw new Error("no session");
    return found;
  }

  const codeAt = (secret: string, when: Date) => generate({ secret, epoch: Math.floor(when.getTime() / 1000) });

  it("scrypt: an old-cost hash is replaced at N=2^17 on a successful sign-in, and still verifies", async () => {
    const before = (await db().select().from(staffUsers).where(eq(staffUsers.id, VICTIM.id)))[0]!.passwordHash!;
    expect(before.split("$")[1]).toBe("1024");
    const result = await signIn(db(), { email: VICTIM.email, password: VICTIM.password, ip: "203.0.113.1" });
    expect(result.ok).toBe(true);
    const after = (await db().select().from(staffUsers).where(eq(staffUsers.id, VICTIM.id)))[0]!.passwordHash!;
    expect(after.split("$").slice(0, 4)).toEqual(["scrypt", String(PASSWORD_COST.N), "8", "1"]);
    expect(PASSWORD_COST.N).toBe(2 ** 17);
    await expect(verifyPassword(VICTIM.password, after)).resolves.toBe(true);
  });

  it("idle timeout: a session unused for 30 minutes is over, one in use lives on (up to 8 hours)", async () => {
    const t0 = new Date("2026-11-22T10:00:00Z");
    const token = await createStaffSession(db(), OTHER.id, t0);
    const at = (ms: number) => new Date(t0.getTime() + ms);
    expect(await findStaffSession(db(), token, at(29 * MINUTE))).toBeDefined();
    // Seen at 29 minutes: alive until 59.
    expect(await findStaffSession(db(), token, at(58 * MINUTE))).toBeDefined();
    expect(await findStaffSession(db(), token, at(58 * MINUTE + STAFF_IDLE_TIMEOUT_MS))).toBeUndefined();
  });

  it("TOTP: a password alone gives a session waiting for the code; a valid code opens it on a new token, a wrong one does not", async () => {
    await enrolWithSecret(db(), OTHER.id, DEMO_TOTP_SECRET, []);
    const now = new Date();
    const result = await signIn(db(), { email: OTHER.email, password: OTHER.password, ip: "203.0.113.2" }, now);
    expect(result).toMatchObject({ ok: true, stage: "code" });
    if (!result.ok) return;
    const pending = await sessionOf(result.token, now);
    expect(pending.session.secondFactorAt).toBeNull();
    expect(await completeSecondFactor(db(), pending, "000000", "203.0.113.2", now)).toEqual({ ok: false, reason: "invalid" });
    expect((await sessionOf(result.token, now)).session.secondFactorAt).toBeNull();
    const ok = await completeSecondFactor(
      db(),
      await sessionOf(result.token, now),
      await codeAt(DEMO_TOTP_SECRET, now),
      "203.0.113.2",
      now,
    );
    expect(ok).toEqual({ ok: true, method: "totp", token: expect.any(String) });
    if (!ok.ok) return;
    // The pre-2FA cookie is dead: only the new token is signed in.
    expect(ok.token).not.toBe(result.token);
    expect(await findStaffSession(db(), result.token, now)).toBeUndefined();
    expect((await sessionOf(ok.token, now)).session.secondFactorAt).not.toBeNull();
  });

  it("TOTP: the secret is stored sealed (SECRETS_KEYS), never as it is, and still gives working codes", async () => {
    await enrolWithSecret(db(), OTHER.id, DEMO_TOTP_SECRET, []);
    const [row] = await db().select({ totpSecret: staffUsers.totpSecret }).from(staffUsers).where(eq(staffUsers.id, OTHER.id));
    expect(row!.totpSecret).toMatch(/^enc:v1:/);
    expect(row!.totpSecret).not.toContain(DEMO_TOTP_SECRET);
    const now = new Date();
    const result = await signIn(db(), { email: OTHER.email, password: OTHER.password, ip: "203.0.113.9" }, now);
    if (!result.ok) throw new Error("sign-in failed");
    const session = await sessionOf(result.token, now);
    expect(await completeSecondFactor(db(), session, await codeAt(DEMO_TOTP_SECRET, now), "203.0.113.9", now)).toMatchObject({
      ok: true,
      method: "totp",
    });
  });

  it("TOTP: a code already used is refused (replay), in the same window and concurrently", async () => {
    const now = new Date(Date.now() + 5 * MINUTE);
    const code = await codeAt(DEMO_TOTP_SECRET, now);
    const results = await Promise.all([1, 2, 3].map(() => checkSecondFactor(db(), OTHER.id, code, now)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok && r.reason === "replayed")).toHaveLength(2);
    // The code of the step before is older than the one used: refused too.
    expect(await checkSecondFactor(db(), OTHER.id, await codeAt(DEMO_TOTP_SECRET, new Date(now.getTime() - 30_000)), now)).toEqual({
      ok: false,
      reason: "replayed",
    });
  });

  it("5 wrong codes end the waiting session: guessing needs the password again", async () => {
    const now = new Date();
    const token = await createStaffSession(db(), OTHER.id, now);
    for (let i = 0; i < 4; i++) {
      expect((await completeSecondFactor(db(), await sessionOf(token, now), "12345" + i, "203.0.113.3", now)).ok).toBe(false);
    }
    expect(await completeSecondFactor(db(), await sessionOf(token, now), "123459", "203.0.113.3", now)).toEqual({
      ok: false,
      reason: "ended",
    });
    expect(await findStaffSession(db(), token, now)).toBeUndefined();
  });

  it("code guesses are limited per account, across sessions: signing in again gives no fresh guesses", async () => {
    await db().delete(loginThrottles);
    const now = new Date(Date.now() + 20 * MINUTE);
    const wrongCode = (token: string) =>
      sessionOf(token, now).then((found) => completeSecondFactor(db(), found, "999999", "203.0.113.4", now));
    const first = await createStaffSession(db(), OTHER.id, now);
    for (let i = 0; i < 4; i++) expect((await wrongCode(first)).ok).toBe(false);
    // A new session (the password again): the 5th guess still counts, then the account's codes lock.
    const second = await createStaffSession(db(), OTHER.id, now);
    expect(await wrongCode(second)).toEqual({ ok: false, reason: "invalid" });
    const right = await codeAt(DEMO_TOTP_SECRET, new Date(now.getTime() + 30_000));
    expect(await completeSecondFactor(db(), await sessionOf(second, now), right, "203.0.113.4", now)).toEqual({
      ok: false,
      reason: "locked",
    });
    // After the lock (a minute), the right code is accepted.
    const later = new Date(now.getTime() + MINUTE + 1000);
    const third = await createStaffSession(db(), OTHER.id, later);
    const ok = await completeSecondFactor(
      db(),
      await sessionOf(third, later),
      await codeAt(DEMO_TOTP_SECRET, new Date(later.getTime() + 30_000)),
      "203.0.113.4",
      later,
    );
    expect(ok).toMatchObject({ ok: true, method: "totp" });
  });

  it("the current password asked behind a session is limited per account: a stolen cookie is no password oracle", async () => {
    await db().delete(loginThrottles);
    const now = new Date(Date.now() + 40 * MINUTE);
    const user = { id: OTHER.id, name: OTHER.name, partnerId: DEMO_PARTNER_ID };
    // A cheap hash (a sign-in above may have moved it to today's cost: 2 s a check on a busy machine).
    await db()
      .update(staffUsers)
      .set({ passwordHash: oldCostHash(OTHER.password) })
      .where(eq(staffUsers.id, OTHER.id));
    const change = (token: string, current: string, at = now) =>
      changePassword(db(), { token, user }, { current, next: "a-new-password-456", confirm: "a-new-password-456" }, "203.0.113.5", at);
    const stolen = await createStaffSession(db(), OTHER.id, now);
    for (let i = 0; i < 4; i++) expect(await change(stolen, `guess-${i}`)).toEqual({ ok: false, reason: "wrong_current" });
    // The 5th wrong one ends the session that sent it: guessing on needs a sign-in and a code.
    expect(await change(stolen, "guess-4")).toEqual({ ok: false, reason: "ended" });
    expect(await findStaffSession(db(), stolen, now)).toBeUndefined();

    // Across sessions (turning two-step verification off asks the same way): while the account's
    // checks are locked, even the right password is not checked, and the asking session ends.
    const another = await createStaffSession(db(), OTHER.id, now);
    expect(await checkCurrentPassword(db(), { token: another, user }, OTHER.password, now)).toBe("ended");
    expect(await findStaffSession(db(), another, now)).toBeUndefined();
    const password = async () => (await db().select().from(staffUsers).where(eq(staffUsers.id, OTHER.id)))[0]!.passwordHash!;
    expect(await verifyPassword(OTHER.password, await password())).toBe(true);

    // After the lock (a minute), the owner's right password works, and the count starts again.
    const later = new Date(now.getTime() + MINUTE + 1000);
    const owner = await createStaffSession(db(), OTHER.id, later);
    expect(await checkCurrentPassword(db(), { token: owner, user }, OTHER.password, later)).toBe("ok");
    expect(await checkCurrentPassword(db(), { token: owner, user }, "one-wrong-guess", later)).toBe("wrong");
    expect(await findStaffSession(db(), owner, later)).toBeDefined();
    const audited = await db().select().from(auditEvents).where(eq(auditEvents.kind, "password_changed"));
    expect(audited.map((event) => event.details)).toContainEqual({ reason: "ended" });
  });

  it("turning the second factor off ends the user's other sessions: none comes back signed in after a re-enrolment", async () => {
    const now = new Date(Date.now() + 60 * MINUTE);
    await db().delete(staffSessions).where(eq(staffSessions.userId, OTHER.id));
    const here = await createStaffSession(db(), OTHER.id, now);
    const elsewhere = await createStaffSession(db(), OTHER.id, now);
    const someoneElse = await createStaffSession(db(), VICTIM.id, now);
    expect(await turnOffSecondFactor(db(), { token: here, user: { id: OTHER.id } })).toBe(1);
    expect(await findStaffSession(db(), elsewhere, now)).toBeUndefined();
    expect(await findStaffSession(db(), here, now)).toBeDefined();
    expect(await findStaffSession(db(), someoneElse, now)).toBeDefined();
    const [user] = await db().select().from(staffUsers).where(eq(staffUsers.id, OTHER.id));
    expect(user!.totpEnabledAt).toBeNull();
    // Set up again for the tests after this one.
    await enrolWithSecret(db(), OTHER.id, DEMO_TOTP_SECRET, []);
  });

  it("enrolment: the first code confirms the secret and gives 10 recovery codes, stored only hashed, each single-use", async () => {
    const now = new Date(Date.now() + 90 * MINUTE);
    await disableTwoFactor(db(), VICTIM.id);
    const token = await createStaffSession(db(), VICTIM.id, now, { enrolment: "renew" });
    const session = { tokenHash: hashToken(token), userId: VICTIM.id };
    const secret = await enrolmentSecret(db(), session.tokenHash);
    expect(await enrolmentSecret(db(), session.tokenHash)).toBe(secret);
    expect(await confirmEnrolment(db(), session, "000000", now)).toBeUndefined();
    const codes = await confirmEnrolment(db(), session, await codeAt(secret, now), now);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const stored = await db().select().from(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, VICTIM.id));
    expect(stored).toHaveLength(10);
    for (const row of stored) for (const code of codes!) expect(row.codeHash).not.toContain(code.replace(/-/g, ""));

    const recovery = codes![3]!;
    expect(await checkSecondFactor(db(), VICTIM.id, recovery.toLowerCase(), now)).toEqual({ ok: true, method: "recovery" });
    expect(await checkSecondFactor(db(), VICTIM.id, recovery, now)).toEqual({ ok: false, reason: "invalid" });
    expect(await checkSecondFactor(db(), VICTIM.id, newRecoveryCodes()[0]!, now)).toEqual({ ok: false, reason: "invalid" });
  });
});

describe("the audit log", () => {
  const db = setUpDatabase(() => openDatabase({ dataDir: "memory://" }));

  it("refuses UPDATE and DELETE (and TRUNCATE): it is append-only", async () => {
    await recordAudit(db(), {
      kind: "operation_refunded",
      result: "ok",
      partnerId: DEMO_PARTNER_ID,
      staff: { id: OTHER.id, name: OTHER.name },
      operationId: "op_1",
      details: { totalToRefundCents: 100 },
    });
    const [row] = await db().select().from(auditEvents);
    expect(row).toMatchObject({ kind: "operation_refunded", operationId: "op_1" });
    await expect(db().update(auditEvents).set({ operationId: "op_2" })).rejects.toThrow();
    await expect(db().delete(auditEvents)).rejects.toThrow();
    await expect(db().execute(sql`truncate audit_events`)).rejects.toThrow();
    expect(await db().select().from(auditEvents)).toEqual([row]);
  });

  it("records sign-ins and failures without the password or the typed e-mail of an unknown account", async () => {
    await signIn(db(), { email: "typo-MySecretPassw0rd@example.com", password: "hunter2-secret", ip: "203.0.113.77" });
    await signIn(db(), { email: OTHER.email, password: "hunter2-secret", ip: "203.0.113.77" });
    const rows = await db().select().from(auditEvents).where(eq(auditEvents.ip, "203.0.113.77"));
    expect(rows.map((r) => [r.kind, r.partnerId, r.staffUserId])).toEqual([
      ["sign_in_failed", null, null],
      ["sign_in_failed", DEMO_PARTNER_ID, OTHER.id],
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/hunter2|MySecretPassw0rd/);
  });
});
