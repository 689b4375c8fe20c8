import { describe, expect, it } from "vitest";
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
  it("hits the given share of requests (rate) with the random source", async () => {
    const draws = [0.1, 0.7, 0.3, 0.9];
    const faults = new Faults(() => draws.shift() ?? 1, async () => {});
    faults.replace({ fault: "503", rate: 0.5 });
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push(await faults.apply("GET", "/health", 0).then(() => "ok", (e: SandboxError) => e.status));
    expect(outcomes).toEqual([503, "ok", 503, "ok"]);
  });

  it("stops after count hits, and 429 carries Retry-After", async () => {
    const faults = new Faults(() => 0, async () => {});
    faults.replace({ fault: "429", count: 1, retryAfterSeconds: 7 });
    const error = await faults.apply("GET", "/agencies", 0).catch((e: SandboxError) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).headers).toEqual({ "Retry-After": "7" });
    await expect(faults.apply("GET", "/agencies", 0)).resolves.toBeUndefined();
  });

  it("latency waits and lets the request through", async () => {
    const waited: number[] = [];
    const faults = new Faults(() => 0, async (ms) => void waited.push(ms));
    faults.replace({ faults: [{ fault: "latency", latencyMs: 250 }, { route: "POST /financing", fault: "500" }] });
    await expect(faults.apply("GET", "/health", 0)).resolves.toBeUndefined();
    await expect(faults.apply("POST", "/financing", 0)).rejects.toMatchObject({ status: 500, body: { errorCode: "INTERNAL_ERROR" } });
    expect(waited).toEqual([250, 250]);
  });
});
