import type { RepresentativeExample as Example } from "@/lib/financing/offers";
import type { FinancialOffer } from "@/lib/financing/types";
import { formatAmount, formatPercent } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import type { Messages } from "@/lib/i18n/messages";

/**
 * The representative example Spanish consumer-credit law asks for (Ley 16/2011, art. 9): TIN, TAE,
 * amount of credit, duration, installments, total owed, cost of credit and the cash price, taken
 * from the plan with the highest TAE, with the warning that borrowing money costs money.
 */
export function RepresentativeExample({
  example,
  offer,
  locale,
  messages,
}: {
  example: Example;
  /** The plan the example is taken from: its one differing installment is named too. */
  offer: FinancialOffer | undefined;
  locale: Locale;
  messages: Messages;
}) {
  const m = messages.offers.example;
  const money = (value: Example["cashPrice"]) => formatAmount(value, locale);
  const regular = money(example.regularInstallment);
  const quota =
    offer && offer.differentialQuota.cents !== offer.commonQuota.cents
      ? m.differing(regular, offer.differentialIsFirst, money(offer.differentialQuota))
      : regular;
  const rows: [string, string][] = [
    [m.tin, formatPercent(example.tin, locale)],
    [m.tae, formatPercent(example.tae, locale)],
    [m.credit, money(example.amountOfCredit)],
    [m.duration, m.months(example.durationMonths)],
    [m.installments, m.installmentsValue(example.installments, quota)],
    [m.owed, money(example.totalOwed)],
    [m.cost, money(example.costOfCredit)],
    [m.cash, money(example.cashPrice)],
    [m.lender, example.companyName],
  ];
  return (
    <section aria-labelledby="example-heading" className="rounded-card bg-surface p-4 shadow-sm sm:p-5">
      <h2 id="example-heading" className="text-lg font-bold">
        {m.heading}
      </h2>
      <p className="mt-2">
        {m.text({
          credit: money(example.amountOfCredit),
          months: example.durationMonths,
          installments: example.installments,
          quota,
          tin: formatPercent(example.tin, locale),
          tae: formatPercent(example.tae, locale),
          owed: money(example.totalOwed),
          cost: money(example.costOfCredit),
          cash: money(example.cashPrice),
          company: example.companyName,
        })}
      </p>
      <dl className="mt-3 flex flex-col gap-1 text-sm">
        {rows.map(([term, value]) => (
          <div key={term} className="flex flex-wrap justify-between gap-x-4">
            <dt className="text-muted">{term}</dt>
            <dd className="ml-auto text-right font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-4 rounded-md border-2 border-warning bg-warning-soft px-3 py-2 font-bold">{messages.offers.warning}</p>
    </section>
  );
}
