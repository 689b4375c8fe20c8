import { describe, expect, it } from "vitest";
import { clockDifferenceMs } from "./health";

describe("the clock difference", () => {
  it("is the API's time minus ours at the middle of the call", () => {
    const sent = Date.parse("2026-11-22T10:00:00.000Z");
    expect(clockDifferenceMs("2026-11-22T10:00:00.500Z", sent, sent + 1000)).toBe(0);
    expect(clockDifferenceMs("2026-11-22T10:00:05.100Z", sent, sent + 200)).toBe(5000);
    expect(clockDifferenceMs("2026-11-22T09:59:58.000Z", sent, sent)).toBe(-2000);
  });
});
