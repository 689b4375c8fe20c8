import { describe, expect, it, vi } from "vitest";
import { createLayeredStatusCache, createMemoryStatusCache, type StatusCacheEntry } from "./status-cache";

const entry = (etag: string, status: StatusCacheEntry["status"]["status"]): StatusCacheEntry => ({
  etag,
  status: { operationId: "op_1", status, updatedAt: "2026-11-23T10:00:00.000Z" },
});

describe("the layered status cache (this process's memory over the shared database)", () => {
  it("reads the shared cache once per operation, then from memory; writes go to both", async () => {
    const near = createMemoryStatusCache();
    const far = createMemoryStatusCache();
    await far.set("op_1", entry('"e1"', "PENDING"));
    const farGet = vi.spyOn(far, "get");
    const cache = createLayeredStatusCache(near, far);

    expect(await cache.get("op_1")).toEqual(entry('"e1"', "PENDING"));
    expect(await cache.get("op_1")).toEqual(entry('"e1"', "PENDING"));
    expect(farGet).toHaveBeenCalledTimes(1);

    await cache.set("op_1", entry('"e2"', "CONFIRMED"));
    expect(await near.get("op_1")).toEqual(entry('"e2"', "CONFIRMED"));
    expect(await far.get("op_1")).toEqual(entry('"e2"', "CONFIRMED"));
  });

  it("an operation neither knows is unknown, and nothing is remembered for it", async () => {
    const near = createMemoryStatusCache();
    const cache = createLayeredStatusCache(near, createMemoryStatusCache());
    expect(await cache.get("op_unknown")).toBeUndefined();
    expect(await near.get("op_unknown")).toBeUndefined();
  });
});
