import type { Metadata } from "next";
import { CheckoutShell } from "@/components/checkout/checkout-shell";
import { Notice } from "@/components/ui/notice";
import { checkoutMetadata, loadCheckout, type CheckoutPageProps } from "../load-checkout";

/**
 * Every page of a checkout whose partner an operator disabled leads here (load-checkout.ts): the
 * agency is unavailable, said plainly, in the customer's language; nothing to fill in, nothing that
 * calls the partner API. Once the partner is enabled again, this page sends the customer back to the
 * checkout.
 */

export async function generateMetadata(props: CheckoutPageProps): Promise<Metadata> {
  return checkoutMetadata(props, "agencyUnavailableTitle");
}

export default async function AgencyUnavailablePage(props: CheckoutPageProps) {
  const page = await loadCheckout(props, "unavailable");
  const { m, partnerName, state } = page;
  return (
    <CheckoutShell page={page} step={undefined} bridge={{ step: "status", state, final: false }}>
      <h1 className="text-3xl font-bold">{m.agencyUnavailable.title}</h1>
      <Notice tone="warning">{m.agencyUnavailable.body(partnerName)}</Notice>
    </CheckoutShell>
  );
}
