import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";

const dataDir = mkdtempSync(path.join(tmpdir(), "lib-db-singleton-"));

// The real env module validates the whole app configuration; only the database settings matter
// here, and they must point at a throwaway folder rather than the project's .data.
vi.mock("@/lib/config/env", () => ({
  getEnv: () => ({ DATABASE_URL: undefined, DATA_DIR: dataDir }),
}));

const { closeDatabase, getDatabase, getStatusSnapshot, saveStatusSnapshot } = await import("./index");

describe("getDatabase", () => {
  afterEach(async () => {
    await closeDatabase();
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("opens PGlite under DATA_DIR/pglite once, however many callers ask at the same time", async () => {
    const [first, second] = await Promise.all([getDatabase(), getDatabase()]);
    expect(first).toBe(second);
    expect(first?.driver).toBe("pglite");
    expect(await getDatabase()).toBe(first);
  });

  it("reopens the same data after closeDatabase", async () => {
    const first = await getDatabase();
    await saveStatusSnapshot(first.db, {
      operationId: "op-singleton",
      status: "PENDING",
      etag: '"v1"',
      updatedAt: new Date("2026-03-01T10:00:00Z"),
    });
    await closeDatabase();

    const reopened = await getDatabase();
    expect(reopened).not.toBe(first);
    expect(await getStatusSnapshot(reopened.db, "op-singleton")).toMatchObject({ status: "PENDING" });
  });

  it("closeDatabase without an open database does nothing", async () => {
    await expect(closeDatabase()).resolves.toBeUndefined();
  });
});
