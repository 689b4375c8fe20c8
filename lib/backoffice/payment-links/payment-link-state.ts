import type { PaymentLinkForm, PaymentLinkFormField } from "./payment-link-form";

/**
 * What the "New payment link" form gets back from its action (useActionState): the values as typed
 * and the fields to correct, or a problem of the whole form. Apart from the action ("use server"
 * files export functions only), so the client component shares the type without server code.
 */
export interface PaymentLinkFormState {
  submission: number;
  values?: Partial<PaymentLinkForm>;
  problems?: PaymentLinkFormField[];
  /** conflict: the reference is used for another booking; no_return_url: the partner has none (or a bad one). */
  error?: "conflict" | "no_return_url";
}

export const INITIAL_PAYMENT_LINK_FORM_STATE: PaymentLinkFormState = { submission: 0 };
