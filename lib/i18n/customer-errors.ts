import type { CustomerErrorCode, CustomerField } from "@/lib/checkout/session/customer";
import type { CustomerErrorMessages } from "./messages";

/**
 * The message for a field's error code. Apart from messages.ts (types only) so the customer form,
 * a client component, does not pull every message of both languages into the browser bundle.
 */
export function customerErrorMessage(errors: CustomerErrorMessages, field: CustomerField, code: CustomerErrorCode): string {
  switch (code) {
    case "required":
      return errors.required[field];
    case "date":
      return field === "birthDate" ? errors.date.birthDate : errors.date.documentValidityDate;
    case "country":
      return field === "nationality" ? errors.country.nationality : errors.country.countryCode;
    default:
      return errors[code];
  }
}
