import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "./connection";
import { preparedPerDb } from "./prepared";
import { statusSnapshots } from "./schema";

// A read prepared once per handle must still read from the handle it is given: another database
// (each test, each instance) and a transaction (its uncommitted writes) are handles of their own.
describe("preparedPerDb", () => {
  let first: Database;
  let second: Database;
  const etagOf = preparedPerDb((db) =>
    db
      .select({ etag: statusSnapshots.etag })
      .from(statusSnapshots)
      .where(eq(statusSnapshots.operationId, sql.placeholder("operationId")))
      .prepare("test_etag_of"),
  );
  const snapshot = (etag: string) => ({ operationId: "op-1", status: "PENDING" as const, etag, updatedAt: new Date() });

  beforeAll(async () => {
    [first, second] = await Promise.all([openDatabase({ dataDir: "memory://" }), openDatabase({ dataDir: "memory://" })]);
    await first.db.insert(statusSnapshots).values(snapshot('"first"'));
    await second.db.insert(statusSnapshots).values(snapshot('"second"'));
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  it("reads each database from its own statement", async () => {
    expect(await etagOf(first.db).execute({ operationId: "op-1" })).toEqual([{ etag: '"first"' }]);
    expect(await etagOf(second.db).execute({ operationId: "op-1" })).toEqual([{ etag: '"second"' }]);
    expect(await etagOf(first.db).execute({ operationId: "op-2" })).toEqual([]);
    expect(etagOf(first.db)).toBe(etagOf(first.db));
  });

  it("reads a transaction's own writes inside it, and nothing of them after its rollback", async () => {
    await expect(
      first.db.transaction(async (tx) => {
        await tx.update(statusSnapshots).set({ etag: '"changed"' });
        expect(await etagOf(tx).execute({ operationId: "op-1" })).toEqual([{ etag: '"changed"' }]);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await etagOf(first.db).execute({ operationId: "op-1" })).toEqual([{ etag: '"first"' }]);
  });
});
