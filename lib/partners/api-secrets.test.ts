import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db";
import { defaultMigrationsDir } from "@/lib/db/connection";
import { partnerApiSecrets, partners } from "@/lib/db/schema";
import { isCheckoutSessionId } from "@/lib/http/checkout-session-id";
import {
  createApiSecret,
  hashSecret,
  LAST_USED_RESOLUTION_MS,
  listApiSecrets,
  MAX_LIVE_SECRETS,
  partnerBySecret,
  revokeApiSecret,
  rotateApiSecret,
  ROTATION_OVERLAP_MS,
  apiCallerBySecret,
  type MayHold,
  type SecretAuthor,
} from "./api-secrets";
import { API_SCOPES, type SecretScope } from "@/lib/vocabulary/api-scopes";

const OPERATOR: SecretAuthor = { kind: "operator", id: "op_1", name: "Olga Operator" };
const T0 = new Date("2026-11-22T10:00:00Z");
const later = (ms: number) => new Date(T0.getTime() + ms);
/** Whoever acts may give any scope (who may give which is lib/backoffice/api-secrets's, tested there). */
const ANY: MayHold = () => true;
const SCOPES: SecretScope[] = ["sessions:read", "sessions:open"];

let database: Database;
const db = () => database.db;

beforeEach(async () => {
  database = await openDatabase({ dataDir: "memory://" });
  for (const id of ["agency-a", "agency-b"]) await db().insert(partners).values({ id, name: id, allowedOrigins: [] });
});
afterEach(async () => {
  await database.close();
});

async function created(partnerId = "agency-a", name = "Production backend", now = T0, environment: "sandbox" | "production" = "sandbox") {
  const result = await createApiSecret(db(), partnerId, name, SCOPES, OPERATOR, environment, ANY, now);
  if (!result.ok) throw new Error(`not created: ${result.reason}`);
  return result;
}

describe("a partner's API secrets", () => {
  it("are shown once with a prefix that says live or test, stored only as their hash, and open the partner", async () => {
    const test = await created();
    expect(test.secret).toMatch(/^cs_test_[A-Za-z0-9_-]{64}$/);
    const live = await created("agency-a", "Live", T0, "production");
    expect(live.secret).toMatch(/^cs_live_[A-Za-z0-9_-]{64}$/);
    // Never mistaken for (or logged as) a checkout session id.
    expect(isCheckoutSessionId(test.secret)).toBe(false);

    const stored = await db().select().from(partnerApiSecrets).where(eq(partnerApiSecrets.id, test.view.id));
    expect(stored[0]).toMatchObject({
      secretHash: hashSecret(test.secret),
      prefix: test.secret.slice(0, 12),
      createdByName: "Olga Operator",
    });
    expect(JSON.stringify(stored)).not.toContain(test.secret.slice(12));

    expect((await partnerBySecret(db(), test.secret, T0))?.id).toBe("agency-a");
    expect((await partnerBySecret(db(), live.secret, T0))?.id).toBe("agency-a");
    expect(await partnerBySecret(db(), `${test.secret}x`, T0)).toBeUndefined();
    expect(await partnerBySecret(db(), "short", T0)).toBeUndefined();
  });

  it("are listed with name, prefix, creation, author, last use and state, never the hash", async () => {
    const { secret, view } = await created();
    await partnerBySecret(db(), secret, later(5_000));
    const [listed] = await listApiSecrets(db(), "agency-a", later(6_000));
    expect(listed).toEqual({
      id: view.id,
      name: "Production backend",
      prefix: secret.slice(0, 12),
      scopes: ["sessions:read", "sessions:open"],
      state: "active",
      createdAt: T0,
      createdByKind: "operator",
      createdByName: "Olga Operator",
      lastUsedAt: later(5_000),
      expiresAt: null,
      revokedAt: null,
    });
    expect(JSON.stringify(listed)).not.toContain(hashSecret(secret));
    expect(await listApiSecrets(db(), "agency-b")).toEqual([]);
  });

  it("record their last use at most once a minute", async () => {
    const { secret, view } = await created();
    const lastUsed = async () => (await db().select().from(partnerApiSecrets).where(eq(partnerApiSecrets.id, view.id)))[0]!.lastUsedAt;
    await partnerBySecret(db(), secret, later(1_000));
    await partnerBySecret(db(), secret, later(30_000));
    expect(await lastUsed()).toEqual(later(1_000));
    await partnerBySecret(db(), secret, later(1_000 + LAST_USED_RESOLUTION_MS + 1));
    expect(await lastUsed()).toEqual(later(1_000 + LAST_USED_RESOLUTION_MS + 1));
  });

  it("rotate: the new one works, the old one until the overlap ends, and a rotating one does not rotate again", async () => {
    const old = await created();
    const rotated = await rotateApiSecret(db(), "agency-a", old.view.id, OPERATOR, "sandbox", ANY, later(1_000));
    if (!rotated.ok) throw new Error(rotated.reason);
    expect(rotated.secret).not.toBe(old.secret);
    expect(rotated.view.name).toBe("Production backend");
    expect(rotated.previousValidUntil).toEqual(later(1_000 + ROTATION_OVERLAP_MS));

    const justBefore = later(ROTATION_OVERLAP_MS);
    expect((await partnerBySecret(db(), old.secret, justBefore))?.id).toBe("agency-a");
    expect((await partnerBySecret(db(), rotated.secret, justBefore))?.id).toBe("agency-a");
    const states = Object.fromEntries((await listApiSecrets(db(), "agency-a", justBefore)).map((s) => [s.id, s.state]));
    expect(states).toEqual({ [old.view.id]: "rotating", [rotated.view.id]: "active" });

    const after = later(1_000 + ROTATION_OVERLAP_MS + 1);
    expect(await partnerBySecret(db(), old.secret, after)).toBeUndefined();
    expect((await partnerBySecret(db(), rotated.secret, after))?.id).toBe("agency-a");
    expect((await listApiSecrets(db(), "agency-a", after)).map((s) => s.state)).toEqual(["active", "expired"]);

    expect(await rotateApiSecret(db(), "agency-a", old.view.id, OPERATOR, "sandbox", ANY, later(2_000))).toEqual({
      ok: false,
      reason: "not_active",
    });
  });

  it("revoke: refused at once, on the next request, and only by the partner that owns it", async () => {
    const { secret, view } = await created();
    expect((await partnerBySecret(db(), secret, T0))?.id).toBe("agency-a");
    // Another partner's id for it: "not found", and it keeps working.
    expect(await revokeApiSecret(db(), "agency-b", view.id, T0)).toEqual({ ok: false, reason: "not_found" });
    expect(await rotateApiSecret(db(), "agency-b", view.id, OPERATOR, "sandbox", ANY, T0)).toEqual({ ok: false, reason: "not_found" });
    expect((await partnerBySecret(db(), secret, T0))?.id).toBe("agency-a");

    const revoked = await revokeApiSecret(db(), "agency-a", view.id, later(1_000));
    expect(revoked).toMatchObject({ ok: true, view: { state: "revoked", revokedAt: later(1_000) } });
    expect(await partnerBySecret(db(), secret, later(1_001))).toBeUndefined();
    expect(await revokeApiSecret(db(), "agency-a", view.id, later(2_000))).toEqual({ ok: false, reason: "already_revoked" });
    // A revoked secret in its rotation's overlap ends at once too.
    const next = await created();
    const rotated = await rotateApiSecret(db(), "agency-a", next.view.id, OPERATOR, "sandbox", ANY, later(1_000));
    expect(rotated.ok).toBe(true);
    await revokeApiSecret(db(), "agency-a", next.view.id, later(2_000));
    expect(await partnerBySecret(db(), next.secret, later(2_001))).toBeUndefined();
  });

  it("of a disabled partner answer as an unknown secret, and work again once it is enabled", async () => {
    const { secret } = await created();
    await db().update(partners).set({ disabledAt: T0 }).where(eq(partners.id, "agency-a"));
    expect(await partnerBySecret(db(), secret, later(1))).toBeUndefined();
    await db().update(partners).set({ disabledAt: null }).where(eq(partners.id, "agency-a"));
    expect((await partnerBySecret(db(), secret, later(2)))?.id).toBe("agency-a");
  });

  it("are refused past a number working at once, with a name that is none, or for no partner", async () => {
    for (let i = 0; i < MAX_LIVE_SECRETS; i++) await created("agency-a", `Backend ${i}`);
    expect(await createApiSecret(db(), "agency-a", "One more", SCOPES, OPERATOR, "sandbox", ANY, T0)).toEqual({
      ok: false,
      reason: "too_many",
    });
    expect((await createApiSecret(db(), "agency-b", "Fine", SCOPES, OPERATOR, "sandbox", ANY, T0)).ok).toBe(true);
    for (const name of ["", "   ", "x".repeat(61), "tab\there"]) {
      expect(await createApiSecret(db(), "agency-b", name, SCOPES, OPERATOR, "sandbox", ANY, T0)).toEqual({
        ok: false,
        reason: "invalid_name",
      });
    }
    expect(await createApiSecret(db(), "nobody", "Name", SCOPES, OPERATOR, "sandbox", ANY, T0)).toEqual({ ok: false, reason: "not_found" });
  });

  it("carry the scopes chosen at creation, each once, in the API's order; none, an unknown one or `all` is refused", async () => {
    const made = await createApiSecret(
      db(),
      "agency-a",
      "Refunds",
      ["sessions:refund", "sessions:read", "sessions:refund"],
      OPERATOR,
      "sandbox",
      ANY,
      T0,
    );
    if (!made.ok) throw new Error(made.reason);
    expect(made.view.scopes).toEqual(["sessions:read", "sessions:refund"]);
    expect((await apiCallerBySecret(db(), made.secret, T0))?.secret).toMatchObject({
      scopes: ["sessions:read", "sessions:refund"],
      createdBy: { kind: "operator", name: "Olga Operator" },
    });
    for (const scopes of [[], ["sessions:write"], ["all"], ["all", "sessions:read"]]) {
      expect(await createApiSecret(db(), "agency-a", "Bad", scopes, OPERATOR, "sandbox", ANY, T0)).toEqual({
        ok: false,
        reason: "invalid_scopes",
      });
    }
    expect((await createApiSecret(db(), "agency-a", "Everything", API_SCOPES, OPERATOR, "sandbox", ANY, T0)).ok).toBe(true);
  });

  it("are given, and rotated, only with scopes their author may give: refused, nothing is written", async () => {
    const noRefund: MayHold = (scopes) => !scopes.includes("sessions:refund") && !scopes.includes("all");
    expect(await createApiSecret(db(), "agency-a", "Refunds", ["sessions:refund"], OPERATOR, "sandbox", noRefund, T0)).toEqual({
      ok: false,
      reason: "scope_not_allowed",
    });
    const refunds = await createApiSecret(db(), "agency-a", "Refunds", ["sessions:refund"], OPERATOR, "sandbox", ANY, T0);
    if (!refunds.ok) throw new Error(refunds.reason);
    expect(await rotateApiSecret(db(), "agency-a", refunds.view.id, OPERATOR, "sandbox", noRefund, later(1))).toEqual({
      ok: false,
      reason: "scope_not_allowed",
    });
    // The refused rotation changed nothing: the secret is still active, alone.
    expect((await listApiSecrets(db(), "agency-a", later(2))).map((s) => [s.name, s.state])).toEqual([["Refunds", "active"]]);
  });

  it("rotate with the same scopes", async () => {
    const old = await createApiSecret(db(), "agency-a", "Cancels", ["sessions:cancel", "sessions:read"], OPERATOR, "sandbox", ANY, T0);
    if (!old.ok) throw new Error(old.reason);
    const rotated = await rotateApiSecret(db(), "agency-a", old.view.id, OPERATOR, "sandbox", ANY, later(1));
    if (!rotated.ok) throw new Error(rotated.reason);
    expect(rotated.view.scopes).toEqual(["sessions:read", "sessions:cancel"]);
    expect((await apiCallerBySecret(db(), rotated.secret, later(2)))?.secret.scopes).toEqual(["sessions:read", "sessions:cancel"]);
  });

  it("count against the cap across rotations: rotating never lifts the working secrets past it", async () => {
    const made = [];
    for (let i = 0; i < MAX_LIVE_SECRETS; i++) made.push(await created("agency-a", `Backend ${i}`));
    // Full: rotating one would make eleven working (the old one works through its overlap).
    expect(await rotateApiSecret(db(), "agency-a", made[0]!.view.id, OPERATOR, "sandbox", ANY, later(1))).toEqual({
      ok: false,
      reason: "too_many",
    });
    const working = async (at: Date) =>
      (await listApiSecrets(db(), "agency-a", at)).filter((s) => s.state === "active" || s.state === "rotating");
    expect(await working(later(2))).toHaveLength(MAX_LIVE_SECRETS);

    // One revoked: one rotation fits, and then the cap holds again (was 10 → 20 → 30 by rotating each in turn).
    await revokeApiSecret(db(), "agency-a", made[9]!.view.id, later(3));
    const rotated = await rotateApiSecret(db(), "agency-a", made[0]!.view.id, OPERATOR, "sandbox", ANY, later(4));
    if (!rotated.ok) throw new Error(rotated.reason);
    for (const secret of made.slice(1, 9)) {
      expect(await rotateApiSecret(db(), "agency-a", secret.view.id, OPERATOR, "sandbox", ANY, later(5))).toEqual({
        ok: false,
        reason: "too_many",
      });
    }
    expect(await rotateApiSecret(db(), "agency-a", rotated.view.id, OPERATOR, "sandbox", ANY, later(5))).toEqual({
      ok: false,
      reason: "too_many",
    });
    expect(await createApiSecret(db(), "agency-a", "One more", SCOPES, OPERATOR, "sandbox", ANY, later(5))).toEqual({
      ok: false,
      reason: "too_many",
    });
    expect(await working(later(6))).toHaveLength(MAX_LIVE_SECRETS);
    // Once the overlap is over, the old one no longer counts.
    const afterOverlap = later(4 + ROTATION_OVERLAP_MS + 1);
    expect((await rotateApiSecret(db(), "agency-a", rotated.view.id, OPERATOR, "sandbox", ANY, afterOverlap)).ok).toBe(true);
    expect(await working(afterOverlap)).toHaveLength(MAX_LIVE_SECRETS);
  });

  it("created at once by two people never pass the cap together", async () => {
    for (let i = 0; i < MAX_LIVE_SECRETS - 1; i++) await created("agency-a", `Backend ${i}`);
    const both = await Promise.all([
      createApiSecret(db(), "agency-a", "First", SCOPES, OPERATOR, "sandbox", ANY, T0),
      createApiSecret(db(), "agency-a", "Second", SCOPES, OPERATOR, "sandbox", ANY, T0),
    ]);
    expect(both.map((r) => r.ok).sort()).toEqual([false, true]);
  });
});

/** The migrations as they were before the one whose tag ends with `tagEnd`, copied into `dir`. */
function migrationsBefore(dir: string, tagEnd: string): string {
  const before = path.join(dir, "migrations");
  cpSync(defaultMigrationsDir(), before, { recursive: true });
  const journalPath = path.join(before, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((entry) => entry.tag.endsWith(tagEnd));
  expect(cut).toBeGreaterThan(0);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }));
  return before;
}

describe("the migration to API secrets", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "api-secrets-migration-"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("moves each partner's secret from before into its first API secret, which goes on working", async () => {
    // The migrations as they were before API secrets: the journal cut before this one.
    const before = migrationsBefore(dir, "_partner_console_and_api_secrets");

    const dataDir = path.join(dir, "pglite");
    const old = await openDatabase({ dataDir, migrationsDir: before });
    await old.db.execute(
      sql`insert into partners (id, name, secret_hash, allowed_origins) values ('legacy', 'Legacy agency', ${hashSecret("legacy_partner_secret_0123456789")}, '[]'::jsonb)`,
    );
    await old.close();

    const upgraded = await openDatabase({ dataDir });
    try {
      expect((await partnerBySecret(upgraded.db, "legacy_partner_secret_0123456789"))?.id).toBe("legacy");
      const [secret] = await listApiSecrets(upgraded.db, "legacy");
      expect(secret).toMatchObject({ name: "Original secret", prefix: "", state: "active", createdByKind: "system", scopes: ["all"] });
    } finally {
      await upgraded.close();
    }
  });

  it("gives the secrets made before scopes an explicit `all`, and new ones none unless chosen", async () => {
    const before = migrationsBefore(dir, "_api_secret_scopes");
    const dataDir = path.join(dir, "pglite");
    const old = await openDatabase({ dataDir, migrationsDir: before });
    await old.db.execute(sql`insert into partners (id, name, allowed_origins) values ('agency-a', 'Agency A', '[]'::jsonb)`);
    await old.db.execute(
      sql`insert into partner_api_secrets (id, partner_id, name, prefix, secret_hash, created_by_kind, created_by_name)
          values ('sec_old', 'agency-a', 'Old backend', 'cs_test_AbCd', ${hashSecret("cs_test_an_old_secret_0123456789")}, 'staff', 'Ana Admin')`,
    );
    await old.close();

    const upgraded = await openDatabase({ dataDir });
    try {
      expect((await apiCallerBySecret(upgraded.db, "cs_test_an_old_secret_0123456789"))?.secret.scopes).toEqual(["all"]);
      expect((await listApiSecrets(upgraded.db, "agency-a")).map((s) => [s.id, s.scopes])).toEqual([["sec_old", ["all"]]]);
      // The column keeps no default: a secret written without its scopes is refused, never `all` by accident.
      await expect(
        upgraded.db.execute(
          sql`insert into partner_api_secrets (id, partner_id, name, prefix, secret_hash, created_by_kind) values ('sec_new', 'agency-a', 'n', '', 'h', 'system')`,
        ),
      ).rejects.toThrow();
    } finally {
      await upgraded.close();
    }
  });
});
