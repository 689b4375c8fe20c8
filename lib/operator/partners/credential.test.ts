import { eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db";
import { auditEvents, partners } from "@/lib/db/schema";
import { parseEnv } from "@/lib/config/env";
import { startSandboxServer } from "@/lib/sandbox/testing/servers";
import { partnerById } from "@/lib/partners/partners";
import { openPartnerSecret } from "@/lib/partners/secrets";
import { parseKeyring } from "@/lib/config/keyring";
import type { AuditActor } from "@/lib/audit/audit";
import {
  credentialSummary,
  PENDING_KEY_TTL_MS,
  reachableAgencies,
  sealPendingKey,
  setPartnerCredential,
  verifyAgencyKey,
  verifyGroupKey,
  type CredentialDeps,
} from "./credential";

/**
 * The partner API credential an operator sets, verified live against the bundled sandbox on a
 * loopback port (its published keys: agency 101 and 201, group 1 reaching 101, 102 and the
 * inactive 103).
 */

const KEYRING = parseKeyring(`k1:${Buffer.alloc(32, 7).toString("base64")}`);
const ACTOR: AuditActor = { kind: "operator", id: "op_1", name: "Olga Operator", ip: "192.0.2.1" };

let sandbox: Awaited<ReturnType<typeof startSandboxServer>>;
let deps: CredentialDeps;
let database: Database;

beforeAll(async () => {
  sandbox = await startSandboxServer();
  deps = { financing: { ...parseEnv({}).financing, baseUrl: sandbox.baseUrl, timeoutMs: 30_000 }, keyring: KEYRING };
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
});
beforeEach(async () => {
  database = await openDatabase({ dataDir: "memory://" });
  await database.db.insert(partners).values({ id: "acme", name: "Acme Travel", allowedOrigins: [] });
});
afterEach(async () => {
  await database.close();
});

async function credentialAudits() {
  return database.db.select().from(auditEvents).where(eq(auditEvents.kind, "partner_credential_changed")).orderBy(auditEvents.id);
}

/** The partner's row as stored, read with plain SQL: what a copy of the database shows. */
async function storedKey(): Promise<string | null> {
  const result = await database.db.execute(sql`select financing_api_key from partners where id = 'acme'`);
  const rows = (Array.isArray(result) ? result : (result as unknown as { rows: unknown[] }).rows) as { financing_api_key: string | null }[];
  return rows[0]!.financing_api_key;
}

describe("verifying a key live", () => {
  it("accepts an agency key the API answers GET /health to", async () => {
    expect(await verifyAgencyKey("fk_test_sandbox_agency_201", deps)).toEqual({ ok: true });
  });

  it("refuses a wrong key with the API's own reason, and one of the other environment without sending it", async () => {
    const wrong = await verifyAgencyKey("fk_test_not_a_key_of_anyone", deps);
    expect(wrong).toEqual({ ok: false, reason: "refused", apiReason: expect.stringMatching(/^401\b/) });
    expect(await verifyAgencyKey("fk_live_production_key_0123", deps)).toEqual({ ok: false, reason: "wrong_environment" });
    expect(await verifyAgencyKey("not a key", deps)).toEqual({ ok: false, reason: "malformed" });
    const production = { ...deps, financing: { ...deps.financing, environment: "production" as const } };
    expect(await verifyAgencyKey("fk_test_sandbox_agency_201", production)).toEqual({ ok: false, reason: "wrong_environment" });
  });

  it("lists the active agencies a group key reaches, and refuses an agency key there with the API's reason", async () => {
    const group = await verifyGroupKey("fk_test_sandbox_group_1", deps);
    expect(group).toEqual({ ok: true, agencies: [expect.objectContaining({ id: 101 }), expect.objectContaining({ id: 102 })] });
    expect(await verifyGroupKey("fk_test_sandbox_agency_101", deps)).toMatchObject({ ok: false, reason: "refused", apiReason: /^403\b/ });
  });

  it("says the API is unreachable when nothing answers", async () => {
    const nowhere = { ...deps, financing: { ...deps.financing, baseUrl: "http://127.0.0.1:9/sandbox/v1" } };
    expect(await verifyAgencyKey("fk_test_sandbox_agency_201", nowhere)).toMatchObject({ ok: false, reason: "unreachable" });
  });
});

describe("setting a partner's credential", () => {
  it("saves a verified agency key sealed, with its last four only in clear, and audits it", async () => {
    expect(await setPartnerCredential(database.db, "acme", { kind: "agency", key: "fk_test_sandbox_agency_201" }, ACTOR, deps)).toEqual({
      ok: true,
      saved: true,
    });
    const stored = await storedKey();
    expect(stored).toMatch(/^enc:v1:k1:/);
    expect(stored).not.toContain("agency_201");
    const partner = (await partnerById(database.db, "acme"))!;
    expect(openPartnerSecret(partner, "financingApiKey", KEYRING)).toBe("fk_test_sandbox_agency_201");
    expect(credentialSummary(partner)).toEqual({ kind: "agency", last4: "_201", agencyId: null });
    const [audit] = await credentialAudits();
    expect(audit).toMatchObject({
      result: "ok",
      partnerId: "acme",
      staffUserId: "op_1",
      staffName: "Olga Operator",
      ip: "192.0.2.1",
      details: { credential: "agency", last4: "_201", actor: "operator" },
    });
    expect(JSON.stringify(await credentialAudits())).not.toContain("sandbox_agency");
  });

  it("refuses a wrong key, saving nothing, with the API's reason; the audit keeps the status, never the key", async () => {
    const result = await setPartnerCredential(database.db, "acme", { kind: "agency", key: "fk_test_wrong_key_0123456" }, ACTOR, deps);
    expect(result).toMatchObject({ ok: false, reason: "refused", apiReason: /^401\b/ });
    expect(await storedKey()).toBeNull();
    const [audit] = await credentialAudits();
    expect(audit).toMatchObject({ result: "refused", details: { credential: "agency", reason: "refused", status: 401 } });
    expect(JSON.stringify(audit)).not.toContain("fk_test_wrong");
  });

  it("offers a group key's agencies, then saves it with the one picked, the key sealed between the two steps", async () => {
    const first = await setPartnerCredential(database.db, "acme", { kind: "group", key: "fk_test_sandbox_group_1" }, ACTOR, deps);
    if (!first.ok || first.saved || !first.pending) throw new Error("expected the agencies to pick from");
    expect(first.agencies.map((agency) => agency.id)).toEqual([101, 102]);
    expect(first.pending).not.toContain("group_1");
    expect(await storedKey()).toBeNull();

    // An agency the key does not reach: refused, nothing saved.
    expect(
      await setPartnerCredential(database.db, "acme", { kind: "group_pending", pending: first.pending, agencyId: 201 }, ACTOR, deps),
    ).toEqual({ ok: false, reason: "agency_not_reached" });
    expect(await storedKey()).toBeNull();

    expect(
      await setPartnerCredential(database.db, "acme", { kind: "group_pending", pending: first.pending, agencyId: 102 }, ACTOR, deps),
    ).toEqual({ ok: true, saved: true });
    const partner = (await partnerById(database.db, "acme"))!;
    expect(credentialSummary(partner)).toEqual({ kind: "group", last4: "up_1", agencyId: 102 });
    expect(await reachableAgencies(partner, deps)).toMatchObject({ ok: true, agencies: [{ id: 101 }, { id: 102 }] });
  });

  it("refuses a pending key that is stale, tampered with, or sealed for another partner", async () => {
    const now = new Date();
    const stale = sealPendingKey("acme", "fk_test_sandbox_group_1", {
      keyring: KEYRING,
      now: new Date(now.getTime() - PENDING_KEY_TTL_MS - 1),
    });
    const other = sealPendingKey("other", "fk_test_sandbox_group_1", { keyring: KEYRING });
    const fresh = sealPendingKey("acme", "fk_test_sandbox_group_1", { keyring: KEYRING });
    const tampered = `${fresh.slice(0, -4)}AAAA`;
    for (const pending of [stale, other, tampered]) {
      expect(await setPartnerCredential(database.db, "acme", { kind: "group_pending", pending, agencyId: 101 }, ACTOR, deps)).toEqual({
        ok: false,
        reason: "pending_expired",
      });
    }
    expect(await storedKey()).toBeNull();
  });

  it("goes back to the deployment's key, dropping the partner's own", async () => {
    await setPartnerCredential(database.db, "acme", { kind: "agency", key: "fk_test_sandbox_agency_201" }, ACTOR, deps);
    expect(await setPartnerCredential(database.db, "acme", { kind: "deployment" }, ACTOR, deps)).toEqual({ ok: true, saved: true });
    expect(await storedKey()).toBeNull();
    expect(credentialSummary((await partnerById(database.db, "acme"))!)).toEqual({ kind: "deployment", last4: null, agencyId: null });
  });

  it("is not_found for a partner that does not exist", async () => {
    expect(await setPartnerCredential(database.db, "nobody", { kind: "deployment" }, ACTOR, deps)).toEqual({
      ok: false,
      reason: "not_found",
    });
  });
});
