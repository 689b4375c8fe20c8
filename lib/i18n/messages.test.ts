import { describe, expect, it } from "vitest";
import { CUSTOMER_FIELDS, validateCustomer, type CustomerErrorCode } from "@/lib/checkout/session/customer";
import { customerErrorMessage } from "./customer-errors";
import { formatDate, formatPercent } from "./format";
import { LOCALES } from "./locales";
import { MESSAGES } from "./messages";

const CODES: CustomerErrorCode[] = [
  "required",
  "too_long",
  "characters",
  "email",
  "prefix",
  "phone",
  "dni",
  "dni_letter",
  "nie",
  "nie_letter",
  "passport",
  "date",
  "expired",
  "minor",
  "too_old",
  "gender",
  "country",
  "postal_code",
];

describe("customer error messages", () => {
  it("has a message for every field and code, in every language", () => {
    for (const locale of LOCALES) {
      for (const field of CUSTOMER_FIELDS) {
        for (const code of CODES) expect(customerErrorMessage(MESSAGES[locale].form.errors, field, code)).toMatch(/\S/);
      }
    }
  });

  it("names the field a date or country error is about", () => {
    const errors = MESSAGES.en.form.errors;
    expect(customerErrorMessage(errors, "birthDate", "date")).toMatch(/birth/);
    expect(customerErrorMessage(errors, "documentValidityDate", "date")).toMatch(/expiry/);
    expect(customerErrorMessage(errors, "nationality", "country")).toMatch(/nationality/);
  });

  it("explains what the domain's validation finds, field by field", () => {
    const result = validateCustomer({ documentType: "DNI", documentId: "12345678A", birthDate: "2015-01-01" }, "2026-01-01");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.documentId).toBe("dni_letter");
    expect(customerErrorMessage(MESSAGES.es.form.errors, "documentId", "dni_letter")).toBe("La letra del DNI no es correcta");
    expect(customerErrorMessage(MESSAGES.en.form.errors, "birthDate", result.errors.birthDate!)).toMatch(/18 or over/);
  });
});

describe("formatting", () => {
  it("shows rates with two decimals in each locale", () => {
    expect(formatPercent(9.95, "es")).toBe("9,95\u00a0%");
    expect(formatPercent(12.5, "en")).toBe("12.50%");
  });

  it("shows ISO dates without a time-zone shift", () => {
    expect(formatDate("2027-01-06", "en")).toBe("6 Jan 2027");
    expect(formatDate("2027-01-06", "es")).toBe("6 ene 2027");
  });
});
