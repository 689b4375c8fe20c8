import { describe, expect, it } from "vitest";
import { ageOn, dniLetter, guessDocumentType, toClientData, validateCustomer, type CustomerDraft } from "./customer";
import { customerDraft } from "../testing/context";

const TODAY = "2026-11-22";

const valid: CustomerDraft = { ...customerDraft("ana@example.com"), phone: "612 345 678" };

function errorsOf(overrides: CustomerDraft) {
  const result = validateCustomer({ ...valid, ...overrides }, TODAY);
  return result.ok ? {} : result.errors;
}

describe("validateCustomer", () => {
  it("accepts a complete Spanish customer, normalising what people type", () => {
    const result = validateCustomer({ ...valid, documentId: "12.345.678-z", nationality: "esp" }, TODAY);
    expect(result).toEqual({
      ok: true,
      customer: expect.objectContaining({ phone: "612345678", documentId: "12345678Z", nationality: "ESP", documentType: "DNI" }),
    });
    if (result.ok) expect(toClientData(result.customer)).not.toHaveProperty("documentType");
  });

  it("names every missing field", () => {
    const result = validateCustomer({}, TODAY);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(Object.keys(result.errors).sort()).toEqual(
        [
          "address",
          "birthDate",
          "city",
          "countryCode",
          "documentId",
          "documentValidityDate",
          "email",
          "firstName",
          "gender",
          "lastName",
          "nationality",
          "phone",
          "postalCode",
          "prefix",
        ].sort(),
      );
      expect(new Set(Object.values(result.errors))).toEqual(new Set(["required"]));
    }
  });

  it("checks the DNI and NIE check letters", () => {
    expect(dniLetter("12345678")).toBe("Z");
    expect(errorsOf({ documentId: "12345678A" })).toEqual({ documentId: "dni_letter" });
    expect(errorsOf({ documentId: "1234567Z" })).toEqual({ documentId: "dni" });
    expect(errorsOf({ documentType: "NIE", documentId: "X1234567L" })).toEqual({});
    expect(errorsOf({ documentType: "NIE", documentId: "Y1234567X" })).toEqual({});
    expect(errorsOf({ documentType: "NIE", documentId: "X1234567A" })).toEqual({ documentId: "nie_letter" });
    expect(errorsOf({ documentType: "NIE", documentId: "12345678Z" })).toEqual({ documentId: "nie" });
  });

  it("takes passports otherwise", () => {
    expect(errorsOf({ documentType: "PASSPORT", documentId: "XK1234567", nationality: "PRT" })).toEqual({});
    expect(errorsOf({ documentType: "PASSPORT", documentId: "A1" })).toEqual({ documentId: "passport" });
    // A DNI typed in as a passport still has its letter checked.
    expect(errorsOf({ documentType: "PASSPORT", documentId: "12345678A" })).toEqual({ documentId: "dni_letter" });
    expect(guessDocumentType("X1234567L")).toBe("NIE");
    expect(guessDocumentType("12345678Z")).toBe("DNI");
    expect(guessDocumentType("XK1234567")).toBe("PASSPORT");
  });

  it("wants an adult, born in the past, and a document that has not expired", () => {
    expect(errorsOf({ birthDate: "2008-11-23" })).toEqual({ birthDate: "minor" });
    expect(errorsOf({ birthDate: "2008-11-22" })).toEqual({});
    expect(errorsOf({ birthDate: "2030-01-01" })).toEqual({ birthDate: "date" });
    expect(errorsOf({ birthDate: "1890-01-01" })).toEqual({ birthDate: "too_old" });
    expect(errorsOf({ birthDate: "1990-02-30" })).toEqual({ birthDate: "date" });
    expect(errorsOf({ documentValidityDate: "2026-11-21" })).toEqual({ documentValidityDate: "expired" });
    expect(errorsOf({ documentValidityDate: "2026-11-22" })).toEqual({});
    expect(ageOn("2000-02-29", "2018-02-28")).toBe(17);
    expect(ageOn("2000-02-29", "2018-03-01")).toBe(18);
  });

  it("checks the e-mail, the prefix and the phone (Spanish numbers more strictly)", () => {
    expect(errorsOf({ email: "ana@" })).toEqual({ email: "email" });
    expect(errorsOf({ prefix: "34" })).toEqual({ prefix: "prefix" });
    expect(errorsOf({ phone: "12345" })).toEqual({ phone: "phone" });
    expect(errorsOf({ phone: "512345678" })).toEqual({ phone: "phone" });
    expect(errorsOf({ prefix: "+351", phone: "212345678", countryCode: "PRT", postalCode: "1100-148" })).toEqual({});
  });

  it("checks countries against ISO 3166-1 alpha-3 and Spanish postal codes", () => {
    expect(errorsOf({ nationality: "XXX" })).toEqual({ nationality: "country" });
    expect(errorsOf({ countryCode: "ES" })).toEqual({ countryCode: "country" });
    expect(errorsOf({ postalCode: "53001" })).toEqual({ postalCode: "postal_code" });
    expect(errorsOf({ postalCode: "2801" })).toEqual({ postalCode: "postal_code" });
    expect(errorsOf({ gender: "OTHER" })).toEqual({ gender: "gender" });
  });
});
