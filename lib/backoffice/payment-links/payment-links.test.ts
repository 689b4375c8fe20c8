import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachOperation } from "@/lib/checkout/session/operation-link";
import { sessionState } from "@/lib/checkout/session/session-state";
import { getSession } from "@/lib/checkout/session/sessions";
import { sessionInput } from "@/lib/checkout/testing/context";
import { openDatabase, type Database } from "@/lib/db";
import { auditEvents, staffUsers } from "@/lib/db/schema";
import { throwawayDatabase } from "@/lib/db/testing/throwaway";
import { DEMO_GROUP_PARTNER_ID, DEMO_PARTNER_ID, seedDemoPartner, seedDemoStaff } from "@/lib/demo/seed";
import type { Mailer } from "@/lib/mail/mailer";
import { partnerById, type Partner } from "@/lib/partners/partners";
import {
  createPaymentLink,
  getPaymentLink,
  isRevocable,
  listPaymentLinks,
  revokePaymentLink,
  SEND_LIMITS,
  sendPaymentLink,
} from "./payment-links";

/*
 * Payment links on the database: the creator is recorded, the API's idempotency per
 * booking reference holds, another partner's staff cannot see, revoke or send a link, a revoked
 * link is expired at once and only while the customer has sent nothing, and the e-mail carries
 * the trip, the amount and the link, never the customer's document, birth date, phone or address.
 */

const APP_URL = "http://127.0.0.1:3999";
const PREFILL = {
  firstName: "Ana",
  lastName: "García López",
  email: "ana@example.com",
  phone: "612345678",
  documentId: "12345678Z",
  birthDate: "1985-03-14",
  address: "Calle Mayor 1",
};

function capturingMailer(): Mailer & { sent: Parameters<Mailer["send"]>[0][] } {
  const sent: Parameters<Mailer["send"]>[0][] = [];
  return {
    sent,
    async send(message) {
      sent.push(message);
      return { messageId: `<m${sent.length}@test>` };
    },
  };
}

function suite(name: string, open: () => Promise<Database>) {
  describe(`payment links (${name})`, () => {
    let database: Database;
    let aurora: Partner;
    let grupo: Partner;
    const staffOf = (partner: Partner, id = "staff_demo_aurora", staffName = "Lucía Ortega") => ({
      db: database.db,
      partner,
      user: {
        id,
        name: staffName,
        email: "x@example.com",
        partnerId: partner.id,
        role: "admin" as const,
        canRefund: true,
        canDataRequests: false,
        twoFactor: true,
      },
    });

    beforeAll(async () => {
      database = await open();
      await seedDemoPartner(database.db, { secret: "test_partner_secret_0123456789", appUrl: APP_URL });
      await seedDemoStaff(database.db, { appUrl: APP_URL });
      aurora = (await partnerById(database.db, DEMO_PARTNER_ID))!;
      grupo = (await partnerById(database.db, DEMO_GROUP_PARTNER_ID))!;
    });
    afterAll(async () => {
      await database?.close();
    });

    it("seeds a default return URL on the partner's own origin", () => {
      expect(aurora.defaultReturnUrl).toBe(`${APP_URL}/`);
      expect(grupo.defaultReturnUrl).toBe(`${APP_URL}/`);
    });

    it("records who created the link, answers the same link for the same booking, and audits both", async () => {
      const input = sessionInput({ customer: PREFILL, returnUrl: aurora.defaultReturnUrl! });
      const first = await createPaymentLink(staffOf(aurora), APP_URL, input);
      expect(first.created).toBe(true);
      expect(first.url).toBe(`${APP_URL}/checkout/${first.session.id}`);
      expect(first.session.createdByStaffId).toBe("staff_demo_aurora");
      const again = await createPaymentLink(staffOf(aurora), APP_URL, input);
      expect(again).toMatchObject({ created: false, session: { id: first.session.id } });

      const changed = sessionInput({ booking: { ...input.booking, packageName: "Otro viaje" }, returnUrl: aurora.defaultReturnUrl! });
      await expect(createPaymentLink(staffOf(aurora), APP_URL, changed)).rejects.toMatchObject({ code: "conflict" });

      const audited = await database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.kind, "payment_link_created"), eq(auditEvents.partnerId, DEMO_PARTNER_ID)));
      expect(audited.filter((event) => event.details?.sessionId === first.session.id)).toHaveLength(2);
      expect(JSON.stringify(audited)).not.toContain(PREFILL.documentId);

      const link = await getPaymentLink(database.db, DEMO_PARTNER_ID, APP_URL, first.session.id);
      expect(link).toMatchObject({ state: "open", creator: { id: "staff_demo_aurora", name: "Lucía Ortega" }, revocable: true });
    });

    it("hides a link from another partner's staff, who can neither revoke nor send it", async () => {
      const { session } = await createPaymentLink(staffOf(aurora), APP_URL, sessionInput({ returnUrl: aurora.defaultReturnUrl! }));
      expect(await getPaymentLink(database.db, DEMO_GROUP_PARTNER_ID, APP_URL, session.id)).toBeUndefined();
      const other = staffOf(grupo, "staff_demo_grupo", "Marcos Vidal");
      expect(await revokePaymentLink(other, session.id)).toEqual({ ok: false, reason: "not_found" });
      const mailer = capturingMailer();
      expect(await sendPaymentLink(other, APP_URL, { sessionId: session.id, to: "a@example.com", locale: "es" }, mailer)).toEqual({
        ok: false,
        reason: "not_found",
      });
      expect(mailer.sent).toHaveLength(0);
      expect(sessionState((await getSession(database.db, session.id))!)).toBe("open");
      const listed = await listPaymentLinks(database.db, DEMO_GROUP_PARTNER_ID, { page: 1, size: 100 });
      expect(listed.links.map((l) => l.session.id)).not.toContain(session.id);
    });

    it("revokes a link at once, only while the customer has sent nothing, and audits it", async () => {
      const { session } = await createPaymentLink(staffOf(aurora), APP_URL, sessionInput({ returnUrl: aurora.defaultReturnUrl! }));
      const now = new Date();
      expect(await revokePaymentLink(staffOf(aurora), session.id, now)).toEqual({ ok: true });
      const revoked = (await getSession(database.db, session.id))!;
      expect(revoked.revokedAt?.getTime()).toBe(now.getTime());
      expect(sessionState(revoked, new Date(now.getTime() + 1))).toBe("expired");
      expect(isRevocable(revoked)).toBe(false);
      expect(await revokePaymentLink(staffOf(aurora), session.id)).toEqual({ ok: false, reason: "not_revocable" });

      // The customer sent their details: the operation exists and is cancelled from its page instead.
      const { session: used } = await createPaymentLink(staffOf(aurora), APP_URL, sessionInput({ returnUrl: aurora.defaultReturnUrl! }));
      await attachOperation(database.db, used.id, `op_${Date.now()}`);
      expect(await revokePaymentLink(staffOf(aurora), used.id)).toEqual({ ok: false, reason: "not_revocable" });
      expect((await getSession(database.db, used.id))!.revokedAt).toBeNull();

      const kinds = await database.db.select().from(auditEvents).where(eq(auditEvents.kind, "payment_link_revoked"));
      expect(kinds.map((event) => [event.details?.sessionId, event.result])).toEqual(
        expect.arrayContaining([
          [session.id, "ok"],
          [used.id, "refused"],
        ]),
      );
    });

    it("e-mails the trip, the amount and the link in the customer's language, and nothing personal", async () => {
      const { session } = await createPaymentLink(
        staffOf(aurora),
        APP_URL,
        sessionInput({ customer: PREFILL, returnUrl: aurora.defaultReturnUrl!, locale: "en" }),
      );
      const mailer = capturingMailer();
      expect(await sendPaymentLink(staffOf(aurora), APP_URL, { sessionId: session.id, to: PREFILL.email, locale: "en" }, mailer)).toEqual({
        ok: true,
      });
      const [message] = mailer.sent;
      expect(message).toMatchObject({ to: PREFILL.email, fromName: aurora.name });
      const all = `${message!.subject}\n${message!.text}\n${message!.html}`;
      expect(message!.text).toContain(`${APP_URL}/checkout/${session.id}`);
      expect(message!.text).toContain("Lisboa, 4 noches");
      expect(message!.text).toContain("€1,234.50");
      expect(message!.subject).toContain("installments");
      for (const value of [PREFILL.documentId, PREFILL.birthDate, "14/03/1985", PREFILL.phone, PREFILL.address, PREFILL.lastName]) {
        expect(all).not.toContain(value);
      }
      // The audit says who sent which link, and to whom, masked.
      const [sent] = await database.db.select().from(auditEvents).where(eq(auditEvents.kind, "payment_link_sent"));
      expect(sent).toMatchObject({
        result: "ok",
        details: { sessionId: session.id, locale: "en", to: "a***@example.com", prefilled: true },
      });
      expect(JSON.stringify(sent)).not.toContain(PREFILL.email);
    });

    it("sends to another address than the booking's only once staff confirm it", async () => {
      const { session } = await createPaymentLink(
        staffOf(aurora),
        APP_URL,
        sessionInput({ customer: PREFILL, returnUrl: aurora.defaultReturnUrl! }),
      );
      const mailer = capturingMailer();
      const other = { sessionId: session.id, to: "someone@elsewhere.example", locale: "es" as const };
      expect(await sendPaymentLink(staffOf(aurora), APP_URL, other, mailer)).toEqual({ ok: false, reason: "needs_confirmation" });
      expect(mailer.sent).toHaveLength(0);
      expect(await sendPaymentLink(staffOf(aurora), APP_URL, { ...other, confirmed: true }, mailer)).toEqual({ ok: true });
      expect(mailer.sent.map((message) => message.to)).toEqual(["someone@elsewhere.example"]);
      // Without a prefilled address, every address needs the confirmation; the prefilled one, in any case, none.
      const { session: bare } = await createPaymentLink(staffOf(aurora), APP_URL, sessionInput({ returnUrl: aurora.defaultReturnUrl! }));
      expect(await sendPaymentLink(staffOf(aurora), APP_URL, { ...other, sessionId: bare.id }, mailer)).toMatchObject({ ok: false });
      expect(await sendPaymentLink(staffOf(aurora), APP_URL, { ...other, to: " ANA@example.com" }, mailer)).toEqual({ ok: true });
      const audited = await database.db.select().from(auditEvents).where(eq(auditEvents.kind, "payment_link_sent"));
      expect(audited.filter((event) => event.details?.sessionId === session.id).map((event) => event.details?.to)).toEqual(
        expect.arrayContaining(["s***@elsewhere.example", "a***@example.com"]),
      );
    });

    it("limits e-mails per link, per staff member and per partner, for every instance alike, and audits a refusal", async () => {
      const mailer = capturingMailer();
      const open = async () =>
        (await createPaymentLink(staffOf(aurora), APP_URL, sessionInput({ customer: PREFILL, returnUrl: aurora.defaultReturnUrl! })))
          .session;
      const to = { to: PREFILL.email, locale: "es" as const };
      // Per link: its allowance, then refused, with nothing sent.
      const link = await open();
      const sends = await Promise.all(
        Array.from({ length: SEND_LIMITS.perLink.capacity + 3 }, () =>
          sendPaymentLink(staffOf(aurora), APP_URL, { ...to, sessionId: link.id }, mailer),
        ),
      );
      expect(sends.filter((result) => result.ok)).toHaveLength(SEND_LIMITS.perLink.capacity);
      expect(sends.filter((result) => !result.ok && result.reason === "rate_limited")).toHaveLength(3);
      const [refused] = await database.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.kind, "payment_link_sent"), eq(auditEvents.result, "refused")));
      expect(refused?.details).toMatchObject({ sessionId: link.id, reason: "rate_limited", to: "a***@example.com" });
      // An hour later the link has one e-mail more.
      const later = new Date(Date.now() + 3600_000);
      expect(await sendPaymentLink(staffOf(aurora), APP_URL, { ...to, sessionId: link.id }, mailer, later)).toEqual({ ok: true });

      // Per staff member, over many links: another member of the same partner still sends.
      const busy = staffOf(aurora, "staff_busy", "Busy");
      let sent = 0;
      for (let i = 0; i < SEND_LIMITS.perStaff.capacity + 2; i++) {
        const result = await sendPaymentLink(busy, APP_URL, { ...to, sessionId: (await open()).id }, mailer, later);
        if (result.ok) sent++;
        else expect(result).toEqual({ ok: false, reason: "rate_limited" });
      }
      expect(sent).toBe(SEND_LIMITS.perStaff.capacity);
      expect(
        await sendPaymentLink(staffOf(aurora, "staff_calm", "Calm"), APP_URL, { ...to, sessionId: (await open()).id }, mailer, later),
      ).toEqual({
        ok: true,
      });
    });

    it("sends nothing without SMTP, nor for a revoked link", async () => {
      const { session } = await createPaymentLink(staffOf(aurora), APP_URL, sessionInput({ returnUrl: aurora.defaultReturnUrl! }));
      expect(
        await sendPaymentLink(staffOf(aurora), APP_URL, { sessionId: session.id, to: "a@example.com", locale: "es" }, undefined),
      ).toEqual({
        ok: false,
        reason: "not_configured",
      });
      await revokePaymentLink(staffOf(aurora), session.id);
      const mailer = capturingMailer();
      expect(await sendPaymentLink(staffOf(aurora), APP_URL, { sessionId: session.id, to: "a@example.com", locale: "es" }, mailer)).toEqual(
        {
          ok: false,
          reason: "not_open",
        },
      );
      expect(mailer.sent).toHaveLength(0);
    });

    it("lists only staff-created links in the 'created by staff' view, with their creator", async () => {
      const { session } = await createPaymentLink(staffOf(aurora), APP_URL, sessionInput({ returnUrl: aurora.defaultReturnUrl! }));
      const listed = await listPaymentLinks(database.db, DEMO_PARTNER_ID, { page: 1, size: 100 });
      expect(listed.links.find((l) => l.session.id === session.id)).toMatchObject({ creatorName: "Lucía Ortega", state: "open" });
      expect(listed.links.every((l) => l.session.createdByStaffId !== null)).toBe(true);
      // A staff member renamed or gone: the link keeps its creator's id, the list shows what it can.
      await database.db.update(staffUsers).set({ name: "Lucía O." }).where(eq(staffUsers.id, "staff_demo_aurora"));
      const renamed = await listPaymentLinks(database.db, DEMO_PARTNER_ID, { page: 1, size: 1 });
      expect(renamed.links[0]?.creatorName).toBe("Lucía O.");
      expect(renamed.total).toBeGreaterThan(1);
    });
  });
}

suite("PGlite", () => openDatabase({ dataDir: "memory://" }));

describe.runIf(process.env.TEST_DATABASE_URL)("PostgreSQL", () => {
  const throwaway = throwawayDatabase("payment_links");
  suite("PostgreSQL", () => openDatabase({ databaseUrl: throwaway.url, dataDir: "unused" }));
});
