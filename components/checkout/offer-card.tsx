import type { ReactNode } from "react";
import type { FinancialOffer } from "@/lib/financing/types";
import { costOfCredit, totalOwed } from "@/lib/financing/offers";
import { formatAmount, formatPercent } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import type { Messages } from "@/lib/i18n/messages";

/**
 * A plan on its card, for the back-office's simulator (`compact`, plans side by side under the
 * quote's heading), with the same figures as the checkout's comparison (plan-comparison.tsx).
 */
export function OfferArticle({
  offer,
  locale,
  messages,
  compact = false,
  children,
}: {
  offer: FinancialOffer;
  locale: Locale;
  messages: Messages;
  compact?: boolean;
  children?: ReactNode;
}) {
  const headingId = `offer-${offer.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className={`flex flex-col gap-3 rounded-card border-2 border-divider bg-surface p-4 shadow-sm ${compact ? "h-full" : "sm:p-5"}`}
    >
      <OfferSummary
        offer={offer}
        locale={locale}
        messages={messages}
        headingId={headingId}
        heading={compact ? "h4" : "h3"}
        compact={compact}
      />
      {children}
    </article>
  );
}

/**
 * What a plan costs, as the customer compares plans: provider, monthly installment (and the one
 * that differs), TIN, TAE, totals. Shared by the checkout's offer cards and the back-office's
 * simulator, so staff quote exactly what the customer will see.
 */
export function OfferSummary({
  offer,
  locale,
  messages,
  headingId,
  heading: Heading,
  compact = false,
}: {
  offer: FinancialOffer;
  locale: Locale;
  messages: Messages;
  headingId: string;
  heading: "h3" | "h4";
  compact?: boolean;
}) {
  const m = messages.offers;
  const money = (value: Parameters<typeof formatAmount>[0]) => formatAmount(value, locale);
  const differs = offer.differentialQuota.cents !== offer.commonQuota.cents;
  const cost = costOfCredit(offer);
  const feesIncluded = cost.cents !== offer.totalInterestPaid.cents;
  return (
    <>
      <div>
        <Heading id={headingId} className="text-lg font-semibold">
          {m.provider(offer.companyName)}
        </Heading>
        <p className="mt-1">
          <span className={`${compact ? "text-2xl" : "text-3xl"} font-bold tracking-tight`}>{money(offer.commonQuota)}</span>{" "}
          <span className="text-muted">{m.perMonth}</span>
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
        {feesIncluded ? (
          <>
            <dt className="text-muted">{m.costOfCredit}</dt>
            <dd className="text-right">{money(cost)}</dd>
          </>
        ) : null}
        <dt className="font-semibold">{m.totalOwed}</dt>
        <dd className="text-right font-bold">{money(totalOwed(offer))}</dd>
      </dl>
    </>
  );
}
