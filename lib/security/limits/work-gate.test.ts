import { describe, expect, it } from "vitest";
import { createWorkGate } from "./work-gate";

describe("a work gate (the CSV export's budget of partner API calls)", () => {
  it("lets one export per partner run at a time", () => {
    const gate = createWorkGate({ perMinute: 10, burst: 10, maxInFlight: 1, now: () => 0 });
    const first = gate.enter("p_1");
    expect(first.ok).toBe(true);
    expect(gate.enter("p_1")).toMatchObject({ ok: false, retryAfterMs: expect.any(Number) });
    expect(gate.enter("p_2").ok).toBe(true);
    if (first.ok) first.release();
    expect(gate.enter("p_1").ok).toBe(true);
  });

  it("starts at most a burst, then so many a minute", () => {
    let clock = 0;
    const gate = createWorkGate({ perMinute: 3, burst: 3, maxInFlight: 10, now: () => clock });
    const started = Array.from({ length: 5 }, () => gate.enter("p_1"));
    expect(started.map((entry) => entry.ok)).toEqual([true, true, true, false, false]);
    expect(started[3]).toMatchObject({ ok: false, retryAfterMs: 20_000 });
    for (const entry of started) if (entry.ok) entry.release();
    clock = 20_000;
    expect(gate.enter("p_1").ok).toBe(true);
    expect(gate.enter("p_1").ok).toBe(false);
  });
});
