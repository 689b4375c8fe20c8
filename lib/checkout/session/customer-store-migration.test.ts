import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db";
import { customerData } from "@/lib/db/schema";
import { parseKeyring } from "@/lib/config/keyring";
import { DEMO_PARTNER_ID } from "@/lib/demo/seed";
import { customerDraft } from "../testing/context";
import { findSessionsByCustomer, getCustomerDraft, resealCustomerData } from "./customer-store";

/*
 * A database from before customers' data was sealed (its jsonb column, plaintext), migrated: the
 * row is kept as its JSON, opens as it is, and the re-seal seals it and writes its search hashes.
 */

const MIGRATIONS = path.join(process.cwd(), "lib/db/migrations");
const SEALING_MIGRATION = "0025_customer_data_sealed";
const K1 = parseKeyring(`k1:${Buffer.alloc(32, 1).toString("base64")}`);

const folder = mkdtempSync(path.join(tmpdir(), "customer-data-migration-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The migrations as they were before the sealing one. */
function migrationsBeforeSealing(): string {
  const dir = path.join(folder, "migrations");
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalFile = path.join(dir, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag === SEALING_MIGRATION);
  expect(at).toBeGreaterThan(0);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
  return dir;
}

describe(`the migration ${SEALING_MIGRATION}`, { timeout: 300_000 }, () => {
  it("keeps a plaintext row as its JSON, which the re-seal then seals, searchable", async () => {
    const dataDir = path.join(folder, "pglite");
    const draft = customerDraft("Before.Sealing@Example.com");
    const before = await openDatabase({ dataDir, migrationsDir: migrationsBeforeSealing() });
    // Raw SQL only: the app's code of today writes columns later migrations add.
    const sessionId = "cs_before_sealing_0000000000";
    try {
      await before.db.execute(
        sql`insert into partners (id, name, allowed_origins) values (${DEMO_PARTNER_ID}, 'Before sealing', '[]'::jsonb)`,
      );
      await before.db.execute(
        sql`insert into checkout_sessions (id, partner_id, booking_reference, booking, booking_hash, return_url, expires_at)
            values (${sessionId}, ${DEMO_PARTNER_ID}, 'BEFORE-SEALING', '{}'::jsonb, 'x', 'https://agency.example/back', now() + interval '1 day')`,
      );
      await before.db.execute(
        sql`insert into customer_data (session_id, data, submitted) values (${sessionId}, ${JSON.stringify(draft)}::jsonb, true)`,
      );
    } finally {
      await before.close();
    }

    const after = await openDatabase({ dataDir });
    try {
      expect(await getCustomerDraft(after.db, sessionId, K1)).toMatchObject({ status: "present", draft, submitted: true });
      expect(await resealCustomerData(after.db, K1)).toEqual({ resealed: 1, unreadable: 0 });
      const [row] = await after.db.select({ data: customerData.data }).from(customerData).where(eq(customerData.sessionId, sessionId));
      expect(row!.data).toMatch(/^enc:v1:k1:/);
      expect(row!.data).not.toContain(draft.documentId);
      expect(await getCustomerDraft(after.db, sessionId, K1)).toMatchObject({ status: "present", draft });
      expect(await findSessionsByCustomer(after.db, { email: "before.sealing@example.com" }, K1)).toEqual([
        { sessionId, partnerId: DEMO_PARTNER_ID },
      ]);
    } finally {
      await after.close();
    }
  });
});
