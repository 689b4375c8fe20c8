import { describe, expect, it } from "vitest";
import { validSessionBody } from "@/lib/testing/fuzz/surfaces";
import { createSessionSchema } from "./booking";

/** The fields a body with this prefill is refused for (none: accepted). */
function refusedFields(customer: Record<string, unknown>): string[] {
  const result = createSessionSchema.safeParse({ ...validSessionBody, customer });
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join("."));
}

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
