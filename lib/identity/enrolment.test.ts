import { createHash, randomBytes, scryptSync } from "node:crypto";
import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db";
import { auditEvents, loginThrottles, staffLinks, staffSessions, staffUsers } from "@/lib/db/schema";
import { DEMO_PARTNER_ID, DEMO_TOTP_SECRET, seedDemoPartner } from "@/lib/demo/seed";
import { changePassword, signIn } from "./auth";
import { completeEnrolment, completeSecondFactor, openEnrolmentSession } from "./second-factor-steps";
import { createStaffSession, findStaffSession, hashToken, type StaffSession } from "./staff-sessions";
import { verifyPassword } from "./passwords";
import { LOGIN_LIMITS } from "./rate-limit";
import { confirmEnrolment, disableTwoFactor, enrolmentSecret, enrolWithSecret } from "./two-factor";
import { consumeLink, issueLink, LINK_TTL_MS, peekLink } from "./links";
import { isCommonPassword, passwordProblem } from "./password-policy";

/*
 * The second factor cannot be pre-empted: whoever knew the password before the owner enrolled
 * holds nothing after, and first enrolment takes a one-time link. Also the sign-in limits that
 * guessing spread over many addresses meets: an IPv6 /64 counts as one address, and an account
 * slows guesses from places it is not known at, without keeping its owner out.
 */

const MINUTE = 60_000;
const NEWCOMER = { id: "staff_newcomer", email: "newcomer@viajes-aurora.example", name: "Recién", password: "newcomer-password-123" };
const OWNER = { id: "staff_owner", email: "owner@viajes-aurora.example", name: "Dueña", password: "owner-password-123" };
const NEW_PASSWORD = "a-fresh-strong-passphrase-77";

function cheapHash(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password.normalize("NFC"), salt, 32, { N: 1024, r: 8, p: 1 });
  return ["scrypt", 1024, 8, 1, salt.toString("base64"), hash.toString("base64")].join("$");
}

const codeAt = (secret: string, when: Date) => generate({ secret, epoch: Math.floor(when.getTime() / 1000) });

let database: Database;
const db = () => database.db;

async function sessionOf(token: string, now: Date): Promise<StaffSession> {
  const found = await findStaffSession(db(), token, now);
  if (!found) throw new Error("no session");
  return found;
}

beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory://" });
  await seedDemoPartner(db(), { secret: "test_partner_secret_0123456789", appUrl: "http://127.0.0.1:3999" });
  for (const user of [NEWCOMER, OWNER]) {
    await db()
      .insert(staffUsers)
      .values({
        id: user.id,
        partnerId: DEMO_PARTNER_ID,
        role: "agent",
        email: user.email,
        name: user.name,
        passwordHash: cheapHash(user.password),
      });
  }
  await enrolWithSecret(db(), OWNER.id, DEMO_TOTP_SECRET, []);
});

afterAll(async () => {
  await database.close();
});

beforeEach(async () => {
  await db().delete(loginThrottles);
  await db().delete(staffSessions);
  await disableTwoFactor(db(), NEWCOMER.id);
  await db()
    .update(staffUsers)
    .set({ passwordHash: cheapHash(NEWCOMER.password) })
    .where(eq(staffUsers.id, NEWCOMER.id));
});

describe("first enrolment", () => {
  it("a password alone opens no session for an account without a second factor: it says a link is needed", async () => {
    const result = await signIn(db(), { email: NEWCOMER.email, password: NEWCOMER.password, ip: "203.0.113.20" });
    expect(result).toEqual({ ok: false, reason: "enrolment_link_needed" });
    expect(await db().select().from(staffSessions).where(eq(staffSessions.userId, NEWCOMER.id))).toEqual([]);
    // A session of such an account not opened for enrolment (one from before this rule) opens nothing either.
    const stale = await createStaffSession(db(), NEWCOMER.id);
    expect(await findStaffSession(db(), stale)).toBeUndefined();
  });

  it("a link works once, only before it expires, and a new one voids the old", async () => {
    const now = new Date("2026-11-27T10:00:00Z");
    const first = await issueLink(db(), NEWCOMER.id, "enrolment", { now, by: "test" });
    const second = await issueLink(db(), NEWCOMER.id, "enrolment", { now });
    expect(await peekLink(db(), first, "enrolment", now)).toBeUndefined();
    expect(await peekLink(db(), second, "enrolment", now)).toBe(NEWCOMER.id);
    // Stored only hashed.
    expect(JSON.stringify(await db().select().from(staffLinks))).not.toContain(second);
    const [once, twice] = await Promise.all([
      consumeLink(db(), second, "enrolment", { now }),
      consumeLink(db(), second, "enrolment", { now }),
    ]);
    expect([once, twice].filter(Boolean)).toEqual([NEWCOMER.id]);
    expect(await consumeLink(db(), second, "enrolment", { now })).toBeUndefined();

    const late = await issueLink(db(), NEWCOMER.id, "enrolment", { now });
    expect(await consumeLink(db(), late, "enrolment", { now: new Date(now.getTime() + LINK_TTL_MS + 1000) })).toBeUndefined();
    expect(await consumeLink(db(), "not-a-token", "enrolment", { now })).toBeUndefined();
    const audited = await db().select().from(auditEvents).where(eq(auditEvents.staffUserId, NEWCOMER.id));
    expect(audited.map((row) => [row.kind, row.result])).toEqual(
      expect.arrayContaining([
        ["staff_link_issued", "ok"],
        ["staff_link_used", "ok"],
      ]),
    );
  });

  it("the link's session sets the password and the second factor, and is then signed in on a new token", async () => {
    const now = new Date();
    const userId = await consumeLink(db(), await issueLink(db(), NEWCOMER.id, "enrolment"), "enrolment");
    const token = await openEnrolmentSession(db(), userId!, { ip: "203.0.113.21" }, now);
    const found = await sessionOf(token, now);
    const secret = await enrolmentSecret(db(), found.session.tokenHash);
    const code = await codeAt(secret, now);
    const enrol = (password: string, confirm = password) =>
      completeEnrolment(db(), found, { code, password, confirm }, "203.0.113.21", now);
    expect(await enrol("short")).toEqual({ ok: false, reason: "too_short" });
    expect(await enrol("passwordpassword")).toEqual({ ok: false, reason: "common" });
    // Guessable for someone who knows the newcomer: a pattern, their agency and a year, their name.
    for (const weak of ["aaaaaaaaaaaa", "123123123123", "qwertyuiopasdf", "Viajes-Aurora-2026", "Newcomer.Viajes.Aurora"]) {
      expect(await enrol(weak), weak).toEqual({ ok: false, reason: "weak" });
    }
    expect(await enrol(NEW_PASSWORD, `${NEW_PASSWORD}x`)).toEqual({ ok: false, reason: "mismatch" });
    const done = await enrol(NEW_PASSWORD);
    expect(done).toMatchObject({ ok: true, recoveryCodes: expect.any(Array) });
    if (!done.ok) return;
    expect(await findStaffSession(db(), token, now)).toBeUndefined();
    expect((await sessionOf(done.token, now)).session.secondFactorAt).not.toBeNull();
    const [user] = await db().select().from(staffUsers).where(eq(staffUsers.id, NEWCOMER.id));
    expect(await verifyPassword(NEW_PASSWORD, user!.passwordHash!)).toBe(true);
  });

  it("an account that has enrolled gets no enrolment link, and one left from before opens nothing (no sign-in with a code alone)", async () => {
    // OWNER has a second factor.
    await expect(issueLink(db(), OWNER.id, "enrolment")).rejects.toThrow(/enrolled/);
    await expect(issueLink(db(), OWNER.id, "invitation")).rejects.toThrow(/enrolled/);
    const now = new Date();
    const token = randomBytes(32).toString("base64url");
    await db()
      .insert(staffLinks)
      .values({
        tokenHash: createHash("sha256").update(token).digest("hex"),
        userId: OWNER.id,
        purpose: "enrolment",
        createdAt: now,
        expiresAt: new Date(now.getTime() + LINK_TTL_MS),
      });
    expect(await peekLink(db(), token, "enrolment", now)).toBeUndefined();
    expect(await consumeLink(db(), token, "enrolment", { now })).toBeUndefined();
  });
});

describe("enrolment bound to its session", () => {
  it("a second session neither sees nor confirms the first one's secret; enrolment ends every other session", async () => {
    const now = new Date();
    // The owner's link session, and another one the attacker got (say, by a second link or an old session).
    const owner = await openEnrolmentSession(db(), NEWCOMER.id, {}, now);
    const attacker = await openEnrolmentSession(db(), NEWCOMER.id, {}, now);
    const ownerSession = await sessionOf(owner, now);
    const attackerSession = await sessionOf(attacker, now);
    const ownerSecret = await enrolmentSecret(db(), ownerSession.session.tokenHash);
    const attackerSecret = await enrolmentSecret(db(), attackerSession.session.tokenHash);
    expect(attackerSecret).not.toBe(ownerSecret);
    // The owner's code, sent on the attacker's session, confirms nothing.
    expect(
      await confirmEnrolment(db(), { tokenHash: hashToken(attacker), userId: NEWCOMER.id }, await codeAt(ownerSecret, now), now),
    ).toBeUndefined();
    expect(
      await completeEnrolment(
        db(),
        attackerSession,
        { code: await codeAt(ownerSecret, now), password: NEW_PASSWORD, confirm: NEW_PASSWORD },
        "198.51.100.9",
        now,
      ),
    ).toEqual({ ok: false, reason: "invalid" });

    const done = await completeEnrolment(
      db(),
      ownerSession,
      { code: await codeAt(ownerSecret, now), password: NEW_PASSWORD, confirm: NEW_PASSWORD },
      "203.0.113.22",
      now,
    );
    expect(done).toMatchObject({ ok: true, endedSessions: 1 });
    expect(await findStaffSession(db(), attacker, now)).toBeUndefined();
    // The attacker's secret opens nothing: the account's factor is the owner's.
    const later = new Date(now.getTime() + 2 * MINUTE);
    const signedIn = await signIn(db(), { email: NEWCOMER.email, password: NEW_PASSWORD, ip: "198.51.100.9" }, later);
    if (!signedIn.ok) throw new Error("sign-in failed");
    const pending = await sessionOf(signedIn.token, later);
    expect(await completeSecondFactor(db(), pending, await codeAt(attackerSecret, later), "198.51.100.9", later)).toMatchObject({
      ok: false,
    });
  });
});

describe("a new token at each level", () => {
  it("the password step ends the browser's session before it; the second factor's cookie is not the password step's", async () => {
    const now = new Date();
    const before = await createStaffSession(db(), OWNER.id, now, { secondFactor: true });
    const signedIn = await signIn(db(), { email: OWNER.email, password: OWNER.password, ip: "203.0.113.40", previousToken: before }, now);
    if (!signedIn.ok) throw new Error("sign-in failed");
    expect(signedIn.token).not.toBe(before);
    expect(await findStaffSession(db(), before, now)).toBeUndefined();
    const later = new Date(now.getTime() + 3 * MINUTE);
    const done = await completeSecondFactor(
      db(),
      await sessionOf(signedIn.token, later),
      await codeAt(DEMO_TOTP_SECRET, later),
      "203.0.113.40",
      later,
    );
    if (!done.ok) throw new Error("second factor refused");
    expect(await findStaffSession(db(), signedIn.token, later)).toBeUndefined();
    expect((await sessionOf(done.token, later)).session.secondFactorAt).not.toBeNull();
  });
});

describe("common passwords", () => {
  it("are refused on a change, whatever their case", async () => {
    expect(await isCommonPassword("123456789012")).toBe(true);
    expect(await isCommonPassword("PasswordPassword")).toBe(true);
    expect(await passwordProblem(NEW_PASSWORD)).toBeUndefined();
    const now = new Date();
    const token = await createStaffSession(db(), OWNER.id, now, { secondFactor: true });
    const user = { id: OWNER.id, name: OWNER.name, partnerId: DEMO_PARTNER_ID };
    const change = (next: string) =>
      changePassword(db(), { token, user }, { current: OWNER.password, next, confirm: next }, "203.0.113.30", now);
    expect(await change("123456789012")).toEqual({ ok: false, reason: "common" });
    expect(await change("passwordpassword")).toEqual({ ok: false, reason: "common" });
  });

  it("are refused when guessable from the owner: a pattern, the agency and a year, the old password and a digit", async () => {
    const now = new Date();
    const token = await createStaffSession(db(), OWNER.id, now, { secondFactor: true });
    const user = { id: OWNER.id, name: OWNER.name, partnerId: DEMO_PARTNER_ID };
    const change = (next: string) =>
      changePassword(db(), { token, user }, { current: OWNER.password, next, confirm: next }, "203.0.113.30", now);
    for (const weak of ["aaaaaaaaaaaa", "123123123123", "qwertyuiopasdf", "viajesaurora2026", `${OWNER.password}2`]) {
      expect(await change(weak), weak).toEqual({ ok: false, reason: "weak" });
    }
  });
});

describe("guessing spread over many addresses", () => {
  // A wrong password is known to be wrong without paying scrypt for it.
  const verify = async (password: string, stored: string) => !password.startsWith("guess-") && verifyPassword(password, stored);
  const attempt = (ip: string, password: string, at: Date) => signIn(db(), { email: OWNER.email, password, ip }, at, { verify });

  it("an IPv6 /64 is one address: new addresses of the same line get no new allowance", async () => {
    const t0 = new Date("2026-11-27T12:00:00Z");
    const answers: string[] = [];
    for (let i = 1; i <= LOGIN_LIMITS.perPair + 1; i++) {
      const result = await attempt(`2001:db8:aa:bb::${i.toString(16)}`, `guess-${i}`, new Date(t0.getTime() + i * 1000));
      answers.push(result.ok ? "ok" : result.reason);
    }
    expect(answers).toEqual(["invalid", "invalid", "invalid", "invalid", "locked", "locked"]);
    expect((await attempt("2001:db8:aa:bb:ffff::1", OWNER.password, new Date(t0.getTime() + 10_000))).ok).toBe(false);
    // Another /64 is another address.
    expect((await attempt("2001:db8:aa:cc::1", OWNER.password, new Date(t0.getTime() + 11_000))).ok).toBe(true);
  });

  it("an account slows guesses from unknown places, and its owner at a known place still signs in", async () => {
    // Ahead of the other tests, whose TOTP codes were used (a code of an older step is a replay).
    const t0 = new Date(Date.now() + 6 * 60 * MINUTE);
    const at = (ms: number) => new Date(t0.getTime() + ms);
    // The known good state: the owner completed both factors from 192.0.2.10 before.
    const first = await attempt("192.0.2.10", OWNER.password, at(0));
    if (!first.ok) throw new Error("sign-in failed");
    const done = await completeSecondFactor(
      db(),
      await sessionOf(first.token, at(0)),
      await codeAt(DEMO_TOTP_SECRET, at(0)),
      "192.0.2.10",
      at(0),
    );
    expect(done.ok).toBe(true);

    // 20 guesses, each from a new address (no address reaches its own limit).
    const answers: string[] = [];
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) {
      const result = await attempt(`198.51.100.${i + 1}`, `guess-${i}`, at(1000 + i * 1000));
      answers.push(result.ok ? "ok" : result.reason);
    }
    expect(answers.slice(0, -1).every((answer) => answer === "invalid")).toBe(true);
    expect(answers.at(-1)).toBe("locked");
    // From yet another unknown address, even the right password waits.
    expect(await attempt("198.51.100.200", OWNER.password, at(30_000))).toEqual({ ok: false, reason: "locked" });
    // The owner, from the known address, is not held back.
    expect((await attempt("192.0.2.10", OWNER.password, at(31_000))).ok).toBe(true);
    // And the ceiling ends by itself: after the lock (1 minute), an unknown place may try again.
    expect((await attempt("198.51.100.201", OWNER.password, at(22_000 + MINUTE + 1000))).ok).toBe(true);
  });
});
