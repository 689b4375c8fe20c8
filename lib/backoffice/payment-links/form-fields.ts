import { z } from "zod";
import { CHECKOUT_SESSION_ID } from "@/lib/http/checkout-session-id";

/** A payment link's id as a form posts it: a checkout session's id. */
export const paymentLinkIdField = z.string().regex(CHECKOUT_SESSION_ID, "is not a payment link id");

/** The link's page in the back-office, with a notice to show when given. */
export function paymentLinkPage(id: string, notice?: string): string {
  return `/admin/payment-links/${encodeURIComponent(id)}${notice ? `?notice=${notice}` : ""}`;
}
