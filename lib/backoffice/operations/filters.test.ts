import { describe, expect, it } from "vitest";
import { DEFAULT_PAGE_SIZE, filtersQuery, parseOperationFilters, toListInput } from "./filters";

describe("the operations list's filters, from the URL", () => {
  it("default to the first page of 20, every status, no dates", () => {
    expect(parseOperationFilters({})).toEqual({ ok: true, filters: { page: 1, size: DEFAULT_PAGE_SIZE } });
    // A form's blank fields are "not set".
    expect(parseOperationFilters({ status: "", from: "", to: "", page: "", size: "" })).toEqual({
      ok: true,
      filters: { page: 1, size: 20 },
    });
  });

  it("read page, size, status and the date range", () => {
    expect(parseOperationFilters({ page: "3", size: "50", status: "CONFIRMED", from: "2026-11-01", to: "2026-11-30" })).toEqual({
      ok: true,
      filters: { page: 3, size: 50, status: "CONFIRMED", from: "2026-11-01", to: "2026-11-30" },
    });
    expect(parseOperationFilters({ size: "100" })).toMatchObject({ ok: true, filters: { size: 100 } });
    expect(parseOperationFilters({ from: "2026-11-22", to: "2026-11-22" })).toMatchObject({ ok: true });
    // A repeated parameter: the first counts.
    expect(parseOperationFilters({ page: ["2", "9"] })).toMatchObject({ ok: true, filters: { page: 2 } });
  });

  it("name every bad value instead of failing", () => {
    expect(parseOperationFilters({ page: "0" })).toEqual({ ok: false, problems: ["page"] });
    expect(parseOperationFilters({ page: "abc" })).toEqual({ ok: false, problems: ["page"] });
    expect(parseOperationFilters({ page: "-1" })).toEqual({ ok: false, problems: ["page"] });
    expect(parseOperationFilters({ page: "1.5" })).toEqual({ ok: false, problems: ["page"] });
    expect(parseOperationFilters({ size: "101" })).toEqual({ ok: false, problems: ["size"] });
    expect(parseOperationFilters({ size: "0" })).toEqual({ ok: false, problems: ["size"] });
    expect(parseOperationFilters({ status: "DONE" })).toEqual({ ok: false, problems: ["status"] });
    expect(parseOperationFilters({ status: "confirmed" })).toEqual({ ok: false, problems: ["status"] });
    expect(parseOperationFilters({ from: "2026-02-30" })).toEqual({ ok: false, problems: ["from"] });
    expect(parseOperationFilters({ to: "22-11-2026" })).toEqual({ ok: false, problems: ["to"] });
    expect(parseOperationFilters({ from: "2026-11-30", to: "2026-11-01" })).toEqual({ ok: false, problems: ["range"] });
    expect(parseOperationFilters({ page: "x", size: "500", status: "NOPE" })).toEqual({ ok: false, problems: ["page", "size", "status"] });
  });

  it("write back a shareable query, defaults left out", () => {
    const filters = { page: 1, size: 20, status: "GENERATED" as const, from: "2026-11-22" };
    expect(filtersQuery(filters)).toBe("?status=GENERATED&from=2026-11-22");
    expect(filtersQuery(filters, { page: 2 })).toBe("?status=GENERATED&from=2026-11-22&page=2");
    expect(filtersQuery({ page: 1, size: 10 })).toBe("?size=10");
    expect(filtersQuery({ page: 1, size: 20 })).toBe("");
    const again = parseOperationFilters(
      Object.fromEntries(new URLSearchParams(filtersQuery({ page: 4, size: 10, status: "REFUNDED", to: "2026-12-01" }))),
    );
    expect(again).toEqual({ ok: true, filters: { page: 4, size: 10, status: "REFUNDED", to: "2026-12-01" } });
  });

  it("ask the API for pages counted from 0", () => {
    expect(toListInput({ page: 1, size: 10, status: "PENDING" })).toEqual({
      page: 0,
      size: 10,
      status: "PENDING",
      from: undefined,
      to: undefined,
    });
    expect(toListInput({ page: 3, size: 100 })).toMatchObject({ page: 2, size: 100 });
  });
});
