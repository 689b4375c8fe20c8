import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { detachOperation } from "@/lib/checkout/session/operation-link";
import { notificationPayload } from "@/lib/checkout/session/session-state";
import { createSession } from "@/lib/checkout/session/sessions";
import { sessionInput } from "@/lib/checkout/testing/context";
import { throwawayDatabase } from "@/lib/db/testing/throwaway";
import { openDatabase, type Database, type Db } from "@/lib/db";
import {
  checkoutSessions,
  customerData,
  partnerNotifications,
  partners,
  replacedOperations,
  staffSessions,
  staffUsers,
  webhookEvents,
} from "@/lib/db/schema";
import { parseEnv } from "@/lib/config/env";
import { partnerById } from "@/lib/partners/partners";
import { findDemoData, removeDemoData } from "./remove";
import { DEMO_PARTNER_ID, DEMO_STAFF, seedDemo } from "./seed";

const APP_URL = "http://127.0.0.1:3999";
const PRODUCTION = {
  FINANCING_API_BASE_URL: "https://api.financing.example/v1",
  FINANCING_API_KEY: "fk_live_abc123",
  SECRETS_KEYS: `k1:${Buffer.alloc(32, 1).toString("base64")}`,
};

/** The sandbox's demo rows, a session of the demo partner with what hangs from it, and a real partner's. */
async function seedBoth(db: Db) {
  await seedDemo(db, parseEnv({ APP_URL }));
  const demo = (await partnerById(db, DEMO_PARTNER_ID))!;
  const { session } = await createSession(db, demo, sessionInput({}, APP_URL));
  // Its first operation replaced after a correction (replaced_operations), then its current one.
  await db.update(checkoutSessions).set({ operationId: "op_demo_0" }).where(eq(checkoutSessions.id, session.id));
  await detachOperation(db, session.id, "op_demo_0");
  await db.update(checkoutSessions).set({ operationId: "op_demo_1" }).where(eq(checkoutSessions.id, session.id));
  await db.insert(webhookEvents).values({ eventId: 2, operationId: "op_demo_0", claimedStatus: "CANCELLED" });
  await db.insert(customerData).values({ sessionId: session.id, data: "{}" });
  await db
    .insert(partnerNotifications)
    .values({
      id: "msg_demo_1",
      sessionId: session.id,
      partnerId: DEMO_PARTNER_ID,
      partnerSeq: 1_000,
      state: "choosing",
      payload: notificationPayload(session),
    })
    .onConflictDoNothing();
  await db.insert(webhookEvents).values({ eventId: 1, operationId: "op_demo_1", claimedStatus: "CONFIRMED" });
  await db.insert(staffSessions).values({ tokenHash: "demo-session", userId: DEMO_STAFF[0].id, expiresAt: new Date(Date.now() + 60_000) });

  await db.insert(partners).values({ id: "real", name: "Real agency", allowedOrigins: [APP_URL] });
  const real = (await partnerById(db, "real"))!;
  const { session: realSession } = await createSession(db, real, sessionInput({}, APP_URL));
  await db.update(checkoutSessions).set({ operationId: "op_real_1" }).where(eq(checkoutSessions.id, realSession.id));
  await db.insert(webhookEvents).values({ eventId: 1, operationId: "op_real_1", claimedStatus: "CONFIRMED" });
  await db
    .insert(staffUsers)
    .values({ id: "staff_real", partnerId: "real", role: "admin", email: "ops@real.example", name: "Ops", passwordHash: "x" });
  return { demoSession: session.id, realSession: realSession.id };
}

describe("the demo data", () => {
  let database: Database;
  beforeEach(async () => {
    database = await openDatabase({ dataDir: "memory://" });
  });
  afterEach(async () => {
    await database.close();
  });

  it("is not seeded with the production partner API", async () => {
    await seedDemo(database.db, parseEnv(PRODUCTION));
    expect(await findDemoData(database.db)).toEqual({ partners: 0, staff: 0 });
    expect(await database.db.select().from(partners)).toEqual([]);
  });

  it("is found by its fixed ids and e-mails, and removed with everything that references it, leaving other partners alone", async () => {
    const db = database.db;
    const { demoSession, realSession } = await seedBoth(db);
    expect(await db.select().from(partnerNotifications).where(eq(partnerNotifications.partnerId, DEMO_PARTNER_ID))).not.toEqual([]);
    expect(await findDemoData(db)).toEqual({ partners: 3, staff: DEMO_STAFF.length });

    expect(await removeDemoData(db)).toEqual({ partners: 3, staff: DEMO_STAFF.length, sessions: 1 });
    expect(await findDemoData(db)).toEqual({ partners: 0, staff: 0 });
    expect((await db.select({ id: partners.id }).from(partners)).map((p) => p.id)).toEqual(["real"]);
    expect((await db.select({ id: checkoutSessions.id }).from(checkoutSessions)).map((s) => s.id)).toEqual([realSession]);
    expect(await db.select().from(customerData).where(eq(customerData.sessionId, demoSession))).toEqual([]);
    expect(await db.select().from(partnerNotifications).where(eq(partnerNotifications.partnerId, DEMO_PARTNER_ID))).toEqual([]);
    expect((await db.select({ op: webhookEvents.operationId }).from(webhookEvents)).map((e) => e.op)).toEqual(["op_real_1"]);
    expect(await db.select().from(replacedOperations)).toEqual([]);
    expect(await db.select().from(staffSessions)).toEqual([]);
    expect((await db.select({ id: staffUsers.id }).from(staffUsers)).map((u) => u.id)).toEqual(["staff_real"]);
    // Again: nothing left to remove.
    expect(await removeDemoData(db)).toEqual({ partners: 0, staff: 0, sessions: 0 });
  });
});

/** Runs `npm run demo:remove` with these variables; answers its exit code and output. */
async function runDemoRemove(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn("npm", ["run", "--silent", "demo:remove"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LOG_LEVEL: "info", ...env },
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, output };
}

/** Seeds a database, runs the script on it, and checks what is left once the script has closed it. */
async function removesWithTheScript(open: () => Promise<Database>, env: Record<string, string>) {
  const before = await open();
  await seedBoth(before.db);
  await before.close();

  const { code, output } = await runDemoRemove(env);
  expect(code, output).toBe(0);
  expect(output).toContain("the demo data is removed");

  const after = await open();
  try {
    expect(await findDemoData(after.db)).toEqual({ partners: 0, staff: 0 });
    expect((await after.db.select({ id: partners.id }).from(partners)).map((p) => p.id)).toEqual(["real"]);
  } finally {
    await after.close();
  }
}

describe("npm run demo:remove", () => {
  it("removes the demo data from the PGlite database under DATA_DIR, and closes it", { timeout: 180_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "demo-remove-"));
    try {
      // The script closed the folder: it opens again (PGlite allows one process at a time).
      await removesWithTheScript(() => openDatabase({ dataDir: path.join(dataDir, "pglite") }), { DATA_DIR: dataDir, DATABASE_URL: "" });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

// Without TEST_DATABASE_URL there is no server to test against (CI sets it).
describe.runIf(testDatabaseUrl)("npm run demo:remove on PostgreSQL", () => {
  const throwaway = throwawayDatabase("demo_remove_test");

  it("removes the demo data from the database at DATABASE_URL", { timeout: 180_000 }, async () => {
    await removesWithTheScript(() => openDatabase({ databaseUrl: throwaway.url, dataDir: "unused" }), { DATABASE_URL: throwaway.url });
  });
});
