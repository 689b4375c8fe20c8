import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db";
import { customerData } from "@/lib/db/schema";
import { parseKeyring } from "@/lib/config/keyring";
import { DEMO_PARTNER_ID, seedDemoPartner } from "@/lib/demo/seed";
import { partnerById } from "@/lib/partners/partners";
import { customerDraft, DEMO_SECRET, sessionInput } from "../testing/context";
import { findSessionsByCustomer, getCustomerDraft, resealCustomerData } from "./customer-store";
import { createSession } from "./sessions";

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
    let sessionId: string;
    try {
      await seedDemoPartner(before.db, { secret: DEMO_SECRET, appUrl: "http://127.0.0.1:3999" });
      const partner = (await partnerById(before.db, DEMO_PARTNER_ID))!;
      sessionId = (await createSession(before.db, partner, sessionInput())).session.id;
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
