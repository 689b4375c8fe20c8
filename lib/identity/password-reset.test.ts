import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { demoStaffDatabase } from "./testing/demo-staff-database";
import { recordingMailer } from "./testing/recording-mailer";
import { auditEvents, loginThrottles, staffLinks, staffSessions, staffUsers, tokenBuckets } from "@/lib/db/schema";
import { DEMO_PARTNER_ID, DEMO_STAFF } from "@/lib/demo/seed";
import type { Mailer } from "@/lib/mail/mailer";
import { createStaffSession, findStaffSession } from "./staff-sessions";
import { signIn } from "./auth";
import { LINK_TTL_MS, RESET_PATH } from "./links";
import { setMemberDisabled } from "./members";
import { verifyPassword } from "./passwords";
import { isResetLinkLive, PASSWORD_RESET_LIMITS, requestPasswordReset, resetPassword } from "./password-reset";

/*
 * "Forgot your password?" says the same to everyone, e-mails a link (once, 30 minutes) only to a
 * usable account, holds under its limits, and a new password ends every session of the account.
 */

const APP_URL = "http://127.0.0.1:3999";
const demo = (id: (typeof DEMO_STAFF)[number]["id"]) => DEMO_STAFF.find((staff) => staff.id === id)!;
const DIEGO = demo("staff_demo_aurora_sessions");
const AGENT = demo("staff_demo_aurora_agent");
const NEW_PASSWORD = "another-strong-passphrase-42";

const db = demoStaffDatabase(APP_URL);

const deps = (mailer: Mailer | undefined) => ({
  mailer,
  appUrl: APP_URL,
  platformName: "checkout.example",
  formatExpiry: (at: Date) => at.toISOString(),
});

/** The token in the link an e-mail carries. */
function tokenIn(text: string): string {
  const match = new RegExp(`${RESET_PATH}/([A-Za-z0-9_-]{43})`).exec(text);
  if (!match) throw new Error("no link in the e-mail");
  return match[1]!;
}

beforeEach(async () => {
  await db().delete(tokenBuckets);
  await db().delete(loginThrottles);
});

describe("asking for a reset link", () => {
  it("answers the same for an account and for no account; only the account gets an e-mail, in its agency's name", async () => {
    const mailer = recordingMailer();
    const known = await requestPasswordReset(
      db(),
      { email: ` ${DIEGO.email.toUpperCase()} `, ip: "203.0.113.50", locale: "en" },
      deps(mailer),
    );
    const unknown = await requestPasswordReset(
      db(),
      { email: "nobody@viajes-aurora.example", ip: "203.0.113.50", locale: "en" },
      deps(mailer),
    );
    await Promise.all([known.delivery, unknown.delivery]);
    expect(known.outcome).toBe("accepted");
    expect(unknown.outcome).toBe("accepted");
    expect(mailer.sent).toHaveLength(1);
    const [mail] = mailer.sent;
    expect(mail).toMatchObject({ to: DIEGO.email, fromName: "Viajes Aurora (demo)" });
    expect(mail!.subject).toContain("reset your password");
    const token = tokenIn(mail!.text);
    expect(mail!.html).toContain(`${APP_URL}${RESET_PATH}/${token}`);
    expect(await isResetLinkLive(db(), token)).toBe(true);
    // Kept hashed only.
    expect(JSON.stringify(await db().select().from(staffLinks))).not.toContain(token);
    const audits = await db().select().from(auditEvents).where(eq(auditEvents.kind, "password_reset_requested"));
    expect(audits.map((row) => [row.staffUserId, row.result])).toEqual([
      [DIEGO.id, "ok"],
      [null, "refused"],
    ]);
    // Nothing typed is kept: not the unknown address.
    expect(JSON.stringify(audits)).not.toContain("nobody@");
  });

  it("does the same work before answering for an account and for no account: the account's work comes after the answer", async () => {
    /** The database calls made through `db` (each statement or transaction started), in order. */
    function countingDb() {
      const calls: string[] = [];
      const counted = new Set(["select", "insert", "update", "delete", "transaction", "execute"]);
      const proxy = new Proxy(db(), {
        get(target, property, receiver) {
          const value: unknown = Reflect.get(target, property, receiver);
          if (typeof value !== "function") return value;
          return (...args: unknown[]) => {
            if (typeof property === "string" && counted.has(property)) calls.push(property);
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
      return { db: proxy, calls };
    }
    const mailer = recordingMailer();
    const ask = async (email: string) => {
      const counting = countingDb();
      const { outcome, delivery } = await requestPasswordReset(counting.db, { email, ip: "203.0.113.54", locale: "en" }, deps(mailer));
      const beforeAnswer = [...counting.calls];
      await delivery;
      return { outcome, beforeAnswer, all: counting.calls };
    };
    const known = await ask(DIEGO.email);
    const unknown = await ask("nobody-at-all@viajes-aurora.example");
    expect(known.outcome).toBe("accepted");
    expect(unknown.outcome).toBe("accepted");
    expect(known.beforeAnswer).toEqual(unknown.beforeAnswer);
    // The account's own work (its link, its audit) was done, after the answer.
    expect(known.all.length).toBeGreaterThan(known.beforeAnswer.length);
    expect(mailer.sent.map((mail) => mail.to)).toEqual([DIEGO.email]);
  });

  it("a disabled account gets the same answer and no e-mail", async () => {
    const mailer = recordingMailer();
    const admin = {
      db: db(),
      partner: { id: DEMO_PARTNER_ID, name: "Viajes Aurora (demo)" },
      user: { id: "staff_demo_aurora", name: "Lucía Ortega", role: "admin" as const, canRefund: true },
    };
    await setMemberDisabled(admin, AGENT.id, true);
    try {
      const { outcome, delivery } = await requestPasswordReset(
        db(),
        { email: AGENT.email, ip: "203.0.113.51", locale: "es" },
        deps(mailer),
      );
      await delivery;
      expect(outcome).toBe("accepted");
      expect(mailer.sent).toEqual([]);
    } finally {
      await setMemberDisabled(admin, AGENT.id, false);
    }
  });

  it("is limited per e-mail and per address, known account or not", async () => {
    const mailer = recordingMailer();
    const ask = (email: string, ip: string) => requestPasswordReset(db(), { email, ip, locale: "en" }, deps(mailer)).then((r) => r.outcome);
    const perEmail = [];
    for (let i = 0; i < PASSWORD_RESET_LIMITS.perEmail.capacity + 1; i++)
      perEmail.push(await ask("someone@example.com", `198.51.100.${i + 1}`));
    expect(perEmail.at(-1)).toBe("limited");
    expect(perEmail.slice(0, -1).every((outcome) => outcome === "accepted")).toBe(true);
    const perIp = [];
    for (let i = 0; i < PASSWORD_RESET_LIMITS.perIp.capacity + 1; i++) perIp.push(await ask(`person${i}@example.com`, "192.0.2.77"));
    expect(perIp.at(-1)).toBe("limited");
    // An IPv6 /64 is one address.
    await db().delete(tokenBuckets);
    for (let i = 0; i < PASSWORD_RESET_LIMITS.perIp.capacity; i++) await ask(`v6-${i}@example.com`, `2001:db8:1:2::${i + 1}`);
    expect(await ask("v6-last@example.com", "2001:db8:1:2:ffff::1")).toBe("limited");
  });

  it("without a mail server it is not offered, the same for everyone", async () => {
    expect((await requestPasswordReset(db(), { email: DIEGO.email, ip: "203.0.113.52", locale: "en" }, deps(undefined))).outcome).toBe(
      "unavailable",
    );
    expect((await requestPasswordReset(db(), { email: "x@example.com", ip: "203.0.113.52", locale: "en" }, deps(undefined))).outcome).toBe(
      "unavailable",
    );
  });

  it("a mail server that fails is logged, not said: the answer is the same", async () => {
    const { outcome, delivery } = await requestPasswordReset(
      db(),
      { email: DIEGO.email, ip: "203.0.113.53", locale: "en" },
      deps(recordingMailer(true)),
    );
    expect(outcome).toBe("accepted");
    await expect(delivery).resolves.toBeUndefined();
  });
});

describe("using a reset link", () => {
  async function linkFor(email: string, now?: Date): Promise<string> {
    const mailer = recordingMailer();
    const { delivery } = await requestPasswordReset(db(), { email, ip: "203.0.113.60", locale: "es" }, deps(mailer), now);
    await delivery;
    return tokenIn(mailer.sent[0]!.text);
  }

  it("a refused password does not use the link; a good one does, once, and ends every session", async () => {
    await db().delete(staffSessions).where(eq(staffSessions.userId, DIEGO.id));
    const sessions = [
      await createStaffSession(db(), DIEGO.id, new Date(), { secondFactor: true }),
      await createStaffSession(db(), DIEGO.id),
    ];
    const token = await linkFor(DIEGO.email);
    expect(await resetPassword(db(), token, { password: "short", confirm: "short" })).toEqual({ ok: false, reason: "too_short" });
    expect(await resetPassword(db(), token, { password: "password1234", confirm: "password1234" })).toEqual({
      ok: false,
      reason: "common",
    });
    // Guessable for someone who knows Diego: his agency and a year, his old password and a digit.
    for (const weak of ["Viajes-Aurora-2026", `${DIEGO.password}2`, "qwertyuiopasdf"]) {
      expect(await resetPassword(db(), token, { password: weak, confirm: weak }), weak).toEqual({ ok: false, reason: "weak" });
    }
    expect(await resetPassword(db(), token, { password: NEW_PASSWORD, confirm: `${NEW_PASSWORD}x` })).toEqual({
      ok: false,
      reason: "mismatch",
    });
    expect(await isResetLinkLive(db(), token)).toBe(true);

    const [first, second] = await Promise.all([
      resetPassword(db(), token, { password: NEW_PASSWORD, confirm: NEW_PASSWORD }, { ip: "203.0.113.61" }),
      resetPassword(db(), token, { password: NEW_PASSWORD, confirm: NEW_PASSWORD }, { ip: "203.0.113.61" }),
    ]);
    expect([first, second].filter((result) => result.ok)).toEqual([{ ok: true, endedSessions: 2 }]);
    for (const session of sessions) expect(await findStaffSession(db(), session)).toBeUndefined();
    const [user] = await db().select().from(staffUsers).where(eq(staffUsers.id, DIEGO.id));
    expect(await verifyPassword(NEW_PASSWORD, user!.passwordHash!)).toBe(true);
    expect(await resetPassword(db(), token, { password: NEW_PASSWORD, confirm: NEW_PASSWORD })).toEqual({
      ok: false,
      reason: "invalid_link",
    });
    // The new password opens the second step only: a mailbox alone signs no one in.
    expect(await signIn(db(), { email: DIEGO.email, password: NEW_PASSWORD, ip: "203.0.113.62" })).toMatchObject({
      ok: true,
      stage: "code",
    });
    const [audit] = await db().select().from(auditEvents).where(eq(auditEvents.kind, "password_reset"));
    expect(audit).toMatchObject({ staffUserId: DIEGO.id, partnerId: DEMO_PARTNER_ID, result: "ok", details: { endedSessions: 2 } });
  });

  it("expires after 30 minutes; a newer link voids the older; other kinds of link are no reset link", async () => {
    const now = new Date();
    const old = await linkFor(DIEGO.email, now);
    await db().delete(tokenBuckets);
    const newer = await linkFor(DIEGO.email, now);
    expect(await isResetLinkLive(db(), old, now)).toBe(false);
    expect(await isResetLinkLive(db(), newer, new Date(now.getTime() + LINK_TTL_MS - 1000))).toBe(true);
    expect(
      await resetPassword(
        db(),
        newer,
        { password: NEW_PASSWORD, confirm: NEW_PASSWORD },
        { now: new Date(now.getTime() + LINK_TTL_MS + 1000) },
      ),
    ).toEqual({
      ok: false,
      reason: "invalid_link",
    });
    expect(await resetPassword(db(), "not-a-token", { password: NEW_PASSWORD, confirm: NEW_PASSWORD })).toEqual({
      ok: false,
      reason: "invalid_link",
    });
  });
});
