import { describe, expect, it } from "vitest";
import { auditFiltersOf, isAuditKind } from "./audit-query";

const MEMBERS = ["u1", "u2"];

describe("auditFiltersOf", () => {
  it("takes a known kind, a member of the partner's staff, and whole UTC days (the 'to' day included)", () => {
    const { filters, invalidDate } = auditFiltersOf(
      { kind: "operation_refunded", staff: "u2", from: "2026-03-01", to: "2026-03-02" },
      MEMBERS,
    );
    expect(invalidDate).toBe(false);
    expect(filters).toEqual({
      kind: "operation_refunded",
      staffUserId: "u2",
      from: new Date("2026-03-01T00:00:00Z"),
      to: new Date("2026-03-03T00:00:00Z"),
    });
  });

  it("ignores an unknown kind, someone else's member, a repeated parameter and empty dates", () => {
    const { filters, invalidDate } = auditFiltersOf({ kind: "drop_table", staff: ["u1", "u2"], from: "", to: undefined }, MEMBERS);
    expect(invalidDate).toBe(false);
    expect(filters).toEqual({ kind: undefined, staffUserId: undefined, from: undefined, to: undefined });
    expect(auditFiltersOf({ staff: "u3" }, MEMBERS).filters.staffUserId).toBeUndefined();
  });

  it("says a date that is set but not a real day is invalid, and does not filter on it", () => {
    for (const day of ["2026-02-30", "2026-3-1", "yesterday", "2026-13-01"]) {
      const { filters, invalidDate } = auditFiltersOf({ from: day }, MEMBERS);
      expect(invalidDate, day).toBe(true);
      expect(filters.from, day).toBeUndefined();
    }
    expect(auditFiltersOf({ to: "2026-02-29" }, MEMBERS).invalidDate).toBe(true);
    expect(auditFiltersOf({ to: "2028-02-29" }, MEMBERS).invalidDate).toBe(false);
  });

  it("knows the audit kinds", () => {
    expect(isAuditKind("operation_refunded")).toBe(true);
    expect(isAuditKind("nope")).toBe(false);
    expect(isAuditKind(undefined)).toBe(false);
  });
});
