import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { demoStaffDatabase } from "./testing/demo-staff-database";
import { recordingMailer } from "./testing/recording-mailer";
import { DEMO_PARTNER_ID, DEMO_STAFF, DEMO_TOTP_SECRET } from "@/lib/demo/seed";
import { noticeApiSecretCreated } from "./account-notices";
import { changePassword } from "./auth";
import { issueLinkWithExpiry } from "./links";
import { changeMember, resetMemberSecondFactor, type StaffAdminActor } from "./members";
import { resetPassword } from "./password-reset";
import { createStaffSession } from "./staff-sessions";

/*
 * People are told when their account changes: the holder of the account by e-mail on a password
 * change, a password reset, a second-factor reset and a role or permission change; the partner's
 * administrators on a new API secret. A mail server that fails never fails the change.
 */

const APP_URL = "http://127.0.0.1:3999";
const demo = (id: (typeof DEMO_STAFF)[number]["id"]) => DEMO_STAFF.find((staff) => staff.id === id)!;
const LUCIA = demo("staff_demo_aurora");
const ANA = demo("staff_demo_aurora_security");
const DIEGO = demo("staff_demo_aurora_sessions");
const AGENT = demo("staff_demo_aurora_agent");
const AURORA = { id: DEMO_PARTNER_ID, name: "Viajes Aurora (demo)" };
const NEW_PASSWORD = "a-fresh-strong-passphrase-77";

const db = demoStaffDatabase(APP_URL);
const lucia = (): StaffAdminActor => ({
  db: db(),
  partner: AURORA,
  user: { id: LUCIA.id, name: LUCIA.name, role: "admin", canRefund: true },
});

describe("the account holder is told", () => {
  it("when their password changes, in their agency's name, with no link", async () => {
    const mailer = recordingMailer();
    const now = new Date("2026-12-02T10:15:00Z");
    const token = await createStaffSession(db(), DIEGO.id, now, { secondFactor: true });
    const user = { id: DIEGO.id, name: DIEGO.name, partnerId: DEMO_PARTNER_ID };
    const done = await changePassword(
      db(),
      { token, user },
      { current: DIEGO.password, next: NEW_PASSWORD, confirm: NEW_PASSWORD },
      "203.0.113.9",
      now,
      {
        mailer,
      },
    );
    expect(done.ok).toBe(true);
    expect(mailer.sent.map((mail) => mail.to)).toEqual([DIEGO.email]);
    const [mail] = mailer.sent;
    expect(mail!.subject).toContain("password was changed");
    expect(mail!.text).toContain("2026-12-02 10:15 UTC");
    expect(mail!.fromName).toBe(AURORA.name);
    expect(mail!.html).not.toContain("<a ");
  });

  it("when their password is reset with a link", async () => {
    const mailer = recordingMailer();
    const link = await issueLinkWithExpiry(db(), AGENT.id, "password-reset", { by: "password_reset" });
    const done = await resetPassword(
      db(),
      link.token,
      { password: "another-fine-passphrase-31", confirm: "another-fine-passphrase-31" },
      { mailer },
    );
    expect(done.ok).toBe(true);
    expect(mailer.sent.map((mail) => [mail.to, mail.subject.includes("password was reset")])).toEqual([[AGENT.email, true]]);
  });

  it("when an administrator changes their role or permissions, with what they may do now and who did it", async () => {
    const mailer = recordingMailer();
    expect(await changeMember(lucia(), AGENT.id, { role: "agent", canRefund: true }, { mailer })).toEqual({ ok: true });
    expect(mailer.sent.map((mail) => mail.to)).toEqual([AGENT.email]);
    expect(mailer.sent[0]!.text).toContain(LUCIA.name);
    expect(mailer.sent[0]!.text).toMatch(/May refund: yes/);
    // Saved as it was: nothing changed, nobody told.
    expect(await changeMember(lucia(), AGENT.id, { role: "agent", canRefund: true }, { mailer })).toEqual({ ok: true });
    expect(mailer.sent).toHaveLength(1);
  });

  it("a mail server that fails does not fail the change, and its log holds no address", async () => {
    const mailer = recordingMailer(true);
    expect(await changeMember(lucia(), AGENT.id, { role: "agent", canRefund: false }, { mailer })).toEqual({ ok: true });
    expect(mailer.tried).toBe(1);
  });
});

describe("a second-factor reset", () => {
  it("e-mails the new link to the member, not to the administrator, who gets no link to use", async () => {
    const mailer = recordingMailer();
    const now = new Date("2026-12-02T10:30:00Z");
    const code = await generate({ secret: DEMO_TOTP_SECRET, epoch: Math.floor(now.getTime() / 1000) });
    const reset = await resetMemberSecondFactor(lucia(), AGENT.id, code, {
      now,
      mail: { mailer, appUrl: APP_URL, locale: "en", formatExpiry: (at) => at.toISOString() },
    });
    expect(reset).toMatchObject({ ok: true, delivery: "email" });
    expect(reset.ok && "link" in reset).toBe(false);
    expect(mailer.sent.map((mail) => mail.to)).toEqual([AGENT.email]);
    expect(mailer.sent[0]!.text).toMatch(new RegExp(`${APP_URL}/admin/login/link/[A-Za-z0-9_-]{43}`));
  });
});

describe("a new API secret", () => {
  it("is told to every enabled administrator of the partner, with its name and who created it", async () => {
    const mailer = recordingMailer();
    expect(await noticeApiSecretCreated(db(), DEMO_PARTNER_ID, { name: "Web shop", by: LUCIA.name }, { mailer })).toBeGreaterThan(0);
    const to = mailer.sent.map((mail) => mail.to);
    expect(to).toEqual(expect.arrayContaining([LUCIA.email, ANA.email, DIEGO.email]));
    expect(to).not.toContain(AGENT.email);
    expect(mailer.sent[0]!.text).toContain("Web shop");
  });
});
