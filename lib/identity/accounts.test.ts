import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db/connection";
import { migrationsBefore } from "@/lib/db/testing/migrations-before";
import { partners, staffUsers } from "@/lib/db/schema";
import { asAccount, type StaffUserRow } from "./accounts";

/*
 * The states a staff account may be in are the database's (checks), not only the code's: an
 * operator has no partner and never refunds, a partner's member always has one. And accounts from
 * before roles keep everything they could do: admins who may refund.
 */

const PARTNER = { id: "p_accounts", name: "Accounts", secretHash: "h_accounts", allowedOrigins: [] };

describe("the account states the database allows", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory://" });
    await database.db.insert(partners).values(PARTNER);
  });
  afterAll(async () => {
    await database.close();
  });

  const row = (values: Partial<typeof staffUsers.$inferInsert>) => ({
    id: `u_${Math.random().toString(36).slice(2)}`,
    email: `${Math.random().toString(36).slice(2)}@example.com`,
    name: "Someone",
    ...values,
  });
  const refused = (values: Partial<typeof staffUsers.$inferInsert>) =>
    database.db
      .insert(staffUsers)
      .values(row(values) as typeof staffUsers.$inferInsert)
      .then(
        () => "inserted",
        (error: unknown) => String((error as { cause?: unknown }).cause ?? error),
      );

  it("refuses an operator with a partner, a member without one, an operator who refunds, an unknown role", async () => {
    expect(await refused({ role: "operator", partnerId: PARTNER.id })).toContain("staff_users_partner_unless_operator");
    expect(await refused({ role: "admin", partnerId: null })).toContain("staff_users_partner_unless_operator");
    expect(await refused({ role: "agent", partnerId: null })).toContain("staff_users_partner_unless_operator");
    expect(await refused({ role: "operator", partnerId: null, canRefund: true })).toContain("staff_users_operator_never_refunds");
    expect(await refused({ role: "boss" as never, partnerId: PARTNER.id })).toContain("staff_users_role");
    expect(await refused({ role: "operator", partnerId: null })).toBe("inserted");
    expect(await refused({ role: "agent", partnerId: PARTNER.id })).toBe("inserted");
  });

  it("reads each row as its state, and refuses one that got past the checks", () => {
    const base = { id: "u1", email: "a@example.com", name: "A" } as StaffUserRow;
    expect(asAccount({ ...base, role: "operator", partnerId: null, canRefund: false })).toMatchObject({
      role: "operator",
      partnerId: null,
    });
    expect(asAccount({ ...base, role: "agent", partnerId: "p", canRefund: true })).toMatchObject({
      role: "agent",
      partnerId: "p",
      canRefund: true,
    });
    expect(() => asAccount({ ...base, role: "operator", partnerId: "p", canRefund: false })).toThrow(/no allowed state/);
    expect(() => asAccount({ ...base, role: "admin", partnerId: null, canRefund: false })).toThrow(/no allowed state/);
  });
});

describe("accounts from before roles", () => {
  const work = mkdtempSync(path.join(tmpdir(), "roles-upgrade-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("become administrators who may refund, and keep their password", async () => {
    // The migrations as they were before roles: every one up to the roles' migration.
    const before = migrationsBefore("_roles_and_operators", work);

    const dataDir = path.join(work, "pglite");
    const old = await openDatabase({ dataDir, migrationsDir: before });
    await old.db.execute(sql`insert into partners (id, name, secret_hash, allowed_origins) values ('p_old', 'Old', 'h_old', '[]'::jsonb)`);
    await old.db.execute(
      sql`insert into staff_users (id, partner_id, email, name, password_hash) values ('u_old', 'p_old', 'old@example.com', 'Old', 'scrypt$old')`,
    );
    await old.close();

    const upgraded = await openDatabase({ dataDir });
    try {
      const [user] = await upgraded.db.select().from(staffUsers).where(eq(staffUsers.id, "u_old"));
      expect(user).toMatchObject({ role: "admin", canRefund: true, partnerId: "p_old", passwordHash: "scrypt$old", disabledAt: null });
      // New accounts name their role: the default was for the old rows only.
      const missingRole = await upgraded.db
        .execute(sql`insert into staff_users (id, partner_id, email, name) values ('u_new', 'p_old', 'new@example.com', 'New')`)
        .then(
          () => "inserted",
          (error: unknown) => String((error as { cause?: unknown }).cause ?? error),
        );
      expect(missingRole).toMatch(/role/);
      // And new ones may not refund unless given it.
      await upgraded.db
        .insert(staffUsers)
        .values({ id: "u_agent", partnerId: "p_old", role: "agent", email: "agent@example.com", name: "Agent" });
      const [agent] = await upgraded.db.select().from(staffUsers).where(eq(staffUsers.id, "u_agent"));
      expect(agent?.canRefund).toBe(false);
    } finally {
      await upgraded.close();
    }
  });
});
