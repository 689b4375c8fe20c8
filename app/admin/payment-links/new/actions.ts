"use server";

import { redirect } from "next/navigation";
import { getAppContext } from "@/lib/app-context";
import { AppError } from "@/lib/app-error";
import { staffAction } from "@/lib/backoffice/staff-action";
import { paymentLinkPage as linkPage } from "@/lib/backoffice/payment-links/form-fields";
import {
  paymentLinkFormSchema,
  parsePaymentLinkForm,
  type PaymentLinkForm,
  type PaymentLinkFormField,
} from "@/lib/backoffice/payment-links/payment-link-form";
import type { PaymentLinkFormState } from "@/lib/backoffice/payment-links/payment-link-state";
import { createPaymentLink } from "@/lib/backoffice/payment-links/payment-links";
import { requestIp } from "@/lib/identity/staff";
import { formAction, type FormAnswer } from "@/lib/validated-action";

/*
 * Creating a payment link: the form's state comes back on a problem; on success, the link's page.
 * Through staffAction: signed in with both factors, or refused before anything runs. Works as a
 * plain form post, without JavaScript.
 */

type CreateOutcome = { redirect: string } | FormAnswer<PaymentLinkFormState>;

const createValidated = staffAction(paymentLinkFormSchema, async (staff, form: PaymentLinkForm): Promise<CreateOutcome> => {
  const returnUrl = staff.partner.defaultReturnUrl;
  if (!returnUrl) return { values: form, error: "no_return_url" };
  const parsed = parsePaymentLinkForm(form, returnUrl);
  if (!parsed.ok) return { values: form, problems: parsed.problems.map((problem) => problem.field) };
  const ctx = await getAppContext();
  try {
    const { session, created } = await createPaymentLink({ ...staff, ip: await requestIp() }, ctx.appUrl, parsed.input);
    return { redirect: linkPage(session.id, created ? "created" : "existing") };
  } catch (error) {
    if (error instanceof AppError && error.code === "conflict") return { values: form, problems: ["bookingReference"], error: "conflict" };
    // The partner's default return URL not on its allowed origins: a configuration problem, said as one.
    if (error instanceof AppError && error.code === "validation_failed") return { values: form, error: "no_return_url" };
    throw error;
  }
});

export const createPaymentLinkAction = formAction<PaymentLinkFormState>()(createValidated, {
  // Only a field over 1000 characters or a control character gets here: said on the reference.
  invalid: (issues, _formData, { previous }) => {
    const known = issues.map((i) => i.field).filter((field): field is PaymentLinkFormField => field in paymentLinkFormSchema.shape);
    return { values: previous?.values, problems: known.length > 0 ? known : ["bookingReference"] };
  },
  valid: (outcome) => {
    if ("redirect" in outcome) redirect(outcome.redirect);
    return outcome;
  },
});
