import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSandboxDatabase, type SandboxDatabase } from "./db/connection";
import { SandboxError } from "./errors";
import { Faults, matches } from "./faults";

describe("fault routes", () => {
  it.each([
    [undefined, "GET", "/health", true],
    ["GET /health", "GET", "/health", true],
    ["GET /health", "POST", "/health", false],
    ["/operations/*/status", "GET", "/operations/op_1/status", true],
    ["/operations/*/status", "GET", "/operations/op_1/cancel", false],
    ["POST /financing", "POST", "/financing/extra", false],
  ] as const)("%s matches %s %s: %s", (route, method, path, expected) => {
    expect(matches(route, method, path)).toBe(expected);
  });
});

describe("Faults", () => {
  let database: SandboxDatabase;
  let account = 0;
  /** A fresh account per test: faults are per account. */
  const next = () => `test_${++account}`;

  beforeAll(async () => {
    database = await openSandboxDatabase({ dataDir: "memory://" });
  });
  afterAll(async () => {
    await database?.close();
  });

  it("hits the given share of requests (rate) with the random source", async () => {
    const draws = [0.1, 0.7, 0.3, 0.9];
    const faults = new Faults(
      Promise.resolve(database),
      () => draws.shift() ?? 1,
      async () => {},
    );
    const a = next();
    await faults.replace(a, { fault: "503", rate: 0.5 });
    const outcomes = [];
    for (let i = 0; i < 4; i++)
      outcomes.push(
        await faults.apply(a, "GET", "/health", 0).then(
          () => "ok",
          (e: SandboxError) => e.status,
        ),
      );
    expect(outcomes).toEqual([503, "ok", 503, "ok"]);
  });

  it("stops after count hits, and 429 carries Retry-After", async () => {
    const faults = new Faults(
      Promise.resolve(database),
      () => 0,
      async () => {},
    );
    const a = next();
    await faults.replace(a, { fault: "429", count: 1, retryAfterSeconds: 7 });
    const error = await faults.apply(a, "GET", "/agencies", 0).catch((e: SandboxError) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).headers).toEqual({ "Retry-After": "7" });
    await expect(faults.apply(a, "GET", "/agencies", 0)).resolves.toBeUndefined();
    expect((await faults.list(a))[0]).toMatchObject({ hits: 1, count: 1 });
  });

  it("a count holds under concurrent requests: exactly that many are hit", async () => {
    const faults = new Faults(
      Promise.resolve(database),
      () => 0,
      async () => {},
    );
    const a = next();
    await faults.replace(a, { fault: "503", count: 3 });
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () =>
        faults.apply(a, "GET", "/health", 0).then(
          () => "ok",
          () => "hit",
        ),
      ),
    );
    expect(outcomes.filter((o) => o === "hit")).toHaveLength(3);
  });

  it("latency waits and lets the request through", async () => {
    const waited: number[] = [];
    const faults = new Faults(
      Promise.resolve(database),
      () => 0,
      async (ms) => void waited.push(ms),
    );
    const a = next();
    await faults.replace(a, {
      faults: [
        { fault: "latency", latencyMs: 250 },
        { route: "POST /financing", fault: "500" },
      ],
    });
    await expect(faults.apply(a, "GET", "/health", 0)).resolves.toBeUndefined();
    await expect(faults.apply(a, "POST", "/financing", 0)).rejects.toMatchObject({ status: 500, body: { errorCode: "INTERNAL_ERROR" } });
    expect(waited).toEqual([250, 250]);
  });

  it("belong to one account: another account's requests are not hit, and clearing one keeps the other's", async () => {
    const faults = new Faults(
      Promise.resolve(database),
      () => 0,
      async () => {},
    );
    const [a, b] = [next(), next()];
    await faults.replace(a, { fault: "503" });
    await faults.replace(b, { fault: "500" });
    await expect(faults.apply(a, "GET", "/health", 0)).rejects.toMatchObject({ status: 503 });
    await faults.clear(a);
    await expect(faults.apply(a, "GET", "/health", 0)).resolves.toBeUndefined();
    await expect(faults.apply(b, "GET", "/health", 0)).rejects.toMatchObject({ status: 500 });
  });
});
