import { describe, expect, it } from "vitest";
import { fromBodyDate, isIsoDate, toBodyDate, toQueryDate } from "./dates";

describe("date formats", () => {
  it("ISO to body (dd-MM-yyyy) and back", () => {
    expect(toBodyDate("2026-03-05")).toBe("05-03-2026");
    expect(fromBodyDate("05-03-2026")).toBe("2026-03-05");
    expect(toBodyDate("2024-02-29")).toBe("29-02-2024");
  });

  it("query dates are ISO dates, checked", () => {
    expect(toQueryDate("2026-11-22")).toBe("2026-11-22");
    expect(() => toQueryDate("22-11-2026")).toThrow(RangeError);
  });

  it.each(["2026-02-29", "2026-13-01", "2026-1-5", "05-03-2026", "", "2026-03-05T00:00:00Z"])("refuses %j as an ISO date", (value) => {
    expect(isIsoDate(value)).toBe(false);
    expect(() => toBodyDate(value)).toThrow(RangeError);
  });

  it("refuses impossible body dates", () => {
    expect(() => fromBodyDate("31-04-2026")).toThrow(RangeError);
    expect(() => fromBodyDate("2026-04-01")).toThrow(RangeError);
  });
});
