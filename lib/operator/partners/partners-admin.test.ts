import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AuditActor } from "@/lib/audit/audit";
import { createPartnerApiSecret } from "@/lib/backoffice/api-secrets/api-secrets";
import { openDatabase, type Database } from "@/lib/db";
import { auditEvents, partnerAgencies, partners, staffUsers } from "@/lib/db/schema";
import { cachedPartnerById } from "@/lib/partners/cache";
import { partnerBySecret } from "@/lib/partners/api-secrets";
import { partnerById } from "@/lib/partners/partners";
import {
  createPartner,
  invitePartnerAdmin,
  listPartners,
  partnerForConsole,
  setPartnerAgencies,
  setPartnerDisabled,
  setPartnerNotificationUrl,
  updatePartnerSettings,
} from "./partners-admin";

const OPERATOR: AuditActor = { kind: "operator", id: "op_1", name: "Olga Operator", ip: "192.0.2.1" };

let database: Database;
const db = () => database.db;

beforeEach(async () => {
  database = await openDatabase({ dataDir: "memory://" });
});
afterEach(async () => {
  await database.close();
});

async function audits(partnerId: string) {
  return db().select().from(auditEvents).where(eq(auditEvents.partnerId, partnerId)).orderBy(auditEvents.id);
}

async function acme(): Promise<void> {
  expect(await createPartner(db(), { id: "acme-travel", name: "Acme Travel" }, OPERATOR)).toEqual({ ok: true, id: "acme-travel" });
}

describe("creating a partner", () => {
  it("makes it active with nothing else yet, audited by the operator who did it", async () => {
    await acme();
    const [item] = await listPartners(db());
    expect(item).toMatchObject({
      id: "acme-travel",
      name: "Acme Travel",
      disabledAt: null,
      credential: { kind: "deployment", last4: null },
      workingSecrets: 0,
      agencies: [],
      staff: 0,
    });
    expect((await partnerById(db(), "acme-travel"))?.allowedOrigins).toEqual([]);
    expect(await audits("acme-travel")).toEqual([
      expect.objectContaining({
        kind: "partner_created",
        result: "ok",
        staffUserId: "op_1",
        staffName: "Olga Operator",
        details: { actor: "operator" },
      }),
    ]);
  });

  it("refuses a taken id, a reserved or malformed one, and a missing name, naming the field", async () => {
    await acme();
    expect(await createPartner(db(), { id: "acme-travel", name: "Other" }, OPERATOR)).toEqual({ ok: false, errors: { id: "taken" } });
    expect(await createPartner(db(), { id: "demo", name: "Not the demo" }, OPERATOR)).toEqual({ ok: false, errors: { id: "reserved" } });
    expect(await createPartner(db(), { id: "Acme Travel", name: " " }, OPERATOR)).toEqual({
      ok: false,
      errors: { id: "invalid", name: "missing" },
    });
    expect(await createPartner(db(), { id: "other", name: " " }, OPERATOR)).toEqual({ ok: false, errors: { name: "missing" } });
    expect((await partnerById(db(), "acme-travel"))?.name).toBe("Acme Travel");
  });
});

describe("a partner's settings", () => {
  it("saves name, origins and default return URL together, audits which changed, and the cache shows them at once", async () => {
    await acme();
    expect((await cachedPartnerById(db(), "acme-travel"))?.allowedOrigins).toEqual([]);
    const result = await updatePartnerSettings(
      db(),
      "acme-travel",
      {
        name: "Acme Travel SL",
        allowedOrigins: "https://shop.acme.example\nhttps://pay.acme.example",
        defaultReturnUrl: "https://shop.acme.example/done",
      },
      OPERATOR,
      "production",
    );
    expect(result).toEqual({ ok: true, changed: ["name", "allowedOrigins", "defaultReturnUrl"] });
    expect(await cachedPartnerById(db(), "acme-travel")).toMatchObject({
      name: "Acme Travel SL",
      allowedOrigins: ["https://shop.acme.example", "https://pay.acme.example"],
      defaultReturnUrl: "https://shop.acme.example/done",
    });
    expect((await audits("acme-travel")).at(-1)).toMatchObject({
      kind: "partner_updated",
      details: { changed: "name,allowedOrigins,defaultReturnUrl", actor: "operator" },
    });
  });

  it("saves nothing when one field is wrong, and names every wrong field", async () => {
    await acme();
    const before = await partnerById(db(), "acme-travel");
    const result = await updatePartnerSettings(
      db(),
      "acme-travel",
      { name: "", allowedOrigins: "https://shop.acme.example\nhttp://plain.example", defaultReturnUrl: "https://elsewhere.example/" },
      OPERATOR,
      "production",
    );
    expect(result).toEqual({
      ok: false,
      problems: [
        { field: "name", reason: "missing" },
        { field: "allowedOrigins", reason: "https_only", line: 2 },
        { field: "defaultReturnUrl", reason: "not_allowed_origin" },
      ],
    });
    expect(await partnerById(db(), "acme-travel")).toEqual(before);
  });

  it("refuses to drop the origin the default return URL is on", async () => {
    await acme();
    await updatePartnerSettings(
      db(),
      "acme-travel",
      { name: "Acme", allowedOrigins: "https://shop.acme.example", defaultReturnUrl: "https://shop.acme.example/done" },
      OPERATOR,
      "sandbox",
    );
    const result = await updatePartnerSettings(
      db(),
      "acme-travel",
      { name: "Acme", allowedOrigins: "https://new.acme.example", defaultReturnUrl: "https://shop.acme.example/done" },
      OPERATOR,
      "sandbox",
    );
    expect(result).toEqual({ ok: false, problems: [{ field: "defaultReturnUrl", reason: "not_allowed_origin" }] });
  });

  it("sets the notification URL under the back-office's rules, audited without the URL", async () => {
    await acme();
    expect(
      await setPartnerNotificationUrl(db(), "acme-travel", "https://hooks.acme.example/pay?token=abc", OPERATOR, "production"),
    ).toEqual({
      ok: true,
      url: "https://hooks.acme.example/pay?token=abc",
    });
    const refused = await setPartnerNotificationUrl(db(), "acme-travel", "http://169.254.169.254/latest", OPERATOR, "production");
    expect(refused.ok).toBe(false);
    expect((await partnerById(db(), "acme-travel"))?.notificationUrl).toBe("https://hooks.acme.example/pay?token=abc");
    const events = (await audits("acme-travel")).filter((event) => event.kind === "notification_url_changed");
    expect(events.map((event) => event.result)).toEqual(["ok", "refused"]);
    expect(JSON.stringify(events)).not.toContain("token=abc");
  });

  it("is not_found for a partner that does not exist", async () => {
    expect(
      await updatePartnerSettings(db(), "nobody", { name: "x", allowedOrigins: "", defaultReturnUrl: "" }, OPERATOR, "sandbox"),
    ).toEqual({
      ok: false,
      reason: "not_found",
    });
    expect(await setPartnerDisabled(db(), "nobody", true, OPERATOR)).toEqual({ ok: false, reason: "not_found" });
    expect(await setPartnerAgencies(db(), "nobody", [1], OPERATOR)).toEqual({ ok: false, reason: "not_found" });
  });
});

describe("disabling a partner", () => {
  it("makes its API secrets answer as unknown at once, and enabling brings them back; each change audited once", async () => {
    await acme();
    const created = await createPartnerApiSecret(
      db(),
      "acme-travel",
      "Backend",
      ["sessions:open"],
      { ...OPERATOR, kind: "operator" },
      "sandbox",
    );
    if (!created.ok) throw new Error(created.reason);
    expect((await partnerBySecret(db(), created.secret))?.id).toBe("acme-travel");

    expect(await setPartnerDisabled(db(), "acme-travel", true, OPERATOR)).toEqual({ ok: true, changed: true });
    expect(await partnerBySecret(db(), created.secret)).toBeUndefined();
    expect((await cachedPartnerById(db(), "acme-travel"))?.disabledAt).not.toBeNull();
    expect(await setPartnerDisabled(db(), "acme-travel", true, OPERATOR)).toEqual({ ok: true, changed: false });

    expect(await setPartnerDisabled(db(), "acme-travel", false, OPERATOR)).toEqual({ ok: true, changed: true });
    expect((await partnerBySecret(db(), created.secret))?.id).toBe("acme-travel");
    expect((await audits("acme-travel")).map((event) => event.kind)).toEqual([
      "partner_created",
      "api_secret_created",
      "partner_disabled",
      "partner_enabled",
    ]);
  });
});

describe("a partner's agencies", () => {
  it("are replaced as a set, in one go, and audited with what was added and removed", async () => {
    await acme();
    expect(await setPartnerAgencies(db(), "acme-travel", [101, 305], OPERATOR)).toEqual({ ok: true, added: [101, 305], removed: [] });
    expect(await setPartnerAgencies(db(), "acme-travel", [305, 400], OPERATOR)).toEqual({ ok: true, added: [400], removed: [101] });
    const rows = await db().select().from(partnerAgencies).where(eq(partnerAgencies.partnerId, "acme-travel"));
    expect(rows.map((row) => row.agencyId).sort()).toEqual([305, 400]);
    expect((await partnerForConsole(db(), "acme-travel"))?.agencies).toEqual([305, 400]);
    expect((await audits("acme-travel")).at(-1)).toMatchObject({
      kind: "partner_agencies_changed",
      details: { agencies: "305,400", added: "400", removed: "101" },
    });
    // No change, no audit line.
    const count = (await audits("acme-travel")).length;
    await setPartnerAgencies(db(), "acme-travel", [400, 305], OPERATOR);
    expect(await audits("acme-travel")).toHaveLength(count);
  });
});

describe("the first administrator", () => {
  it("is created with a one-time link, returned once; a taken e-mail or a disabled partner is refused", async () => {
    await acme();
    const invited = await invitePartnerAdmin(db(), "acme-travel", { email: "Admin@Acme.example", name: "Ana Admin" }, OPERATOR);
    expect(invited).toEqual({ ok: true, link: expect.stringMatching(/\/admin\/login\/link\/[A-Za-z0-9_-]{43}$/) });
    const [staff] = await db().select().from(staffUsers).where(eq(staffUsers.partnerId, "acme-travel"));
    expect(staff).toMatchObject({ email: "admin@acme.example", name: "Ana Admin" });
    // One line in the partner's audit log, naming the operator who invited.
    const invitations = (await audits("acme-travel")).filter((event) => event.kind.endsWith("_invited"));
    expect(invitations).toHaveLength(1);
    expect(invitations[0]).toMatchObject({ kind: "staff_invited", staffName: OPERATOR.name, details: { by: "operator", role: "admin" } });

    expect(await invitePartnerAdmin(db(), "acme-travel", { email: "admin@acme.example", name: "Again" }, OPERATOR)).toEqual({
      ok: false,
      reason: "email_taken",
    });
    expect(await invitePartnerAdmin(db(), "acme-travel", { email: "not an address", name: "X" }, OPERATOR)).toEqual({
      ok: false,
      reason: "invalid_email",
    });
    await setPartnerDisabled(db(), "acme-travel", true, OPERATOR);
    expect(await invitePartnerAdmin(db(), "acme-travel", { email: "two@acme.example", name: "Two" }, OPERATOR)).toEqual({
      ok: false,
      reason: "disabled",
    });
  });
});

describe("the partners list", () => {
  it("shows each partner's state, credential, working secrets, agencies and staff", async () => {
    await acme();
    await createPartner(db(), { id: "beta", name: "Beta Viajes" }, OPERATOR);
    await createPartnerApiSecret(db(), "beta", "One", ["sessions:open"], { ...OPERATOR, kind: "operator" }, "sandbox");
    await setPartnerDisabled(db(), "beta", true, OPERATOR);
    await db().update(partners).set({ financingAgencyId: 102 }).where(eq(partners.id, "beta"));
    const list = await listPartners(db());
    expect(list.map((p) => [p.id, p.disabledAt !== null, p.workingSecrets, p.credential.agencyId])).toEqual([
      ["acme-travel", false, 0, null],
      ["beta", true, 1, 102],
    ]);
  });
});
