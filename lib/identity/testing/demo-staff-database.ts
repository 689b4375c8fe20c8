import { afterAll, beforeAll } from "vitest";
import { openDatabase, type Database, type Db } from "@/lib/db";
import { seedDemoPartner, seedDemoStaff } from "@/lib/demo/seed";

/**
 * The identity tests' database: an in-memory one holding the demo partner (and, asked, the second
 * one) with the demo staff, opened before the file's tests and closed after them. Answers a getter,
 * since the database exists only once `beforeAll` has run.
 */
export function demoStaffDatabase(appUrl: string, options: { secondPartner?: boolean } = {}): () => Db {
  let database: Database | undefined;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory://" });
    await seedDemoPartner(database.db, { secret: "test_partner_secret_0123456789", appUrl, ...options });
    await seedDemoStaff(database.db, { appUrl });
  });
  afterAll(async () => {
    await database?.close();
  });
  return () => database!.db;
}
