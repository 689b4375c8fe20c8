/**
 * The outbox numbers each partner's notifications by itself, 1, 2, 3…, in the order their
 * transactions commit: the event feed's positions (GET /api/events). Partners interleaved each see
 * 1..n; a repeat leaves no gap; on PostgreSQL a second writer of the same partner waits for the
 * first one's commit (so a reader never sees a later position before an earlier one), while another
 * partner's writer does not wait at all; and the migration numbers the notifications written before
 * it, per partner, in the order they were written.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database, type Db } from "@/lib/db/connection";
import { migrationsBefore } from "@/lib/db/testing/migrations-before";
import { throwawayDatabase } from "@/lib/db/testing/throwaway";
import { checkoutSessions, partnerEventCounters, partnerNotifications, partners } from "@/lib/db/schema";
import { storedSession, testContext } from "../testing/context";
import { enqueueErasureNotification, enqueueNotification } from "./outbox";
import type { CheckoutSession } from "./session-state";

let sessionCount = 0;

/** A new session of the partner (open: its notification announces `open`). */
async function newSession(db: Db, partnerId: string): Promise<CheckoutSession> {
  sessionCount += 1;
  const [session] = await db
    .insert(checkoutSessions)
    .values(storedSession({ id: `cs_outbox_${String(sessionCount).padStart(4, "0")}`, reference: `BK-OUTBOX-${sessionCount}`, partnerId }))
    .returning();
  return session!;
}

async function addPartners(db: Db, ...ids: string[]): Promise<void> {
  await db.insert(partners).values(ids.map((id) => ({ id, name: `Agency ${id}`, allowedOrigins: ["http://127.0.0.1"] })));
}

/** The partner's notifications' positions, in order, with their sessions. */
async function positions(db: Db, partnerId: string): Promise<{ sessionId: string; position: number }[]> {
  return db
    .select({ sessionId: partnerNotifications.sessionId, position: partnerNotifications.partnerSeq })
    .from(partnerNotifications)
    .where(eq(partnerNotifications.partnerId, partnerId))
    .orderBy(asc(partnerNotifications.partnerSeq));
}

describe("the outbox's per-partner positions", () => {
  let database: Database;

  beforeAll(async () => {
    ({ database } = await testContext("http://127.0.0.1:9/v1"));
    await addPartners(database.db, "outbox_a", "outbox_b");
  });

  afterAll(async () => {
    await database?.close();
  });

  it("numbers each partner's notifications 1, 2, 3… by itself, however the partners interleave", async () => {
    const db = database.db;
    const order = ["outbox_a", "outbox_b", "outbox_a", "outbox_a", "outbox_b", "outbox_a", "outbox_b"];
    const written: Record<string, string[]> = { outbox_a: [], outbox_b: [] };
    for (const partnerId of order) {
      const session = await newSession(db, partnerId);
      await db.transaction((tx) => enqueueNotification(tx, session));
      written[partnerId]!.push(session.id);
    }
    expect(await positions(db, "outbox_a")).toEqual(written.outbox_a!.map((sessionId, i) => ({ sessionId, position: i + 1 })));
    expect(await positions(db, "outbox_b")).toEqual(written.outbox_b!.map((sessionId, i) => ({ sessionId, position: i + 1 })));
    // A partner that never had a cursor of the deployment-wide form: none is read past 0.
    expect(await db.select().from(partnerEventCounters).where(eq(partnerEventCounters.partnerId, "outbox_a"))).toEqual([
      { partnerId: "outbox_a", lastPosition: 4, legacyLastSeq: 0 },
    ]);
  });

  it("leaves no gap when a notification was written before (a repeated erasure)", async () => {
    const db = database.db;
    const session = await newSession(db, "outbox_b");
    const erasedAt = new Date();
    expect(await db.transaction((tx) => enqueueErasureNotification(tx, session, erasedAt))).toBe(true);
    expect(await db.transaction((tx) => enqueueErasureNotification(tx, session, erasedAt))).toBe(false);
    const next = await newSession(db, "outbox_b");
    await db.transaction((tx) => enqueueNotification(tx, next));
    expect((await positions(db, "outbox_b")).slice(-2)).toEqual([
      { sessionId: session.id, position: 4 },
      { sessionId: next.id, position: 5 },
    ]);
  });
});

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe.runIf(process.env.TEST_DATABASE_URL)("the outbox's per-partner positions, two instances on PostgreSQL", () => {
  const throwaway = throwawayDatabase("outbox_positions");
  let one: Database;
  let two: Database;

  beforeAll(async () => {
    // Two instances: each its own pool on the one database.
    ({ database: one } = await testContext("http://127.0.0.1:9/v1", { databaseUrl: throwaway.url }));
    ({ database: two } = await testContext("http://127.0.0.1:9/v1", { databaseUrl: throwaway.url }));
    await addPartners(one.db, "outbox_a", "outbox_b");
  });

  afterAll(async () => {
    await one?.close();
    await two?.close();
  });

  it("makes a partner's second writer wait for the first one's commit, and never another partner's", async () => {
    const first = await newSession(one.db, "outbox_a");
    const second = await newSession(one.db, "outbox_a");
    const elsewhere = await newSession(one.db, "outbox_b");

    // The first writer has taken its position and has not committed.
    const written = gate();
    const commit = gate();
    const firstWriter = one.db.transaction(async (tx) => {
      await enqueueNotification(tx, first);
      written.open();
      await commit.opened;
    });
    await written.opened;

    // Another partner's writer goes through meanwhile, on the other instance: there is no lock for the whole platform.
    await two.db.transaction((tx) => enqueueNotification(tx, elsewhere));
    expect(await positions(one.db, "outbox_b")).toEqual([{ sessionId: elsewhere.id, position: 1 }]);

    // The same partner's second writer, on the other instance, waits on the partner's counter.
    let secondDone = false;
    const secondWriter = two.db.transaction((tx) => enqueueNotification(tx, second)).then(() => (secondDone = true));
    await expect
      .poll(async () => {
        const [row] = await one.db
          .select({ waiting: sql<number>`count(*)::int` })
          .from(sql`pg_stat_activity`)
          .where(sql`datname = current_database() and wait_event_type = 'Lock' and query ilike '%partner_event_counters%'`);
        return row!.waiting;
      })
      .toBe(1);
    // A reader now sees neither: not the first (uncommitted), and not the second ahead of it.
    expect(secondDone).toBe(false);
    expect(await positions(one.db, "outbox_a")).toEqual([]);

    commit.open();
    await firstWriter;
    await secondWriter;
    expect(await positions(one.db, "outbox_a")).toEqual([
      { sessionId: first.id, position: 1 },
      { sessionId: second.id, position: 2 },
    ]);
  });
});

/**
 * A new session written into a database of an older schema: by the columns every schema has, since
 * the current schema's insert names the columns added since (and that database has none of them).
 */
async function sessionInOldSchema(db: Db, partnerId: string): Promise<{ id: string }> {
  sessionCount += 1;
  const row = storedSession({
    id: `cs_outbox_${String(sessionCount).padStart(4, "0")}`,
    reference: `BK-OUTBOX-${sessionCount}`,
    partnerId,
  });
  await db.execute(
    sql`insert into checkout_sessions (id, partner_id, booking_reference, booking, booking_hash, return_url, expires_at)
        values (${row.id}, ${row.partnerId}, ${row.bookingReference}, ${JSON.stringify(row.booking)}::jsonb, ${row.bookingHash}, ${row.returnUrl}, ${row.expiresAt.toISOString()})`,
  );
  return { id: row.id };
}

describe("the migration to per-partner positions", () => {
  const work = mkdtempSync(path.join(os.tmpdir(), "partner-positions-upgrade-"));

  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
  });

  it("numbers the notifications written before it per partner, in the order they were written, and continues from there", async () => {
    // The schema as it was: one deployment-wide `seq`, no position.
    const dataDir = path.join(work, "pglite");
    const old = await openDatabase({ dataDir, migrationsDir: migrationsBefore("_partner_event_positions", work) });
    const written: [string, string][] = [];
    try {
      await addPartners(old.db, "outbox_a", "outbox_b");
      for (const partnerId of ["outbox_b", "outbox_a", "outbox_a", "outbox_b", "outbox_a"]) {
        const session = await sessionInOldSchema(old.db, partnerId);
        await old.db.execute(
          sql`insert into partner_notifications (id, session_id, partner_id, state, payload) values (${`msg_${session.id}`}, ${session.id}, ${partnerId}, 'open', '{}'::jsonb)`,
        );
        written.push([partnerId, session.id]);
      }
    } finally {
      await old.close();
    }

    const upgraded = await openDatabase({ dataDir });
    try {
      for (const partnerId of ["outbox_a", "outbox_b"]) {
        const ids = written.filter(([owner]) => owner === partnerId).map(([, sessionId]) => sessionId);
        expect(await positions(upgraded.db, partnerId)).toEqual(ids.map((sessionId, i) => ({ sessionId, position: i + 1 })));
      }
      // Each partner's counter stands at its last position, and remembers the last deployment-wide number it handed out.
      const counters = await upgraded.db.select().from(partnerEventCounters).orderBy(asc(partnerEventCounters.partnerId));
      const n = partnerNotifications;
      const lastSeqs = new Map(
        (
          await upgraded.db
            .select({ partnerId: n.partnerId, seq: sql<string>`max(${n.seq})` })
            .from(n)
            .groupBy(n.partnerId)
        ).map((row) => [row.partnerId, Number(row.seq)]),
      );
      expect(counters).toEqual([
        { partnerId: "outbox_a", lastPosition: 3, legacyLastSeq: lastSeqs.get("outbox_a") },
        { partnerId: "outbox_b", lastPosition: 2, legacyLastSeq: lastSeqs.get("outbox_b") },
      ]);
      // The next notification continues the partner's numbering.
      const next = await newSession(upgraded.db, "outbox_b");
      await upgraded.db.transaction((tx) => enqueueNotification(tx, next));
      expect((await positions(upgraded.db, "outbox_b")).at(-1)).toEqual({ sessionId: next.id, position: 3 });
    } finally {
      await upgraded.close();
    }
  });
});
