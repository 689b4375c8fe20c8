import os from "node:os";
import path from "node:path";
import { mkdtempSync, rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db";
import { createFinancingClient } from "@/lib/financing/client";
import { createDatabaseStatusCache } from "./db-status-cache";
import { createFetchDouble, json } from "@/lib/financing/testing/fetch-double";

describe("status ETags in the shared database", () => {
  let database: Database;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "status-cache-"));
    database = await openDatabase({ dataDir: dir });
  });
  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lets a second instance revalidate with the ETag the first one stored", async () => {
    const make = () => {
      const double = createFetchDouble();
      const client = createFinancingClient({
        baseUrl: "http://localhost:3000/sandbox/v1",
        apiKey: "fk_test_x",
        fetch: double.fetch,
        statusCache: createDatabaseStatusCache(database.db),
      });
      return { client, double };
    };
    const first = make();
    const second = make();
    first.double.answer(
      json(200, { operationId: "op_9", status: "PENDING", updatedAt: "2026-11-22T10:00:00.000Z" }, { ETag: '"PENDING-1795341600"' }),
    );
    await first.client.getStatus("op_9");

    second.double.answer(new Response(null, { status: 304 }));
    const read = await second.client.getStatus("op_9");
    expect(second.double.last.headers["if-none-match"]).toBe('"PENDING-1795341600"');
    expect(read).toEqual({
      modified: false,
      etag: '"PENDING-1795341600"',
      status: { operationId: "op_9", status: "PENDING", updatedAt: "2026-11-22T10:00:00.000Z" },
    });
  });
});
