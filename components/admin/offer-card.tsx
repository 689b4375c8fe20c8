import { OfferSummary } from "@/components/checkout/offer-card";
import type { FinancialOffer } from "@/lib/financing/types";
import type { Locale } from "@/lib/i18n/locales";
import type { Messages } from "@/lib/i18n/messages";

/**
 * One plan as the customer sees it on the offers page (the same words and figures), without the
 * customer's "Choose this plan" form: staff quote, they do not choose.
 */
export function AdminOfferCard({ offer, locale, messages }: { offer: FinancialOffer; locale: Locale; messages: Messages }) {
  const headingId = `offer-${offer.id}`;
  return (
    <article aria-labelledby={headingId} className="flex h-full flex-col gap-3 rounded-card border-2 border-divider bg-surface p-4 shadow-sm">
      <OfferSummary offer={offer} locale={locale} messages={messages} headingId={headingId} heading="h4" compact />
    </article>
  );
}
