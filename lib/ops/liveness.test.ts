import { describe, expect, it } from "vitest";
import { checkLiveness } from "./liveness";

describe("checkLiveness", () => {
  it("is ok with the database's state: answering, failing, or throwing", async () => {
    expect(await checkLiveness(() => Promise.resolve({ ok: true }))).toEqual({ status: "ok", database: "ok" });
    expect(await checkLiveness(() => Promise.resolve({ ok: false, error: new Error("refused") }))).toEqual({
      status: "ok",
      database: "unavailable",
    });
    expect(await checkLiveness(() => Promise.reject(new Error("no pool")))).toEqual({ status: "ok", database: "unavailable" });
  });

  it("does not wait for a database that does not answer", async () => {
    // Never settles: only the bound can answer (10 ms here; the test's own limit is far above it).
    const silent = () => new Promise<never>(() => {});
    expect(await checkLiveness(silent, 10)).toEqual({ status: "ok", database: "unavailable" });
  });
});
