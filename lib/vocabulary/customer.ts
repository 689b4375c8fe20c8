/**
 * The customer's fields, in the order the details form shows them (its error summary lists errors
 * in this order). The checkout validates them (lib/checkout/session/customer.ts); the stored draft
 * is keyed by them.
 */
export const CUSTOMER_FIELDS = [
  "firstName",
  "lastName",
  "birthDate",
  "gender",
  "nationality",
  "email",
  "prefix",
  "phone",
  "documentType",
  "documentId",
  "documentValidityDate",
  "address",
  "city",
  "postalCode",
  "countryCode",
] as const;
export type CustomerField = (typeof CUSTOMER_FIELDS)[number];

/** What the customer typed (or the partner prefilled), by field: every value a string, possibly missing. */
export type StoredCustomerDraft = Partial<Record<CustomerField, string>>;
