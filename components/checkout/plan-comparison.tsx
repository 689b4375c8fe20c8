import type { ReactNode } from "react";
import { HiddenFields } from "@/components/ui/hidden-fields";
import { SubmitButton } from "@/components/ui/submit-button";
import { cheapestPlanId, costOfCredit, totalOwed } from "@/lib/financing/offers";
import type { FinancialOffer, Money } from "@/lib/financing/types";
import { formatAmount, formatPercent } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import type { Messages } from "@/lib/i18n/messages";

/**
 * The plans for one installment count, side by side (a column per provider, at most three in
 * practice), on what differs between them: the monthly installment, the first or last one when it
 * differs, TIN, TAE, interest, the cost of credit, the total owed. Every figure of a plan stands in
 * its column right above its "Choose" button, so the customer sees what they choose before leaving
 * for the provider. The amount financed is the same for every plan: it is said once, in the caption.
 * The button's form sends only the offer's id; the server looks the offer up again.
 */
export function PlanComparison({
  installments,
  plans,
  sessionId,
  action,
  locale,
  messages,
  hiddenFields = {},
}: {
  installments: number;
  plans: readonly FinancialOffer[];
  sessionId: string;
  action: (formData: FormData) => Promise<void>;
  locale: Locale;
  messages: Messages;
  /** Sent with the choice (the embedded mode, so the action knows where to lead). */
  hiddenFields?: Record<string, string>;
}) {
  const m = messages.offers;
  const money = (value: Money) => formatAmount(value, locale);
  const cheapest = cheapestPlanId(plans);
  const differs = (offer: FinancialOffer) => offer.differentialQuota.cents !== offer.commonQuota.cents;
  const first = (offer: FinancialOffer) => (differs(offer) && offer.differentialIsFirst ? offer.differentialQuota : offer.commonQuota);
  const last = (offer: FinancialOffer) => (differs(offer) && !offer.differentialIsFirst ? offer.differentialQuota : offer.commonQuota);
  const withFees = plans.some((offer) => costOfCredit(offer).cents !== offer.totalInterestPaid.cents);

  const rows: { label: string; cell: (offer: FinancialOffer) => ReactNode; strong?: boolean }[] = [
    { label: m.monthly, cell: (offer) => money(offer.commonQuota), strong: true },
  ];
  if (plans.some((offer) => differs(offer) && offer.differentialIsFirst))
    rows.push({ label: m.firstInstallment, cell: (offer) => money(first(offer)) });
  if (plans.some((offer) => differs(offer) && !offer.differentialIsFirst))
    rows.push({ label: m.lastInstallment, cell: (offer) => money(last(offer)) });
  rows.push(
    { label: m.tin, cell: (offer) => formatPercent(offer.tin, locale) },
    { label: m.tae, cell: (offer) => formatPercent(offer.tae, locale) },
    { label: m.totalInterest, cell: (offer) => money(offer.totalInterestPaid) },
  );
  if (withFees) rows.push({ label: m.costOfCredit, cell: (offer) => money(costOfCredit(offer)) });
  rows.push({ label: m.totalOwed, cell: (offer) => money(totalOwed(offer)), strong: true });

  const financed = plans[0]?.totalFinanced;
  // Three providers side by side on a 390 px phone leave each column ~80 px: smaller type, and no
  // amount ever broken across lines (a total read as "1.255,0 / 3 €" is a wrong total).
  const crowded = plans.length >= 3;
  return (
    <section aria-labelledby={`group-${installments}`} className="flex flex-col gap-2">
      <h2 id={`group-${installments}`} className="text-xl font-bold">
        {m.groupHeading(installments)}
      </h2>
      <table className="w-full table-fixed border-collapse text-sm">
        <caption className="pb-2 text-left text-muted">{financed ? m.comparisonCaption(money(financed)) : null}</caption>
        <thead>
          <tr>
            <td className={crowded ? "w-[25%]" : "w-[34%]"} />
            {plans.map((offer) => (
              <th
                key={offer.id}
                scope="col"
                // Top-aligned: the "cheapest" mark under one name must not lift that name above the others.
                className={`px-1 pb-2 align-top leading-tight font-semibold ${crowded ? "text-[0.8125rem]" : "text-base"}`}
              >
                {offer.companyName}
                {offer.id === cheapest ? (
                  <span className="mt-1 block w-fit rounded bg-success-soft px-1.5 py-0.5 text-xs font-bold text-success">
                    {m.cheapest}
                  </span>
                ) : null}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label} className="border-t border-divider">
              <th scope="row" className="py-1.5 pr-1 text-left align-top font-normal text-muted">
                {row.label}
              </th>
              {plans.map((offer) => (
                <td
                  key={offer.id}
                  className={`px-1 py-1.5 align-top whitespace-nowrap tabular-nums ${row.strong ? (crowded ? "font-bold" : "text-base font-bold") : ""}`}
                >
                  {row.cell(offer)}
                </td>
              ))}
            </tr>
          ))}
          <tr>
            <td />
            {plans.map((offer) => (
              <td key={offer.id} className="px-1 pt-2 align-top">
                <form action={action}>
                  <HiddenFields fields={{ sessionId, offerId: offer.id, ...hiddenFields }} />
                  {/* On a phone "Elegir este plan" takes two lines in a column, three with three plans: the short word
                      there, the same height in every column; the accessible name is the full one anyway. */}
                  <SubmitButton size="sm" pendingLabel={m.choosing} label={m.chooseLabel(offer.installments, offer.companyName)}>
                    <span className="sm:hidden">{m.chooseShort}</span>
                    <span className="hidden sm:inline">{m.choose}</span>
                  </SubmitButton>
                </form>
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </section>
  );
}
