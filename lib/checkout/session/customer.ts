import { z } from "zod";
import { CUSTOMER_FIELDS, type CustomerField, type StoredCustomerDraft } from "@/lib/vocabulary/customer";
import type { ClientData } from "@/lib/financing/types";
import { textProblem } from "@/lib/validation/text";
import { isCountryCode } from "./countries";

/**
 * The customer's data, as the form sends it and as the partner may prefill it, validated with the
 * rules a finance provider applies: Spanish DNI and NIE with their check letter, passports
 * otherwise, an adult customer, a document that has not expired. Errors are codes (translated by
 * the page), one per field, so the form can show each next to its field.
 */

export const DOCUMENT_TYPES = ["DNI", "NIE", "PASSPORT"] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

// The field list is the stored draft's (lib/vocabulary/customer.ts), so the table's column is typed by it.
export { CUSTOMER_FIELDS, type CustomerField };

export const CUSTOMER_ERROR_CODES = [
  "required",
  "too_long",
  /** A control character or a lone surrogate: nothing a person types, never stored. */
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
] as const;
export type CustomerErrorCode = (typeof CUSTOMER_ERROR_CODES)[number];

export type CustomerErrors = Partial<Record<CustomerField, CustomerErrorCode>>;

export interface CustomerInput extends ClientData {
  documentType: DocumentType;
}

/** What the form or the partner sent: every field a string, possibly missing. */
export type CustomerDraft = StoredCustomerDraft;

const CHECK_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE";

export function dniLetter(digits: string): string {
  return CHECK_LETTERS[Number(digits) % 23]!;
}

/** The document type a document number looks like: what the form preselects. */
export function guessDocumentType(documentId: string | undefined): DocumentType {
  const id = normaliseDocument(documentId ?? "");
  if (/^\d{8}[A-Z]$/.test(id)) return "DNI";
  if (/^[XYZ]\d{7}[A-Z]$/.test(id)) return "NIE";
  return "PASSPORT";
}

function normaliseDocument(value: string): string {
  return value.toUpperCase().replace(/[\s.-]/g, "");
}

function documentError(type: DocumentType, id: string): CustomerErrorCode | undefined {
  if (type === "DNI") {
    const match = /^(\d{8})([A-Z])$/.exec(id);
    if (!match) return "dni";
    return dniLetter(match[1]!) === match[2] ? undefined : "dni_letter";
  }
  if (type === "NIE") {
    const match = /^([XYZ])(\d{7})([A-Z])$/.exec(id);
    if (!match) return "nie";
    const digits = String("XYZ".indexOf(match[1]!)) + match[2];
    return dniLetter(digits) === match[3] ? undefined : "nie_letter";
  }
  // A DNI or NIE number given as a passport is checked as what it is: its letter must be right.
  if (/^\d{8}[A-Z]$/.test(id)) return documentError("DNI", id);
  if (/^[XYZ]\d{7}[A-Z]$/.test(id)) return documentError("NIE", id);
  return /^[A-Z0-9]{5,20}$/.test(id) ? undefined : "passport";
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parseIsoDate(value: string): { y: number; m: number; d: number } | undefined {
  const match = ISO_DATE.exec(value);
  if (!match) return undefined;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? { y, m, d } : undefined;
}

/** Whole years between a date and today (both as yyyy-MM-dd). */
export function ageOn(birthDate: string, today: string): number {
  const b = parseIsoDate(birthDate)!;
  const t = parseIsoDate(today)!;
  const beforeBirthday = t.m < b.m || (t.m === b.m && t.d < b.d);
  return t.y - b.y - (beforeBirthday ? 1 : 0);
}

const MAX_TEXT = 100;

/**
 * Validates a draft. `today` (yyyy-MM-dd) is the day the rules are checked on; the caller passes
 * it so that tests are not tied to the calendar.
 */
export function validateCustomer(
  draft: CustomerDraft,
  today: string,
): { ok: true; customer: CustomerInput } | { ok: false; errors: CustomerErrors } {
  const errors: CustomerErrors = {};
  const value = (field: CustomerField) => (draft[field] ?? "").trim();
  const required = (field: CustomerField, max = MAX_TEXT): string => {
    const v = value(field);
    if (v === "") errors[field] = "required";
    else if (v.length > max) errors[field] = "too_long";
    return v;
  };

  const firstName = required("firstName");
  const lastName = required("lastName");

  const email = required("email", 254);
  if (email && !errors.email && !z.email().safeParse(email).success) errors.email = "email";

  const prefix = required("prefix", 5);
  if (prefix && !errors.prefix && !/^\+[1-9]\d{0,3}$/.test(prefix)) errors.prefix = "prefix";

  const phone = value("phone").replace(/[\s().-]/g, "");
  if (phone === "") errors.phone = "required";
  else if (!/^\d{6,15}$/.test(phone)) errors.phone = "phone";
  // A Spanish number has nine digits and starts with 6, 7, 8 or 9.
  else if (prefix === "+34" && !/^[6789]\d{8}$/.test(phone)) errors.phone = "phone";

  const typeRaw = value("documentType").toUpperCase();
  const documentId = normaliseDocument(value("documentId"));
  const documentType = (DOCUMENT_TYPES as readonly string[]).includes(typeRaw) ? (typeRaw as DocumentType) : guessDocumentType(documentId);
  if (documentId === "") errors.documentId = "required";
  else {
    const problem = documentError(documentType, documentId);
    if (problem) errors.documentId = problem;
  }

  const documentValidityDate = value("documentValidityDate");
  if (documentValidityDate === "") errors.documentValidityDate = "required";
  else if (!parseIsoDate(documentValidityDate)) errors.documentValidityDate = "date";
  else if (documentValidityDate < today) errors.documentValidityDate = "expired";

  const birthDate = value("birthDate");
  if (birthDate === "") errors.birthDate = "required";
  else if (!parseIsoDate(birthDate) || birthDate > today) errors.birthDate = "date";
  else if (ageOn(birthDate, today) < 18) errors.birthDate = "minor";
  else if (ageOn(birthDate, today) > 120) errors.birthDate = "too_old";

  const gender = value("gender").toUpperCase();
  if (gender === "") errors.gender = "required";
  else if (gender !== "MALE" && gender !== "FEMALE") errors.gender = "gender";

  const nationality = value("nationality").toUpperCase();
  if (nationality === "") errors.nationality = "required";
  else if (!isCountryCode(nationality)) errors.nationality = "country";

  const countryCode = value("countryCode").toUpperCase();
  if (countryCode === "") errors.countryCode = "required";
  else if (!isCountryCode(countryCode)) errors.countryCode = "country";

  const address = required("address", 200);
  const city = required("city");
  const postalCode = required("postalCode", 10).toUpperCase();
  if (postalCode && !errors.postalCode) {
    // Spanish postal codes: five digits, the first two a province (01 to 52).
    const valid = countryCode === "ESP" ? /^(0[1-9]|[1-4]\d|5[0-2])\d{3}$/.test(postalCode) : /^[A-Z0-9][A-Z0-9 -]{1,9}$/.test(postalCode);
    if (!valid) errors.postalCode = "postal_code";
  }

  // Over any other finding: the field's other rules saw text that cannot be kept anyway.
  for (const field of CUSTOMER_FIELDS) if (textProblem(draft[field] ?? "")) errors[field] = "characters";

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    customer: {
      firstName,
      lastName,
      email,
      prefix,
      phone,
      documentType,
      documentId,
      documentValidityDate,
      gender: gender as "MALE" | "FEMALE",
      birthDate,
      nationality,
      address,
      city,
      postalCode,
      countryCode,
    },
  };
}

/** What the partner API receives: the document type is ours, not part of its client object. */
export function toClientData(customer: CustomerInput): ClientData {
  const { documentType: _type, ...client } = customer;
  return client;
}

/** A draft from form data: only the known fields, only strings. */
export function draftFromForm(form: FormData): CustomerDraft {
  const draft: CustomerDraft = {};
  for (const field of CUSTOMER_FIELDS) {
    const value = form.get(field);
    if (typeof value === "string") draft[field] = value;
  }
  return draft;
}
