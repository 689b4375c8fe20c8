"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { getAppContext } from "@/lib/app-context";
import { AppError } from "@/lib/app-error";
import { staffAction } from "@/lib/backoffice/staff/staff-action";
import {
  paymentLinkFormSchema,
  parsePaymentLinkForm,
  type PaymentLinkForm,
  type PaymentLinkFormField,
} from "@/lib/backoffice/payment-links/payment-link-form";
import type { PaymentLinkFormState } from "@/lib/backoffice/payment-links/payment-link-state";
import { createPaymentLink, revokePaymentLink, sendPaymentLink } from "@/lib/backoffice/payment-links/payment-links";
import { requestIp } from "@/lib/backoffice/staff/staff";
import { CHECKOUT_SESSION_ID } from "@/lib/http/checkout-session-id";
import { LOCALES } from "@/lib/i18n/locales";
import { safeText } from "@/lib/validation/text";

/*
 * The payment link's actions: create (the form's state comes back on a problem; on success, the
 * link's page), send by e-mail and revoke (each back to the link's page with a notice). All go
 * through staffAction: signed in with both factors, or refused before anything runs. Every one
 * works as a plain form post, without JavaScript.
 */

const sessionId = z.string().regex(CHECKOUT_SESSION_ID, "is not a payment link id");

const linkPage = (id: string, notice?: string) => `/admin/payment-links/${encodeURIComponent(id)}${notice ? `?notice=${notice}` : ""}`;

type CreateOutcome = { redirect: string } | Omit<PaymentLinkFormState, "submission">;

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

export async function createPaymentLinkAction(previous: PaymentLinkFormState, formData: FormData): Promise<PaymentLinkFormState> {
  const submission = (previous?.submission ?? 0) + 1;
  const outcome = await createValidated(previous, formData);
  // Only a field over 1000 characters or a control character gets here: said on the reference.
  if ("invalid" in outcome) {
    const known = outcome.invalid
      .map((i) => i.field)
      .filter((field): field is PaymentLinkFormField => field in paymentLinkFormSchema.shape);
    return { submission, values: previous?.values, problems: known.length > 0 ? known : ["bookingReference"] };
  }
  if ("redirect" in outcome) redirect(outcome.redirect);
  return { submission, ...outcome };
}

const sendValidated = staffAction(
  z.object({
    sessionId,
    to: z.string().check(safeText()).trim().max(254).default(""),
    locale: z.enum(LOCALES).default("es"),
    /** The confirmation checkbox: sending to an address other than the booking's. */
    confirmRecipient: z.string().max(10).optional(),
  }),
  async (staff, input) => {
    const to = z.email().safeParse(input.to);
    if (!to.success) return linkPage(input.sessionId, "email_invalid");
    const ctx = await getAppContext();
    const result = await sendPaymentLink({ ...staff, ip: await requestIp() }, ctx.appUrl, {
      sessionId: input.sessionId,
      to: to.data,
      locale: input.locale,
      confirmed: input.confirmRecipient !== undefined,
    });
    if (result.ok) return linkPage(input.sessionId, "sent");
    return linkPage(input.sessionId, result.reason === "not_found" ? undefined : `email_${result.reason}`);
  },
);

export async function sendPaymentLinkAction(formData: FormData): Promise<void> {
  const outcome = await sendValidated(undefined, formData);
  redirect(typeof outcome === "string" ? outcome : "/admin/payment-links/new");
}

const revokeValidated = staffAction(z.object({ sessionId }), async (staff, input) => {
  const result = await revokePaymentLink({ ...staff, ip: await requestIp() }, input.sessionId);
  return linkPage(input.sessionId, result.ok ? "revoked" : result.reason === "not_revocable" ? "not_revocable" : undefined);
});

export async function revokePaymentLinkAction(formData: FormData): Promise<void> {
  const outcome = await revokeValidated(undefined, formData);
  redirect(typeof outcome === "string" ? outcome : "/admin/payment-links/new");
}
