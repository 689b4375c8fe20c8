import type { CustomerDraft, CustomerErrors } from "@/lib/checkout/session/customer";
import type { SubmitFailure } from "@/lib/checkout/session/submit";

/**
 * What the customer-data action hands back to the form: what was sent (to refill the fields), the
 * error code of each field, or why the whole submit failed. `submission` counts the submits, so
 * the form can remount its fields with the sent values and move focus to the error summary.
 */
export interface CustomerFormState {
  submission: number;
  draft?: CustomerDraft;
  errors?: CustomerErrors;
  failure?: SubmitFailure | "invalid";
}

export const INITIAL_CUSTOMER_FORM_STATE: CustomerFormState = { submission: 0 };
