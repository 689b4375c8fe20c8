import { describe, expect, it } from "vitest";
import { createReuseWindow, createSharedProbe } from "./shared-probe";

describe("a shared probe (the readiness check's partner API call)", () => {
  it("makes one upstream call for a burst of concurrent requests, and one per window after", async () => {
    let clock = 0;
    let calls = 0;
    let release: () => void = () => undefined;
    const probe = createSharedProbe(
      5_000,
      () => {
        calls += 1;
        return new Promise<string>((resolve) => (release = () => resolve(`answer ${calls}`)));
      },
      () => clock,
    );

    const burst = Array.from({ length: 50 }, () => probe());
    release();
    expect(new Set(await Promise.all(burst))).toEqual(new Set(["answer 1"]));
    expect(calls).toBe(1);

    clock = 4_999;
    expect(await Promise.all(Array.from({ length: 50 }, () => probe()))).toEqual(Array(50).fill("answer 1"));
    expect(calls).toBe(1);

    clock = 5_000;
    const next = probe();
    release();
    expect(await next).toBe("answer 2");
    expect(calls).toBe(2);
  });

  it("does not remember a call that threw: the next request asks again", async () => {
    let calls = 0;
    const probe = createSharedProbe(5_000, async () => {
      calls += 1;
      if (calls === 1) throw new Error("boom");
      return "ok";
    });
    await expect(probe()).rejects.toThrow("boom");
    expect(await probe()).toBe("ok");
    expect(await probe()).toBe("ok");
    expect(calls).toBe(2);
  });
});

describe("a reuse window (status reads per checkout session)", () => {
  it("reads once per key per window; concurrent reads share one; other keys are apart", async () => {
    let clock = 0;
    const calls: string[] = [];
    const window = createReuseWindow(3_000, { now: () => clock });
    const read = (key: string) =>
      window.run(
        key,
        async () => {
          calls.push(key);
          return `fresh ${key}`;
        },
        () => `stored ${key}`,
      );

    expect(new Set(await Promise.all(Array.from({ length: 20 }, () => read("a"))))).toEqual(new Set(["fresh a"]));
    expect(calls).toEqual(["a"]);
    clock = 2_999;
    expect(await read("a")).toBe("stored a");
    expect(await read("b")).toBe("fresh b");
    clock = 3_000;
    expect(await read("a")).toBe("fresh a");
    expect(calls).toEqual(["a", "b", "a"]);
  });

  it("counts a failed read too: a failing upstream is not asked more often", async () => {
    const window = createReuseWindow(3_000, { now: () => 0 });
    await expect(
      window.run(
        "a",
        () => Promise.reject(new Error("down")),
        () => "stored",
      ),
    ).rejects.toThrow("down");
    expect(
      await window.run(
        "a",
        () => Promise.resolve("fresh"),
        () => "stored",
      ),
    ).toBe("stored");
  });
});
