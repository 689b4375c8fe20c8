import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { beforeEach, describe, expect, it } from "vitest";
import { demoStaffDatabase } from "./testing/demo-staff-database";
import { recordingMailer } from "./testing/recording-mailer";
import { auditEvents, loginThrottles, partners, staffLinks, staffSessions, staffUsers, tokenBuckets } from "@/lib/db/schema";
import { DEMO_GROUP_PARTNER_ID, DEMO_PARTNER_ID, DEMO_STAFF, DEMO_TOTP_SECRET } from "@/lib/demo/seed";
import { completeEnrolment, openEnrolmentSession } from "./second-factor-steps";
import { createStaffSession, findStaffSession, type StaffSession } from "./staff-sessions";
import { signIn } from "./auth";
import { consumeLink, ENROLMENT_PURPOSES, INVITATION_TTL_MS, peekLink } from "./links";
import {
  changeMember,
  findMember,
  listMembers,
  memberNames,
  removeMember,
  confirmSecondFactorReset,
  resetMemberSecondFactor,
  setMemberDisabled,
  type StaffAdminActor,
} from "./members";
import { createPartnerAdminInvitation, INVITATION_EMAIL_BUDGET, inviteMember, reissueInvitation } from "./member-invitations";
import { checkSecondFactor, enrolmentSecret, twoFactorEnabledAt } from "./two-factor";

/*
 * A partner's administrators manage their own staff, and only theirs: another partner's member is
 * "not found" whatever id is sent, an agent manages no one, and every change is audited with who
 * made it. A disabled member (or the staff of a disabled partner) has no session and no sign-in.
 */

const APP_URL = "http://127.0.0.1:3999";
const demo = (id: (typeof DEMO_STAFF)[number]["id"]) => DEMO_STAFF.find((staff) => staff.id === id)!;
const LUCIA = demo("staff_demo_aurora");
const ANA = demo("staff_demo_aurora_security");
const AGENT = demo("staff_demo_aurora_agent");
const DIEGO = demo("staff_demo_aurora_sessions");
const MARCOS = demo("staff_demo_grupo");
const PASSWORD = "a-fresh-strong-passphrase-77";
const IP = "203.0.113.40";

const db = demoStaffDatabase(APP_URL, { secondPartner: true });

const actor = (
  who: { id: string; name: string },
  partner: { id: string; name: string },
  role: "admin" | "agent" = "admin",
): StaffAdminActor => ({
  db: db(),
  partner,
  user: { id: who.id, name: who.name, role, canRefund: false },
});
const AURORA = { id: DEMO_PARTNER_ID, name: "Viajes Aurora (demo)" };
const GRUPO = { id: DEMO_GROUP_PARTNER_ID, name: "Grupo Demo" };
const lucia = () => actor(LUCIA, AURORA);
const marcos = () => actor(MARCOS, GRUPO);

const codeAt = (when: number) => generate({ secret: DEMO_TOTP_SECRET, epoch: Math.floor(when / 1000) });
/** A code of Lucía's authenticator not used yet: each 30-second step works once per account. */
let clock = Date.parse("2026-12-01T10:00:00Z");
const nextStep = () => {
  clock += 30_000;
  return new Date(clock);
};

async function auditOf(kind: string, userId?: string) {
  const rows = await db().select().from(auditEvents);
  return rows.filter((row) => row.kind === kind && (!userId || row.staffUserId === userId));
}

/** Uses an invitation link as its holder does: the link's session, a password and the first code. */
async function acceptInvitation(token: string): Promise<{ token: string; session: StaffSession }> {
  const userId = await consumeLink(db(), token, ENROLMENT_PURPOSES, { ip: IP });
  if (!userId) throw new Error("the link opened nothing");
  const enrolling = await openEnrolmentSession(db(), userId, { ip: IP });
  const found = (await findStaffSession(db(), enrolling))!;
  const secret = await enrolmentSecret(db(), found.session.tokenHash);
  const now = new Date();
  const done = await completeEnrolment(
    db(),
    found,
    { code: await generate({ secret, epoch: Math.floor(now.getTime() / 1000) }), password: PASSWORD, confirm: PASSWORD },
    IP,
    now,
  );
  if (!done.ok) throw new Error(`enrolment failed: ${done.reason}`);
  return { token: done.token, session: (await findStaffSession(db(), done.token))! };
}

beforeEach(async () => {
  await db().delete(loginThrottles);
});

describe("the staff list", () => {
  it("shows a partner's own members only, administrators first, with what each may do", async () => {
    const members = await listMembers(db(), DEMO_PARTNER_ID);
    expect(members.map((m) => m.email)).not.toContain(MARCOS.email);
    expect(members[0]?.role).toBe("admin");
    expect(members.find((m) => m.id === AGENT.id)).toMatchObject({ role: "agent", canRefund: false, twoFactor: true, disabledAt: null });
    expect(members.find((m) => m.email === "nuevo@viajes-aurora.example")).toMatchObject({ twoFactor: false });
    expect(await findMember(db(), DEMO_GROUP_PARTNER_ID, LUCIA.id)).toBeUndefined();
    expect(await findMember(db(), DEMO_PARTNER_ID, LUCIA.id)).toMatchObject({ name: LUCIA.name });
  });

  it("names a partner's own staff by name (the audit log's filter), and says since when a member's second factor is on", async () => {
    const names = await memberNames(db(), DEMO_PARTNER_ID);
    expect(names.map((n) => n.id)).toContain(LUCIA.id);
    expect(names.map((n) => n.id)).not.toContain(MARCOS.id);
    expect(names.map((n) => n.name)).toEqual([...names.map((n) => n.name)].sort());
    expect(await twoFactorEnabledAt(db(), AGENT.id)).toBeInstanceOf(Date);
    const [fresh] = (await listMembers(db(), DEMO_PARTNER_ID)).filter((m) => !m.twoFactor);
    expect(fresh).toBeDefined();
    expect(await twoFactorEnabledAt(db(), fresh!.id)).toBeNull();
    expect(await twoFactorEnabledAt(db(), "no_such_member")).toBeNull();
  });
});

describe("inviting", () => {
  it("creates a member with no password, whose link (48 hours, once) sets a password and a second factor", async () => {
    const now = new Date();
    const invited = await inviteMember(
      lucia(),
      { email: "  Nueva.Agente@Viajes-Aurora.example ", name: "Nueva Agente", role: "agent", canRefund: false, delivery: "link" },
      { ip: IP, now },
    );
    if (!invited.ok || !invited.memberId) throw new Error("not invited");
    expect(invited.link.expiresAt.getTime() - now.getTime()).toBe(INVITATION_TTL_MS);
    const [row] = await db().select().from(staffUsers).where(eq(staffUsers.id, invited.memberId));
    expect(row).toMatchObject({
      email: "nueva.agente@viajes-aurora.example",
      role: "agent",
      canRefund: false,
      partnerId: DEMO_PARTNER_ID,
      passwordHash: null,
    });
    // No password: no sign-in, whatever is typed.
    expect(await signIn(db(), { email: row!.email, password: "", ip: IP })).toEqual({ ok: false, reason: "invalid" });
    // Stored hashed only.
    expect(JSON.stringify(await db().select().from(staffLinks))).not.toContain(invited.link.token);

    const { session } = await acceptInvitation(invited.link.token);
    expect(session.user).toMatchObject({ id: invited.memberId, role: "agent", canRefund: false, partnerId: DEMO_PARTNER_ID });
    expect(session.session.secondFactorAt).not.toBeNull();
    expect(await peekLink(db(), invited.link.token, ENROLMENT_PURPOSES)).toBeUndefined();
    expect(await signIn(db(), { email: row!.email, password: PASSWORD, ip: IP })).toMatchObject({ ok: true, stage: "code" });

    const [audit] = await auditOf("staff_invited");
    expect(audit).toMatchObject({
      result: "ok",
      partnerId: DEMO_PARTNER_ID,
      staffUserId: LUCIA.id,
      staffName: LUCIA.name,
      ip: IP,
      details: { member: invited.memberId, memberName: "Nueva Agente", role: "agent", canRefund: false, delivery: "link" },
    });
  });

  it("says an e-mail is taken only when it is a member of the same partner", async () => {
    expect(await inviteMember(lucia(), { email: ANA.email, name: "X", role: "agent", canRefund: false, delivery: "link" })).toEqual({
      ok: false,
      reason: "email_taken",
    });
  });

  it("e-mails invitations within a budget per partner: beyond it a refusal, nobody created, audited; by link still works", async () => {
    await db().delete(tokenBuckets);
    const now = new Date("2026-12-01T09:00:00Z");
    const invite = (who: StaffAdminActor, i: number, delivery: "email" | "link" = "email") =>
      inviteMember(
        who,
        { email: `budget-${who.partner.id}-${i}@example.com`, name: `Budget ${i}`, role: "agent", canRefund: false, delivery },
        { now },
      );
    for (let i = 0; i < INVITATION_EMAIL_BUDGET.capacity; i++) expect((await invite(lucia(), i)).ok).toBe(true);
    const before = (await listMembers(db(), DEMO_PARTNER_ID)).length;
    expect(await invite(lucia(), 999)).toEqual({ ok: false, reason: "limited" });
    expect(await listMembers(db(), DEMO_PARTNER_ID)).toHaveLength(before);
    expect(
      (
        await db()
          .select()
          .from(staffUsers)
          .where(eq(staffUsers.email, `budget-${DEMO_PARTNER_ID}-999@example.com`))
      ).length,
    ).toBe(0);
    expect((await auditOf("staff_invited")).filter((row) => row.result === "refused").map((row) => row.details)).toContainEqual(
      expect.objectContaining({ reason: "limited" }),
    );
    // A link handed over sends no e-mail; another partner has its own budget.
    expect((await invite(lucia(), 1000, "link")).ok).toBe(true);
    expect((await invite(marcos(), 0)).ok).toBe(true);
    // An hour later the budget is back.
    const later = new Date(now.getTime() + 3_600_000);
    expect(
      (
        await inviteMember(
          lucia(),
          { email: "budget-later@example.com", name: "Later", role: "agent", canRefund: false, delivery: "email" },
          { now: later },
        )
      ).ok,
    ).toBe(true);
  });

  it("answers an address with an account at another partner or on the platform like any invitation, and opens nothing", async () => {
    const operatorEmail = "operator.invite-test@checkout.example";
    await db().insert(staffUsers).values({
      id: "operator_invite_test",
      partnerId: null,
      role: "operator",
      canRefund: false,
      email: operatorEmail,
      name: "Olga",
      passwordHash: null,
      createdAt: new Date(),
    });
    const invitedIds: string[] = [];
    try {
      for (const [email, delivery] of [
        [MARCOS.email, "link"],
        [operatorEmail.toUpperCase(), "email"],
      ] as const) {
        const answer = await inviteMember(lucia(), { email, name: "Someone", role: "agent", canRefund: false, delivery });
        if (!answer.ok) throw new Error(`refused: ${answer.reason}`);
        invitedIds.push(answer.memberId);
        // Shaped like a new invitation: a link of the same form and expiry...
        expect(answer.link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(answer.link.expiresAt.getTime() - Date.now()).toBeGreaterThan(INVITATION_TTL_MS - 60_000);
        // ...that opens nothing: neither its page nor using it attaches anything to the account elsewhere.
        expect(await peekLink(db(), answer.link.token, ENROLMENT_PURPOSES)).toBeUndefined();
        expect(await consumeLink(db(), answer.link.token, ENROLMENT_PURPOSES, { ip: IP })).toBeUndefined();
      }
      const [marcos] = await db().select().from(staffUsers).where(eq(staffUsers.email, MARCOS.email));
      expect(marcos!.partnerId).toBe(DEMO_GROUP_PARTNER_ID);
      // Nobody signs in with the placeholder: Marcos still signs in at Grupo Demo only.
      const rows = await db().select().from(staffUsers).where(eq(staffUsers.partnerId, DEMO_PARTNER_ID));
      expect(rows.filter((row) => row.email === MARCOS.email)).toEqual([]);
      // Nothing in Viajes Aurora's audit log tells the address had an account elsewhere.
      const aurorasLog = (await auditOf("staff_invited")).filter((row) => row.partnerId === DEMO_PARTNER_ID);
      expect(JSON.stringify(aurorasLog)).not.toMatch(/taken|elsewhere|exists|staff_demo_grupo|operator_invite_test/);
    } finally {
      await db().delete(staffUsers).where(eq(staffUsers.id, "operator_invite_test"));
      for (const id of invitedIds) await db().delete(staffUsers).where(eq(staffUsers.id, id));
    }
  });

  it("an administrator probing addresses sees the same staff list, member page and actions for one with an account elsewhere as for a free one", async () => {
    const mailer = recordingMailer();
    const free = "free.probe@agency.example";
    /** What Viajes Aurora's administrator can observe of an invitee, without what differs for any two people. */
    const observed = async (memberId: string) => {
      const member = (await listMembers(db(), DEMO_PARTNER_ID)).find((row) => row.id === memberId)!;
      const { id: _id, email: _email, createdAt: _createdAt, ...rest } = member;
      return { listed: rest, page: Boolean(await findMember(db(), DEMO_PARTNER_ID, memberId)) };
    };
    const probe = async (email: string) => {
      const answer = await inviteMember(lucia(), { email, name: "Probe", role: "agent", canRefund: false, delivery: "email" }, { mailer });
      if (!answer.ok) throw new Error(`refused: ${answer.reason}`);
      const listedEmail = (await listMembers(db(), DEMO_PARTNER_ID)).find((row) => row.id === answer.memberId)!.email;
      const seen = {
        answer: Object.keys(answer).filter((key) => key !== "accountElsewhere"),
        listedEmail,
        before: await observed(answer.memberId),
        again: await inviteMember(lucia(), { email, name: "Probe", role: "agent", canRefund: false, delivery: "link" }),
        reissued: (await reissueInvitation(lucia(), answer.memberId)).ok,
        changed: await changeMember(lucia(), answer.memberId, { role: "admin", canRefund: true }, { mailer }),
        disabled: (await setMemberDisabled(lucia(), answer.memberId, true)).ok,
        enabled: (await setMemberDisabled(lucia(), answer.memberId, false)).ok,
        after: await observed(answer.memberId),
        reset: await resetMemberSecondFactor(lucia(), answer.memberId, "000000"),
        removed: await removeMember(lucia(), answer.memberId),
      };
      return seen;
    };
    const forFree = await probe(free);
    const forTaken = await probe(MARCOS.email.toUpperCase());
    expect(forFree.listedEmail).toBe(free);
    expect(forTaken.listedEmail).toBe(MARCOS.email);
    expect({ ...forTaken, listedEmail: "" }).toEqual({ ...forFree, listedEmail: "" });
    expect(forTaken.again).toEqual({ ok: false, reason: "email_taken" });
    expect(forTaken.after.listed).toMatchObject({ role: "admin", canRefund: true, passwordSet: false, twoFactor: false });
    // The address with an account elsewhere is told so, with no link, and nothing more: the change of
    // role is told to the free invitee (their account to be) but not to the account elsewhere.
    expect(mailer.sent.map((mail) => [mail.to, mail.subject])).toEqual([
      [free, expect.stringContaining("your permissions were changed")],
      [MARCOS.email, expect.stringContaining("you already have an account")],
    ]);
    expect(mailer.sent[1]!.text).toMatch(/already has a back-office account/);
    expect(mailer.sent[1]!.text).not.toMatch(/https?:\/\//);
    const [marcos] = await db().select().from(staffUsers).where(eq(staffUsers.email, MARCOS.email));
    expect(marcos).toMatchObject({ partnerId: DEMO_GROUP_PARTNER_ID, role: "admin", disabledAt: null });
  });

  it("an agent invites no one, and the attempt is audited", async () => {
    const agent = actor(AGENT, AURORA, "agent");
    expect(
      await inviteMember(agent, { email: "x@example.com", name: "X", role: "admin", canRefund: true, delivery: "link" }, { ip: IP }),
    ).toEqual({
      ok: false,
      reason: "forbidden",
    });
    for (const attempt of [
      changeMember(agent, ANA.id, { role: "agent", canRefund: false }),
      setMemberDisabled(agent, ANA.id, true),
      removeMember(agent, ANA.id),
      reissueInvitation(agent, "staff_demo_aurora_new"),
      resetMemberSecondFactor(agent, ANA.id, "000000"),
    ]) {
      expect(await attempt).toEqual({ ok: false, reason: "forbidden" });
    }
    expect((await auditOf("permission_refused", AGENT.id)).map((row) => row.details?.action)).toEqual([
      "invite",
      "change",
      "disable",
      "remove",
      "reissue",
      "reset_second_factor",
    ]);
    expect(await db().select().from(staffUsers).where(eq(staffUsers.email, "x@example.com"))).toEqual([]);
  });

  it("the operator's first administrator of a partner: an admin who may refund, invited by the operator", async () => {
    const operator = { id: "operator_test", name: "Olga Operadora" };
    const created = await createPartnerAdminInvitation(db(), DEMO_GROUP_PARTNER_ID, "jefa@grupo-demo.example", " Jefa Grupo ", {
      by: operator,
      ip: IP,
    });
    if (!created.ok) throw new Error(created.reason);
    expect(await findMember(db(), DEMO_GROUP_PARTNER_ID, created.memberId)).toMatchObject({
      role: "admin",
      canRefund: true,
      name: "Jefa Grupo",
      passwordSet: false,
    });
    expect(await peekLink(db(), created.link.token, "invitation")).toBe(created.memberId);
    const audit = (await auditOf("staff_invited")).find((row) => row.details?.member === created.memberId);
    expect(audit).toMatchObject({
      partnerId: DEMO_GROUP_PARTNER_ID,
      staffUserId: operator.id,
      staffName: operator.name,
      details: { by: "operator", role: "admin" },
    });

    expect(await createPartnerAdminInvitation(db(), DEMO_GROUP_PARTNER_ID, "not-an-email", "X")).toEqual({
      ok: false,
      reason: "invalid_email",
    });
    expect(await createPartnerAdminInvitation(db(), DEMO_GROUP_PARTNER_ID, "a@example.com", "  ")).toEqual({
      ok: false,
      reason: "invalid_name",
    });
    expect(await createPartnerAdminInvitation(db(), DEMO_GROUP_PARTNER_ID, "a@example.com", "x".repeat(101))).toEqual({
      ok: false,
      reason: "invalid_name",
    });
    expect(await createPartnerAdminInvitation(db(), "no-such-partner", "a@example.com", "A")).toEqual({ ok: false, reason: "no_partner" });
    expect(await createPartnerAdminInvitation(db(), DEMO_GROUP_PARTNER_ID, "JEFA@grupo-demo.example", "Again")).toEqual({
      ok: false,
      reason: "email_taken",
    });
  });

  it("a new invitation link voids the one before; a member who set up their access gets none", async () => {
    const first = await reissueInvitation(lucia(), "staff_demo_aurora_new");
    const second = await reissueInvitation(lucia(), "staff_demo_aurora_new");
    if (!first.ok || !second.ok) throw new Error("no link");
    expect(await peekLink(db(), first.link.token, ENROLMENT_PURPOSES)).toBeUndefined();
    expect(await peekLink(db(), second.link.token, ENROLMENT_PURPOSES)).toBe("staff_demo_aurora_new");
    expect(await reissueInvitation(lucia(), ANA.id)).toEqual({ ok: false, reason: "enrolled" });
  });
});

describe("tenancy: another partner's member is not found", () => {
  it("whatever Grupo Demo's administrator does with Viajes Aurora's ids, nothing changes", async () => {
    const before = await db().select().from(staffUsers).where(eq(staffUsers.id, ANA.id));
    const sessionToken = await createStaffSession(db(), ANA.id, new Date(), { secondFactor: true });
    for (const attempt of [
      changeMember(marcos(), ANA.id, { role: "agent", canRefund: false }),
      setMemberDisabled(marcos(), ANA.id, true),
      removeMember(marcos(), ANA.id),
      reissueInvitation(marcos(), "staff_demo_aurora_new"),
      resetMemberSecondFactor(marcos(), ANA.id, await codeAt(clock)),
      // An operator's id, and nonsense, are no one's member either.
      changeMember(marcos(), "operator_none", { role: "admin", canRefund: true }),
      setMemberDisabled(marcos(), "x".repeat(500), true),
    ]) {
      expect(await attempt).toEqual({ ok: false, reason: "not_found" });
    }
    expect(await db().select().from(staffUsers).where(eq(staffUsers.id, ANA.id))).toEqual(before);
    expect(await findStaffSession(db(), sessionToken)).toBeDefined();
  });
});

describe("changing, disabling and removing", () => {
  it("changes a role and the refund permission, effective on the member's very next request", async () => {
    const token = await createStaffSession(db(), AGENT.id, new Date(), { secondFactor: true });
    expect((await findStaffSession(db(), token))?.user).toMatchObject({ role: "agent", canRefund: false });
    expect(await changeMember(lucia(), AGENT.id, { role: "agent", canRefund: true }, { ip: IP })).toEqual({ ok: true });
    expect((await findStaffSession(db(), token))?.user).toMatchObject({ role: "agent", canRefund: true });
    expect(await changeMember(lucia(), AGENT.id, { role: "agent", canRefund: false }, { ip: IP })).toEqual({ ok: true });
    const [audit] = (await auditOf("staff_role_changed")).slice(-1);
    expect(audit).toMatchObject({
      staffUserId: LUCIA.id,
      details: { member: AGENT.id, role: "agent", canRefund: false, previousRole: "agent", previousCanRefund: true },
    });
  });

  it("grants the data requests permission to an admin only: an agent's is always off, and it goes with the admin role", async () => {
    expect(await changeMember(lucia(), ANA.id, { role: "admin", canRefund: true, canDataRequests: true }, { ip: IP })).toEqual({
      ok: true,
    });
    const token = await createStaffSession(db(), ANA.id, new Date(), { secondFactor: true });
    expect((await findStaffSession(db(), token))?.user).toMatchObject({ role: "admin", canDataRequests: true });
    const [granted] = (await auditOf("staff_role_changed")).slice(-1);
    expect(granted).toMatchObject({ details: { member: ANA.id, canDataRequests: true, previousCanDataRequests: false } });

    expect(await changeMember(lucia(), AGENT.id, { role: "agent", canRefund: false, canDataRequests: true }, { ip: IP })).toEqual({
      ok: true,
    });
    expect((await listMembers(db(), DEMO_PARTNER_ID)).find((m) => m.id === AGENT.id)).toMatchObject({ canDataRequests: false });

    expect(await changeMember(lucia(), ANA.id, { role: "agent", canRefund: true, canDataRequests: true }, { ip: IP })).toEqual({
      ok: true,
    });
    expect((await findStaffSession(db(), token))?.user).toMatchObject({ role: "agent", canDataRequests: false });
    expect(await changeMember(lucia(), ANA.id, { role: "admin", canRefund: true }, { ip: IP })).toEqual({ ok: true });
  });

  it("disabling ends the member's open sessions at once; they cannot sign in until enabled again", async () => {
    const now = new Date();
    await db().delete(staffSessions).where(eq(staffSessions.userId, ANA.id));
    const tokens = [
      await createStaffSession(db(), ANA.id, now, { secondFactor: true }),
      await createStaffSession(db(), ANA.id, now, { secondFactor: true }),
    ];
    const disabled = await setMemberDisabled(lucia(), ANA.id, true, { ip: IP });
    expect(disabled).toEqual({ ok: true, endedSessions: 2 });
    for (const token of tokens) expect(await findStaffSession(db(), token)).toBeUndefined();
    expect(await signIn(db(), { email: ANA.email, password: ANA.password, ip: IP })).toEqual({ ok: false, reason: "disabled" });
    // A session made some other way (or one racing the disable) opens nothing either.
    expect(await findStaffSession(db(), await createStaffSession(db(), ANA.id, now, { secondFactor: true }))).toBeUndefined();
    // A link issued before, or after, opens nothing.
    expect(await reissueInvitation(lucia(), ANA.id)).toEqual({ ok: false, reason: "disabled" });

    expect(await setMemberDisabled(lucia(), ANA.id, false, { ip: IP })).toEqual({ ok: true, endedSessions: 0 });
    expect(await signIn(db(), { email: ANA.email, password: ANA.password, ip: IP })).toMatchObject({ ok: true });
    expect((await auditOf("staff_disabled")).at(-1)).toMatchObject({
      staffUserId: LUCIA.id,
      details: { member: ANA.id, endedSessions: 2 },
    });
    expect((await auditOf("staff_enabled")).at(-1)).toMatchObject({ staffUserId: LUCIA.id, details: { member: ANA.id } });
  });

  it("no one demotes, disables or removes themselves; the last enabled administrator stays one", async () => {
    expect(await changeMember(lucia(), LUCIA.id, { role: "agent", canRefund: true })).toEqual({ ok: false, reason: "self" });
    expect(await setMemberDisabled(lucia(), LUCIA.id, true)).toEqual({ ok: false, reason: "self" });
    expect(await removeMember(lucia(), LUCIA.id)).toEqual({ ok: false, reason: "self" });
    // Their own refund permission, though, an administrator may change.
    expect(await changeMember(lucia(), LUCIA.id, { role: "admin", canRefund: true })).toEqual({ ok: true });

    // Grupo Demo has one administrator (and the invited one, not enabled yet counts: disable it first).
    const jefa = (await listMembers(db(), DEMO_GROUP_PARTNER_ID)).find((m) => m.email === "jefa@grupo-demo.example")!;
    expect(await setMemberDisabled(marcos(), jefa.id, true)).toMatchObject({ ok: true });
    const jefaActor = actor({ id: jefa.id, name: jefa.name }, GRUPO);
    expect(await changeMember(jefaActor, MARCOS.id, { role: "agent", canRefund: false })).toEqual({ ok: false, reason: "last_admin" });
    expect(await setMemberDisabled(jefaActor, MARCOS.id, true)).toEqual({ ok: false, reason: "last_admin" });
    expect(await removeMember(jefaActor, MARCOS.id)).toEqual({ ok: false, reason: "last_admin" });
    expect(await setMemberDisabled(marcos(), jefa.id, false)).toMatchObject({ ok: true });
  });

  it("removes a member for good; the audit log keeps who removed whom", async () => {
    const invited = await inviteMember(lucia(), {
      email: "temporal@viajes-aurora.example",
      name: "Temporal",
      role: "agent",
      canRefund: false,
      delivery: "link",
    });
    if (!invited.ok || !invited.memberId) throw new Error("not invited");
    await createStaffSession(db(), invited.memberId, new Date());
    expect(await removeMember(lucia(), invited.memberId, { ip: IP })).toEqual({ ok: true });
    expect(await db().select().from(staffUsers).where(eq(staffUsers.id, invited.memberId))).toEqual([]);
    expect(await db().select().from(staffSessions).where(eq(staffSessions.userId, invited.memberId))).toEqual([]);
    expect(await consumeLink(db(), invited.link.token, ENROLMENT_PURPOSES)).toBeUndefined();
    expect((await auditOf("staff_removed")).at(-1)).toMatchObject({
      staffUserId: LUCIA.id,
      details: { member: invited.memberId, memberName: "Temporal" },
    });
    expect(await removeMember(lucia(), invited.memberId)).toEqual({ ok: false, reason: "not_found" });
  });
});

describe("resetting a member's lost second factor", () => {
  it("takes the administrator's own current code, ends the member's sessions and gives a new link; audited", async () => {
    await db().delete(staffSessions).where(eq(staffSessions.userId, ANA.id));
    const memberSession = await createStaffSession(db(), ANA.id, new Date(), { secondFactor: true });
    const wrong = await resetMemberSecondFactor(lucia(), ANA.id, "000000", { ip: IP, now: nextStep() });
    expect(wrong).toEqual({ ok: false, reason: "code_invalid" });
    // A recovery code is not how an administrator confirms this.
    expect(await resetMemberSecondFactor(lucia(), ANA.id, "ABCD-EFGH-JKLM", { ip: IP, now: nextStep() })).toEqual({
      ok: false,
      reason: "code_invalid",
    });
    expect(await findStaffSession(db(), memberSession)).toBeDefined();
    expect((await db().select().from(staffUsers).where(eq(staffUsers.id, ANA.id)))[0]?.totpEnabledAt).not.toBeNull();

    const now = nextStep();
    const code = await codeAt(now.getTime());
    // Ana is an administrator and Aurora has others: Lucía's request waits for a second administrator.
    expect(await resetMemberSecondFactor(lucia(), ANA.id, code, { ip: IP, now })).toEqual({ ok: true, delivery: "pending" });
    const reset = await confirmSecondFactorReset(actor(DIEGO, AURORA), ANA.id, code, { ip: IP, now });
    if (!reset.ok) throw new Error(reset.reason);
    // No mail server: the link is the administrator's to hand over.
    if (reset.delivery === "email" || reset.delivery === "pending") throw new Error(`unexpected ${reset.delivery}`);
    expect(reset.endedSessions).toBe(1);
    expect(await findStaffSession(db(), memberSession)).toBeUndefined();
    const [ana] = await db().select().from(staffUsers).where(eq(staffUsers.id, ANA.id));
    expect(ana).toMatchObject({ totpSecret: null, totpEnabledAt: null });
    // The same code again is a replay, and Ana has nothing to reset any more.
    expect(await resetMemberSecondFactor(lucia(), ANA.id, code, { ip: IP, now })).toEqual({ ok: false, reason: "not_enrolled" });
    // The right password alone now opens nothing: the link is the way back.
    expect(await signIn(db(), { email: ANA.email, password: ANA.password, ip: IP })).toEqual({
      ok: false,
      reason: "enrolment_link_needed",
    });
    const { session } = await acceptInvitation(reset.link.token);
    expect(session.user.id).toBe(ANA.id);

    const audits = await auditOf("two_factor_reset", LUCIA.id);
    expect(audits.map((row) => [row.result, row.details?.reason ?? null])).toEqual([
      ["failed", "invalid"],
      ["failed", "invalid"],
      ["ok", null],
    ]);
    expect(audits.at(-1)).toMatchObject({ partnerId: DEMO_PARTNER_ID, details: { member: ANA.id, step: "requested" } });
    expect((await auditOf("two_factor_reset", DIEGO.id)).at(-1)).toMatchObject({
      details: { member: ANA.id, step: "confirmed", requestedBy: LUCIA.id, endedSessions: 1 },
    });
  });

  it("a code the administrator used already is a replay; five wrong ones lock their checks", async () => {
    const now = nextStep();
    const code = await codeAt(now.getTime());
    // Lucía signed in with this step's code, say: it confirms nothing afterwards.
    expect(await checkSecondFactor(db(), LUCIA.id, code, now)).toMatchObject({ ok: true });
    expect(await resetMemberSecondFactor(lucia(), AGENT.id, code, { now })).toEqual({ ok: false, reason: "code_replayed" });
    const answers: string[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await resetMemberSecondFactor(lucia(), AGENT.id, "000000", { now });
      answers.push(result.ok ? "ok" : result.reason);
    }
    expect(answers).toEqual(["code_invalid", "code_invalid", "code_invalid", "code_invalid", "locked"]);
    // Locked: even the right code of the next step waits.
    const later = nextStep();
    expect(await resetMemberSecondFactor(lucia(), AGENT.id, await codeAt(later.getTime()), { now: later })).toEqual({
      ok: false,
      reason: "locked",
    });
    expect((await db().select().from(staffUsers).where(eq(staffUsers.id, AGENT.id)))[0]?.totpEnabledAt).not.toBeNull();
  });
});

describe("a disabled partner", () => {
  it("its staff cannot sign in, their sessions open nothing, their links nothing", async () => {
    const now = new Date();
    const token = await createStaffSession(db(), MARCOS.id, now, { secondFactor: true });
    const link = await reissueInvitation(marcos(), (await listMembers(db(), DEMO_GROUP_PARTNER_ID)).find((m) => !m.twoFactor)!.id);
    if (!link.ok) throw new Error(link.reason);
    expect(await findStaffSession(db(), token)).toBeDefined();

    await db().update(partners).set({ disabledAt: now }).where(eq(partners.id, DEMO_GROUP_PARTNER_ID));
    try {
      expect(await findStaffSession(db(), token)).toBeUndefined();
      expect(await signIn(db(), { email: MARCOS.email, password: MARCOS.password, ip: IP })).toEqual({ ok: false, reason: "disabled" });
      expect(await peekLink(db(), link.link.token, ENROLMENT_PURPOSES)).toBeUndefined();
      expect(await consumeLink(db(), link.link.token, ENROLMENT_PURPOSES)).toBeUndefined();
      // A wrong password is still just wrong: only the right one learns the partner is disabled.
      expect(await signIn(db(), { email: MARCOS.email, password: "wrong-password-123", ip: IP })).toEqual({ ok: false, reason: "invalid" });
      // Another partner's staff are not concerned.
      expect(await signIn(db(), { email: LUCIA.email, password: LUCIA.password, ip: IP })).toMatchObject({ ok: true });
    } finally {
      await db().update(partners).set({ disabledAt: null }).where(eq(partners.id, DEMO_GROUP_PARTNER_ID));
    }
    expect(await signIn(db(), { email: MARCOS.email, password: MARCOS.password, ip: IP })).toMatchObject({ ok: true });
  });
});
