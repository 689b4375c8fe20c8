import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkDatabase, defaultMigrationsDir, openDatabase, type Database, type OpenDatabaseOptions } from "./connection";
import { OPERATION_STATUSES } from "@/lib/financing/contract";
import { statusSnapshots, type NewStatusSnapshot } from "./schema";
import { getStatusSnapshot, saveStatusSnapshot } from "./status-snapshots";

const journal = JSON.parse(readFileSync(path.join(defaultMigrationsDir(), "meta", "_journal.json"), "utf8")) as {
  entries: unknown[];
};

async function appliedMigrationCount(database: Database): Promise<number> {
  // Raw results differ per driver (PGlite: `{ rows }`, postgres.js: an array), so count through
  // the shared builder API instead.
  const [row] = await database.db.select({ count: sql<number>`count(*)::int` }).from(sql`drizzle.__drizzle_migrations`);
  return row?.count ?? -1;
}

/**
 * The same behaviour, proven on every driver. `options()` is called after the target's own
 * setup has run (a temp folder, a throwaway PostgreSQL database).
 */
function describeDatabaseSuite(name: string, options: () => OpenDatabaseOptions) {
  describe(name, () => {
    let database: Database;

    beforeAll(async () => {
      database = await openDatabase(options());
    });

    afterAll(async () => {
      await database?.close();
    });

    it("applies every migration", async () => {
      expect(await appliedMigrationCount(database)).toBe(journal.entries.length);
      expect(await getStatusSnapshot(database.db, "op-missing")).toBeUndefined();
    });

    it("applying the migrations again is a no-op", async () => {
      // Close first: two PGlite instances must never hold the same data folder at once.
      await database.close();
      database = await openDatabase(options());
      expect(await appliedMigrationCount(database)).toBe(journal.entries.length);
    });

    it("reports itself healthy", async () => {
      expect(await checkDatabase(database)).toEqual({ ok: true });
    });

    it("round-trips a snapshot, filling checkedAt with the database clock", async () => {
      const before = Date.now();
      const updatedAt = new Date("2026-03-01T10:00:00.123Z");
      expect(await saveStatusSnapshot(database.db, { operationId: "op-1", status: "PENDING", etag: '"v1"', updatedAt })).toBe(true);

      const stored = await getStatusSnapshot(database.db, "op-1");
      expect(stored).toMatchObject({ operationId: "op-1", status: "PENDING", etag: '"v1"', updatedAt });
      // Allow for a database clock a little apart from the test's.
      expect(stored?.checkedAt.getTime()).toBeGreaterThan(before - 60_000);
    });

    it("overwrites with a newer updatedAt", async () => {
      await saveStatusSnapshot(database.db, {
        operationId: "op-2",
        status: "PENDING",
        etag: '"v1"',
        updatedAt: new Date("2026-03-01T10:00:00Z"),
        checkedAt: new Date("2026-03-01T10:00:01Z"),
      });
      const stored = await saveStatusSnapshot(database.db, {
        operationId: "op-2",
        status: "CONFIRMED",
        etag: '"v2"',
        updatedAt: new Date("2026-03-01T10:05:00Z"),
        checkedAt: new Date("2026-03-01T10:05:01Z"),
      });

      expect(stored).toBe(true);
      expect(await getStatusSnapshot(database.db, "op-2")).toEqual({
        operationId: "op-2",
        status: "CONFIRMED",
        etag: '"v2"',
        updatedAt: new Date("2026-03-01T10:05:00Z"),
        checkedAt: new Date("2026-03-01T10:05:01Z"),
      });
    });

    it("refreshes etag and checkedAt on an equal updatedAt", async () => {
      const updatedAt = new Date("2026-03-01T10:00:00Z");
      await saveStatusSnapshot(database.db, {
        operationId: "op-3",
        status: "PENDING",
        etag: '"v1"',
        updatedAt,
        checkedAt: new Date("2026-03-01T10:00:01Z"),
      });
      const stored = await saveStatusSnapshot(database.db, {
        operationId: "op-3",
        status: "PENDING",
        etag: '"v1b"',
        updatedAt,
        checkedAt: new Date("2026-03-01T10:09:00Z"),
      });

      expect(stored).toBe(true);
      expect(await getStatusSnapshot(database.db, "op-3")).toMatchObject({
        etag: '"v1b"',
        checkedAt: new Date("2026-03-01T10:09:00Z"),
      });
    });

    it("does not let an older updatedAt overwrite a newer one", async () => {
      const newer = {
        operationId: "op-4",
        status: "CONFIRMED",
        etag: '"v2"',
        updatedAt: new Date("2026-03-01T10:05:00Z"),
        checkedAt: new Date("2026-03-01T10:05:01Z"),
      } satisfies NewStatusSnapshot;
      await saveStatusSnapshot(database.db, newer);
      const stored = await saveStatusSnapshot(database.db, {
        operationId: "op-4",
        status: "PENDING",
        etag: '"v1"',
        updatedAt: new Date("2026-03-01T10:00:00Z"),
        checkedAt: new Date("2026-03-01T10:06:00Z"),
      });

      expect(stored).toBe(false);
      expect(await getStatusSnapshot(database.db, "op-4")).toEqual(newer);
    });

    it("keeps the newest of concurrent saves, whatever order they land in", async () => {
      const minutes = [3, 9, 1, 7, 5, 0, 8, 2, 6, 4];
      await Promise.all(
        minutes.map((minute) =>
          saveStatusSnapshot(database.db, {
            operationId: "op-5",
            // A different status per write, to tell which one was kept.
            status: OPERATION_STATUSES[minute]!,
            etag: `"v${minute}"`,
            updatedAt: new Date(Date.UTC(2026, 2, 1, 10, minute)),
          }),
        ),
      );
      expect(await getStatusSnapshot(database.db, "op-5")).toMatchObject({ status: OPERATION_STATUSES[9], etag: '"v9"' });
    });

    it("works inside a transaction, and a rollback leaves nothing behind", async () => {
      await expect(
        database.db.transaction(async (tx) => {
          await saveStatusSnapshot(tx, {
            operationId: "op-6",
            status: "PENDING",
            etag: '"v1"',
            updatedAt: new Date("2026-03-01T10:00:00Z"),
          });
          expect(await getStatusSnapshot(tx, "op-6")).toBeDefined();
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await getStatusSnapshot(database.db, "op-6")).toBeUndefined();
    });

    it("rejects a snapshot that misses a required column", async () => {
      await expect(
        database.db.insert(statusSnapshots).values({ operationId: "op-7", status: "PENDING", etag: sql`null`, updatedAt: new Date() }),
      ).rejects.toThrow();
    });
  });
}

describe("PGlite", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "lib-db-test-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  describeDatabaseSuite("file-backed", () => ({ dataDir: path.join(dataDir, "suite") }));

  describe("data folder", () => {
    it("is created when missing and keeps its data across close and reopen", async () => {
      const nested = path.join(dataDir, "does", "not", "exist", "yet");
      const first = await openDatabase({ dataDir: nested });
      try {
        await saveStatusSnapshot(first.db, {
          operationId: "op-persisted",
          status: "CONFIRMED",
          etag: '"v9"',
          updatedAt: new Date("2026-03-01T12:00:00Z"),
        });
      } finally {
        await first.close();
      }

      const reopened = await openDatabase({ dataDir: nested });
      try {
        expect(reopened.driver).toBe("pglite");
        expect(await getStatusSnapshot(reopened.db, "op-persisted")).toMatchObject({
          status: "CONFIRMED",
          etag: '"v9"',
          updatedAt: new Date("2026-03-01T12:00:00Z"),
        });
        expect(await appliedMigrationCount(reopened)).toBe(journal.entries.length);
      } finally {
        await reopened.close();
      }
    });

    it("can live in memory", async () => {
      const memory = await openDatabase({ dataDir: "memory://" });
      try {
        expect(await checkDatabase(memory)).toEqual({ ok: true });
      } finally {
        await memory.close();
      }
    });

    it("reports a closed database as unhealthy instead of throwing", async () => {
      const memory = await openDatabase({ dataDir: "memory://" });
      await memory.close();
      const check = await checkDatabase(memory);
      expect(check.ok).toBe(false);
    });

    it("fails to open when the migrations folder is missing", async () => {
      await expect(openDatabase({ dataDir: "memory://", migrationsDir: path.join(dataDir, "no-migrations-here") })).rejects.toThrow();
    });
  });
});

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

// Without TEST_DATABASE_URL there is no server to test against: skipping is the expected outcome
// on a laptop, while CI sets the variable and runs it.
describe.runIf(testDatabaseUrl)("PostgreSQL", () => {
  const url = new URL(testDatabaseUrl ?? "postgres://unused");
  const name = `lib_db_test_${process.pid}_${Date.now()}`;
  const names = [name, `${name}_race`];
  const throwaway = new URL(url);
  throwaway.pathname = `/${name}`;
  const racedOver = new URL(url);
  racedOver.pathname = `/${name}_race`;
  let admin: postgres.Sql;

  beforeAll(async () => {
    admin = postgres(url.href, { max: 1, onnotice: () => {} });
    for (const database of names) {
      await admin.unsafe(`create database "${database}"`);
    }
  });

  afterAll(async () => {
    if (!admin) return;
    try {
      for (const database of names) {
        await admin.unsafe(`drop database if exists "${database}" with (force)`);
      }
    } finally {
      await admin.end({ timeout: 5 });
    }
  });

  describeDatabaseSuite("throwaway database", () => ({ databaseUrl: throwaway.href, dataDir: "unused" }));

  it("opens with the postgres driver and never touches dataDir", async () => {
    const dataDir = path.join(tmpdir(), `lib-db-never-created-${process.pid}`);
    const database = await openDatabase({ databaseUrl: throwaway.href, dataDir });
    try {
      expect(database.driver).toBe("postgres");
      expect(await checkDatabase(database)).toEqual({ ok: true });
    } finally {
      await database.close();
    }
  });

  it("has three pools: requests and background work commit to disk; only the webhook intake's commits do not wait for it", async () => {
    const database = await openDatabase({ databaseUrl: throwaway.href, dataDir: "unused" });
    const setting = async (db: Database["db"]) => {
      const result = (await db.execute(sql`show synchronous_commit`)) as unknown as { synchronous_commit: string }[];
      return result[0]?.synchronous_commit;
    };
    try {
      expect(database.db).not.toBe(database.background);
      expect(database.db).not.toBe(database.intake);
      expect(await setting(database.db)).toBe("on");
      expect(await setting(database.background)).toBe("on");
      expect(await setting(database.intake)).toBe("off");
    } finally {
      await database.close();
    }
  });

  it("lets instances that start together on an empty database migrate one at a time", async () => {
    const databases = await Promise.all([1, 2, 3, 4].map(() => openDatabase({ databaseUrl: racedOver.href, dataDir: "unused" })));
    try {
      for (const database of databases) {
        expect(await appliedMigrationCount(database)).toBe(journal.entries.length);
      }
    } finally {
      await Promise.all(databases.map((database) => database.close()));
    }
  });

  it("fails to open when the server is unreachable", async () => {
    const unreachable = new URL(throwaway);
    unreachable.port = "1";
    await expect(openDatabase({ databaseUrl: unreachable.href, dataDir: "unused" })).rejects.toThrow();
  });
});
