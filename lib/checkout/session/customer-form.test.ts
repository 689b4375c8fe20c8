import { describe, expect, it } from "vitest";
import { CUSTOMER_FIELDS } from "./customer";
import { CUSTOMER_TEXT_MAX, customerFormFields, isCustomerField } from "./customer-form";

describe("the customer form's fields", () => {
  it("are the customer fields, each an optional string", () => {
    expect(Object.keys(customerFormFields.shape)).toEqual([...CUSTOMER_FIELDS]);
    const all = Object.fromEntries(CUSTOMER_FIELDS.map((field) => [field, `${field} value`]));
    expect(customerFormFields.parse({ ...all, other: "dropped" })).toEqual(all);
    expect(customerFormFields.parse({})).toEqual({});
  });

  it("refuse a value that is not a string or is too long, naming the field", () => {
    const long = customerFormFields.safeParse({ city: "x".repeat(CUSTOMER_TEXT_MAX + 1) });
    expect(long.success).toBe(false);
    expect(long.error?.issues.map((issue) => issue.path)).toEqual([["city"]]);
    expect(customerFormFields.safeParse({ city: "x".repeat(CUSTOMER_TEXT_MAX) }).success).toBe(true);
    expect(customerFormFields.safeParse({ email: 42 }).success).toBe(false);
  });

  it("know a customer field's name", () => {
    expect(isCustomerField("documentId")).toBe(true);
    expect(isCustomerField("sessionId")).toBe(false);
  });
});
