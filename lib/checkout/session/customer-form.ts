import { z } from "zod";
import { CUSTOMER_FIELDS, type CustomerField } from "./customer";

/** The longest value a customer field's post may carry; anything longer is a tampered or oversized post. */
export const CUSTOMER_TEXT_MAX = 1000;

/** Every form field is a string; the rules (DNI letter, adult, ...) are the domain's (customer.ts). */
const text = z.string().max(CUSTOMER_TEXT_MAX, "is too long").optional();

/** The customer form's fields, one per customer field: what a post may carry before the domain's rules. */
export const customerFormFields = z.object(
  Object.fromEntries(CUSTOMER_FIELDS.map((field) => [field, text])) as Record<CustomerField, typeof text>,
);

export function isCustomerField(name: string): name is CustomerField {
  return (CUSTOMER_FIELDS as readonly string[]).includes(name);
}
