import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostileString } from "@/lib/testing/fuzz/values";
import { CUSTOMER_FIELDS, validateCustomer } from "./customer";
import { customerDraft } from "../testing/context";

// The checkout form's fields reached PostgreSQL with a NUL or a lone surrogate (a 500).
describe("validateCustomer and text that cannot be kept", () => {
  it("names the field with a control character or a lone surrogate, whatever else it holds", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CUSTOMER_FIELDS), hostileString, (field, value) => {
        const result = validateCustomer({ ...customerDraft(), [field]: value }, "2026-11-22");
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.errors[field]).toBe("characters");
      }),
      { numRuns: 200 },
    );
  });

  it("still accepts the valid draft", () => {
    expect(validateCustomer(customerDraft(), "2026-11-22").ok).toBe(true);
  });
});
