import { describe, expect, it } from "vitest";
import { validSessionBody } from "@/lib/testing/fuzz/surfaces";
import { createSessionSchema } from "./booking";

/** The fields a body with this prefill is refused for (none: accepted). */
function refusedFields(customer: Record<string, unknown>): string[] {
  const result = createSessionSchema.safeParse({ ...validSessionBody, customer });
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join("."));
}

describe("the return URL of a checkout session", () => {
  const refused = (returnUrl: string) => {
    const result = createSessionSchema.safeParse({ ...validSessionBody, returnUrl });
    return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  };

  it("refuses one carrying a user name or password, and one longer than 2048 characters, naming the field", () => {
    expect(refused("http://user:pw@localhost:3000/")).toEqual(["returnUrl: must not carry a user name or password"]);
    expect(refused(`http://localhost:3000/${"a".repeat(2100)}`)).toEqual(["returnUrl: must be at most 2048 characters"]);
    expect(refused("http://localhost:3000/booking/BK-1?step=done")).toEqual([]);
  });
});

describe("the booking of a checkout session", () => {
  const refused = (booking: Record<string, unknown>) => {
    const result = createSessionSchema.safeParse({ ...validSessionBody, booking: { ...validSessionBody.booking, ...booking } });
    return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  };
  const price = (amount: unknown) => ({ totalPrice: { amount, currency: "EUR" } });

  it("refuses a price under a cent, which would be shown and sent as 0.00 EUR, naming the field", () => {
    for (const amount of [1e-9, 5e-324, 0.000000009]) {
      expect(refused(price(amount)), String(amount)).toEqual(["booking.totalPrice.amount: must be at least 0.01"]);
    }
    expect(refused(price(0))).toEqual(["booking.totalPrice.amount: must be at least 0.01"]);
    expect(refused(price(-5))).toEqual(["booking.totalPrice.amount: must be at least 0.01"]);
    expect(refused(price(0.01))).toEqual([]);
    expect(refused(price(1234.5))).toEqual([]);
  });

  it("refuses a booking reference that is a dot segment: the partner API's lookup by externalId could never reach it", () => {
    expect(refused({ bookingReference: "." })).toEqual(["booking.bookingReference: must not be . or .."]);
    expect(refused({ bookingReference: ".." })).toEqual(["booking.bookingReference: must not be . or .."]);
    expect(refused({ bookingReference: "..." })).toEqual([]);
    expect(refused({ bookingReference: "BK.2026/11#7" })).toEqual([]);
  });
});

describe("the customer prefill of a checkout session", () => {
  it("takes the documented values where the form offers a choice or reads a format", () => {
    expect(
      refusedFields({
        firstName: "Ana",
        email: "ana@example.com",
        documentType: "NIE",
        gender: "FEMALE",
        birthDate: "1990-07-04",
        documentValidityDate: "2030-01-31",
        nationality: "PRT",
        countryCode: "ESP",
      }),
    ).toEqual([]);
  });

  it("refuses, naming each field, a value the form could not show (it was dropped without a word)", () => {
    expect(
      refusedFields({
        email: "not-an-email",
        documentType: "FOO",
        gender: "X",
        birthDate: "31/12/1990",
        documentValidityDate: "2030-02-30",
        nationality: "ES",
        countryCode: "XXX",
      }).sort(),
    ).toEqual([
      "customer.birthDate",
      "customer.countryCode",
      "customer.documentType",
      "customer.documentValidityDate",
      "customer.email",
      "customer.gender",
      "customer.nationality",
    ]);
  });

  it("still takes free text as the customer would type it, checked for characters and length only", () => {
    expect(refusedFields({ address: "Calle Mayor 1, 3º B", city: "A Coruña", postalCode: "28013", phone: "612 345 678" })).toEqual([]);
    expect(refusedFields({ city: "x".repeat(255) })).toEqual(["customer.city"]);
  });
});
