"use server";

import { z } from "zod";
import { getAppContext } from "@/lib/app-context";
import { staffAction } from "@/lib/backoffice/staff-action";
import { paymentLinkPage as linkPage, paymentLinkIdField as sessionId } from "@/lib/backoffice/payment-links/form-fields";
import { revokePaymentLink, sendPaymentLink } from "@/lib/backoffice/payment-links/payment-links";
import { requestIp } from "@/lib/identity/staff";
import { LOCALES } from "@/lib/i18n/locales";
import { redirectingAction } from "@/lib/validated-action";
import { safeText } from "@/lib/validation/text";

/*
 * A payment link's actions: send by e-mail and revoke, each back to the link's page with a notice.
 * Through staffAction: signed in with both factors, or refused before anything runs. Both work as
 * plain form posts, without JavaScript.
 */

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

export const sendPaymentLinkAction = redirectingAction(sendValidated, "/admin/payment-links/new");

const revokeValidated = staffAction(z.object({ sessionId }), async (staff, input) => {
  const result = await revokePaymentLink({ ...staff, ip: await requestIp() }, input.sessionId);
  return linkPage(input.sessionId, result.ok ? "revoked" : result.reason === "not_revocable" ? "not_revocable" : undefined);
});

export const revokePaymentLinkAction = redirectingAction(revokeValidated, "/admin/payment-links/new");
