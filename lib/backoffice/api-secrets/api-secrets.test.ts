import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db";
import { auditEvents, partnerApiSecrets, partners } from "@/lib/db/schema";
import { seedKnownSecret } from "@/lib/partners/api-secrets";
import type { PermissionHolder } from "@/lib/identity/permissions";
import { apiSecretIntentSchema, runApiSecretIntent, scopeFieldName, type SecretActor } from "./api-secrets";

/*
 * Who may give which scope to a partner's API secret, as the panel's server actions run it: a
 * secret can do through the API what its scopes say, so an admin without the refund permission
 * cannot give (or keep by rotating) the refund scope, nor one without the data-requests grant the
 * erase scope; `all` needs both. Posted as an attacker would (the form built by hand): refused,
 * audited as refused, and no secret written.
 */

let database: Database;
const db = () => database.db;

beforeEach(async () => {
  database = await openDatabase({ dataDir: "memory://" });
  await db().insert(partners).values({ id: "agency-a", name: "Agency A", allowedOrigins: [] });
});
afterEach(async () => {
  await database.close();
});

function staff(permissions: Partial<PermissionHolder> = {}): SecretActor {
  return {
    kind: "staff",
    id: "staff_ana",
    name: "Ana Admin",
    ip: "203.0.113.9",
    permissions: { role: "admin", canRefund: false, canDataRequests: false, ...permissions },
  };
}
const OPERATOR: SecretActor = { kind: "operator", id: "op_1", name: "Olga Operator" };

/** A post of the panel's create form, as the server action reads it (Object.fromEntries of the form). */
function createForm(name: string, scopes: string[]) {
  const form = new FormData();
  form.set("intent", "create");
  form.set("name", name);
  for (const scope of scopes) form.set(`scope:${scope}`, "on");
  return apiSecretIntentSchema.parse(Object.fromEntries(form));
}

const rotateForm = (secretId: string) => apiSecretIntentSchema.parse({ intent: "rotate", secretId });

/** The panel's create and rotate posts on agency-a's secrets, as `actor`. */
const create = (name: string, scopes: string[], actor: SecretActor) =>
  runApiSecretIntent(db(), "agency-a", createForm(name, scopes), actor, "sandbox");
const rotate = (secretId: string, actor: SecretActor) => runApiSecretIntent(db(), "agency-a", rotateForm(secretId), actor, "sandbox");

async function secretsOf(partnerId = "agency-a") {
  return db().select().from(partnerApiSecrets).where(eq(partnerApiSecrets.partnerId, partnerId));
}

async function auditOf(kind: "api_secret_created" | "api_secret_rotated") {
  return db()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.kind, kind), eq(auditEvents.partnerId, "agency-a")));
}

describe("the scopes of a new API secret", () => {
  it("are the boxes ticked, one field each", () => {
    expect(scopeFieldName("sessions:refund")).toBe("scope:sessions:refund");
    expect(createForm("Backend", ["sessions:read", "sessions:cancel"])).toMatchObject({
      "scope:sessions:read": "on",
      "scope:sessions:cancel": "on",
    });
    // A scope that is none, or `all`, is not a field of the form.
    expect(apiSecretIntentSchema.safeParse({ intent: "create", name: "x", "scope:sessions:read": "yes" }).success).toBe(false);
  });

  it("an admin without the refund permission posting the refund scope is refused: audited, nothing written", async () => {
    const outcome = await create("Sneaky", ["sessions:read", "sessions:refund"], staff());
    expect(outcome).toEqual({ error: "scope_not_allowed", name: "Sneaky", scopes: ["sessions:read", "sessions:refund"] });
    expect(await secretsOf()).toEqual([]);
    expect(await auditOf("api_secret_created")).toMatchObject([
      { result: "refused", staffName: "Ana Admin", details: { reason: "scope_not_allowed", actor: "staff" } },
    ]);
  });

  it("an admin without the data-requests grant is refused the erase scope; with each permission, each is given", async () => {
    expect(await create("Eraser", ["sessions:erase"], staff({ canRefund: true }))).toMatchObject({
      error: "scope_not_allowed",
    });
    expect(await secretsOf()).toEqual([]);

    const refunder = await create("Refunds", ["sessions:refund"], staff({ canRefund: true }));
    expect(refunder).toMatchObject({ created: { name: "Refunds" } });
    const eraser = await create("Eraser", ["sessions:erase"], staff({ canDataRequests: true }));
    expect(eraser).toMatchObject({ created: { name: "Eraser" } });
    // Every admin may give the others.
    const plain = await create("Booking engine", ["sessions:read", "sessions:open", "sessions:cancel"], staff());
    expect(plain).toMatchObject({ created: { name: "Booking engine" } });
    const scopes = Object.fromEntries((await secretsOf()).map((s) => [s.name, s.scopes]));
    expect(scopes).toEqual({
      Refunds: ["sessions:refund"],
      Eraser: ["sessions:erase"],
      "Booking engine": ["sessions:read", "sessions:open", "sessions:cancel"],
    });
    expect((await auditOf("api_secret_created")).filter((e) => e.result === "ok").map((e) => e.details?.scopes)).toEqual([
      "sessions:refund",
      "sessions:erase",
      "sessions:read sessions:open sessions:cancel",
    ]);
  });

  it("needs at least one scope", async () => {
    expect(await create("Nothing", [], staff())).toMatchObject({
      error: "invalid_scopes",
    });
    expect(await secretsOf()).toEqual([]);
  });
});

describe("rotating an API secret", () => {
  it("with the refund scope, or `all`, needs the refund permission (and `all` the data-requests grant too): refused, nothing written", async () => {
    await seedKnownSecret(db(), "agency-a", "sec_from_before", "From before", "cs_test_a_secret_from_before_0123456789");
    const refunds = await create("Refunds", ["sessions:refund"], OPERATOR);
    expect(refunds).toMatchObject({ created: { name: "Refunds" } });
    const [refundSecret] = (await secretsOf()).filter((s) => s.name === "Refunds");

    for (const secretId of ["sec_from_before", refundSecret!.id]) {
      expect(await rotate(secretId, staff())).toEqual({ error: "scope_not_allowed" });
    }
    expect(await rotate("sec_from_before", staff({ canRefund: true }))).toEqual({
      error: "scope_not_allowed",
    });
    expect((await secretsOf()).map((s) => [s.name, s.expiresAt])).toEqual([
      ["From before", null],
      ["Refunds", null],
    ]);
    expect((await auditOf("api_secret_rotated")).map((e) => [e.result, e.details?.reason])).toEqual([
      ["refused", "scope_not_allowed"],
      ["refused", "scope_not_allowed"],
      ["refused", "scope_not_allowed"],
    ]);

    // With the permissions: rotated, the scopes kept.
    const both = staff({ canRefund: true, canDataRequests: true });
    expect(await rotate("sec_from_before", both)).toMatchObject({
      created: { name: "From before" },
    });
    expect(await rotate(refundSecret!.id, staff({ canRefund: true }))).toMatchObject({
      created: { name: "Refunds" },
    });
    const working = (await secretsOf()).filter((s) => s.expiresAt === null).map((s) => [s.name, s.scopes]);
    expect(working.sort()).toEqual([
      ["From before", ["all"]],
      ["Refunds", ["sessions:refund"]],
    ]);
  });
});
