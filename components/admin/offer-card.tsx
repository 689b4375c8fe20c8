import { costOfCredit, totalOwed } from "@/lib/checkout/offers";
import type { FinancialOffer } from "@/lib/financing/types";
import { formatAmount, formatPercent } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import type { Messages } from "@/lib/i18n/messages";

/**
 * One plan as the customer sees it on the offers page (the same words, from the customer's
 * messages), without the customer's "Choose this plan" form: staff quote, they do not choose.
 */
export function AdminOfferCard({ offer, locale, messages }: { offer: FinancialOffer; locale: Locale; messages: Messages }) {
  const m = messages.offers;
  const money = (value: Parameters<typeof formatAmount>[0]) => formatAmount(value, locale);
  const headingId = `offer-${offer.id}`;
  const differs = offer.differentialQuota.cents !== offer.commonQuota.cents;
  const cost = costOfCredit(offer);
  return (
    <article aria-labelledby={headingId} className="flex h-full flex-col gap-3 rounded-card border-2 border-divider bg-surface p-4 shadow-sm">
      <div>
        <h4 id={headingId} className="text-lg font-semibold">
          {m.provider(offer.companyName)}
        </h4>
        <p className="mt-1">
          <span className="text-2xl font-bold tracking-tight">{money(offer.commonQuota)}</span> <span className="text-muted">{m.perMonth}</span>
        </p>
        {differs ? (
          <p className="text-sm text-muted">
            {offer.differentialIsFirst ? m.differentFirst(money(offer.differentialQuota)) : m.differentLast(money(offer.differentialQuota))}
          </p>
        ) : null}
      </div>
      <dl className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted">{m.tin}</dt>
        <dd className="text-right font-semibold">{formatPercent(offer.tin, locale)}</dd>
        <dt className="text-muted">{m.tae}</dt>
        <dd className="text-right font-semibold">{formatPercent(offer.tae, locale)}</dd>
        <dt className="text-muted">{m.totalFinanced}</dt>
        <dd className="text-right">{money(offer.totalFinanced)}</dd>
        <dt className="text-muted">{m.totalInterest}</dt>
        <dd className="text-right">{money(offer.totalInterestPaid)}</dd>
        {cost.cents !== offer.totalInterestPaid.cents ? (
          <>
            <dt className="text-muted">{m.costOfCredit}</dt>
            <dd className="text-right">{money(cost)}</dd>
          </>
        ) : null}
        <dt className="font-semibold">{m.totalOwed}</dt>
        <dd className="text-right font-bold">{money(totalOwed(offer))}</dd>
      </dl>
    </article>
  );
}
